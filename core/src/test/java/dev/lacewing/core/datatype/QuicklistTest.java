package dev.lacewing.core.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The quicklist against an ArrayList model under seeded random operations, for several fills. */
class QuicklistTest {

    private static byte[] randomValue(Random random) {
        int kind = random.nextInt(4);
        if (kind == 0) {
            return Long.toString(random.nextLong() >> random.nextInt(64)).getBytes(StandardCharsets.US_ASCII);
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

    @ParameterizedTest
    @ValueSource(ints = {-2, -1, 1, 3, 128})
    void randomOperationsMatchAnArrayList(int fill) {
        for (long seed = 1; seed <= 5; seed++) {
            Random random = new Random(seed * 31 + fill);
            Quicklist list = new Quicklist(fill);
            List<byte[]> model = new ArrayList<>();
            long emptyUsage = list.memoryUsage();
            for (int step = 0; step < 3000; step++) {
                int operation = random.nextInt(10);
                byte[] value = randomValue(random);
                if (operation == 0) {
                    list.pushHead(value);
                    model.add(0, value);
                } else if (operation <= 2) {
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
                } else if (operation == 8 && !model.isEmpty()) {
                    int start = random.nextInt(model.size());
                    int count = random.nextInt(Math.min(50, model.size() - start) + 1);
                    list.removeRange(start, count);
                    model.subList(start, start + count).clear();
                } else if (!model.isEmpty()) {
                    int index = random.nextInt(model.size());
                    assertArrayEquals(model.get(index), list.get(index));
                }
                if (step % 500 == 0) {
                    assertSame(model, list);
                }
            }
            assertSame(model, list);
            assertEquals(model.size(), list.copy().size());
            long data = 0;
            for (byte[] value : model) {
                data += value.length;
            }
            assertTrue(list.memoryUsage() >= data, "memory usage counts at least the data");
            while (list.size() > 0) {
                list.popTail();
            }
            assertEquals(emptyUsage, list.memoryUsage(), "an emptied list counts only itself");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {-2, 4})
    void cursorRemovesWhileWalkingBothWays(int fill) {
        Quicklist list = new Quicklist(fill);
        List<byte[]> model = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            byte[] value = Integer.toString(i % 3).getBytes(StandardCharsets.US_ASCII);
            list.pushTail(value);
            model.add(value);
        }
        Quicklist.Cursor forward = list.cursor(0, true);
        while (forward.hasNext()) {
            if (forward.next()[0] == '1') {
                forward.remove();
            }
        }
        model.removeIf(value -> value[0] == '1');
        assertSame(model, list);
        Quicklist.Cursor backward = list.cursor(list.size() - 1, false);
        while (backward.hasNext()) {
            if (backward.next()[0] == '2') {
                backward.remove();
            }
        }
        model.removeIf(value -> value[0] == '2');
        assertSame(model, list);
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
}
