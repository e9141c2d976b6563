package dev.lacewing.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.api.storage.Table;
import dev.lacewing.core.datatype.PackedAggregates;
import dev.lacewing.core.datatype.TableHash;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DatabaseTableTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void agreesWithAHashMapUnderRandomPutsAndRemoves() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
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
    void aStringKeepsItsEncodingThroughTouchesAndExpiryChangesUntilANewValueIsStored() {
        for (StringEncoding marked : new StringEncoding[] {StringEncoding.RAW, StringEncoding.TEXT,
            StringEncoding.UNSHARED}) {
            Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
            byte[] k = bytes("key");
            table.putEncoded(k, 0, 3, bytes("ab"), Keyspace.NO_EXPIRY, marked);
            assertEquals(marked, table.stringEncoding(k, 0, 3, 0));
            table.get(k, 0, 3, 0);
            table.setExpireAt(k, 0, 3, Long.MAX_VALUE - 1, 0);
            assertEquals(marked, table.stringEncoding(k, 0, 3, 0), "an entry rewritten with an expiry keeps it");
            table.setExpireAt(k, 0, 3, Keyspace.NO_EXPIRY, 0);
            assertEquals(marked, table.stringEncoding(k, 0, 3, 0));
            table.put(k, 0, 3, bytes("cd"), Keyspace.NO_EXPIRY);
            assertEquals(StringEncoding.FROM_BYTES, table.stringEncoding(k, 0, 3, 0),
                "a same-size overwrite in place is a new value");
            table.setExpireAt(k, 0, 3, Long.MAX_VALUE - 1, 0);
            table.putEncodedKeepExpiry(k, 0, 3, bytes("cde"), 0, marked);
            assertEquals(marked, table.stringEncoding(k, 0, 3, 0));
            assertEquals(Long.MAX_VALUE - 1, table.expireAt(k, 0, 3, 0));
            assertArrayEquals(bytes("cde"), (byte[]) table.get(k, 0, 3, 0));
            table.putKeepExpiry(k, 0, 3, bytes("fgh"), 0);
            assertEquals(StringEncoding.FROM_BYTES, table.stringEncoding(k, 0, 3, 0));
            table.putEncodedKeepExpiry(k, 0, 3, bytes("ijk"), 0, marked);
            table.remove(k, 0, 3, 0);
            assertEquals(StringEncoding.FROM_BYTES, table.stringEncoding(k, 0, 3, 0), "a missing key has no mark");
            table.putEncodedKeepExpiry(k, 0, 3, bytes("new"), 0, marked);
            assertEquals(marked, table.stringEncoding(k, 0, 3, 0));
            assertEquals(Keyspace.NO_EXPIRY, table.expireAt(k, 0, 3, 0));
        }
    }

    @Test
    void aSameSizeOverwriteReplacesOneEncodingMarkWithTheOther() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
        byte[] k = bytes("key");
        table.putEncoded(k, 0, 3, bytes("1"), Keyspace.NO_EXPIRY, StringEncoding.RAW);
        table.putEncoded(k, 0, 3, bytes("2"), Keyspace.NO_EXPIRY, StringEncoding.TEXT);
        assertEquals(StringEncoding.TEXT, table.stringEncoding(k, 0, 3, 0));
        table.putEncodedKeepExpiry(k, 0, 3, bytes("3"), 0, StringEncoding.RAW);
        assertEquals(StringEncoding.RAW, table.stringEncoding(k, 0, 3, 0));
        long used = table.usedMemory();
        table.putEncoded(k, 0, 3, bytes("4"), Keyspace.NO_EXPIRY, StringEncoding.FROM_BYTES);
        assertEquals(StringEncoding.FROM_BYTES, table.stringEncoding(k, 0, 3, 0));
        assertEquals(used, table.usedMemory(), "the mark costs no memory");
    }

    @Test
    void stringsStoredWhileThePolicyForbidsSharedIntegersStayUnsharedAfterItChanges() {
        MemoryPolicy memory = new MemoryPolicy();
        Table table = new CompactTable(memory, PackedAggregates.CODEC, System::currentTimeMillis);
        byte[] k = bytes("key");
        table.put(k, 0, 3, bytes("1"), Keyspace.NO_EXPIRY);
        memory.set("maxmemory-policy", "allkeys-lru");
        table.put(bytes("nolimit"), 0, 7, bytes("1"), Keyspace.NO_EXPIRY);
        assertEquals(StringEncoding.FROM_BYTES, table.stringEncoding(bytes("nolimit"), 0, 7, 0), "no limit: shared");
        memory.set("maxmemory", "1000000");
        assertEquals(StringEncoding.FROM_BYTES, table.stringEncoding(k, 0, 3, 0), "stored before: still shared");
        long used = table.usedMemory();
        table.put(k, 0, 3, bytes("2"), Keyspace.NO_EXPIRY);
        assertEquals(StringEncoding.UNSHARED, table.stringEncoding(k, 0, 3, 0), "a same-size overwrite in place");
        assertEquals(used, table.usedMemory(), "the mark costs no memory");
        byte[] slice = bytes("xx34yy");
        table.putString(bytes("slice"), 0, 5, slice, 2, 2, Keyspace.NO_EXPIRY);
        assertEquals(StringEncoding.UNSHARED, table.stringEncoding(bytes("slice"), 0, 5, 0));
        table.putKeepExpiry(bytes("kept"), 0, 4, bytes("5"), 0);
        assertEquals(StringEncoding.UNSHARED, table.stringEncoding(bytes("kept"), 0, 4, 0));
        table.putEncoded(bytes("moved"), 0, 5, bytes("6"), Keyspace.NO_EXPIRY, StringEncoding.FROM_BYTES);
        assertEquals(StringEncoding.FROM_BYTES, table.stringEncoding(bytes("moved"), 0, 5, 0),
            "an explicit encoding is kept (RENAME, MOVE)");
        memory.set("maxmemory-policy", "volatile-ttl");
        table.put(bytes("ttl"), 0, 3, bytes("7"), Keyspace.NO_EXPIRY);
        assertEquals(StringEncoding.FROM_BYTES, table.stringEncoding(bytes("ttl"), 0, 3, 0), "not an LRU policy");
        memory.set("maxmemory-policy", "noeviction");
        memory.set("maxmemory", "0");
        assertEquals(StringEncoding.UNSHARED, table.stringEncoding(k, 0, 3, 0), "decided when it was stored");
        table.put(k, 0, 3, bytes("3"), Keyspace.NO_EXPIRY);
        assertEquals(StringEncoding.FROM_BYTES, table.stringEncoding(k, 0, 3, 0), "a new value may be shared");
    }

    @Test
    void aScanHandsExpiredKeysToTheirOwnReceiverAndDeletesNothing() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
        for (int i = 0; i < 50; i++) {
            byte[] k = bytes("k" + i);
            table.put(k, 0, k.length, bytes("v"), i % 2 == 0 ? 100 : Keyspace.NO_EXPIRY);
        }
        Set<String> live = new HashSet<>();
        Set<String> expired = new HashSet<>();
        long cursor = 0;
        for (int steps = 0; steps == 0 || cursor != 0; steps++) {
            assertTrue(steps < 1000);
            cursor = table.scan(cursor, 4, 200, key -> live.add(text(key)), key -> expired.add(text(key)));
        }
        assertEquals(25, live.size());
        assertEquals(25, expired.size());
        assertTrue(expired.stream().allMatch(key -> Integer.parseInt(key.substring(1)) % 2 == 0), expired.toString());
        assertEquals(50, table.size());
    }

    @Test
    void findsKeysGivenAsSlicesOfALargerArray() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
        byte[] k = bytes("key");
        table.put(k, 0, 3, bytes("v"), Keyspace.NO_EXPIRY);
        byte[] request = bytes("GETkeyEND");
        assertArrayEquals(bytes("v"), (byte[]) table.get(request, 3, 3, 0));
    }

    @Test
    void expiredKeysAreAbsentAndDeletedOnAccess() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
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
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
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
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
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
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
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

    /** Keys whose home slot in a table of {@code capacity} slots is {@code home}. */
    private static List<byte[]> keysHomedAt(int home, int capacity, int howMany) {
        List<byte[]> found = new ArrayList<>();
        for (int i = 0; found.size() < howMany; i++) {
            byte[] key = bytes("h" + i);
            if ((TableHash.of(key, 0, key.length) & (capacity - 1)) == home) {
                found.add(key);
            }
        }
        return found;
    }

    private static void put(Table table, String key, long expireAt) {
        byte[] k = bytes(key);
        table.put(k, 0, k.length, bytes("v"), expireAt);
    }

    private static String text(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }

    @Test
    void aDeletionDuringAScanCannotShiftAnUnvisitedKeyBehindTheCursor() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
        // Three keys homed at the last slot of 16: stored at slots 15, 0 and 1, a cluster wrapping round.
        List<byte[]> wrapping = keysHomedAt(15, 16, 3);
        for (byte[] key : wrapping) {
            table.put(key, 0, key.length, bytes("v"), Keyspace.NO_EXPIRY);
        }
        Set<String> seen = new HashSet<>();
        long cursor = table.scan(0, 1, 0, key -> seen.add(text(key)));
        byte[] first = wrapping.get(0);
        // Backward shift moves the keys at slots 0 and 1 to 15 and 0.
        assertTrue(table.remove(first, 0, first.length, 0));
        while (cursor != 0) {
            cursor = table.scan(cursor, 1, 0, key -> seen.add(text(key)));
        }
        assertEquals(Set.of(text(wrapping.get(1)), text(wrapping.get(2))), seen);
    }

    @Test
    void growthDuringAScanNeitherLosesNorRepeatsKeys() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
        Set<String> original = new HashSet<>();
        for (int i = 0; i < 12; i++) {
            put(table, "k" + i, Keyspace.NO_EXPIRY);
            original.add("k" + i);
        }
        int capacity = table.capacity();
        List<String> visited = new ArrayList<>();
        long cursor = table.scan(0, 5, 0, key -> visited.add(text(key)));
        assertTrue(cursor != 0);
        for (int i = 0; i < 110; i++) {
            put(table, "grow" + i, Keyspace.NO_EXPIRY);
        }
        assertEquals(capacity * 16, table.capacity());
        while (cursor != 0) {
            cursor = table.scan(cursor, 3, 0, key -> visited.add(text(key)));
        }
        assertEquals(visited.size(), new HashSet<>(visited).size(), "a key was visited twice: " + visited);
        assertTrue(visited.containsAll(original));
    }

    /**
     * Scans while deleting, inserting (enough, at times, to grow the table), expiring lazily and
     * actively and picking random keys between steps: every stable key, present throughout, is
     * visited, only live keys are visited, and the scan ends. Small tables make wrapping clusters
     * common; many seeds make deletions just past the cursor common.
     */
    @Test
    void aFullScanVisitsEveryKeyPresentThroughoutWhileTheTableChanges() {
        for (int seed = 0; seed < 400; seed++) {
            Random random = new Random(seed);
            Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
            Set<String> stable = new HashSet<>();
            Map<String, Long> churn = new HashMap<>();
            List<String> churnKeys = new ArrayList<>();
            int[] nextChurn = {0};
            long[] now = {1};
            int stableCount = 1 + random.nextInt(seed % 2 == 0 ? 11 : 300);
            int initialChurn = random.nextInt(2 * stableCount + 1);
            for (int i = 0; i < stableCount + initialChurn; i++) {
                if (stable.size() < stableCount && (random.nextBoolean() || churnKeys.size() == initialChurn)) {
                    String key = "s" + stable.size();
                    stable.add(key);
                    put(table, key, Keyspace.NO_EXPIRY);
                } else {
                    insertChurn(table, random, churn, churnKeys, nextChurn, now[0]);
                }
            }

            Set<String> seen = new HashSet<>();
            long cursor = 0;
            int steps = 0;
            do {
                cursor = table.scan(cursor, 1 + random.nextInt(8), now[0], key -> {
                    String name = text(key);
                    Long expireAt = churn.get(name);
                    assertTrue(stable.contains(name)
                        || expireAt != null && (expireAt == Keyspace.NO_EXPIRY || expireAt > now[0]),
                        "visited a key not live: " + name);
                    seen.add(name);
                });
                assertTrue(++steps < 100_000, "seed " + seed + ": the scan did not end");
                int changes = random.nextInt(6);
                for (int c = 0; c < changes; c++) {
                    change(table, random, churn, churnKeys, nextChurn, now);
                }
            } while (cursor != 0);
            for (String key : stable) {
                assertTrue(seen.contains(key), "seed " + seed + ": missed " + key);
            }
        }
    }

    private static void insertChurn(Table table, Random random, Map<String, Long> churn,
                                    List<String> churnKeys, int[] nextChurn, long now) {
        String key = "c" + nextChurn[0]++;
        long expireAt = random.nextInt(3) == 0 ? now + 1 + random.nextInt(4) : Keyspace.NO_EXPIRY;
        churn.put(key, expireAt);
        churnKeys.add(key);
        put(table, key, expireAt);
    }

    private static void change(Table table, Random random, Map<String, Long> churn, List<String> churnKeys,
                               int[] nextChurn, long[] now) {
        switch (random.nextInt(8)) {
            case 0, 1 -> {
                if (!churnKeys.isEmpty()) {
                    int pick = random.nextInt(churnKeys.size());
                    String key = churnKeys.get(pick);
                    churnKeys.set(pick, churnKeys.get(churnKeys.size() - 1));
                    churnKeys.remove(churnKeys.size() - 1);
                    long expireAt = churn.remove(key);
                    byte[] k = bytes(key);
                    assertEquals(expireAt == Keyspace.NO_EXPIRY || expireAt > now[0], table.remove(k, 0, k.length, now[0]));
                }
            }
            case 2 -> insertChurn(table, random, churn, churnKeys, nextChurn, now[0]);
            case 3 -> {
                // Bounded: a bigger table means a longer scan, which would mean more bursts.
                if (random.nextInt(8) == 0 && table.capacity() < 2048) {
                    int burst = table.capacity() / 2;
                    for (int i = 0; i < burst; i++) {
                        insertChurn(table, random, churn, churnKeys, nextChurn, now[0]);
                    }
                }
            }
            case 4 -> now[0] += random.nextInt(3);
            case 5 -> table.expireSome(now[0], 1 + random.nextInt(64));
            case 6 -> table.randomKey(now[0]);
            default -> {
                if (!churnKeys.isEmpty()) {
                    byte[] k = bytes(churnKeys.get(random.nextInt(churnKeys.size())));
                    table.get(k, 0, k.length, now[0]);
                }
            }
        }
    }

    @Test
    void anyCursorEndsTheScanWithoutFailingWithinOneScanOfTheTable() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
        for (int i = 0; i < 100; i++) {
            put(table, "k" + i, Keyspace.NO_EXPIRY);
        }
        int log2 = Integer.numberOfTrailingZeros(table.capacity());
        List<Long> cursors = new ArrayList<>(List.of(-1L, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 32, 31L << 32,
            (long) log2 << 32 | table.capacity(), (long) log2 << 32 | (table.capacity() - 1), 4L << 32 | 16,
            4L << 32 | 15, 30L << 32 | ((1L << 30) - 1), 1L << 38 | 5, (long) (log2 + 1) << 32 | 3));
        Random random = new Random(11);
        for (int i = 0; i < 10_000; i++) {
            cursors.add(random.nextLong());
            cursors.add((long) random.nextInt(40) << 32 | random.nextInt(1 << random.nextInt(31)));
        }
        for (long start : cursors) {
            long cursor = start;
            int steps = 0;
            do {
                cursor = table.scan(cursor, 1, 0, key -> assertTrue(text(key).startsWith("k")));
                assertTrue(++steps <= table.capacity() + 1, "no end from " + Long.toUnsignedString(start));
            } while (cursor != 0);
        }
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
    void removingTheLastKeyLeavesAnEmptyTable() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
        byte[] k = bytes("k");
        table.put(k, 0, 1, bytes("v"), Keyspace.NO_EXPIRY);
        assertTrue(table.remove(k, 0, 1, 0));
        assertFalse(table.remove(k, 0, 1, 0));
        assertNull(table.randomKey(0));
    }

    /**
     * APPEND's pattern through editString: the string moves only when its room runs out (doubling
     * up to 1 MiB), then goes to chunks that are never copied again; it keeps its expiry and is raw;
     * the room is counted in usedMemory and valueMemory alike, and a value stored under the key has none.
     */
    @Test
    void aRunOfEditsPastTheEndGrowsIntoRoomThatIsCountedUntilANewValueIsStored() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
        byte[] k = bytes("log");
        ValueView view = new ValueView();
        byte[] other = bytes("other");
        table.put(other, 0, other.length, bytes("x"), Keyspace.NO_EXPIRY);
        table.put(k, 0, k.length, bytes("start"), Keyspace.NO_EXPIRY);
        table.setExpireAt(k, 0, k.length, Long.MAX_VALUE - 1, 0);
        byte[] expected = new byte[12_000_000];
        System.arraycopy(bytes("start"), 0, expected, 0, 5);
        int length = 5;
        int moves = 0;
        Object storage = null;
        int chunk = 10_000;
        while (length + chunk <= expected.length) {
            assertTrue(table.editString(k, 0, k.length, length + chunk, 0, view));
            for (int i = 0; i < chunk; i++) {
                expected[length + i] = (byte) (length + i);
            }
            view.write(length, expected, length, chunk);
            length += chunk;
            Object now = view.isChunked() ? view.chunks()[0] : view.array();
            if (now != storage && length > 256 * 1024) {
                moves++;
            }
            storage = now;
        }
        // Past 256 KiB: 512 KiB, 1 MiB, 2 MiB of one array, then into chunks once.
        assertTrue(moves <= 4, moves + " moves");
        assertTrue(view.isChunked(), "past 1 MiB the string is in chunks");
        assertArrayEquals(Arrays.copyOf(expected, length), (byte[]) table.get(k, 0, k.length, 0));
        assertEquals(Long.MAX_VALUE - 1, table.expireAt(k, 0, k.length, 0));
        assertEquals(StringEncoding.RAW, table.stringEncoding(k, 0, k.length, 0));

        Table stored = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
        stored.put(other, 0, other.length, bytes("x"), Keyspace.NO_EXPIRY);
        stored.put(k, 0, k.length, Arrays.copyOf(expected, length), Long.MAX_VALUE - 1);
        long room = table.valueMemory(k, 0, k.length, 0) - stored.valueMemory(k, 0, k.length, 0);
        long chunkHeaders = 24L * (length / EditedString.CHUNK + 8);
        assertTrue(room >= EditedString.MAX_PREALLOC - EditedString.CHUNK
            && room <= EditedString.MAX_PREALLOC + EditedString.CHUNK + chunkHeaders, "room " + room);
        long uncounted = table.usedMemory() - stored.usedMemory() - room;
        // Compact: the entry that points into the side table, and that table's first slot arrays.
        assertTrue(uncounted >= 0 && uncounted <= 256, uncounted + " bytes held beyond the value's count");

        byte[] copy = (byte[]) table.get(k, 0, k.length, 0);
        assertTrue(table.editString(k, 0, k.length, 1, 0, view));
        view.setByteAt(0, (byte) 'S');
        assertEquals('s', copy[0], "what get returned is not edited");
        assertEquals('S', ((byte[]) table.get(k, 0, k.length, 0))[0], "the edit is in the string");
        assertEquals(length, view.length(), "an edit within the string leaves its length");

        table.put(k, 0, k.length, Arrays.copyOf(expected, length), Keyspace.NO_EXPIRY);
        assertEquals(stored.valueMemory(k, 0, k.length, 0), table.valueMemory(k, 0, k.length, 0));
        assertEquals(-1, table.valueMemory(bytes("missing"), 0, 7, 0));
    }

    /**
     * A chunked string the table lets go of (deleted, overwritten, expired, flushed) keeps no
     * reference to its chunks, so a dead chunk list in the old generation cannot hold them from
     * G1's eager reclaim ({@link EditedString#release}); one that only moves (a new expiry) keeps them.
     */
    @Test
    void aChunkedStringTheTableLetsGoOfHoldsNoChunks() {
        long[] now = {0};
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, () -> now[0]);
        ValueView view = new ValueView();
        byte[] k = bytes("k");
        int length = EditedString.MAX_PREALLOC + 2 * EditedString.CHUNK;
        List<String> ways = List.of("remove", "overwrite", "expire", "clear");
        for (String way : ways) {
            table.put(bytes("other"), 0, 5, bytes("x"), Keyspace.NO_EXPIRY);
            table.put(k, 0, k.length, bytes("start"), Keyspace.NO_EXPIRY);
            assertTrue(table.editString(k, 0, k.length, length, now[0], view));
            assertTrue(view.isChunked());
            byte[][] chunks = view.chunks();
            view.clear();
            table.setExpireAt(k, 0, k.length, now[0] + 10, now[0]);
            assertTrue(table.getValue(k, 0, k.length, now[0], view) && view.chunks() == chunks,
                "a new expiry moves the string, chunks and all");
            assertTrue(Arrays.stream(chunks).limit(3).allMatch(chunk -> chunk != null));
            view.clear();
            switch (way) {
                case "remove" -> assertTrue(table.remove(k, 0, k.length, now[0]));
                case "overwrite" -> table.put(k, 0, k.length, bytes("short"), Keyspace.NO_EXPIRY);
                case "expire" -> {
                    now[0] += 20;
                    assertNull(table.get(k, 0, k.length, now[0]));
                }
                default -> table.clear();
            }
            assertTrue(Arrays.stream(chunks).allMatch(chunk -> chunk == null), way + " leaves chunks referenced");
            table.remove(k, 0, k.length, now[0]);
        }
    }

    @Test
    void editingAMissingKeyCreatesZerosWithoutRoomAndAnotherTypeIsLeftAlone() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
        Table stored = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, System::currentTimeMillis);
        ValueView view = new ValueView();
        for (int length : new int[] {1, 100, 100_000, 3_000_000}) {
            byte[] k = bytes("new" + length);
            assertTrue(table.editString(k, 0, k.length, length, 0, view));
            assertEquals(length, view.length());
            stored.put(k, 0, k.length, new byte[length], Keyspace.NO_EXPIRY);
            assertArrayEquals(new byte[length], (byte[]) table.get(k, 0, k.length, 0));
            long extra = table.valueMemory(k, 0, k.length, 0) - stored.valueMemory(k, 0, k.length, 0);
            // In chunks (past 1 MiB) the last chunk's unused end and each chunk's header.
            long chunked = length > EditedString.MAX_PREALLOC
                ? EditedString.CHUNK + 24L * (length / EditedString.CHUNK + 1) + 32 : 0;
            assertTrue(extra >= 0 && extra <= EditedString.OBJECT_BYTES + chunked, "no room: " + extra);
            assertEquals(Keyspace.NO_EXPIRY, table.expireAt(k, 0, k.length, 0));
            assertEquals(StringEncoding.RAW, table.stringEncoding(k, 0, k.length, 0));
        }
        byte[] k = bytes("list");
        Object aggregate = new dev.lacewing.core.datatype.Quicklist(-2, 0);
        table.put(k, 0, k.length, aggregate, Keyspace.NO_EXPIRY);
        long used = table.usedMemory();
        assertFalse(table.editString(k, 0, k.length, 10, 0, view));
        assertSame(aggregate, table.get(k, 0, k.length, 0));
        assertEquals(used, table.usedMemory());
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

    /** RESTORE's IDLETIME and FREQ: the access field set on a live key stays, whatever the value's form. */
    @Test
    void setAccessReplacesTheFieldOfALiveKeyOnly() {
        Table table = new CompactTable(new MemoryPolicy(), PackedAggregates.CODEC, () -> 1_000_000L);
        byte[] string = bytes("string");
        byte[] hash = bytes("hash");
        table.put(string, 0, string.length, bytes("value"), -1);
        dev.lacewing.core.datatype.HashValue fields = new dev.lacewing.core.datatype.HashValue();
        fields.set(bytes("f"), 0, 1, bytes("v"), 0, 1, 512, 64);
        table.put(hash, 0, hash.length, fields, -1);
        for (byte[] key : new byte[][] {string, hash}) {
            assertTrue(table.setAccess(key, 0, key.length, 0xABCDEF, 1_000_000L));
            assertEquals(0xABCDEF, table.access(key, 0, key.length, 1_000_000L));
            assertTrue(table.peek(key, 0, key.length, 1_000_000L) != null, "the value stays");
        }
        assertArrayEquals(bytes("value"), (byte[]) table.peek(string, 0, string.length, 1_000_000L));
        assertFalse(table.setAccess(bytes("missing"), 0, 7, 1, 1_000_000L));
    }
}
