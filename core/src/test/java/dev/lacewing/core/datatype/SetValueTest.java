package dev.lacewing.core.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** SetValue's intset form: its size on the heap, and copies that share the array but not changes. */
class SetValueTest {

    private static final long MAX_INTSET_ENTRIES = 512;

    @Test
    void aSetOfTenSmallIntegersIsTheValueAndOneExactArray() {
        SetValue set = new SetValue();
        for (int i = 0; i < 10; i++) {
            add(set, Integer.toString(i * 1000));
        }
        assertEquals(SetValue.INTSET, set.encoding());
        assertEquals(16 + 40, set.memoryUsage());
        assertTrue(remove(set, "0"));
        assertEquals(16 + 40, set.memoryUsage());
        assertTrue(remove(set, "1000"));
        assertEquals(16 + 40, set.memoryUsage());
        assertTrue(remove(set, "2000"));
        assertEquals(16 + 32, set.memoryUsage());
    }

    @Test
    void aCopyAndItsSourceChangeIndependently() {
        SetValue source = new SetValue();
        add(source, "1");
        add(source, "2");
        SetValue copy = source.copy();
        add(copy, "3");
        assertTrue(remove(source, "1"));
        source.removeAt(source.first());
        assertEquals(0, source.size());
        assertEquals(3, copy.size());
        assertTrue(copy.contains(bytes("1"), 0, 1));
        assertFalse(source.contains(bytes("3"), 0, 1));
        add(copy, "x");
        assertEquals(SetValue.HASHTABLE, copy.encoding());
        assertEquals(SetValue.INTSET, source.encoding());
        assertEquals(4, copy.copy().size());
    }

    @Test
    void passingTheEntryLimitOrAStringConvertsToATable() {
        SetValue set = new SetValue();
        for (int i = 0; i < 4; i++) {
            add(set, Integer.toString(-i));
        }
        assertFalse(set.add(bytes("0"), 0, 1, 4));
        assertEquals(SetValue.INTSET, set.encoding());
        assertTrue(set.add(bytes("7"), 0, 1, 4));
        assertEquals(SetValue.HASHTABLE, set.encoding());
        assertEquals(5, set.size());
        assertTrue(set.contains(bytes("-3"), 0, 2));
    }

    private static void add(SetValue set, String member) {
        byte[] bytes = bytes(member);
        set.add(bytes, 0, bytes.length, MAX_INTSET_ENTRIES);
    }

    private static boolean remove(SetValue set, String member) {
        byte[] bytes = bytes(member);
        return set.remove(bytes, 0, bytes.length);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
