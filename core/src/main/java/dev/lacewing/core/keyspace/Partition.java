package dev.lacewing.core.keyspace;

import dev.lacewing.api.Settings;
import dev.lacewing.api.storage.EvictionCandidates;
import dev.lacewing.api.storage.PartitionStore;
import dev.lacewing.api.storage.Table;
import java.util.Arrays;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * A range of hash slots across every database: one {@link Table} per database. The unit an
 * engine hands to a thread: a shard in the shared-nothing engine, a lock stripe in the
 * multithread engine.
 *
 * <p>It also evicts its own keys when the keyspace is over {@code maxmemory} ({@link #evictOne}),
 * with its own {@link EvictionPool}: eviction is per partition because only a partition's owner
 * may touch it, as Dragonfly evicts per shard.
 *
 * <p>Thread rule: touched only by the thread the engine grants it to; the counters are read
 * without synchronization by INFO, which tolerates stale values.
 */
public final class Partition {

    /** Slots examined per database in one active-expiry step. */
    private static final int EXPIRY_SLOTS_PER_STEP = 2048;

    /** Rounds of sampling one eviction may take when every pooled key has gone meanwhile. */
    private static final int EVICTION_ROUNDS = 16;

    private final Table[] databases;
    private final PartitionStore store;
    private final BlockedKeys blockedKeys = new BlockedKeys();
    private final WatchedKeys watchedKeys = new WatchedKeys();
    private final TrackedKeys trackedKeys = new TrackedKeys();
    private final MemoryPolicy memory;
    private final LongSupplier clock;
    private final EvictionPool pool = new EvictionPool();
    /*
     * One receiver for every sample, not a capturing lambda per database per eviction: those were
     * half of what an eviction load allocated (JFR).
     */
    private final PoolOffers poolOffers = new PoolOffers();
    /** The database random eviction starts from next, as Redis's next_db. */
    private int nextRandomDatabase;
    private long evictedCount;
    /** The BGSAVE walking this partition, or null: set and cleared by the partition's holder. */
    private PartitionSnapshot snapshot;
    /** Changes to keys since start-up, as Redis's server.dirty counts them ({@link Database}). */
    private long dirty;
    /** Set once, before clients connect; NONE for a keyspace without a server. */
    private volatile KeyspaceListener listener = KeyspaceListener.NONE;

    /** A partition whose tables {@code store} makes, one per database. */
    public Partition(int databases, PartitionStore store, MemoryPolicy memory, LongSupplier clock) {
        this.memory = memory;
        this.clock = clock;
        this.store = store;
        this.databases = new Table[databases];
        for (int i = 0; i < databases; i++) {
            Table table = store.newTable();
            table.events(new TableEvents(table));
            this.databases[i] = table;
        }
    }

    PartitionSnapshot snapshot() {
        return snapshot;
    }

    void snapshot(PartitionSnapshot snapshot) {
        this.snapshot = snapshot;
    }

    long now() {
        return clock.getAsLong();
    }

    void dirty(long changes) {
        dirty += changes;
        ThreadChanges.add(changes);
    }

    /** Changes to this partition's keys since start-up; read racily. */
    public long dirty() {
        return dirty;
    }

    /** Sets who hears the keys created, expired and evicted here. */
    public void listen(KeyspaceListener listener) {
        this.listener = listener;
    }

    /**
     * One table's events, told under the database the table is now: SWAPDB moves tables between
     * databases, so the index is looked up when an event happens (a pass over the databases).
     */
    private final class TableEvents implements Table.Events {

        private final Table table;

        TableEvents(Table table) {
            this.table = table;
        }

        @Override
        public void created(byte[] key, int offset, int length) {
            KeyspaceListener current = listener;
            if (current != KeyspaceListener.NONE) {
                current.created(indexOf(table), key, offset, length);
            }
        }

        @Override
        public void expired(byte[] key, int offset, int length) {
            KeyspaceListener current = listener;
            if (current != KeyspaceListener.NONE) {
                current.expired(indexOf(table), key, offset, length);
            }
        }
    }

    private int indexOf(Table table) {
        for (int i = 0; i < databases.length; i++) {
            if (databases[i] == table) {
                return i;
            }
        }
        return 0;
    }

    public Table table(int database) {
        return databases[database];
    }

    /** The clients watching this partition's keys. */
    public WatchedKeys watchedKeys() {
        return watchedKeys;
    }

    /** The keys of this partition that tracking clients read. */
    public TrackedKeys trackedKeys() {
        return trackedKeys;
    }

    /** The clients blocked on this partition's keys. */
    public BlockedKeys blockedKeys() {
        return blockedKeys;
    }

    public int databaseCount() {
        return databases.length;
    }

    /**
     * SWAPDB for this partition's part of both databases. As Redis's swapdb does with
     * scanDatabaseForReadyKeys, a client blocked on a key of either database that now exists there
     * is signalled, and served once the command is done if the value is of the kind it waits for.
     */
    public void swap(int first, int second) {
        if (snapshot != null) {
            snapshot.finish(first);
            snapshot.finish(second);
        }
        // Redis's touchAllWatchedKeysInDb: a watched key that exists on either side changes.
        long before = clock.getAsLong();
        Table one = databases[first];
        Table other = databases[second];
        Predicate<byte[]> inEither = key -> one.peek(key, 0, key.length, before) != null
            || other.peek(key, 0, key.length, before) != null;
        watchedKeys.touchWhere(first, inEither);
        watchedKeys.touchWhere(second, inEither);
        Table table = databases[first];
        databases[first] = databases[second];
        databases[second] = table;
        if (!blockedKeys.isEmpty()) {
            long now = clock.getAsLong();
            blockedKeys.signalExisting(first, databases[first], now);
            blockedKeys.signalExisting(second, databases[second], now);
        }
    }

    public void clearAll() {
        for (int i = 0; i < databases.length; i++) {
            if (snapshot != null) {
                snapshot.finish(i);
            }
            dirty(databases[i].size());
            databases[i].clear();
        }
    }

    /**
     * Milliseconds between two active-expiry cycles: 1000 / {@code hz}, read at each cycle so that
     * CONFIG SET hz applies at once (the setting is already clamped to 1..500, as Redis clamps it).
     */
    public static long cyclePeriodMillis(Settings settings) {
        return 1000 / Math.max(1, Math.min(500, settings.getLong("hz", 10)));
    }

    /**
     * One active-expiry step, as Redis's activeExpireCycle: examine a bounded number of slots in
     * each database, and keep going while a quarter or more of what was examined had expired,
     * within {@code budgetNanos}.
     */
    public void expireCycle(long now, long budgetNanos) {
        long deadline = System.nanoTime() + budgetNanos;
        for (Table table : databases) {
            while (table.expiringSize() > 0) {
                int deleted = table.expireSome(now, EXPIRY_SLOTS_PER_STEP);
                if (deleted * 4 < Math.min(EXPIRY_SLOTS_PER_STEP, table.expiringSize() + deleted)
                    || System.nanoTime() > deadline) {
                    break;
                }
            }
        }
    }

    /** Bytes the tables hold; racy. */
    public long usedMemory() {
        long total = 0;
        for (Table table : databases) {
            total += table.usedMemory();
        }
        return total;
    }

    /** Keys in every database of this partition: one size read per database; racy. */
    public long keyCount() {
        long total = 0;
        for (Table table : databases) {
            total += table.size();
        }
        return total;
    }

    /** Live bytes of the tables ({@link Table#liveMemory}); racy. */
    public long liveMemory() {
        long total = 0;
        for (Table table : databases) {
            total += table.liveMemory();
        }
        return total;
    }

    /** Keys evicted from this partition; racy. */
    public long evictedCount() {
        return evictedCount;
    }

    /** Asks the storage to move about {@code bytes} of values out of memory ({@link PartitionStore#offload}); the bytes freed. */
    public long offload(long bytes, long now) {
        return store.offload(bytes, now);
    }

    /**
     * Evicts one key by the current {@code maxmemory-policy}, as Redis's performEvictions picks
     * one: a random key of the next database that has candidates, or the best of the eviction
     * pool after sampling {@code maxmemory-samples} keys of every database. False when no key is
     * a candidate (noeviction, or a volatile policy and no key with an expiry).
     */
    public boolean evictOne(long now) {
        EvictionPolicy policy = memory.policy();
        boolean volatileOnly = policy.volatileOnly();
        return switch (policy.victim()) {
            case NONE -> false;
            case RANDOM -> evictRandom(volatileOnly, now);
            default -> evictFromPool(policy.victim(), volatileOnly, now);
        };
    }

    private boolean evictRandom(boolean volatileOnly, long now) {
        byte[][] picked = new byte[1][];
        for (int round = 0; round < EVICTION_ROUNDS && hasCandidates(volatileOnly); round++) {
            for (int n = 0; n < databases.length; n++) {
                Table table = databases[nextRandomDatabase];
                nextRandomDatabase = (nextRandomDatabase + 1) % databases.length;
                if (table.sample(1, volatileOnly, (key, offset, length, access, expireAt) ->
                    picked[0] = Arrays.copyOfRange(key, offset, offset + length)) > 0
                    && evict(table, nextRandomDatabase == 0 ? databases.length - 1 : nextRandomDatabase - 1, picked[0], now)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether {@link #evictOne} has a key to take under the current policy: any key, or any key
     * with an expiry under a volatile policy; never under noeviction. One size read per database;
     * racy, so another thread may ask it.
     */
    public boolean hasEvictionCandidates() {
        EvictionPolicy policy = memory.policy();
        return policy.victim() != EvictionPolicy.Victim.NONE && hasCandidates(policy.volatileOnly());
    }

    private boolean hasCandidates(boolean volatileOnly) {
        for (Table table : databases) {
            if ((volatileOnly ? table.expiringSize() : table.size()) > 0) {
                return true;
            }
        }
        return false;
    }

    private boolean evictFromPool(EvictionPolicy.Victim victim, boolean volatileOnly, long now) {
        int samples = memory.samples();
        for (int round = 0; round < EVICTION_ROUNDS; round++) {
            if (!hasCandidates(volatileOnly)) {
                pool.clear();
                return false;
            }
            poolOffers.victim = victim;
            poolOffers.now = now;
            for (int db = 0; db < databases.length; db++) {
                poolOffers.database = db;
                databases[db].sample(samples, volatileOnly, poolOffers);
            }
            while (!pool.isEmpty()) {
                byte[] key = pool.bestKey();
                int database = pool.bestDatabase();
                Table table = databases[database];
                pool.removeBest();
                if (evict(table, database, key, now)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Scores the sampled keys of one database for the pool; set before each table's sample. */
    private final class PoolOffers implements EvictionCandidates {

        private EvictionPolicy.Victim victim;
        private long now;
        private int database;

        @Override
        public void offer(byte[] key, int keyOffset, int keyLength, int access, long expireAt) {
            pool.offer(memory.evictionScore(victim, access, expireAt, now), database, key, keyOffset, keyLength);
        }
    }

    /** Deletes a key as an eviction; false when it is gone already (deleted, or expired meanwhile). */
    private boolean evict(Table table, int database, byte[] key, long now) {
        if (snapshot != null) {
            snapshot.preserve(database, key, 0, key.length);
        }
        if (!table.remove(key, 0, key.length, now)) {
            return false;
        }
        watchedKeys.touch(database, key, 0, key.length);
        evictedCount++;
        listener.evicted(database, key, 0, key.length);
        return true;
    }

    public long expiredCount() {
        long total = 0;
        for (Table table : databases) {
            total += table.expiredCount();
        }
        return total;
    }
}
