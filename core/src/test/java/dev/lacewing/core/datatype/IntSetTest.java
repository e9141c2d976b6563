package dev.lacewing.core.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** IntSet against a TreeSet model, and its width upgrades. */
class IntSetTest {

    @Test
    void randomOperationsMatchATreeSetInOrder() {
        Random random = new Random(3);
        IntSet set = new IntSet();
        TreeSet<Long> model = new TreeSet<>();
        long[] ranges = {100, 40_000, 3_000_000_000L, Long.MAX_VALUE};
        for (int step = 0; step < 20_000; step++) {
            long range = ranges[Math.min(step / 5000, 3)];
            long value = random.nextLong() % range;
            if (random.nextInt(3) > 0) {
                assertEquals(model.add(value), set.add(value));
            } else {
                assertEquals(model.remove(value), set.remove(value));
            }
        }
        assertEquals(model.size(), set.size());
        int i = 0;
        for (long value : model) {
            assertEquals(value, set.get(i++));
            assertTrue(set.contains(value));
        }
        assertEquals(8, set.width());
    }

    @Test
    void theWidthGrowsToHoldTheWidestMemberAndStays() {
        IntSet set = new IntSet();
        set.add(5);
        assertEquals(2, set.width());
        set.add(-70_000);
        assertEquals(4, set.width());
        set.add(Long.MIN_VALUE);
        assertEquals(8, set.width());
        assertEquals(Long.MIN_VALUE, set.get(0));
        assertEquals(-70_000, set.get(1));
        assertEquals(5, set.get(2));
        set.remove(Long.MIN_VALUE);
        assertEquals(8, set.width());
        assertFalse(set.contains(Long.MAX_VALUE));
        assertEquals(set.size(), set.copy().size());
    }
}
