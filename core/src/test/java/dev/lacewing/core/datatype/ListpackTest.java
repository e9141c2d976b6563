package dev.lacewing.core.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ListpackTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Strings of every header size, canonical and non-canonical integers, binary bytes. */
    private static byte[] randomEntry(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> bytes(Long.toString(random.nextInt(128)));
            case 1 -> bytes(Long.toString(random.nextLong()));
            case 2 -> bytes(Long.toString(random.nextInt(70_000) - 35_000));
            case 3 -> bytes(List.of("-0", "007", "+5", "", "-", "9223372036854775808", "-9223372036854775808",
                "9223372036854775807", " 1", "1 ").get(random.nextInt(10)));
            case 4 -> {
                byte[] large = new byte[64 + random.nextInt(5000)];
                random.nextBytes(large);
                yield large;
            }
            case 5 -> {
                byte[] huge = new byte[4090 + random.nextInt(20)];
                random.nextBytes(huge);
                yield huge;
            }
            default -> {
                byte[] small = new byte[random.nextInt(64)];
                random.nextBytes(small);
                yield small;
            }
        };
    }

    private static void assertSameAs(List<byte[]> model, Listpack listpack, String where) {
        assertEquals(model.size(), listpack.size(), where);
        int position = listpack.first();
        for (int i = 0; i < model.size(); i++) {
            assertTrue(position >= 0, where);
            assertArrayEquals(model.get(i), listpack.get(position), where + " at " + i);
            assertEquals(model.get(i).length, listpack.length(position), where);
            assertTrue(listpack.equalsAt(position, model.get(i), 0, model.get(i).length), where);
            assertEquals(position, listpack.seek(i), where);
            assertEquals(position, listpack.seek(i - model.size()), where);
            position = listpack.next(position);
        }
        assertEquals(-1, position, where);
        position = listpack.last();
        for (int i = model.size() - 1; i >= 0; i--) {
            assertArrayEquals(model.get(i), listpack.get(position), where + " backwards at " + i);
            position = listpack.previous(position);
        }
        assertEquals(-1, position, where);
    }

    @Test
    void agreesWithAListModelUnderRandomInsertsReplacesAndDeletes() {
        for (int seed = 0; seed < 40; seed++) {
            Random random = new Random(seed);
            Listpack listpack = new Listpack();
            List<byte[]> model = new ArrayList<>();
            for (int step = 0; step < 300; step++) {
                byte[] entry = randomEntry(random);
                int operation = random.nextInt(6);
                String where = "seed " + seed + " step " + step + " op " + operation;
                if (operation == 0 || model.isEmpty()) {
                    listpack.append(entry, 0, entry.length);
                    model.add(entry);
                } else if (operation == 1) {
                    listpack.prepend(entry, 0, entry.length);
                    model.add(0, entry);
                } else if (operation == 2) {
                    int index = random.nextInt(model.size());
                    assertEquals(listpack.seek(index), listpack.insert(listpack.seek(index), entry, 0, entry.length));
                    model.add(index, entry);
                } else if (operation == 3) {
                    int index = random.nextInt(model.size());
                    listpack.replace(listpack.seek(index), entry, 0, entry.length);
                    model.set(index, entry);
                } else if (operation == 4) {
                    int index = random.nextInt(model.size());
                    int next = listpack.delete(listpack.seek(index));
                    model.remove(index);
                    assertEquals(index < model.size() ? listpack.seek(index) : -1, next, where);
                } else {
                    int index = random.nextInt(model.size());
                    int count = 1 + random.nextInt(4);
                    listpack.deleteRange(listpack.seek(index), count);
                    model.subList(index, Math.min(model.size(), index + count)).clear();
                }
                if (step % 25 == 0 || step == 299) {
                    assertSameAs(model, listpack, where);
                }
            }
            assertSameAs(model, listpack.copy(), "copy of seed " + seed);
        }
    }

    @Test
    void canonicalIntegersAreStoredAsIntegersAndOthersAsStrings() {
        Listpack listpack = new Listpack();
        for (String text : List.of("0", "127", "128", "-1", "32767", "-32768", "2147483648", "-9223372036854775808",
                "9223372036854775807", "-0", "01", "+1", "9223372036854775808", "1.5", "")) {
            byte[] entry = bytes(text);
            listpack.append(entry, 0, entry.length);
        }
        List<Boolean> integers = new ArrayList<>();
        for (int p = listpack.first(); p >= 0; p = listpack.next(p)) {
            integers.add(listpack.isInteger(p));
        }
        assertEquals(List.of(true, true, true, true, true, true, true, true, true,
            false, false, false, false, false, false), integers);
        assertEquals(Long.MIN_VALUE, listpack.integer(listpack.seek(7)));
        assertEquals(-32768, listpack.integer(listpack.seek(5)));
        listpack.append(-5);
        assertArrayEquals(bytes("-5"), listpack.get(listpack.last()));
    }

    @Test
    void entriesTakeRedisListpackSizesAndReadBack() {
        /* Entry sizes (header, payload, back-length) as Redis 7.0's lpEncodeGetType/lpEncodeBacklen give them. */
        Object[][] cases = {
            {"0", 2}, {"127", 2}, {"128", 3}, {"-1", 3}, {"4095", 3}, {"-4096", 3}, {"4096", 4}, {"-4097", 4},
            {"32767", 4}, {"-32768", 4}, {"32768", 5}, {"8388607", 5}, {"-8388608", 5}, {"8388608", 6},
            {"2147483647", 6}, {"-2147483648", 6}, {"2147483648", 10}, {"-9223372036854775808", 10},
            {"9223372036854775807", 10}, {"hello", 7}, {"0100", 6}, {"", 2}};
        Listpack listpack = new Listpack();
        for (Object[] c : cases) {
            byte[] entry = bytes((String) c[0]);
            int before = listpack.byteSize();
            assertEquals((int) c[1], Listpack.entrySize(entry, 0, entry.length), (String) c[0]);
            listpack.append(entry, 0, entry.length);
            assertEquals((int) c[1], listpack.byteSize() - before, (String) c[0]);
            assertArrayEquals(entry, listpack.get(listpack.last()), (String) c[0]);
            assertArrayEquals(entry, listpack.get(listpack.seek(-1)), (String) c[0]);
        }
        for (int i = cases.length - 1; i >= 0; i--) {
            assertArrayEquals(bytes((String) cases[i][0]), listpack.get(listpack.seek(i)));
        }
        /* The back-length grows to 2 bytes past 127 and to 3 at 16383, one under 128^2, as in Redis. */
        assertEquals(100 + 2 + 1, Listpack.entrySize(new byte[100], 0, 100));
        assertEquals(126 + 2 + 2, Listpack.entrySize(new byte[126], 0, 126));
        assertEquals(16381 + 5 + 3, Listpack.entrySize(new byte[16381], 0, 16381));
        assertEquals(16376 + 5 + 2, Listpack.entrySize(new byte[16376], 0, 16376));
        Listpack large = new Listpack();
        large.append(new byte[16381], 0, 16381);
        large.append(new byte[16376], 0, 16376);
        assertEquals(16389 + 16383, large.byteSize());
        assertEquals(16381, large.length(large.previous(large.last())));
    }

    @Test
    void appendRangeCopiesEntriesByteForByte() {
        Random random = new Random(7);
        Listpack source = new Listpack();
        List<byte[]> model = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            byte[] entry = randomEntry(random);
            source.append(entry, 0, entry.length);
            model.add(entry);
        }
        Listpack target = new Listpack();
        byte[] first = bytes("first");
        target.append(first, 0, first.length);
        target.appendRange(source, source.seek(10), 15);
        List<byte[]> expected = new ArrayList<>();
        expected.add(first);
        expected.addAll(model.subList(10, 25));
        assertSameAs(expected, target, "range");
        target.appendRange(source, source.seek(45), 100);
        expected.addAll(model.subList(45, 50));
        assertSameAs(expected, target, "range past the end");
        Listpack all = new Listpack();
        all.appendAll(source);
        assertSameAs(model, all, "all");
        assertEquals(source.byteSize(), all.byteSize());
    }

    @Test
    void aSmallStringCostsTwoBytesOverItsLengthAndASmallIntegerTwo() {
        Listpack listpack = new Listpack();
        byte[] field = bytes("field:12");
        listpack.append(field, 0, field.length);
        assertEquals(field.length + 2, listpack.byteSize());
        listpack.append(42);
        assertEquals(field.length + 4, listpack.byteSize());
    }

    @Test
    void findLooksAtEveryOtherEntryWhenSkippingValues() {
        Listpack hash = new Listpack();
        for (String text : List.of("a", "b", "b", "12", "12", "x")) {
            byte[] entry = bytes(text);
            hash.append(entry, 0, entry.length);
        }
        assertEquals(hash.seek(2), hash.find(hash.first(), bytes("b"), 0, 1, 1));
        assertEquals(hash.seek(4), hash.find(hash.first(), bytes("12"), 0, 2, 1));
        assertEquals(-1, hash.find(hash.first(), bytes("x"), 0, 1, 1));
        assertEquals(hash.seek(1), hash.find(hash.first(), bytes("b"), 0, 1, 0));
        assertEquals(-1, hash.find(hash.first(), bytes("012"), 0, 3, 0));
    }

    @Test
    void compareIsUnsignedAndUsesTheStringFormOfIntegers() {
        Listpack listpack = new Listpack();
        byte[] high = {(byte) 0xff};
        listpack.append(high, 0, 1);
        listpack.append(bytes("100"), 0, 3);
        assertTrue(listpack.compareAt(listpack.first(), bytes("a"), 0, 1) > 0);
        assertTrue(listpack.compareAt(listpack.last(), bytes("99"), 0, 2) < 0);
        assertEquals(0, listpack.compareAt(listpack.last(), bytes("100"), 0, 3));
        assertFalse(listpack.equalsAt(listpack.last(), bytes("100 "), 0, 4));
        assertTrue(Arrays.equals(high, listpack.get(listpack.first())));
    }
}
