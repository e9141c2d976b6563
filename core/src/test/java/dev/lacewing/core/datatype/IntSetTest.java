package dev.lacewing.core.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** IntSet against a TreeSet model, its width upgrades, exact sizing and arrays never written twice. */
class IntSetTest {

    @Test
    void randomOperationsMatchATreeSetInOrder() {
        Random random = new Random(3);
        byte[] set = IntSet.empty();
        TreeSet<Long> model = new TreeSet<>();
        long[] ranges = {100, 40_000, 3_000_000_000L, Long.MAX_VALUE};
        for (int step = 0; step < 20_000; step++) {
            long range = ranges[Math.min(step / 5000, 3)];
            long value = random.nextLong() % range;
            byte[] changed;
            if (random.nextInt(3) > 0) {
                changed = IntSet.add(set, value);
                assertEquals(model.add(value), changed != set);
            } else {
                changed = IntSet.remove(set, value);
                assertEquals(model.remove(value), changed != set);
            }
            set = changed;
        }
        assertEquals(model.size(), IntSet.size(set));
        int i = 0;
        for (long value : model) {
            assertEquals(value, IntSet.get(set, i++));
            assertTrue(IntSet.contains(set, value));
        }
        assertEquals(8, IntSet.width(set));
    }

    @Test
    void theWidthGrowsToHoldTheWidestMemberAndStays() {
        byte[] set = IntSet.add(IntSet.empty(), 5);
        assertEquals(2, IntSet.width(set));
        set = IntSet.add(set, -70_000);
        assertEquals(4, IntSet.width(set));
        set = IntSet.add(set, Long.MIN_VALUE);
        assertEquals(8, IntSet.width(set));
        assertEquals(Long.MIN_VALUE, IntSet.get(set, 0));
        assertEquals(-70_000, IntSet.get(set, 1));
        assertEquals(5, IntSet.get(set, 2));
        set = IntSet.add(set, Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, IntSet.get(set, 3));
        set = IntSet.remove(set, Long.MIN_VALUE);
        set = IntSet.remove(set, Long.MAX_VALUE);
        assertEquals(8, IntSet.width(set));
        assertFalse(IntSet.contains(set, Long.MAX_VALUE));
        assertEquals(2, IntSet.size(set));
    }

    @Test
    void theArrayIsExactlyTheWidthByteAndTheMembers() {
        byte[] set = IntSet.empty();
        for (int i = 0; i < 10; i++) {
            set = IntSet.add(set, i * 1000);
        }
        assertEquals(1 + 10 * 2, set.length);
        assertEquals(40, IntSet.memoryUsage(set));
        set = IntSet.removeAt(set, 0);
        assertEquals(1 + 9 * 2, set.length);
        assertEquals(1000, IntSet.get(set, 0));
    }

    @Test
    void changesReturnANewArrayAndLeaveTheGivenOneAsItWas() {
        byte[] set = IntSet.add(IntSet.add(IntSet.empty(), 1), 3);
        byte[] before = set.clone();
        byte[] added = IntSet.add(set, 2);
        byte[] upgraded = IntSet.add(set, 1L << 40);
        byte[] removed = IntSet.remove(set, 1);
        assertArrayEquals(before, set);
        assertEquals(3, IntSet.size(added));
        assertEquals(3, IntSet.size(upgraded));
        assertEquals(1, IntSet.size(removed));
        assertSame(set, IntSet.add(set, 3));
        assertSame(set, IntSet.remove(set, 2));
        assertSame(set, IntSet.remove(set, Long.MAX_VALUE));
        assertEquals(0, IntSet.size(IntSet.empty()));
    }
}
