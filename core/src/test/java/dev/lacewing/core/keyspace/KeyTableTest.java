package dev.lacewing.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Keyspace;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyTableTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void agreesWithAHashMapUnderRandomPutsAndRemoves() {
        KeyTable table = new KeyTable();
        Map<String, String> model = new HashMap<>();
        Random random = new Random(42);
        for (int i = 0; i < 200_000; i++) {
            String key = "k" + random.nextInt(5000);
            byte[] k = bytes(key);
            if (random.nextInt(3) == 0) {
                assertEquals(model.remove(key) != null, table.remove(k, 0, k.length, 0));
            } else {
                String value = "v" + i;
                model.put(key, value);
                table.put(k, 0, k.length, bytes(value), Keyspace.NO_EXPIRY);
            }
        }
        assertEquals(model.size(), table.size());
        for (Map.Entry<String, String> entry : model.entrySet()) {
            byte[] k = bytes(entry.getKey());
            assertArrayEquals(bytes(entry.getValue()), (byte[]) table.get(k, 0, k.length, 0));
        }
    }

    @Test
    void findsKeysGivenAsSlicesOfALargerArray() {
        KeyTable table = new KeyTable();
        byte[] k = bytes("key");
        table.put(k, 0, 3, bytes("v"), Keyspace.NO_EXPIRY);
        byte[] request = bytes("GETkeyEND");
        assertArrayEquals(bytes("v"), (byte[]) table.get(request, 3, 3, 0));
    }

    @Test
    void expiredKeysAreAbsentAndDeletedOnAccess() {
        KeyTable table = new KeyTable();
        byte[] k = bytes("k");
        table.put(k, 0, 1, bytes("v"), 1000);
        assertEquals(1, table.expiringSize());
        assertArrayEquals(bytes("v"), (byte[]) table.get(k, 0, 1, 999));
        assertNull(table.get(k, 0, 1, 1000));
        assertEquals(0, table.size());
        assertEquals(0, table.expiringSize());
        assertEquals(1, table.expiredCount());
    }

    @Test
    void activeExpiryDeletesOnlyKeysWhoseTimeHasPassed() {
        KeyTable table = new KeyTable();
        for (int i = 0; i < 1000; i++) {
            byte[] k = bytes("k" + i);
            table.put(k, 0, k.length, bytes("v"), i % 2 == 0 ? 10 : Keyspace.NO_EXPIRY);
        }
        int deleted = 0;
        for (int round = 0; round < 10; round++) {
            deleted += table.expireSome(20, 1024);
        }
        assertEquals(500, deleted);
        assertEquals(500, table.size());
        assertEquals(0, table.expiringSize());
    }

    @Test
    void scanVisitsEveryKeyOnce() {
        KeyTable table = new KeyTable();
        for (int i = 0; i < 1000; i++) {
            byte[] k = bytes("k" + i);
            table.put(k, 0, k.length, bytes("v"), Keyspace.NO_EXPIRY);
        }
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        do {
            cursor = table.scan(cursor, 10, 0, key -> assertTrue(seen.add(new String(key, StandardCharsets.UTF_8))));
        } while (cursor != 0);
        assertEquals(1000, seen.size());
    }

    @Test
    void scanCursorsAreUnsignedAndThoseBeyondTheTableEndTheScan() {
        KeyTable table = new KeyTable();
        byte[] k = bytes("k");
        table.put(k, 0, 1, bytes("v"), Keyspace.NO_EXPIRY);
        List<byte[]> visited = new ArrayList<>();
        assertEquals(0, table.scan(table.capacity(), 10, 0, visited::add));
        assertEquals(0, table.scan(Long.MIN_VALUE, 10, 0, visited::add));
        assertEquals(0, table.scan(-1L, 10, 0, visited::add));
        assertTrue(visited.isEmpty());
    }

    @Test
    void databaseScanAcceptsEveryUnsignedCursorAndStillCoversLaterPartitions() {
        PartitionedKeyspace keyspace = new PartitionedKeyspace(4, 1, () -> 0L);
        Keyspace database = keyspace.database(0);
        for (int i = 0; i < 100; i++) {
            byte[] key = bytes("k" + i);
            database.put(key, 0, key.length, bytes("v"), Keyspace.NO_EXPIRY);
        }
        for (long cursor : new long[] {Long.MIN_VALUE, -1L, Long.MAX_VALUE, 1L << 62}) {
            long next = cursor;
            int steps = 0;
            do {
                next = database.scan(next, 10, key -> { });
                assertTrue(++steps < 1000);
            } while (next != 0);
        }
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        do {
            cursor = database.scan(cursor, 7, key -> assertTrue(seen.add(new String(key, StandardCharsets.UTF_8))));
        } while (cursor != 0);
        assertEquals(100, seen.size());
    }

    @Test
    void removingTheLastKeyLeavesAnEmptyTable() {
        KeyTable table = new KeyTable();
        byte[] k = bytes("k");
        table.put(k, 0, 1, bytes("v"), Keyspace.NO_EXPIRY);
        assertTrue(table.remove(k, 0, 1, 0));
        assertFalse(table.remove(k, 0, 1, 0));
        assertNull(table.randomKey(0));
    }

    @Test
    void slotsFollowRedisClusterHashTags() {
        assertEquals(12182, Slots.slot(bytes("foo"), 0, 3));
        assertEquals(Slots.slot(bytes("bar"), 0, 3), Slots.slot(bytes("{bar}foo"), 0, 8));
        assertEquals(Slots.slot(bytes("{}foo"), 0, 5), Slots.crc16(bytes("{}foo"), 0, 5) & 16383);
    }
}
