package dev.lacewing.engine.sharednothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IntentTableTest {

    private final IntentTable table = new IntentTable();

    @Test
    void mapsClaimsReplacesAndRemoves() {
        Object first = new Object();
        Object second = new Object();
        assertTrue(table.isEmpty());
        assertNull(table.putIfAbsent(7, first));
        assertSame(first, table.putIfAbsent(7, second), "an existing claim stays");
        table.replace(7, second);
        assertSame(second, table.get(7));
        table.remove(7);
        assertFalse(table.containsKey(7));
        assertTrue(table.isEmpty());
    }

    /**
     * Keys sharing their low bits probe into one run: removing one from the middle of the run
     * leaves every other reachable, also where the run wraps past the table's end.
     */
    @Test
    void keysOfOneProbeRunStayReachableAfterARemovalInTheMiddle() {
        long[] keys = {15, 31, 47, 14, 63, 0};
        for (long key : keys) {
            table.putIfAbsent(key, key);
        }
        table.remove(31);
        for (long key : keys) {
            assertEquals(key == 31 ? null : (Object) key, table.get(key), "key " + key);
        }
        assertEquals(5, table.size());
    }

    /** A long run of claims and releases, with keys over few slots, agrees with a HashMap throughout and as it grows. */
    @Test
    void agreesWithAHashMapOverRandomClaimsAndReleases() {
        Random random = new Random(16);
        Map<Long, Object> expected = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            long key = (random.nextInt(64) << 8) | random.nextInt(4) | (random.nextBoolean() ? Long.MIN_VALUE : 0);
            int op = random.nextInt(step < 100_000 ? 3 : 4);
            if (op == 0) {
                table.remove(key);
                expected.remove(key);
            } else if (op == 1 && expected.containsKey(key)) {
                Object value = new Object();
                table.replace(key, value);
                expected.put(key, value);
            } else {
                Object value = new Object();
                assertSame(expected.putIfAbsent(key, value), table.putIfAbsent(key, value));
            }
            assertSame(expected.get(key), table.get(key));
            assertEquals(expected.size(), table.size());
        }
        for (Map.Entry<Long, Object> entry : expected.entrySet()) {
            assertSame(entry.getValue(), table.get(entry.getKey()));
        }
    }
}
