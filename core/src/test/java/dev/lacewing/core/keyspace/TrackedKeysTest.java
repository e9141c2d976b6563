package dev.lacewing.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-partition tracking table: clients per key, handed over once, and the bound. */
class TrackedKeysTest {

    private static byte[] key(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static void read(TrackedKeys table, String key, long client, AtomicLong total, long max,
                             List<String> givenUp) {
        byte[] bytes = key("..." + key);
        table.remember(bytes, 3, bytes.length - 3, client, total, max,
            (k, ids) -> givenUp.add(new String(k, StandardCharsets.US_ASCII) + ids.length));
    }

    @Test
    void aWrittenKeyHandsOverItsClientsOnce() {
        TrackedKeys table = new TrackedKeys();
        AtomicLong total = new AtomicLong();
        List<String> givenUp = new ArrayList<>();
        read(table, "a", 7, total, 0, givenUp);
        read(table, "a", 8, total, 0, givenUp);
        read(table, "a", 7, total, 0, givenUp);
        read(table, "b", 7, total, 0, givenUp);
        assertEquals(2, total.get());
        assertEquals(3, table.items());
        long[] ids = table.take(key("xa"), 1, 1, total);
        Arrays.sort(ids);
        assertArrayEquals(new long[] {7, 8}, ids);
        assertNull(table.take(key("a"), 0, 1, total));
        assertEquals(1, total.get());
        assertEquals(1, table.items());
        assertEquals(List.of(), givenUp);
    }

    @Test
    void overTheBoundTheOldestKeysAreGivenUpWithTheirClients() {
        TrackedKeys table = new TrackedKeys();
        AtomicLong total = new AtomicLong(2);
        List<String> givenUp = new ArrayList<>();
        read(table, "a", 1, total, 4, givenUp);
        read(table, "a", 2, total, 4, givenUp);
        read(table, "b", 1, total, 4, givenUp);
        read(table, "c", 1, total, 4, givenUp);
        assertEquals(List.of("a2"), givenUp);
        assertEquals(4, total.get());
        assertEquals(2, table.items());
        read(table, "d", 1, total, 1, givenUp);
        assertEquals(List.of("a2", "b1", "c1", "d1"), givenUp);
        assertEquals(2, total.get());
        assertEquals(0, table.items());
    }

    @Test
    void clearForgetsEveryKey() {
        TrackedKeys table = new TrackedKeys();
        AtomicLong total = new AtomicLong();
        read(table, "a", 1, total, 0, new ArrayList<>());
        table.clear();
        assertEquals(0, table.items());
        assertNull(table.take(key("a"), 0, 1, total));
    }
}
