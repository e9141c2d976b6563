package dev.lacewing.api;

/**
 * A running storage engine: the policy that decides on which thread, under which locks, a
 * command runs against the keyspace. Created by a {@link StorageEngineProvider}.
 */
public interface StorageEngine extends AutoCloseable {

    /**
     * Runs an invocation. Returns true when it ran to completion on the calling thread; false
     * when it will run on another thread, in which case the engine calls
     * {@link Invocation#completed()} once it has.
     */
    boolean execute(Invocation invocation);

    /** The keyspace of database {@code index} as a command with exclusive access would see it. */
    Keyspace keyspace(int index);

    /** Swaps two databases; called by a command of scope {@link KeyScope#ALL}, so with exclusive access. */
    void swapDatabases(int first, int second);

    /** Keys deleted because their time had passed, for INFO; may be read from any thread. */
    long expiredKeys();

    /** Approximate key count of a database, for INFO; may be read from any thread. */
    long approximateSize(int index);

    /** Approximate count of keys with an expiry, for INFO; may be read from any thread. */
    long approximateExpiringSize(int index);

    /**
     * The parts the engine splits the keyspace into (a shared-nothing engine's shards, a locking
     * engine's lock stripes), for the per-shard figures of the metrics endpoint; 0 when it does
     * not split it.
     */
    default int shardCount() {
        return 0;
    }

    /** Approximate key count of shard {@code shard}, every database; may be read from any thread. */
    default long approximateShardSize(int shard) {
        throw new IndexOutOfBoundsException(shard);
    }

    /** Live bytes of shard {@code shard} as {@link #usedMemory} counts them; -1 when the storage cannot say. */
    default long shardMemory(int shard) {
        return -1;
    }

    /**
     * Bytes of the keyspace as Redis's used_memory counts its data: live entries and the
     * structures that index them, not space freed inside storage pages and awaiting reuse or
     * compaction (for Redis that is allocator fragmentation, seen only in RSS). The server adds
     * client buffers to it for INFO's used_memory, and the engine for the {@code maxmemory}
     * check; -1 when the storage cannot say without walking every key. May be read from any
     * thread.
     */
    default long usedMemory() {
        return -1;
    }

    /**
     * Bytes the storage holds for the keyspace: {@link #usedMemory} plus page space awaiting reuse
     * or compaction, what the heap keeps for it; -1 when the storage does not say. May be read
     * from any thread.
     */
    default long allocatedMemory() {
        return -1;
    }

    /**
     * Makes room before a command runs, as Redis's performEvictions does: called on the thread
     * about to run {@code invocation}, with its keys (or the whole keyspace) granted. When a
     * memory limit is set and exceeded, the engine evicts keys by its policy from the partitions
     * the invocation holds. False when memory stays over the limit and nothing more may go
     * (noeviction, or no candidate left): the server then refuses a command flagged
     * {@link CommandFlag#DENYOOM} with Redis's OOM error.
     */
    default boolean reclaimMemory(Invocation invocation) {
        return true;
    }

    /** Keys evicted to keep within the memory limit, for INFO; may be read from any thread. */
    default long evictedKeys() {
        return 0;
    }

    @Override
    void close();
}
