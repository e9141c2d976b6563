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
                putAsTheModel(table, model, field, "v".repeat(length) + step);
            } else {
                removeAsTheModel(table, model, field);
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
        long pages = table.memoryUsage() - table.indexBytes();
        assertTrue(pages < live * 2 + 200_000, "pages " + pages + " live " + live);
    }

    @Test
    void aFullScanReturnsEveryMemberPresentThroughoutWhileTheTableGrowsAndShrinks() {
        PackedTable table = new PackedTable(false);
        Set<String> stable = addStableMembers(table, 500);
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

    /**
     * Grows to 20,000 fields and shrinks back to a handful under random puts (values of varied
     * lengths) and removes, checking against a HashMap that holds what the table holds; returns the
     * table.
     */
    private static PackedTable growAndShrinkAgainstAModel(PackedTable table, Map<String, String> model, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int maxCapacity = 0;
        for (int step = 0; step < 90_000; step++) {
            boolean growing = step < 45_000;
            String field = "field:" + random.nextInt(20_000);
            if (random.nextInt(10) < (growing ? 8 : 2)) {
                putAsTheModel(table, model, field, "v".repeat(random.nextInt(24)) + step);
            } else {
                removeAsTheModel(table, model, field);
            }
            maxCapacity = Math.max(maxCapacity, table.capacity());
            if (step % 3000 == 0) {
                assertEquals(model, contents(table));
                assertEveryFieldIsFound(table, model);
                assertEquals(model.size(), table.size());
            }
        }
        for (String field : new ArrayList<>(model.keySet())) {
            if (random.nextInt(100) > 0) {
                byte[] f = bytes(field);
                assertTrue(table.remove(f, 0, f.length));
                model.remove(field);
            }
        }
        assertEquals(model, contents(table));
        assertEveryFieldIsFound(table, model);
        byte[] absent = bytes("field:absent");
        assertEquals(-1, table.find(absent, 0, absent.length));
        assertTrue(maxCapacity > 30_000, "grew to " + maxCapacity);
        assertTrue(table.capacity() <= 2048, "shrank to " + table.capacity());
        return table;
    }

    @Test
    void theNarrowIndexMatchesAHashMapWhileItGrowsAndShrinksAndItsPageNumbersWiden() {
        PackedTable table = growAndShrinkAgainstAModel(new PackedTable(true), new HashMap<>(), 11);
        assertFalse(table.wide());
        assertEquals(table.capacity() * 4L, table.indexBytes());
    }

    @Test
    void smallPagesCompactedWhileTheirNumbersTakeMorePageBitsKeepEveryEntry() {
        // 256-byte pages: thousands of them, so compactions (value changes of another length) move
        // entries to page numbers the words must first widen their page field for.
        PackedTable table = growAndShrinkAgainstAModel(new PackedTable(true, 256, PackedTable.MAX_NARROW_PAGES),
            new HashMap<>(), 13);
        assertFalse(table.wide());
    }

    @Test
    void pastItsPageLimitTheIndexTurnsWideAndKeepsEveryEntry() {
        PackedTable table = new PackedTable(true, 1 << 16, 3);
        Map<String, String> model = new HashMap<>();
        for (int i = 0; !table.wide() && i < 10_000; i++) {
            byte[] f = bytes("f" + i);
            byte[] v = bytes("value" + i);
            table.put(f, 0, f.length, v, 0, v.length);
            model.put("f" + i, "value" + i);
            assertEquals(model, contents(table), "after " + i);
        }
        assertTrue(table.wide());
        assertEquals(table.capacity() * 8L, table.indexBytes());
        growAndShrinkAgainstAModel(table, model, 12);
        assertTrue(table.wide());
    }

    @Test
    void theWideIndexCopiesIntoAWideIndex() {
        PackedTable table = new PackedTable(false, 1 << 16, 1);
        for (int i = 0; i < 2000; i++) {
            byte[] m = bytes("member" + i);
            table.add(m, 0, m.length);
        }
        PackedTable copy = table.copy();
        assertTrue(copy.wide());
        assertEquals(contents(table), contents(copy));
    }

    /** Puts a field in the table and the model; the table must say whether it was new as the model does. */
    private static void putAsTheModel(PackedTable table, Map<String, String> model, String field, String value) {
        byte[] f = bytes(field);
        byte[] v = bytes(value);
        assertEquals(!model.containsKey(field), table.put(f, 0, f.length, v, 0, v.length));
        model.put(field, value);
    }

    /** Removes a field from the table and the model; the table must say whether it was there as the model does. */
    private static void removeAsTheModel(PackedTable table, Map<String, String> model, String field) {
        byte[] f = bytes(field);
        assertEquals(model.remove(field) != null, table.remove(f, 0, f.length));
    }

    /** Adds members stable0..stable{count - 1} and returns their names. */
    private static Set<String> addStableMembers(PackedTable table, int count) {
        Set<String> stable = new HashSet<>();
        for (int i = 0; i < count; i++) {
            byte[] m = bytes("stable" + i);
            table.add(m, 0, m.length);
            stable.add("stable" + i);
        }
        return stable;
    }

    /**
     * Scans a set whose members of {@code stable} stay while others come and go between steps (the
     * table grows to about 4,000 members and shrinks back, again and again): every stable member is
     * returned.
     */
    private static void assertScanReturnsEveryStableMember(PackedTable table, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Set<String> stable = addStableMembers(table, 300);
        List<String> churn = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        int steps = 0;
        do {
            cursor = table.scan(cursor, 3, i -> seen.add(text(table.field(i))));
            boolean growing = steps % 200 < 100;
            for (int k = 0; k < 60; k++) {
                if (churn.isEmpty() || random.nextInt(4) < (growing ? 3 : 1)) {
                    String member = "churn" + steps + "." + k;
                    byte[] m = bytes(member);
                    table.add(m, 0, m.length);
                    churn.add(member);
                } else {
                    byte[] m = bytes(churn.remove(churn.size() - 1));
                    assertTrue(table.remove(m, 0, m.length));
                }
            }
        } while (cursor != 0 && ++steps < 50_000);
        assertEquals(0, cursor);
        Set<String> missing = new HashSet<>(stable);
        missing.removeAll(seen);
        assertEquals(Set.of(), missing);
    }

    @Test
    void aScanReturnsEveryMemberPresentThroughoutWhileOthersComeAndGo() {
        PackedTable table = new PackedTable(false);
        assertScanReturnsEveryStableMember(table, 21);
        assertFalse(table.wide());
    }

    @Test
    void aScanThatSeesTheIndexTurnWideStillReturnsEveryMemberPresentThroughout() {
        PackedTable table = new PackedTable(false, 1 << 16, 6);
        assertScanReturnsEveryStableMember(table, 22);
        assertTrue(table.wide());
    }

    @Test
    void narrowWordsGiveTheirTagAndDisplacementBitsToPageNumbersUpTo65535PagesThenTheIndexTurnsWide() {
        // Pages of at most 256 bytes and values over 128 bytes: one page an entry, few megabytes.
        PackedTable table = new PackedTable(true, 256, PackedTable.MAX_NARROW_PAGES);
        Map<String, String> model = new HashMap<>();
        int i = 0;
        for (; !table.wide() && i < 70_000; i++) {
            String field = "field:" + i;
            String value = "v".repeat(140) + i;
            byte[] f = bytes(field);
            byte[] v = bytes(value);
            assertTrue(table.put(f, 0, f.length, v, 0, v.length));
            model.put(field, value);
            if (i % 4099 == 0 || i >= 65_530) {
                // Each power of two of pages takes a bit from the tag, then from the displacement.
                assertEquals(model, contents(table), "after " + i);
                byte[] half = bytes("field:" + i / 2);
                assertEquals(model.get("field:" + i / 2), text(table.value(table.find(half, 0, half.length))));
            }
            if (i == 20_000 || i == 50_000) {
                // One displacement bit left (15 page bits), then none: deletes hash most fields again.
                Map<String, String> removed = new HashMap<>();
                for (int k = 0; k < 2000; k++) {
                    byte[] gone = bytes("field:" + k);
                    assertTrue(table.remove(gone, 0, gone.length));
                    removed.put("field:" + k, model.remove("field:" + k));
                }
                assertEveryFieldIsFound(table, model);
                for (Map.Entry<String, String> entry : removed.entrySet()) {
                    byte[] back = bytes(entry.getKey());
                    byte[] stored = bytes(entry.getValue());
                    assertTrue(table.put(back, 0, back.length, stored, 0, stored.length));
                }
                model.putAll(removed);
                assertEquals(model, contents(table));
                assertEveryFieldIsFound(table, model);
            }
        }
        assertTrue(table.wide());
        assertEquals(PackedTable.MAX_NARROW_PAGES + 1, i);
        assertEquals(model, contents(table));
        for (int k = 0; k < i; k += 2) {
            byte[] f = bytes("field:" + k);
            assertTrue(table.remove(f, 0, f.length));
            model.remove("field:" + k);
        }
        assertEquals(model, contents(table));
        assertEveryFieldIsFound(table, model);
    }

    /** Lookups reach every entry (a slot no probe reaches would still show in {@link #contents}). */
    private static void assertEveryFieldIsFound(PackedTable table, Map<String, String> model) {
        for (Map.Entry<String, String> entry : model.entrySet()) {
            byte[] f = bytes(entry.getKey());
            int position = table.find(f, 0, f.length);
            assertTrue(position >= 0, entry.getKey());
            assertEquals(entry.getValue(), text(table.value(position)));
        }
    }
}
