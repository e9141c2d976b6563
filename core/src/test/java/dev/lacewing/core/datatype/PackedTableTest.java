package dev.lacewing.core.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** PackedTable against a HashMap model, seeded and bounded, and its scan and random guarantees. */
class PackedTableTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static Map<String, String> contents(PackedTable table) {
        Map<String, String> found = new HashMap<>();
        for (int i = 0; i < table.capacity(); i++) {
            if (table.occupied(i)) {
                found.put(text(table.field(i)), table.withValues() ? text(table.value(i)) : "");
            }
        }
        return found;
    }

    @Test
    void randomOperationsMatchAHashMapThroughGrowthShrinkingAndCompaction() {
        Random random = new Random(42);
        PackedTable table = new PackedTable(true);
        Map<String, String> model = new HashMap<>();
        for (int step = 0; step < 60_000; step++) {
            String field = "f" + random.nextInt(3000);
            int operation = random.nextInt(10);
            if (operation < 6) {
                // Values of varied lengths, some large enough for a page of their own.
                int length = random.nextInt(20) == 0 ? 40_000 : random.nextInt(30);
                String value = "v".repeat(length) + step;
                byte[] f = bytes(field);
                byte[] v = bytes(value);
                assertEquals(!model.containsKey(field), table.put(f, 0, f.length, v, 0, v.length));
                model.put(field, value);
            } else {
                byte[] f = bytes(field);
                assertEquals(model.remove(field) != null, table.remove(f, 0, f.length));
            }
            if (step % 5000 == 0) {
                assertEquals(model, contents(table));
            }
        }
        assertEquals(model.size(), table.size());
        assertEquals(model, contents(table));
        assertEquals(model, contents(table.copy()));
        for (String field : new ArrayList<>(model.keySet())) {
            byte[] f = bytes(field);
            assertTrue(table.remove(f, 0, f.length));
        }
        assertEquals(0, table.size());
    }

    @Test
    void memoryUsageStaysWithinTwiceTheLiveBytesAfterChurn() {
        PackedTable table = new PackedTable(true);
        Random random = new Random(7);
        for (int i = 0; i < 200_000; i++) {
            byte[] f = bytes("field:" + random.nextInt(20_000));
            byte[] v = bytes("value-" + "x".repeat(random.nextInt(16)));
            table.put(f, 0, f.length, v, 0, v.length);
        }
        long live = 0;
        for (int i = 0; i < table.capacity(); i++) {
            if (table.occupied(i)) {
                live += 2 + table.fieldLength(i) + table.valueLength(i);
            }
        }
        long pages = table.memoryUsage() - table.capacity() * 8L;
        assertTrue(pages < live * 2 + 200_000, "pages " + pages + " live " + live);
    }

    @Test
    void aFullScanReturnsEveryMemberPresentThroughoutWhileTheTableGrowsAndShrinks() {
        PackedTable table = new PackedTable(false);
        Set<String> stable = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            byte[] m = bytes("stable" + i);
            table.add(m, 0, m.length);
            stable.add("stable" + i);
        }
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        int steps = 0;
        int churn = 0;
        do {
            cursor = table.scan(cursor, 4, i -> seen.add(text(table.field(i))));
            // Grow a lot, then shrink back, between steps.
            for (int k = 0; k < 40; k++) {
                byte[] m = bytes("churn" + churn++);
                table.add(m, 0, m.length);
            }
            if (steps % 7 == 6) {
                for (int k = churn - 280; k < churn; k++) {
                    byte[] m = bytes("churn" + k);
                    table.remove(m, 0, m.length);
                }
            }
        } while (cursor != 0 && ++steps < 100_000);
        assertEquals(0, cursor);
        assertTrue(seen.containsAll(stable));
    }

    @Test
    void randomPositionsReachEveryEntry() {
        PackedTable table = new PackedTable(false);
        for (int i = 0; i < 20; i++) {
            byte[] m = bytes("m" + i);
            table.add(m, 0, m.length);
        }
        SplittableRandom random = new SplittableRandom(1);
        Set<String> drawn = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            drawn.add(text(table.field(table.randomPosition(random))));
        }
        assertEquals(20, drawn.size());
        byte[] absent = bytes("absent");
        assertFalse(table.remove(absent, 0, absent.length));
    }

    @Test
    void aSameLengthOverwriteKeepsThePagesAsTheyWere() {
        PackedTable table = new PackedTable(true);
        byte[] f = bytes("f");
        table.put(f, 0, 1, bytes("aaaa"), 0, 4);
        long before = table.memoryUsage();
        assertFalse(table.put(f, 0, 1, bytes("bbbb"), 0, 4));
        assertEquals(before, table.memoryUsage());
        assertEquals(List.of("bbbb"), List.of(text(table.value(table.find(f, 0, 1)))));
    }
}
