package dev.lacewing.storage.tiered;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.StringHandle;
import dev.lacewing.api.ValueView;
import dev.lacewing.storage.tck.TestAccessPolicy;
import dev.lacewing.storage.tck.TestAggregate;
import dev.lacewing.storage.tck.TestContext;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tiered table's own layout: what goes to disk, when, what memory counts and compaction. */
class TieredTableTest {

    @TempDir
    Path directory;

    private TieredPartition partition(boolean eager, int minValueSize, long compactMinBytes) {
        return partition(eager, minValueSize, compactMinBytes, 0);
    }

    private TieredPartition partition(boolean eager, int minValueSize, long compactMinBytes, long share) {
        return partition(eager, minValueSize, compactMinBytes, share, Runnable::run);
    }

    private TieredPartition partition(boolean eager, int minValueSize, long compactMinBytes, long share,
                                      Executor readers) {
        TieredSettings settings = new TieredSettings(directory, minValueSize, eager, compactMinBytes);
        return new TieredPartition(new TestContext(() -> 0L, new TestAccessPolicy()), settings,
            new SegmentFile(directory.resolve("segment")), () -> share, readers);
    }

    @Test
    public void aColdReadLandsForTheRerunAndAFailedOneStillSignalsReady() {
        List<Runnable> reads = new ArrayList<>();
        TieredPartition partition = partition(true, 16, Long.MAX_VALUE, 0, reads::add);
        TieredTable table = (TieredTable) partition.newTable();
        table.put(bytes("cold"), 0, 4, value(500, 1), Keyspace.NO_EXPIRY);
        table.put(bytes("hot"), 0, 3, value(10, 2), Keyspace.NO_EXPIRY);
        AtomicInteger ready = new AtomicInteger();
        assertTrue(table.resident(bytes("hot"), 0, 3, 0, ready::incrementAndGet));
        assertTrue(table.resident(bytes("absent"), 0, 6, 0, ready::incrementAndGet));
        assertFalse(table.resident(bytes("cold"), 0, 4, 0, ready::incrementAndGet));
        assertEquals(1, reads.size());
        assertEquals(0, ready.get());
        reads.remove(0).run();
        assertEquals(1, ready.get());
        assertTrue(table.resident(bytes("cold"), 0, 4, 0, ready::incrementAndGet), "landed");
        assertArrayEquals(value(500, 1), (byte[]) table.get(bytes("cold"), 0, 4, 0));
        assertEquals(0, partition.segment().reads(), "the rerun took the landed value");
        assertEquals(1, partition.asyncReads());

        assertFalse(table.resident(bytes("cold"), 0, 4, 0, ready::incrementAndGet), "taken: cold again");
        partition.segment().close();
        reads.remove(0).run();
        assertEquals(2, ready.get(), "a failed read still signals");
        assertThrows(UncheckedIOException.class, () -> table.get(bytes("cold"), 0, 4, 0));
    }

    @Test
    public void aSnapshotHandleReadsTheValueOfItsEpochWhateverTheKeyBecame() {
        TieredPartition partition = partition(true, 16, 1);
        TieredTable table = (TieredTable) partition.newTable();
        table.put(bytes("k"), 0, 1, value(300, 1), Keyspace.NO_EXPIRY);
        ValueView view = new ValueView();
        view.takesHandles(true);
        StringHandle[] handle = new StringHandle[1];
        assertTrue(table.readEntry(bytes("k"), 0, 1, 0, view, (key, offset, length, value, expireAt, access) ->
            handle[0] = value.handle()));
        assertEquals(300, handle[0].length());
        assertTrue(table.remove(bytes("k"), 0, 1, 0));
        assertEquals(0, partition.segment().liveValues());
        assertEquals(300, partition.segment().size(), "not emptied while a handle is out");
        table.put(bytes("k"), 0, 1, value(400, 2), Keyspace.NO_EXPIRY);
        table.put(bytes("k"), 0, 1, value(400, 3), Keyspace.NO_EXPIRY);
        assertEquals(1100, partition.segment().size(), "not compacted while a handle is out");
        assertArrayEquals(value(300, 1), handle[0].read());
        handle[0].release();
        assertEquals(0, partition.segment().reads());
        table.put(bytes("k"), 0, 1, value(400, 4), Keyspace.NO_EXPIRY);
        assertEquals(400, partition.segment().size(), "emptied once released");
        assertArrayEquals(value(400, 4), (byte[]) table.get(bytes("k"), 0, 1, 0));
    }

    /** What moving a 100-byte value to disk frees from the record of a key of 2 or 3 bytes (the same, rounded to 8). */
    private static final long MOVED_100 = TieredTable.recordBytes(TieredTable.HEADER_BYTES + 2 + 100)
        - TieredTable.recordBytes(TieredTable.HEADER_BYTES + 2);

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A new table of {@code partition} holding k0 ... k{keys - 1}, each with {@code value(1000, i)}. */
    private static TieredTable withThousandByteValues(TieredPartition partition, int keys) {
        TieredTable table = (TieredTable) partition.newTable();
        for (int i = 0; i < keys; i++) {
            byte[] key = bytes("k" + i);
            table.put(key, 0, key.length, value(1000, i), Keyspace.NO_EXPIRY);
        }
        return table;
    }

    private static byte[] value(int length, int seed) {
        byte[] value = new byte[length];
        new Random(seed).nextBytes(value);
        return value;
    }

    @Test
    public void eagerlyMovesStringsFromTheMinimumSizeToDiskKeepingOnlyAHandleInMemory() {
        TieredPartition partition = partition(true, 16, Long.MAX_VALUE);
        TieredTable table = (TieredTable) partition.newTable();
        long empty = table.usedMemory();
        table.put(bytes("short"), 0, 5, value(15, 1), Keyspace.NO_EXPIRY);
        table.put(bytes("long"), 0, 4, value(1000, 2), Keyspace.NO_EXPIRY);
        assertEquals(1, partition.segment().liveValues());
        assertEquals(1000, partition.segment().size());
        assertEquals(empty + TieredTable.recordBytes(TieredTable.HEADER_BYTES + 5 + 15)
            + TieredTable.recordBytes(TieredTable.HEADER_BYTES + 4), table.usedMemory(),
            "RAM only: the short value in its key's record, the long value's bytes not counted");
        assertArrayEquals(value(1000, 2), (byte[]) table.get(bytes("long"), 0, 4, 0));
        ValueView view = new ValueView();
        assertTrue(table.getValue(bytes("long"), 0, 4, 0, view));
        assertArrayEquals(value(1000, 2), Arrays.copyOfRange(view.array(), view.offset(), view.offset() + view.length()));
        assertEquals(2, partition.segment().reads());
    }

    @Test
    public void underPressureMovesStringsOnlyWhenAskedForMemory() {
        TieredPartition partition = partition(false, 16, Long.MAX_VALUE);
        TieredTable table = (TieredTable) partition.newTable();
        for (int i = 0; i < 100; i++) {
            byte[] key = bytes("k" + i);
            table.put(key, 0, key.length, value(100, i), Keyspace.NO_EXPIRY);
        }
        assertEquals(0, partition.segment().size());
        long before = table.usedMemory();
        long freed = partition.offload(1000, 0);
        assertTrue(freed >= 1000, "freed " + freed);
        assertEquals(before - freed, table.usedMemory());
        assertEquals(partition.segment().liveValues() * 100, partition.segment().size());
        assertEquals(before - MOVED_100 * partition.segment().liveValues(), table.usedMemory(),
            "each moved value leaves its key's record, 100 bytes shorter");
        partition.offload(Long.MAX_VALUE, 0);
        assertEquals(100, partition.segment().liveValues());
        for (int i = 0; i < 100; i++) {
            byte[] key = bytes("k" + i);
            assertArrayEquals(value(100, i), (byte[]) table.get(key, 0, key.length, 0));
        }
    }

    @Test
    public void underPressureKeepsThePartitionUnderItsShareOfMaxmemoryAsItStores() {
        TieredPartition partition = partition(false, 16, Long.MAX_VALUE, 50_000);
        TieredTable first = (TieredTable) partition.newTable();
        TieredTable second = (TieredTable) partition.newTable();
        for (int i = 0; i < 300; i++) {
            byte[] key = bytes("k" + i);
            (i % 2 == 0 ? first : second).put(key, 0, key.length, value(100, i), Keyspace.NO_EXPIRY);
            assertTrue(first.usedMemory() + second.usedMemory() <= 50_000 * TieredPartition.PRESSURE_SHARE,
                "after store " + i);
        }
        assertTrue(partition.segment().liveValues() > 20, "moved " + partition.segment().liveValues());
        for (int i = 0; i < 300; i++) {
            byte[] key = bytes("k" + i);
            assertArrayEquals(value(100, i), (byte[]) (i % 2 == 0 ? first : second).get(key, 0, key.length, 0));
        }
    }

    @Test
    public void theOffloadHandGivesAValueReadSinceItsLastPassASecondChance() {
        TieredPartition partition = partition(false, 16, Long.MAX_VALUE);
        TieredTable table = (TieredTable) partition.newTable();
        for (int i = 0; i < 100; i++) {
            byte[] key = bytes("k" + i);
            table.put(key, 0, key.length, value(100, i), Keyspace.NO_EXPIRY);
        }
        for (int i = 0; i < 10; i++) {
            byte[] key = bytes("k" + i);
            table.get(key, 0, key.length, 0);
        }
        partition.offload(90 * MOVED_100, 0);
        assertEquals(90, partition.segment().liveValues());
        for (int i = 0; i < 10; i++) {
            byte[] key = bytes("k" + i);
            assertEquals(100, table.valueMemory(key, 0, key.length, 0), "read, so kept: k" + i);
        }
        partition.offload(Long.MAX_VALUE, 0);
        assertEquals(100, partition.segment().liveValues(), "a second pass moves what was read before the first");
    }

    @Test
    public void aHotSetReadRepeatedlyEndsInMemoryWhileColdValuesStayOnDisk() {
        long share = 40_000;
        TieredPartition partition = partition(false, 16, Long.MAX_VALUE, share);
        int keys = 300;
        TieredTable table = withThousandByteValues(partition, keys);
        Random random = new Random(3);
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 10; i++) {
                byte[] hot = bytes("k" + (keys - 10 + i));
                assertArrayEquals(value(1000, keys - 10 + i), (byte[]) table.get(hot, 0, hot.length, 0));
                int c = random.nextInt(keys - 10);
                byte[] cold = bytes("k" + c);
                assertArrayEquals(value(1000, c), (byte[]) table.get(cold, 0, cold.length, 0));
                assertTrue(table.usedMemory() <= share * TieredPartition.PRESSURE_SHARE, "round " + round);
            }
        }
        long reads = partition.segment().reads();
        ValueView view = new ValueView();
        for (int i = keys - 10; i < keys; i++) {
            byte[] hot = bytes("k" + i);
            assertEquals(1000, table.valueMemory(hot, 0, hot.length, 0), "hot k" + i + " in memory");
            assertTrue(table.getValue(hot, 0, hot.length, 0, view));
            assertArrayEquals(value(1000, i), Arrays.copyOfRange(view.array(), view.offset(),
                view.offset() + view.length()));
        }
        assertEquals(reads, partition.segment().reads(), "the hot set reads no disk");
        assertTrue(partition.segment().liveValues() >= keys - 10 - 40, "cold values stay on disk: "
            + partition.segment().liveValues());
        assertTrue(partition.promotions() > 0, "promoted " + partition.promotions());
    }

    @Test
    public void uniformlyReadKeysAreSeldomPromotedToDisplaceEachOther() {
        long share = 930_000;
        TieredPartition partition = partition(false, 16, Long.MAX_VALUE, share);
        int keys = 2000;
        TieredTable table = withThousandByteValues(partition, keys);
        Random random = new Random(5);
        long reads = partition.segment().reads();
        int gets = 20_000;
        for (int n = 0; n < gets; n++) {
            int i = random.nextInt(keys);
            byte[] key = bytes("k" + i);
            assertArrayEquals(value(1000, i), (byte[]) table.get(key, 0, key.length, 0));
        }
        long diskReads = partition.segment().reads() - reads;
        assertTrue(diskReads > gets / 2, "most values stay on disk: " + diskReads);
        assertTrue(partition.promotions() < gets / 50, "promoted " + partition.promotions() + " of " + diskReads
            + " values read from disk, each displacing one read as often");
    }

    @Test
    public void storesPastAShareTheKeysAloneFillMoveTheirStringWithoutWalkingTheTable() {
        long share = 100_000;
        TieredPartition partition = partition(false, 64, Long.MAX_VALUE, share);
        TieredTable table = (TieredTable) partition.newTable();
        for (int i = 0; i < 2000; i++) {
            byte[] key = bytes("small" + i);
            table.put(key, 0, key.length, value(8, i), Keyspace.NO_EXPIRY);
        }
        assertTrue(table.usedMemory() > share * TieredPartition.PRESSURE_SHARE, "keys alone over the share");
        long walked = table.handSteps();
        for (int i = 0; i < 200; i++) {
            byte[] key = bytes("large" + i);
            table.put(key, 0, key.length, value(100, i), Keyspace.NO_EXPIRY);
            assertEquals(i + 1, partition.segment().liveValues(), "stored string " + i + " went to disk");
        }
        assertTrue(table.handSteps() - walked < table.capacity(), "walked " + (table.handSteps() - walked)
            + " buckets for 200 stores in " + table.capacity());
        for (int i = 0; i < 200; i++) {
            byte[] key = bytes("large" + i);
            assertArrayEquals(value(100, i), (byte[]) table.get(key, 0, key.length, 0));
        }
    }

    @Test
    public void afterStoresEditsReadsAndDeletesAFullOffloadStillFindsEveryMovableString() {
        TieredPartition partition = partition(false, 16, Long.MAX_VALUE, 40_000);
        TieredTable table = (TieredTable) partition.newTable();
        Random random = new Random(11);
        ValueView view = new ValueView();
        int keys = 100;
        String edited = null;
        for (int n = 1; n <= 5000; n++) {
            String name = "k" + random.nextInt(keys);
            byte[] key = bytes(name);
            switch (random.nextInt(5)) {
                case 0 -> table.put(key, 0, key.length, value(random.nextBoolean() ? 8 : 200, n), Keyspace.NO_EXPIRY);
                case 1 -> {
                    if (table.editString(key, 0, key.length, 20, 0, view)) {
                        edited = name;
                    }
                }
                case 2 -> {
                    if (table.remove(key, 0, key.length, 0) && name.equals(edited)) {
                        edited = null;
                    }
                }
                default -> table.get(key, 0, key.length, 0);
            }
            if (n % 100 == 0) {
                partition.offload(Long.MAX_VALUE, 0);
                assertEquals(0, table.movableStrings(), "after op " + n);
                for (int i = 0; i < keys; i++) {
                    byte[] other = bytes("k" + i);
                    Object value = table.peek(other, 0, other.length, 0);
                    if (value != null && ((byte[]) value).length >= 16 && !("k" + i).equals(edited)) {
                        assertEquals(0, table.valueMemory(other, 0, other.length, 0), "k" + i + " after op " + n);
                    }
                }
            }
        }
    }

    @Test
    public void promotionNeverTakesThePartitionPastItsShare() {
        long share = 40_000;
        TieredPartition partition = partition(false, 16, Long.MAX_VALUE, share);
        TieredTable table = (TieredTable) partition.newTable();
        int keys = 200;
        for (int i = 0; i < keys; i++) {
            byte[] key = bytes("k" + i);
            table.put(key, 0, key.length, value(1000, i), Keyspace.NO_EXPIRY);
        }
        ValueView view = new ValueView();
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < keys; i++) {
                byte[] key = bytes("k" + i);
                if (i % 2 == 0) {
                    assertArrayEquals(value(1000, i), (byte[]) table.get(key, 0, key.length, 0));
                } else {
                    assertTrue(table.getValue(key, 0, key.length, 0, view));
                    assertArrayEquals(value(1000, i), Arrays.copyOfRange(view.array(), view.offset(),
                        view.offset() + view.length()));
                }
                assertTrue(table.usedMemory() <= share * TieredPartition.PRESSURE_SHARE, "round " + round);
            }
        }
        assertEquals(keys, table.size());
        assertTrue(partition.segment().liveValues() > keys / 2, "on disk " + partition.segment().liveValues());
    }

    @Test
    public void eagerWithoutMaxmemoryKeepsReadStringsOnDisk() {
        TieredPartition partition = partition(true, 16, Long.MAX_VALUE);
        TieredTable table = (TieredTable) partition.newTable();
        table.put(bytes("k"), 0, 1, value(100, 1), Keyspace.NO_EXPIRY);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(value(100, 1), (byte[]) table.get(bytes("k"), 0, 1, 0));
        }
        assertEquals(3, partition.segment().reads());
        assertEquals(0, partition.promotions());
    }

    @Test
    public void editingAnOffloadedStringBringsItBackUntilMemoryIsAskedForAfterItsCommand() {
        TieredPartition partition = partition(true, 4, Long.MAX_VALUE);
        TieredTable table = (TieredTable) partition.newTable();
        byte[] key = bytes("k");
        table.put(key, 0, 1, bytes("hello"), Keyspace.NO_EXPIRY);
        byte[] before = (byte[]) table.get(key, 0, 1, 0);
        ValueView view = new ValueView();
        assertTrue(table.editString(key, 0, 1, 11, 0, view));
        view.write(5, bytes(" world"), 0, 6);
        assertArrayEquals(bytes("hello"), before);
        assertArrayEquals(bytes("hello world"), (byte[]) table.get(key, 0, 1, 0));
        assertEquals(StringEncoding.RAW, table.stringEncoding(key, 0, 1, 0));
        assertEquals(0, partition.segment().liveValues(), "the edited string is in memory");
        partition.offload(Long.MAX_VALUE, 0);
        assertEquals(0, partition.segment().liveValues(), "its command may still write through the view");
        assertTrue(table.editString(bytes("other"), 0, 5, 1, 0, new ValueView()));
        partition.offload(Long.MAX_VALUE, 0);
        assertEquals(1, partition.segment().liveValues(), "no longer the string being edited");
        assertArrayEquals(bytes("hello world"), (byte[]) table.get(key, 0, 1, 0));
        assertEquals(StringEncoding.RAW, table.stringEncoding(key, 0, 1, 0));
    }

    @Test
    public void compactsTheSegmentOnceUnderHalfIsLiveAndReadsEveryValueBack() {
        TieredPartition partition = partition(true, 1, 1);
        TieredTable first = (TieredTable) partition.newTable();
        TieredTable second = (TieredTable) partition.newTable();
        Map<String, byte[]> model = new HashMap<>();
        Random random = new Random(7);
        long largest = 0;
        for (int i = 0; i < 20_000; i++) {
            TieredTable table = random.nextBoolean() ? first : second;
            String name = (table == first ? "a" : "b") + random.nextInt(300);
            byte[] key = bytes(name);
            if (random.nextInt(4) == 0) {
                table.remove(key, 0, key.length, 0);
                model.remove(name);
            } else {
                byte[] value = value(1 + random.nextInt(200), i);
                table.put(key, 0, key.length, value, Keyspace.NO_EXPIRY);
                model.put(name, value);
                assertTrue(partition.segment().size() <= 2 * partition.segment().liveBytes(),
                    "compacted at the write after the file fell under half live");
            }
            largest = Math.max(largest, partition.segment().size());
        }
        for (Map.Entry<String, byte[]> entry : model.entrySet()) {
            byte[] key = bytes(entry.getKey());
            TieredTable table = entry.getKey().startsWith("a") ? first : second;
            assertArrayEquals(entry.getValue(), (byte[]) table.get(key, 0, key.length, 0), entry.getKey());
        }
        assertEquals(model.size(), partition.segment().liveValues());
        assertTrue(largest < 2L * 600 * 200, "the file stayed bounded: " + largest);
    }

    @Test
    public void aStringPastTheLocatorsLengthStaysInMemoryWhileShorterOnesGoToDisk() {
        TieredPartition partition = partition(true, 16, Long.MAX_VALUE);
        TieredTable table = (TieredTable) partition.newTable();
        byte[] large = value(TieredTable.MAX_DISK_LENGTH + 1, 1);
        table.put(bytes("large"), 0, 5, large, Keyspace.NO_EXPIRY);
        table.put(bytes("small"), 0, 5, value(100, 2), Keyspace.NO_EXPIRY);
        assertEquals(1, partition.segment().liveValues());
        assertEquals(large.length, table.valueMemory(bytes("large"), 0, 5, 0));
        assertEquals(0, table.movableStrings(), "nor does the hand move it");
        assertArrayEquals(large, (byte[]) table.get(bytes("large"), 0, 5, 0));
        assertArrayEquals(value(100, 2), (byte[]) table.get(bytes("small"), 0, 5, 0));
    }

    @Test
    public void aKeyKeepsItsValueAndFieldsThroughExpiryChangesWhereverItsValueIs() {
        TieredPartition partition = partition(false, 16, Long.MAX_VALUE);
        TieredTable table = (TieredTable) partition.newTable();
        TestAggregate aggregate = new TestAggregate(bytes("fields"), true);
        table.put(bytes("resident"), 0, 8, value(100, 1), Keyspace.NO_EXPIRY);
        table.put(bytes("offloaded"), 0, 9, value(100, 2), Keyspace.NO_EXPIRY);
        table.put(bytes("aggregate"), 0, 9, aggregate, Keyspace.NO_EXPIRY);
        ValueView view = new ValueView();
        assertTrue(table.editString(bytes("edited"), 0, 6, 40, 0, view));
        view.array()[view.offset()] = 7;
        partition.offload(1, 0);
        assertEquals(0, table.valueMemory(bytes("offloaded"), 0, 9, 0) * table.valueMemory(bytes("resident"), 0, 8, 0),
            "one of the two strings went to disk");
        for (String name : List.of("resident", "offloaded", "aggregate", "edited")) {
            byte[] key = bytes(name);
            assertTrue(table.setAccess(key, 0, key.length, 12345, 0));
            assertTrue(table.setExpireAt(key, 0, key.length, 5000, 0), name);
            assertEquals(5000, table.expireAt(key, 0, key.length, 0), name);
            assertEquals(12345, table.access(key, 0, key.length, 0), name);
            assertTrue(table.setExpireAt(key, 0, key.length, 6000, 0), name);
            assertEquals(6000, table.expireAt(key, 0, key.length, 0), name);
        }
        assertEquals(4, table.expiringSize());
        assertTrue(table.setExpireAt(bytes("resident"), 0, 8, Keyspace.NO_EXPIRY, 0));
        assertEquals(Keyspace.NO_EXPIRY, table.expireAt(bytes("resident"), 0, 8, 0));
        assertEquals(3, table.expiringSize());
        assertArrayEquals(value(100, 1), (byte[]) table.get(bytes("resident"), 0, 8, 0));
        assertArrayEquals(value(100, 2), (byte[]) table.get(bytes("offloaded"), 0, 9, 0));
        assertEquals(aggregate, table.get(bytes("aggregate"), 0, 9, 0));
        byte[] edited = (byte[]) table.get(bytes("edited"), 0, 6, 0);
        assertEquals(40, edited.length);
        assertEquals(7, edited[0]);
        assertEquals(StringEncoding.RAW, table.stringEncoding(bytes("edited"), 0, 6, 0));
        assertEquals(null, table.get(bytes("aggregate"), 0, 9, 6000), "its time passed");
        table.expireSome(6000, table.capacity());
        assertEquals(1, table.size(), "only the key without an expiry is left after its time");
        assertEquals(table.usedMemory(), table.liveMemory());
    }

    @Test
    public void clearReleasesEveryExtent() {
        TieredPartition partition = partition(true, 1, Long.MAX_VALUE);
        TieredTable table = (TieredTable) partition.newTable();
        for (int i = 0; i < 50; i++) {
            byte[] key = bytes("k" + i);
            table.put(key, 0, key.length, value(10, i), Keyspace.NO_EXPIRY);
        }
        table.clear();
        assertEquals(0, partition.segment().liveValues());
        assertEquals(0, partition.segment().size());
        assertEquals(0, table.size());
    }
}
