package dev.lacewing.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The snapshot's set of touched keys: keys given as slices, through growth, long keys and clearing. */
class KeySetTest {

    /** The key inside a larger array, at an offset, as the table and the request hand keys over. */
    private static byte[] framed(String key) {
        return ("<<" + key + ">>").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void findsEveryKeyAddedAndNoOtherThroughGrowth() {
        KeySet set = new KeySet();
        for (int i = 0; i < 20_000; i++) {
            String key = "key:" + i;
            assertTrue(set.add(framed(key), 2, key.length()), key);
        }
        assertEquals(20_000, set.size());
        for (int i = 0; i < 20_000; i++) {
            String key = "key:" + i;
            assertTrue(set.contains(framed(key), 2, key.length()), key);
            assertFalse(set.add(framed(key), 2, key.length()), key);
            String absent = "key:" + (i + 20_000);
            assertFalse(set.contains(framed(absent), 2, absent.length()), absent);
        }
        assertEquals(20_000, set.size());
    }

    @Test
    void tellsKeysApartByLengthAndBytesAndHoldsLongOnes() {
        KeySet set = new KeySet();
        byte[] empty = new byte[0];
        byte[] large = new byte[70_000];
        Arrays.fill(large, (byte) 'x');
        assertTrue(set.add(empty, 0, 0));
        assertTrue(set.add(large, 0, large.length));
        assertTrue(set.add(large, 0, large.length - 1));
        assertTrue(set.contains(empty, 0, 0));
        assertTrue(set.contains(large, 0, large.length));
        assertTrue(set.contains(large, 1, large.length - 1));
        assertFalse(set.contains(large, 0, 200));
    }

    @Test
    void clearEmptiesTheSet() {
        KeySet set = new KeySet();
        byte[] key = "a".getBytes(StandardCharsets.UTF_8);
        set.add(key, 0, 1);
        set.clear();
        assertTrue(set.isEmpty());
        assertFalse(set.contains(key, 0, 1));
        assertTrue(set.add(key, 0, 1));
    }
}
