package dev.lacewing.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The keyspace over its partitions' tables: SCAN across partitions, hash slots, the memory
 * policy's encoding rule. The tables' own contract is storage-tck's TableContract.
 */
class PartitionedKeyspaceTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
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

    /**
     * Across partitions: scans while keys come and go in every partition, some partitions grow
     * in bursts and active expiry runs; every stable key is visited in every round.
     */
    @Test
    void databaseScanVisitsEveryKeyPresentThroughoutWhilePartitionsChange() {
        long[] now = {1};
        PartitionedKeyspace keyspace = new PartitionedKeyspace(4, 1, () -> now[0]);
        Keyspace database = keyspace.database(0);
        Random random = new Random(5);
        Set<String> stable = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            stable.add("s" + i);
            byte[] k = bytes("s" + i);
            database.put(k, 0, k.length, bytes("v"), Keyspace.NO_EXPIRY);
        }
        List<String> churn = new ArrayList<>();
        int next = 0;
        for (int round = 0; round < 20; round++) {
            Set<String> seen = new HashSet<>();
            long cursor = 0;
            int steps = 0;
            do {
                cursor = database.scan(cursor, 1 + random.nextInt(10), key -> seen.add(text(key)));
                assertTrue(++steps < 100_000, "round " + round + ": the scan did not end");
                int inserts = random.nextInt(50) == 0 ? 300 : random.nextInt(10);
                for (int c = 0; c < inserts && churn.size() < 5000; c++) {
                    String key = "c" + next++;
                    churn.add(key);
                    byte[] k = bytes(key);
                    database.put(k, 0, k.length, bytes("v"), random.nextBoolean() ? now[0] + 1 : Keyspace.NO_EXPIRY);
                }
                for (int c = random.nextInt(12); c > 0 && !churn.isEmpty(); c--) {
                    int pick = random.nextInt(churn.size());
                    byte[] k = bytes(churn.get(pick));
                    churn.set(pick, churn.get(churn.size() - 1));
                    churn.remove(churn.size() - 1);
                    database.remove(k, 0, k.length);
                }
                now[0]++;
                keyspace.partition(random.nextInt(4)).expireCycle(now[0], 1_000_000);
            } while (cursor != 0);
            assertTrue(seen.containsAll(stable), "round " + round);
        }
    }

    @Test
    void slotsFollowRedisClusterHashTags() {
        assertEquals(12182, Slots.slot(bytes("foo"), 0, 3));
        assertEquals(Slots.slot(bytes("bar"), 0, 3), Slots.slot(bytes("{bar}foo"), 0, 8));
        assertEquals(Slots.slot(bytes("{}foo"), 0, 5), Slots.crc16(bytes("{}foo"), 0, 5) & 16383);
    }

    @Test
    void crc16TwoBytesAStepIsTheBytewiseCrc() {
        assertEquals(0x31C3, Slots.crc16(bytes("123456789"), 0, 9)); // XMODEM's check value, as Redis's crc16.c
        java.util.Random random = new java.util.Random(16384);
        for (int round = 0; round < 2000; round++) {
            byte[] key = new byte[random.nextInt(70)];
            random.nextBytes(key);
            int from = key.length == 0 ? 0 : random.nextInt(key.length);
            int crc = 0;
            for (int i = from; i < key.length; i++) {
                crc = Slots.bytewise(crc, key[i]);
            }
            assertEquals(crc, Slots.crc16(key, from, key.length), "length " + key.length + " from " + from);
        }
    }

    /**
     * The encoding a string stored whole gets ({@link MemoryPolicy#storedWhole}): unshared only
     * under a maxmemory limit with an LRU or LFU policy, as Redis stops sharing integers there.
     */
    @Test
    void stringsAreStoredUnsharedOnlyUnderALimitWithAnLruOrLfuPolicy() {
        MemoryPolicy memory = new MemoryPolicy();
        assertEquals(StringEncoding.FROM_BYTES, memory.storedWhole(), "no limit");
        memory.set("maxmemory-policy", "allkeys-lru");
        assertEquals(StringEncoding.FROM_BYTES, memory.storedWhole(), "no limit: shared");
        memory.set("maxmemory", "1000000");
        assertEquals(StringEncoding.UNSHARED, memory.storedWhole());
        memory.set("maxmemory-policy", "volatile-lfu");
        assertEquals(StringEncoding.UNSHARED, memory.storedWhole());
        memory.set("maxmemory-policy", "volatile-ttl");
        assertEquals(StringEncoding.FROM_BYTES, memory.storedWhole(), "not an LRU policy");
        memory.set("maxmemory-policy", "noeviction");
        memory.set("maxmemory", "0");
        assertEquals(StringEncoding.FROM_BYTES, memory.storedWhole());
    }
}
