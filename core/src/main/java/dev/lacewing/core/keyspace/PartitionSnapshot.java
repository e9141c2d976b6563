package dev.lacewing.core.keyspace;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ValueView;
import dev.lacewing.api.storage.Table;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One partition's part of a point-in-time image (BGSAVE without fork), written out while the
 * partition keeps serving. Every database table is walked in SCAN's order ({@link #step}); an
 * entry about to be touched before the walk reached it is handed to the sink first
 * ({@link #preserve}, called by {@link Database} before every access that may change a key), so
 * what the sink receives is exactly the partition as it was at the epoch, each key once.
 *
 * <p>Why this is exact: the walk is the table's SCAN ({@link Table#scanEntries}), which growth
 * never makes revisit a key (the compact storage's is Redis's dictScan over home buckets in
 * bit-reversed cursor order). A key is behind the cursor or ahead of it, as the table judges it
 * ({@link Table#visited}). Ahead of it, the first touch
 * writes the key's epoch value (or, for a key absent at the epoch, nothing) and remembers the key,
 * and the walk skips a remembered key when it gets there (it gets there once); behind it, the key
 * was written already.
 * A table only shrinks when it empties, which means every epoch key in it was written or touched
 * first, so an empty table ends its walk.
 *
 * <p>Memory: the keys touched ahead of the walk, packed in a {@link KeySet} (their bytes and about
 * 16 more each) until their database's walk ends, plus what the sinks keep. Entries go to the sinks
 * read in place ({@link Table#scanEntries}, {@link Table#readEntry}): a string is
 * a view of the table's page, so the walk allocates nothing per entry; a string the storage holds
 * out of memory comes as a handle the sink takes, read later by the saving thread. Keys deleted by active
 * expiry are not preserved: their time had passed, so a load would drop them anyway; an eviction
 * preserves its key first.
 *
 * <p>Thread rule: every method runs on the thread holding the partition.
 */
public final class PartitionSnapshot {

    /** Receives the image's entries, each key once. */
    public interface Sink {
        /**
         * One entry, read in place: the key is {@code key[offset, offset + length)} and the value
         * a view of it, both valid only during the call; the expiry {@link Keyspace#NO_EXPIRY} (-1)
         * for none. Returns the bytes the entry took
         * ({@link #preservedBytes} sums them for entries written early).
         */
        int entry(int database, byte[] key, int offset, int length, ValueView value, long expireAt, int access);
    }

    private static final long NOT_STARTED = -1;
    private static final long DONE = -2;

    private final Partition partition;
    /** Receives the entries written early, because they were about to change. */
    private final Sink early;
    /** Per database: the walk's next cursor, {@link #NOT_STARTED} or {@link #DONE}. */
    private final long[] cursors;
    /** Per database: keys ahead of the walk that were touched since the epoch (and written if they existed). */
    private final KeySet[] touched;
    private final ValueView view = new ValueView();
    private long preservedBytes;
    /** The database {@link #preserving} writes for: one reader for every preserve, no capture per call. */
    private int preservingDatabase;
    private final Table.EntryReader preserving = this::preserved;

    private PartitionSnapshot(Partition partition, Sink early) {
        this.partition = partition;
        this.early = early;
        int databases = partition.databaseCount();
        cursors = new long[databases];
        touched = new KeySet[databases];
        for (int i = 0; i < databases; i++) {
            cursors[i] = partition.table(i).size() == 0 ? DONE : NOT_STARTED;
            touched[i] = new KeySet();
        }
        view.takesHandles(true);
    }

    /**
     * The epoch: a snapshot installed on every partition of the keyspace {@code databases} views,
     * each writing the entries it preserves early into the sink {@code sinks} gives for its
     * partition number. The caller holds the whole keyspace.
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
     * live entry not written yet to {@code sink}. True once every database is done: the snapshot is
     * then removed from its partition.
     */
    public boolean step(int buckets, Sink sink) {
        for (int database = 0; database < cursors.length; database++) {
            if (cursors[database] != DONE) {
                walk(database, buckets, sink);
                return false;
            }
        }
        partition.snapshot(null);
        return true;
    }

    private void walk(int database, int buckets, Sink sink) {
        Table table = partition.table(database);
        if (table.size() == 0) {
            done(database);
            return;
        }
        long cursor = cursors[database] == NOT_STARTED ? 0 : cursors[database];
        KeySet skip = touched[database];
        long next = table.scanEntries(cursor, buckets, partition.now(), view, (key, offset, length, value, expireAt, access) -> {
            if (!skip.contains(key, offset, length)) {
                sink.entry(database, key, offset, length, value, expireAt, access);
            }
        });
        view.clear();
        cursors[database] = next == 0 ? DONE : next;
        if (next == 0) {
            done(database);
        }
    }

    /** Writes every entry of {@code database} not written yet, at once: before the whole table changes. */
    void finish(int database) {
        if (cursors[database] != DONE) {
            walk(database, Integer.MAX_VALUE, early);
            done(database);
        }
    }

    /** Ends the snapshot without writing the rest (the save failed or was stopped). */
    public void abandon() {
        partition.snapshot(null);
    }

    private void done(int database) {
        cursors[database] = DONE;
        touched[database].clear();
    }

    /** Called before a key of {@code database} is read for a change or changed. */
    void preserve(int database, byte[] key, int offset, int length) {
        long cursor = cursors[database];
        if (cursor == DONE || cursor != NOT_STARTED && partition.table(database).visited(cursor, key, offset, length)) {
            return;
        }
        Table table = partition.table(database);
        if (table.size() == 0) {
            done(database);
            return;
        }
        if (touched[database].add(key, offset, length)) {
            preservingDatabase = database;
            table.readEntry(key, offset, length, partition.now(), view, preserving);
            view.clear();
        }
    }

    private void preserved(byte[] key, int offset, int length, ValueView value, long expireAt, int access) {
        preservedBytes += early.entry(preservingDatabase, key, offset, length, value, expireAt, access);
    }
}
