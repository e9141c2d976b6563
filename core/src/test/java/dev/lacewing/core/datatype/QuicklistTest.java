package dev.lacewing.core.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The quicklist against an ArrayList model under seeded random operations, for several fills and compress depths. */
class QuicklistTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] randomValue(Random random) {
        int kind = random.nextInt(8);
        if (kind == 0) {
            return bytes(Long.toString(random.nextLong() >> random.nextInt(64)));
        }
        if (kind >= 4) {
            // Text that compresses, so that nodes past the depth get compressed.
            return bytes("value:" + random.nextInt(1000) + ":" + "x".repeat(random.nextInt(kind == 7 ? 3000 : 100)));
        }
        byte[] value = new byte[kind == 3 ? random.nextInt(3000) : random.nextInt(40)];
        random.nextBytes(value);
        return value;
    }

    private static void assertSame(List<byte[]> model, Quicklist list) {
        assertEquals(model.size(), list.size());
        List<byte[]> seen = new ArrayList<>();
        if (!model.isEmpty()) {
            list.forEach(0, model.size() - 1, seen::add);
        }
        for (int i = 0; i < model.size(); i++) {
            assertArrayEquals(model.get(i), seen.get(i), "entry " + i);
        }
    }

    /** The depth rule: with depth d, the d nodes at each end are never compressed. */
    private static void assertEndsRaw(Quicklist list) {
        boolean[] compressed = list.compressedNodes();
        for (int i = 0; i < compressed.length && i < list.compressDepth(); i++) {
            assertTrue(!compressed[i] && !compressed[compressed.length - 1 - i], "node " + i + " from an end is raw");
        }
    }

    static Stream<Arguments> fillsAndDepths() {
        return IntStream.of(-2, -1, 1, 3, 128).boxed()
            .flatMap(fill -> IntStream.of(0, 1, 2).mapToObj(depth -> Arguments.of(fill, depth)));
    }

    @ParameterizedTest(name = "fill {0} depth {1}")
    @MethodSource("fillsAndDepths")
    void randomOperationsMatchAnArrayList(int fill, int depth) {
        long compressedSeen = 0;
        for (long seed = 1; seed <= 5; seed++) {
            Random random = new Random(seed * 31 + fill * 7L + depth);
            Quicklist list = new Quicklist(fill, depth);
            List<byte[]> model = new ArrayList<>();
            long emptyUsage = list.memoryUsage();
            for (int step = 0; step < 3000; step++) {
                // Pushes outweigh removals, so that lists grow past 2 x depth nodes.
                int operation = random.nextInt(13);
                byte[] value = randomValue(random);
                if (operation == 0) {
                    list.pushHead(value);
                    model.add(0, value);
                } else if (operation <= 2 || operation >= 10) {
                    list.pushTail(value);
                    model.add(value);
                } else if (operation == 3 && !model.isEmpty()) {
                    assertArrayEquals(model.remove(0), list.popHead());
                } else if (operation == 4 && !model.isEmpty()) {
                    assertArrayEquals(model.remove(model.size() - 1), list.popTail());
                } else if (operation == 5) {
                    int index = random.nextInt(model.size() + 1);
                    list.insert(index, value);
                    model.add(index, value);
                } else if (operation == 6 && !model.isEmpty()) {
                    int index = random.nextInt(model.size());
                    list.set(index, value);
                    model.set(index, value);
                } else if (operation == 7 && !model.isEmpty()) {
                    int index = random.nextInt(model.size());
                    assertArrayEquals(model.remove(index), list.removeAt(index));
                } else if (operation == 8 && !model.isEmpty() && random.nextInt(5) == 0) {
                    int start = random.nextInt(model.size());
                    int count = random.nextInt(Math.min(50, model.size() - start) + 1);
                    list.removeRange(start, count);
                    model.subList(start, start + count).clear();
                } else if (!model.isEmpty()) {
                    int index = random.nextInt(model.size());
                    assertArrayEquals(model.get(index), list.get(index));
                }
                assertEndsRaw(list);
                compressedSeen += contains(list.compressedNodes(), true) ? 1 : 0;
                if (step % 500 == 0) {
                    assertSame(model, list);
                }
            }
            assertSame(model, list);
            Quicklist copy = list.copy();
            assertSame(model, copy);
            assertArrayEquals(list.compressedNodes(), copy.compressedNodes(), "a copy keeps compressed nodes compressed");
            assertTrue(copy.memoryUsage() <= list.memoryUsage(), "a copy holds no more than the original");
            long data = 0;
            for (byte[] value : model) {
                data += value.length;
            }
            if (depth == 0) {
                assertTrue(list.memoryUsage() >= data, "memory usage counts at least the data");
            }
            while (list.size() > 0) {
                list.popTail();
                assertEndsRaw(list);
            }
            assertEquals(emptyUsage, list.memoryUsage(), "an emptied list counts only itself");
        }
        assertEquals(depth == 0, compressedSeen == 0, "nodes are compressed exactly when there is a depth");
    }

    @ParameterizedTest(name = "fill {0} depth {1}")
    @MethodSource("fillsAndDepths")
    void removeEqualWalksFromEitherEndWithinItsLimit(int fill, int depth) {
        Quicklist list = new Quicklist(fill, depth);
        List<byte[]> model = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            byte[] value = bytes(i % 3 == 0 ? "12" : "element:" + (i % 3) + ":padding-padding");
            list.pushTail(value);
            model.add(value);
        }
        byte[] one = bytes("element:1:padding-padding");
        assertEquals(50, list.removeEqual(one, 0, one.length, 50, true));
        for (int removed = 0, i = 0; removed < 50; i++) {
            if (Arrays.equals(model.get(i), one)) {
                model.remove(i--);
                removed++;
            }
        }
        assertSame(model, list);
        byte[] twelve = bytes("12");
        assertEquals(30, list.removeEqual(twelve, 0, twelve.length, 30, false), "integers compare by their text");
        for (int removed = 0, i = model.size() - 1; removed < 30; i--) {
            if (Arrays.equals(model.get(i), twelve)) {
                model.remove(i);
                removed++;
            }
        }
        assertSame(model, list);
        assertEndsRaw(list);
        byte[] two = bytes("element:2:padding-padding");
        assertEquals(200, list.removeEqual(two, 0, two.length, Long.MAX_VALUE, true));
        model.removeIf(value -> Arrays.equals(value, two));
        assertSame(model, list);
        assertEndsRaw(list);
        Quicklist.Cursor backward = list.cursor(list.size() - 1, false);
        for (int i = model.size() - 1; i >= 0; i--) {
            assertEquals(i, backward.index());
            assertArrayEquals(model.get(i), backward.next());
        }
        assertTrue(!backward.hasNext());
    }

    @ParameterizedTest(name = "depth {0}")
    @ValueSource(ints = {1, 2, 3})
    void interiorNodesAreCompressedAndEndsStayRaw(int depth) {
        Quicklist raw = new Quicklist(-2, 0);
        Quicklist compressed = new Quicklist(-2, depth);
        for (int i = 0; i < 20_000; i++) {
            byte[] value = bytes("value:" + i);
            raw.pushTail(value);
            compressed.pushHead(value);
        }
        boolean[] map = compressed.compressedNodes();
        assertTrue(map.length > 2 * depth + 2);
        for (int i = 0; i < map.length; i++) {
            assertEquals(i >= depth && i < map.length - depth, map[i], "node " + i + " of " + map.length);
        }
        // about 0.36 of a node compressed; the 2 x depth raw end nodes of ~34 bring it to about half
        assertTrue(compressed.memoryUsage() * 3 < raw.memoryUsage() * 2,
            "compressed " + compressed.memoryUsage() + " against raw " + raw.memoryUsage());
        long before = compressed.memoryUsage();
        assertArrayEquals(bytes("value:10000"), compressed.get(9999));
        compressed.forEach(0, compressed.size() - 1, value -> { });
        assertEquals(before, compressed.memoryUsage(), "reads leave the nodes as they were");
        compressed.set(10_000, bytes("changed"));
        assertArrayEquals(bytes("changed"), compressed.get(10_000));
        assertArrayEquals(map, compressed.compressedNodes(), "a changed node is compressed again");
        compressed.removeRange(100, 19_000);
        assertEndsRaw(compressed);
        while (compressed.size() > 0) {
            compressed.popHead();
            assertEndsRaw(compressed);
        }
    }

    @org.junit.jupiter.api.Test
    void smallAndIncompressibleNodesStayRaw() {
        Quicklist tiny = new Quicklist(2, 1);
        for (int i = 0; i < 10; i++) {
            tiny.pushTail(bytes("v" + i));
        }
        assertTrue(!contains(tiny.compressedNodes(), true), "nodes under 48 bytes are not compressed");
        Quicklist noise = new Quicklist(-1, 1);
        Random random = new Random(5);
        for (int i = 0; i < 2000; i++) {
            byte[] value = new byte[30];
            random.nextBytes(value);
            noise.pushTail(value);
        }
        assertTrue(!contains(noise.compressedNodes(), true), "random bytes do not compress by 8 bytes");
    }

    private static boolean contains(boolean[] values, boolean wanted) {
        for (boolean value : values) {
            if (value == wanted) {
                return true;
            }
        }
        return false;
    }

    @org.junit.jupiter.api.Test
    void entriesAreSizedAsListpackEncodesThem() {
        assertEquals(2, Quicklist.entryBytes("1".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(3, Quicklist.entryBytes("1000".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(10, Quicklist.entryBytes("-9223372036854775808".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(7, Quicklist.entryBytes("hello".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(6, Quicklist.entryBytes("0100".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(103, Quicklist.entryBytes(new byte[100]));
    }

    /**
     * Node boundaries as redis-server 7.0.15 draws them: an insert is allowed while the node's
     * bytes plus the value's length plus 8 (SIZE_ESTIMATE_OVERHEAD) stay within the limit, so 25-byte
     * values (27-byte entries) fill an 8 KiB node with 302 of them (8161 bytes), where the exact
     * entry size would admit a 303rd (8188 bytes).
     */
    @org.junit.jupiter.api.Test
    void nodesSplitWhereRedisSplitsThem() {
        Quicklist tail = new Quicklist(-2, 0);
        Quicklist head = new Quicklist(-2, 0);
        for (int i = 0; i < 400; i++) {
            byte[] value = String.format("value:%03d:padding-padding", i).getBytes(StandardCharsets.US_ASCII);
            tail.pushTail(value);
            head.pushHead(value);
        }
        for (Quicklist list : List.of(tail, head)) {
            List<Integer> counts = new ArrayList<>();
            list.forEachNode((entries, compressed) -> counts.add(entries.size()));
            assertEquals(list == tail ? List.of(302, 98) : List.of(98, 302), counts);
        }
    }

    /** A node appended whole (RDB load) keeps its entries, whatever the fill rule says. */
    @org.junit.jupiter.api.Test
    void appendedNodesKeepTheirEntries() {
        Quicklist list = new Quicklist(2, 1);
        for (int n = 1; n <= 3; n++) {
            Listpack entries = new Listpack();
            for (int i = 0; i < n * 10; i++) {
                byte[] value = ("entry-of-some-length-" + i).getBytes(StandardCharsets.US_ASCII);
                entries.append(value, 0, value.length);
            }
            list.appendNode(entries);
        }
        list.appendNode(new Listpack());
        List<Integer> counts = new ArrayList<>();
        list.forEachNode((entries, compressed) -> counts.add(entries.size()));
        assertEquals(List.of(10, 20, 30), counts);
        assertEquals(60, list.size());
        assertArrayEquals(new boolean[] {false, true, false}, list.compressedNodes());
        assertArrayEquals("entry-of-some-length-29".getBytes(StandardCharsets.US_ASCII), list.get(59));
    }
}
