package dev.lacewing.storage.tck;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.api.storage.StorageProvider;
import dev.lacewing.api.storage.Table;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * What every storage's {@link Table} must do, as JUnit tests: a storage's own test extends this
 * class and names its provider ({@link #provider}); each test opens the storage with a
 * {@link TestContext} and takes a table of partition 0. The contract is Redis's dict semantics
 * as the keyspace relies on them: lookups by key slice, lazy and active expiry, SCAN's guarantee
 * (every key present for a whole scan is returned, any cursor ends), string encodings decided at
 * store time, the access field. Tables of one storage's own layout (room, chunks, cursor format)
 * are that storage's tests.
 */
public abstract class TableContract {

    /** The storage under test. */
    protected abstract StorageProvider provider();

    /** A table on the system clock. */
    protected Table newTable() {
        return newTable(System::currentTimeMillis);
    }

    protected Table newTable(LongSupplier clock) {
        return newTable(clock, new TestAccessPolicy());
    }

    protected Table newTable(LongSupplier clock, TestAccessPolicy access) {
        return provider().open(new TestContext(clock, access)).partition(0, 1).newTable();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void put(Table table, String key, long expireAt) {
        byte[] k = bytes(key);
        table.put(k, 0, k.length, bytes("v"), expireAt);
    }

    private static String text(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }

    @Test
    public void agreesWithAHashMapUnderRandomPutsAndRemoves() {
        Table table = newTable();
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
    public void aStringKeepsItsEncodingThroughTouchesAndExpiryChangesUntilANewValueIsStored() {
        for (StringEncoding marked : new StringEncoding[] {StringEncoding.RAW, StringEncoding.TEXT,
            StringEncoding.UNSHARED}) {
            Table table = newTable();
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
    public void aSameSizeOverwriteReplacesOneEncodingMarkWithTheOther() {
        Table table = newTable();
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
    public void aStringStoredWholeTakesThePolicysEncodingWhenStoredAndKeepsIt() {
        TestAccessPolicy access = new TestAccessPolicy();
        Table table = newTable(System::currentTimeMillis, access);
        byte[] k = bytes("key");
        table.put(k, 0, 3, bytes("1"), Keyspace.NO_EXPIRY);
        access.storedWhole(StringEncoding.UNSHARED);
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
        access.storedWhole(StringEncoding.FROM_BYTES);
        assertEquals(StringEncoding.UNSHARED, table.stringEncoding(k, 0, 3, 0), "decided when it was stored");
        table.put(k, 0, 3, bytes("3"), Keyspace.NO_EXPIRY);
        assertEquals(StringEncoding.FROM_BYTES, table.stringEncoding(k, 0, 3, 0), "a new value may be shared");
    }

    @Test
    public void aScanHandsExpiredKeysToTheirOwnReceiverAndDeletesNothing() {
        Table table = newTable();
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
    public void findsKeysGivenAsSlicesOfALargerArray() {
        Table table = newTable();
        byte[] k = bytes("key");
        table.put(k, 0, 3, bytes("v"), Keyspace.NO_EXPIRY);
        byte[] request = bytes("GETkeyEND");
        assertArrayEquals(bytes("v"), (byte[]) table.get(request, 3, 3, 0));
    }

    @Test
    public void expiredKeysAreAbsentAndDeletedOnAccess() {
        Table table = newTable();
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
    public void activeExpiryDeletesOnlyKeysWhoseTimeHasPassed() {
        Table table = newTable();
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
    public void scanVisitsEveryKeyOnce() {
        Table table = newTable();
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

    /**
     * Scans while deleting, inserting (enough, at times, to grow the table), expiring lazily and
     * actively and picking random keys between steps: every stable key, present throughout, is
     * visited, only live keys are visited, and the scan ends. Small tables make wrapping clusters
     * common; many seeds make deletions just past the cursor common.
     */
    @Test
    public void aFullScanVisitsEveryKeyPresentThroughoutWhileTheTableChanges() {
        for (int seed = 0; seed < 400; seed++) {
            Random random = new Random(seed);
            Table table = newTable();
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

    @Test
    public void anyCursorEndsTheScanWithoutFailingWithinOneScanOfTheTable() {
        Table table = newTable();
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

    @Test
    public void removingTheLastKeyLeavesAnEmptyTable() {
        Table table = newTable();
        byte[] k = bytes("k");
        table.put(k, 0, 1, bytes("v"), Keyspace.NO_EXPIRY);
        assertTrue(table.remove(k, 0, 1, 0));
        assertFalse(table.remove(k, 0, 1, 0));
        assertNull(table.randomKey(0));
    }

    /** RESTORE's IDLETIME and FREQ: the access field set on a live key stays, whatever the value's form. */
    @Test
    public void setAccessReplacesTheFieldOfALiveKeyOnly() {
        Table table = newTable(() -> 1_000_000L);
        byte[] string = bytes("string");
        byte[] hash = bytes("hash");
        table.put(string, 0, string.length, bytes("value"), -1);
        table.put(hash, 0, hash.length, new TestAggregate(bytes("fv"), true), -1);
        for (byte[] key : new byte[][] {string, hash}) {
            assertTrue(table.setAccess(key, 0, key.length, 0xABCDEF, 1_000_000L));
            assertEquals(0xABCDEF, table.access(key, 0, key.length, 1_000_000L));
            assertTrue(table.peek(key, 0, key.length, 1_000_000L) != null, "the value stays");
        }
        assertArrayEquals(bytes("value"), (byte[]) table.peek(string, 0, string.length, 1_000_000L));
        assertFalse(table.setAccess(bytes("missing"), 0, 7, 1, 1_000_000L));
    }

    /**
     * What a snapshot relies on ({@link Table#visited}): at every cursor of a {@link Table#scanEntries}
     * walk, the keys present throughout that it handed over are exactly those visited, also after the
     * table grew mid-walk.
     */
    @Test
    public void visitedTellsTheKeysAWalkHandedOverFromThoseAheadOfIt() {
        Table table = newTable();
        List<String> present = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            put(table, "k" + i, Keyspace.NO_EXPIRY);
            present.add("k" + i);
        }
        ValueView view = new ValueView();
        Set<String> handed = new HashSet<>();
        long cursor = 0;
        int steps = 0;
        do {
            cursor = table.scanEntries(cursor, 5, 0, view,
                (key, offset, length, value, expireAt, access) -> handed.add(new String(key, offset, length,
                    StandardCharsets.UTF_8)));
            view.clear();
            if (++steps == 3) {
                for (int i = 0; i < 3000; i++) {
                    put(table, "grown" + i, Keyspace.NO_EXPIRY);
                }
            }
            if (cursor != 0) {
                for (String key : present) {
                    byte[] k = bytes(key);
                    assertEquals(handed.contains(key), table.visited(cursor, k, 0, k.length), key + " at step " + steps);
                }
            }
        } while (cursor != 0);
        assertTrue(handed.containsAll(present));
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
}
