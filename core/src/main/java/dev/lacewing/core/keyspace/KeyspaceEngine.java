package dev.lacewing.core.keyspace;

import dev.lacewing.api.StorageEngine;

/**
 * An engine over a {@link PartitionedKeyspace}: the figures INFO and the metrics endpoint read,
 * which every such engine takes from the keyspace alike (a shard of the metrics is a partition).
 * Subclasses decide who runs what where. Thread rule: the figures are racy reads from any thread.
 */
public abstract class KeyspaceEngine implements StorageEngine {

    protected final PartitionedKeyspace keyspace;

    protected KeyspaceEngine(PartitionedKeyspace keyspace) {
        this.keyspace = keyspace;
    }

    /** Core's own database: what the server's WATCH, blocking, tracking and gathered views reach. */
    @Override
    public Database keyspace(int index) {
        return keyspace.database(index);
    }

    @Override
    public void swapDatabases(int first, int second) {
        keyspace.swapDatabases(first, second);
    }

    /**
     * Whether the thread that ran a command for another thread's connection writes the reply on the
     * socket itself, where the transport gives a direct write ({@code NettyTransport#socketWrite}),
     * instead of handing the connection back to its event loop first; read once, before the server
     * accepts connections. False by default: an engine that never runs a connection's command
     * elsewhere has nothing to write.
     */
    public boolean writesRepliesWhereRun() {
        return false;
    }

    /** {@link PartitionedKeyspace#changedWithoutKey}: a change the dirty counter counts that no key holds. */
    public void changedWithoutKey() {
        keyspace.changedWithoutKey();
    }

    /** {@link PartitionedKeyspace#maxmemoryChanged}: CONFIG SET maxmemory evicts at once. */
    public boolean maxmemoryChanged(Runnable firstRunsEnded) {
        return keyspace.maxmemoryChanged(firstRunsEnded);
    }

    @Override
    public long usedMemory() {
        return keyspace.liveMemory();
    }

    @Override
    public long allocatedMemory() {
        return keyspace.allocatedMemory();
    }

    @Override
    public long evictedKeys() {
        return keyspace.evictedKeys();
    }

    @Override
    public long expiredKeys() {
        return keyspace.expiredKeys();
    }

    @Override
    public long approximateSize(int index) {
        return keyspace.approximateSize(index);
    }

    @Override
    public long approximateExpiringSize(int index) {
        return keyspace.approximateExpiringSize(index);
    }

    @Override
    public int shardCount() {
        return keyspace.partitionCount();
    }

    @Override
    public long approximateShardSize(int shard) {
        return keyspace.partition(shard).keyCount();
    }

    @Override
    public long shardMemory(int shard) {
        return keyspace.partition(shard).liveMemory();
    }
}
