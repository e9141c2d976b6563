package dev.lacewing.core.keyspace;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.api.storage.Table;
import dev.lacewing.core.datatype.TypedValue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

/**
 * One database seen across all partitions: routes each key to its partition by hash slot. Both
 * engines hand commands this same view; what differs is who may touch which partition when.
 *
 * <p>Thread rule: a command may only touch keys of partitions the engine granted it.
 */
public final class Database implements Keyspace {

    private final int index;
    private final Partition[] partitions;
    /** The changes no key holds, shared by every database (PartitionedKeyspace#changedWithoutKey). */
    private final LongAdder keylessChanges;
    private final LongSupplier clock;
    /**
     * The partitions a scan step may go on into: those the running command holds, where each
     * partition belongs to one thread and SCAN may run on one shard per call (see
     * {@link PartitionedKeyspace#scanReach}); every partition otherwise.
     */
    private IntPredicate scanReach = partition -> true;

    public Database(int index, Partition[] partitions, LongAdder keylessChanges, LongSupplier clock) {
        this.index = index;
        this.partitions = partitions;
        this.keylessChanges = keylessChanges;
        this.clock = clock;
    }

    private Table table(byte[] key, int offset, int length) {
        return partitions[Slots.partitionOf(key, offset, length, partitions.length)].table(index);
    }

    /**
     * The key's partition, once a running BGSAVE has written the key's epoch value if it was about
     * to (see {@link PartitionSnapshot}): every access that may lead to a change comes through here,
     * reads by a command included, since an aggregate is changed in place after being read.
     */
    private Partition changing(byte[] key, int offset, int length) {
        Partition partition = partitions[Slots.partitionOf(key, offset, length, partitions.length)];
        PartitionSnapshot snapshot = partition.snapshot();
        if (snapshot != null) {
            snapshot.preserve(index, key, offset, length);
        }
        return partition;
    }

    /** A store: the key changed, one more for the dirty counter, its watchers flagged. */
    private Table stored(byte[] key, int offset, int length) {
        Partition partition = changing(key, offset, length);
        changed(partition, key, offset, length);
        return partition.table(index);
    }

    /**
     * A command changed the key: one more for the dirty counter (Redis's server.dirty) and its
     * watchers' EXEC fails (signalModifiedKey). Signalling here, where a change happens, rather than
     * for every key a write command names, leaves a WATCH alone when the write changed nothing (DEL of
     * a missing key, SREM of a missing member, ZADD XX of a missing one), as Redis does.
     */
    private void changed(Partition partition, byte[] key, int offset, int length) {
        changed(partition, key, offset, length, 1);
    }

    /** As the one-change form, counting {@code changes}: watchers are flagged even when that is 0. */
    private void changed(Partition partition, byte[] key, int offset, int length, long changes) {
        if (changes != 0) {
            partition.dirty(changes);
        }
        touchWatchers(partition, key, offset, length);
    }

    private void touchWatchers(Partition partition, byte[] key, int offset, int length) {
        if (WatchedKeys.anyWatched()) {
            partition.watchedKeys().touch(index, key, offset, length);
        }
    }

    Partition[] partitions() {
        return partitions;
    }

    public int partitionCount() {
        return partitions.length;
    }

    /** Changes to this keyspace's keys (every database) since start-up, as Redis's server.dirty; read racily. */
    public long dirty() {
        long total = keylessChanges.sum();
        for (Partition partition : partitions) {
            total += partition.dirty();
        }
        return total;
    }

    @Override
    public Object get(byte[] key, int offset, int length) {
        return changing(key, offset, length).table(index).get(key, offset, length, clock.getAsLong());
    }

    @Override
    public Object peek(byte[] key, int offset, int length) {
        return changing(key, offset, length).table(index).peek(key, offset, length, clock.getAsLong());
    }

    @Override
    public int access(byte[] key, int offset, int length) {
        return table(key, offset, length).access(key, offset, length, clock.getAsLong());
    }

    @Override
    public boolean setAccess(byte[] key, int offset, int length, int access) {
        return table(key, offset, length).setAccess(key, offset, length, access, clock.getAsLong());
    }

    @Override
    public boolean getValue(byte[] key, int offset, int length, ValueView view) {
        return changing(key, offset, length).table(index).getValue(key, offset, length, clock.getAsLong(), view);
    }

    /**
     * Whether the key's value can be read now without waiting for I/O ({@link Table#resident}):
     * false once the storage started reading it, and {@code ready} follows on the storage's thread.
     */
    public boolean resident(byte[] key, int offset, int length, Runnable ready) {
        return table(key, offset, length).resident(key, offset, length, clock.getAsLong(), ready);
    }

    @Override
    public void putString(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength,
                          long expireAt) {
        stored(key, offset, length).putString(key, offset, length, value, valueOffset, valueLength, expireAt);
    }

    /**
     * A value changed in place (ZADD, ZINCRBY, a push to an existing key) signals waiters as a store
     * does. Redis 7.0 signals only on dbAdd, relying on the invariant that a key holding something
     * has no waiters left once the serving loop finished with it; signalling here as well costs O(1)
     * while nobody in the partition waits, and keeps blocked clients from depending on that
     * invariant: however a waited key gains something, its waiters are checked ({@code ready}).
     */
    @Override
    public void modified(byte[] key, int offset, int length, long changes) {
        Partition partition = changing(key, offset, length);
        changed(partition, key, offset, length, changes);
        partition.table(index).modified(key, offset, length, clock.getAsLong());
        partition.blockedKeys().signal(index, key, offset, length);
    }

    @Override
    public void modifiedUnwatched(byte[] key, int offset, int length, long changes) {
        Partition partition = changing(key, offset, length);
        if (changes != 0) {
            partition.dirty(changes);
        }
        partition.table(index).modified(key, offset, length, clock.getAsLong());
        partition.blockedKeys().signal(index, key, offset, length);
    }

    @Override
    public void changed(byte[] key, int offset, int length, long changes) {
        if (changes != 0) {
            partitions[Slots.partitionOf(key, offset, length, partitions.length)].dirty(changes);
        }
    }

    @Override
    public void edited(byte[] key, int offset, int length, long changes) {
        if (changes != 0) {
            changed(partitions[Slots.partitionOf(key, offset, length, partitions.length)], key, offset, length, changes);
        }
    }

    @Override
    public long expireAt(byte[] key, int offset, int length) {
        return table(key, offset, length).expireAt(key, offset, length, clock.getAsLong());
    }

    /**
     * Storing an aggregate is Redis's dbAdd for blocking: clients blocked on the key are served
     * once the running command is done ({@link BlockedKeys#signal}). A string never serves one.
     */
    @Override
    public void put(byte[] key, int offset, int length, Object value, long expireAt, long changes) {
        Partition partition = changing(key, offset, length);
        changed(partition, key, offset, length, changes);
        partition.table(index).put(key, offset, length, value, expireAt);
        if (value instanceof TypedValue) {
            partition.blockedKeys().signal(index, key, offset, length);
        }
    }

    @Override
    public void putKeepExpiry(byte[] key, int offset, int length, Object value) {
        Partition partition = changing(key, offset, length);
        changed(partition, key, offset, length);
        partition.table(index).putKeepExpiry(key, offset, length, value, clock.getAsLong());
        if (value instanceof TypedValue) {
            partition.blockedKeys().signal(index, key, offset, length);
        }
    }

    @Override
    public void putEncoded(byte[] key, int offset, int length, byte[] value, long expireAt,
                           StringEncoding encoding) {
        stored(key, offset, length).putEncoded(key, offset, length, value, expireAt, encoding);
    }

    @Override
    public void putEncodedKeepExpiry(byte[] key, int offset, int length, byte[] value, StringEncoding encoding) {
        stored(key, offset, length).putEncodedKeepExpiry(key, offset, length, value, clock.getAsLong(), encoding);
    }

    @Override
    public void reencode(byte[] key, int offset, int length, byte[] value, StringEncoding encoding) {
        changing(key, offset, length).table(index).putEncodedKeepExpiry(key, offset, length, value, clock.getAsLong(),
            encoding);
    }

    @Override
    public StringEncoding stringEncoding(byte[] key, int offset, int length) {
        return table(key, offset, length).stringEncoding(key, offset, length, clock.getAsLong());
    }

    @Override
    public boolean editString(byte[] key, int offset, int length, int minLength, ValueView view, long changes) {
        Partition partition = changing(key, offset, length);
        boolean edited = partition.table(index).editString(key, offset, length, minLength, clock.getAsLong(), view);
        if (edited && changes != 0) {
            changed(partition, key, offset, length, changes);
        }
        return edited;
    }

    @Override
    public long valueMemory(byte[] key, int offset, int length) {
        return table(key, offset, length).valueMemory(key, offset, length, clock.getAsLong());
    }

    /**
     * Visits every live key of this database, partition by partition ({@link Table#forEachLive}):
     * the caller holds them all, as a command over the whole keyspace does.
     */
    public void forEachLive(Table.EntryVisitor visitor) {
        long now = clock.getAsLong();
        for (Partition partition : partitions) {
            partition.table(index).forEachLive(now, visitor);
        }
    }

    @Override
    public int index() {
        return index;
    }

    /**
     * Sets who hears the keys created, expired and evicted in every partition, for every database
     * (the partitions are shared by all of them): the server's keyspace notifications, installed
     * once before clients connect.
     */
    public void listen(KeyspaceListener listener) {
        for (Partition partition : partitions) {
            partition.listen(listener);
        }
    }

    /** The registry of clients blocked on a key, that of the key's partition. */
    public BlockedKeys blockedKeys(byte[] key, int offset, int length) {
        return partitions[Slots.partitionOf(key, offset, length, partitions.length)].blockedKeys();
    }

    /** Whether two keys live in one partition, so that one thread's access to one covers the other. */
    public boolean samePartition(byte[] first, int firstOffset, int firstLength, byte[] second, int secondOffset,
                                 int secondLength) {
        return Slots.partitionOf(first, firstOffset, firstLength, partitions.length)
            == Slots.partitionOf(second, secondOffset, secondLength, partitions.length);
    }

    @Override
    public boolean setExpireAt(byte[] key, int offset, int length, long expireAt) {
        Partition partition = changing(key, offset, length);
        boolean set = partition.table(index).setExpireAt(key, offset, length, expireAt, clock.getAsLong());
        if (set) {
            changed(partition, key, offset, length);
        }
        return set;
    }

    @Override
    public boolean remove(byte[] key, int offset, int length, long changes) {
        Partition partition = changing(key, offset, length);
        boolean removed = partition.table(index).remove(key, offset, length, clock.getAsLong());
        if (removed) {
            changed(partition, key, offset, length, changes);
        }
        return removed;
    }

    /**
     * Takes a key out of its shard for a gathered command ({@code GatherRequest}), which puts it back
     * with {@link #putBack} once the command ran elsewhere: a move, not a change, so its watchers
     * are left alone (the gather flags them when the command changed the value). Its value, or null.
     */
    public Object takeOut(byte[] key, int offset, int length) {
        Partition partition = changing(key, offset, length);
        Table table = partition.table(index);
        long now = clock.getAsLong();
        Object value = table.get(key, offset, length, now);
        if (value != null) {
            table.remove(key, offset, length, now);
        }
        return value;
    }

    /**
     * Stores a key taken out by {@link #takeOut} again, as the command left it (a string's bytes with
     * their encoding, or an aggregate, or nothing when it deleted the key): clients blocked on it are
     * signalled as a store signals them; when the command {@code changed} it, its watchers are
     * flagged, and the dirty counter counts the {@code changes} the command made to it (RENAME's
     * removal of a moved key none), as they would have counted in place.
     */
    public void putBack(byte[] key, int offset, int length, Object value, long expireAt, StringEncoding encoding,
                        boolean changed, long changes) {
        Partition partition = changing(key, offset, length);
        partition.dirty(changes);
        if (changed) {
            touchWatchers(partition, key, offset, length);
        }
        if (value == null) {
            return;
        }
        Table table = partition.table(index);
        if (value instanceof byte[] bytes) {
            table.putEncoded(key, offset, length, bytes, expireAt, encoding);
        } else {
            table.put(key, offset, length, value, expireAt);
            partition.blockedKeys().signal(index, key, offset, length);
        }
    }

    @Override
    public long size() {
        long total = 0;
        for (Partition partition : partitions) {
            total += partition.table(index).size();
        }
        return total;
    }

    @Override
    public long expiringSize() {
        long total = 0;
        for (Partition partition : partitions) {
            total += partition.table(index).expiringSize();
        }
        return total;
    }

    /** A write command wrote the key: its watchers' EXEC fails (Redis's signalModifiedKey). */
    public void touchWatched(byte[] key, int offset, int length) {
        partitions[Slots.partitionOf(key, offset, length, partitions.length)].watchedKeys().touch(index, key, offset,
            length);
    }

    /** Clients watching the key, in the key's partition. */
    public WatchedKeys watchedKeys(byte[] key, int offset, int length) {
        return partitions[Slots.partitionOf(key, offset, length, partitions.length)].watchedKeys();
    }

    /** The tracking clients that read the key, in the key's partition. */
    public TrackedKeys trackedKeys(byte[] key, int offset, int length) {
        return partitions[Slots.partitionOf(key, offset, length, partitions.length)].trackedKeys();
    }

    /** Client ids over the keys tracked in every partition: INFO's tracking_total_items. */
    public long trackedItems() {
        long items = 0;
        for (Partition partition : partitions) {
            items += partition.trackedKeys().items();
        }
        return items;
    }

    /**
     * Emptying the database touches every watched key it held, as FLUSHDB and FLUSHALL do in Redis,
     * and forgets every tracked key, of any database, as Redis's trackingInvalidateKeysOnFlush does.
     */
    @Override
    public void clear() {
        long now = clock.getAsLong();
        for (Partition partition : partitions) {
            PartitionSnapshot snapshot = partition.snapshot();
            if (snapshot != null) {
                snapshot.finish(index);
            }
            Table table = partition.table(index);
            partition.dirty(table.size());
            partition.watchedKeys().touchWhere(index, key -> table.peek(key, 0, key.length, now) != null);
            partition.trackedKeys().clear();
            partition.table(index).clear();
        }
    }

    /**
     * The cursor is {@code tableCursor * partitions + partition}: partitions are scanned one after
     * another, each table keeping SCAN's guarantee for its own part ({@link Table#scan}). A table
     * cursor is below 2^38, so the composed one fits in 63 bits for any partition count below 2^25.
     * Cursors are unsigned, as SCAN's are; one the partition's table rejects ends that partition's
     * part of the scan rather than failing. A step ends with its partition when the next one is
     * out of {@link #scanReach}: the next cursor is that partition's start, or 0 when it and every
     * later one are empty.
     */
    @Override
    public long scan(long cursor, int count, Consumer<byte[]> visitor, Consumer<byte[]> expired) {
        int n = partitions.length;
        int partition = (int) Long.remainderUnsigned(cursor, n);
        long tableCursor = Long.divideUnsigned(cursor, n);
        long now = clock.getAsLong();
        int[] seen = new int[1];
        Consumer<byte[]> counting = key -> {
            seen[0]++;
            visitor.accept(key);
        };
        Consumer<byte[]> countingExpired = key -> {
            seen[0]++;
            expired.accept(key);
        };
        while (partition < n) {
            Table table = partitions[partition].table(index);
            long next = table.size() == 0 && tableCursor == 0 ? 0
                : table.scan(tableCursor, count, now, counting, countingExpired);
            if (next != 0) {
                return next * n + partition;
            }
            partition++;
            tableCursor = 0;
            // As Redis, return once a call has looked at enough; an empty partition costs nothing.
            // Where partitions belong to threads, a call never leaves those it was given, but
            // ends the scan when every later partition is empty (their sizes are read racily, as
            // INFO reads them: a key acknowledged before the SCAN was sent is seen), so a small
            // keyspace is still scanned in one call, as Redis does.
            if (partition < n && !scanReach.test(partition)) {
                return laterPartitionsEmpty(partition) ? 0 : partition;
            }
            if (partition < n && seen[0] >= count) {
                return partition;
            }
        }
        return 0;
    }

    private boolean laterPartitionsEmpty(int from) {
        for (int p = from; p < partitions.length; p++) {
            if (partitions[p].table(index).size() != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean scanStaysIn(long cursor, long next) {
        return scanReach.test((int) Long.remainderUnsigned(next, partitions.length));
    }

    void scanReach(IntPredicate reach) {
        scanReach = reach;
    }

    @Override
    public byte[] randomKey() {
        long total = size();
        if (total == 0) {
            return null;
        }
        long now = clock.getAsLong();
        for (int attempt = 0; attempt < 16; attempt++) {
            long pick = ThreadLocalRandom.current().nextLong(total);
            for (Partition partition : partitions) {
                Table table = partition.table(index);
                if (pick < table.size()) {
                    byte[] key = table.randomKey(now);
                    if (key != null) {
                        return key;
                    }
                    break;
                }
                pick -= table.size();
            }
            total = size();
            if (total == 0) {
                return null;
            }
        }
        return null;
    }
}
