package dev.lacewing.core.keyspace;

import dev.lacewing.api.Keyspace;
import dev.lacewing.core.datatype.TableHash;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One partition's part of a point-in-time image (BGSAVE without fork), written out while the
 * partition keeps serving. Every database table is walked in SCAN's order ({@link #step}); an
 * entry about to be touched before the walk reached it is handed to the sink first
 * ({@link #preserve}, called by {@link Database} before every access that may change a key), so
 * what the sink receives is exactly the partition as it was at the epoch, each key once.
 *
 * <p>Why this is exact: the walk is Redis's dictScan over home buckets, in bit-reversed cursor
 * order, which growth never makes revisit a bucket ({@link KeyTable}). A key's bucket is behind
 * the cursor or ahead of it, judged from its hash ({@link #walked}). Ahead of it, the first touch
 * writes the key's epoch value (or, for a key absent at the epoch, nothing) and remembers the key,
 * and the walk skips a remembered key when it gets there; behind it, the key was written already.
 * A table only shrinks when it empties, which means every epoch key in it was written or touched
 * first, so an empty table ends its walk.
 *
 * <p>Memory: the keys touched ahead of the walk (their bytes) until the walk passes them, plus
 * what the sink keeps. Keys deleted by active expiry are not preserved: their time had passed, so
 * a load would drop them anyway; an eviction preserves its key first.
 *
 * <p>Thread rule: every method runs on the thread holding the partition.
 */
public final class PartitionSnapshot {

    /** Receives the image's entries, each key once; the value is valid only during the call. */
    public interface Sink {
        /** Returns the bytes the entry took ({@link #preservedBytes} sums them). */
        int entry(int database, byte[] key, Object value, long expireAt, int access);
    }

    private static final long NOT_STARTED = -1;
    private static final long DONE = -2;

    private final Partition partition;
    private final Sink sink;
    /** Per database: the walk's next cursor, {@link #NOT_STARTED} or {@link #DONE}. */
    private final long[] cursors;
    /** Per database: keys ahead of the walk that were touched since the epoch (and written if they existed). */
    private final List<HashSet<ByteBuffer>> touched;
    private long preservedBytes;

    private PartitionSnapshot(Partition partition, Sink sink) {
        this.partition = partition;
        this.sink = sink;
        int databases = partition.databaseCount();
        cursors = new long[databases];
        touched = new ArrayList<>(databases);
        for (int i = 0; i < databases; i++) {
            cursors[i] = partition.table(i).size() == 0 ? DONE : NOT_STARTED;
            touched.add(new HashSet<>());
        }
    }

    /**
     * The epoch: a snapshot installed on every partition of the keyspace {@code databases} views,
     * each feeding the sink {@code sinks} gives for its partition number. The caller holds the
     * whole keyspace.
     */
    public static PartitionSnapshot[] begin(List<Keyspace> databases, IntFunction<Sink> sinks) {
        Partition[] partitions = ((Database) databases.get(0)).partitions();
        PartitionSnapshot[] snapshots = new PartitionSnapshot[partitions.length];
        for (int i = 0; i < partitions.length; i++) {
            snapshots[i] = new PartitionSnapshot(partitions[i], sinks.apply(i));
            partitions[i].snapshot(snapshots[i]);
        }
        return snapshots;
    }

    /** Bytes of the entries written ahead of the walk because they were about to change: the copy-on-write size. */
    public long preservedBytes() {
        return preservedBytes;
    }

    /**
     * Walks up to {@code buckets} home buckets of the first database not yet done, handing each
     * live entry not written yet to the sink. True once every database is done: the snapshot is
     * then removed from its partition.
     */
    public boolean step(int buckets) {
        for (int database = 0; database < cursors.length; database++) {
            if (cursors[database] != DONE) {
                walk(database, buckets);
                return false;
            }
        }
        partition.snapshot(null);
        return true;
    }

    private void walk(int database, int buckets) {
        DatabaseTable table = partition.table(database);
        if (table.size() == 0) {
            done(database);
            return;
        }
        long now = partition.now();
        List<byte[]> keys = new ArrayList<>();
        long cursor = cursors[database] == NOT_STARTED ? 0 : cursors[database];
        long next = table.scan(cursor, buckets, now, keys::add, key -> { });
        cursors[database] = next == 0 ? DONE : next;
        HashSet<ByteBuffer> skip = touched.get(database);
        for (byte[] key : keys) {
            if (skip.isEmpty() || !skip.remove(ByteBuffer.wrap(key))) {
                write(database, table, key, 0, key.length, now);
            }
        }
        if (next == 0) {
            done(database);
        }
    }

    /** Writes every entry of {@code database} not written yet, at once: before the whole table changes. */
    void finish(int database) {
        if (cursors[database] != DONE) {
            walk(database, Integer.MAX_VALUE);
            done(database);
        }
    }

    /** Ends the snapshot without writing the rest (the save failed or was stopped). */
    public void abandon() {
        partition.snapshot(null);
    }

    private void done(int database) {
        cursors[database] = DONE;
        touched.get(database).clear();
    }

    /** Called before a key of {@code database} is read for a change or changed. */
    void preserve(int database, byte[] key, int offset, int length) {
        if (cursors[database] == DONE || walked(database, key, offset, length)) {
            return;
        }
        DatabaseTable table = partition.table(database);
        if (table.size() == 0) {
            done(database);
            return;
        }
        if (touched.get(database).add(ByteBuffer.wrap(Arrays.copyOfRange(key, offset, offset + length)))) {
            preservedBytes += write(database, table, key, offset, length, partition.now());
        }
    }

    /** Hands the live entry to the sink: its bytes, 0 when the key is absent. The value is read last: it may be a view. */
    private int write(int database, DatabaseTable table, byte[] key, int offset, int length, long now) {
        int access = table.access(key, offset, length, now);
        if (access < 0) {
            return 0;
        }
        long expireAt = table.expireAt(key, offset, length, now);
        Object value = table.peek(key, offset, length, now);
        if (value == null) {
            return 0;
        }
        byte[] copy = offset == 0 && length == key.length ? key : Arrays.copyOfRange(key, offset, offset + length);
        return sink.entry(database, copy, value, expireAt == Keyspace.NO_EXPIRY ? -1 : expireAt, access);
    }

    /**
     * Whether the walk passed the key's home bucket: its bucket, under the capacity the cursor was
     * issued for, comes before the cursor in bit-reversed order. A table grown since only adds
     * high bits to buckets, which reversed fall below every bit the cursor compares.
     */
    private boolean walked(int database, byte[] key, int offset, int length) {
        long cursor = cursors[database];
        if (cursor == NOT_STARTED) {
            return false;
        }
        int log2 = (int) (cursor >>> 32);
        int mask = log2 >= 32 ? -1 : (1 << log2) - 1;
        int bucket = TableHash.of(key, offset, length) & mask;
        return Integer.compareUnsigned(Integer.reverse(bucket), Integer.reverse((int) cursor)) < 0;
    }
}
