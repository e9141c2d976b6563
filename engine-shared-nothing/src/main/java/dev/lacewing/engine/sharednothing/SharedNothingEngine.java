package dev.lacewing.engine.sharednothing;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.EngineContext;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StorageEngine;
import dev.lacewing.api.Workers;
import dev.lacewing.core.keyspace.KeyspaceLayout;
import dev.lacewing.core.keyspace.MemoryPolicy;
import dev.lacewing.core.keyspace.Partition;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
import java.util.BitSet;

/**
 * Dragonfly-style shared-nothing: shard {@code i} is owned by worker {@code i}, and only that
 * thread touches it. A command whose keys all live on the connection's own shard runs inline; a
 * command whose keys all live on one other shard hops there as a message and its completion
 * hops back, taking along the connection's following pipelined commands for that shard; a command over several shards (or the whole keyspace) is a {@link Transaction}:
 * the one door for multi-shard work, which later serves MULTI/EXEC and EVAL too. A command that may
 * wake a BLMOVE waiting to move to another shard is one as well, over both shards
 * ({@link #servingReach}), so the move is served before any later command sees the element.
 *
 * <p>Thread rule: shard state is touched by its worker, or by the coordinator while the
 * worker is parked by a transaction.
 */
final class SharedNothingEngine implements StorageEngine {

    /**
     * Commands one hop runs for a connection before it hops back: bounds how long one client's
     * pipeline holds a shard's thread, while other connections' hops queue behind it.
     */
    private static final int HOP_BATCH = 64;

    private final PartitionedKeyspace keyspace;
    private final Workers workers;
    private final Transaction.Coordinator coordinator;

    SharedNothingEngine(EngineContext context) {
        workers = context.workers();
        keyspace = new PartitionedKeyspace(workers.count(), context.databases(),
            KeyspaceLayout.named(context.settings().get("keyspace-layout", "compact")),
            MemoryPolicy.of(context.settings()), System::currentTimeMillis, context.clientBufferBytes());
        coordinator = new Transaction.Coordinator(workers, this::servingReach);
        for (int shard = 0; shard < workers.count(); shard++) {
            int owned = shard;
            workers.scheduleRepeating(shard,
                () -> keyspace.partition(owned).expireCycle(System.currentTimeMillis(), 250_000),
                () -> Partition.cyclePeriodMillis(context.settings()));
        }
    }

    @Override
    public boolean execute(Invocation invocation) {
        int shards = keyspace.partitionCount();
        if (invocation.scope() == KeyScope.ALL) {
            if (shards == 1) {
                invocation.run();
                return true;
            }
            coordinator.submit(invocation, Transaction.allShards(shards));
            return false;
        }
        long involved = shardsOf(invocation);
        if (Long.bitCount(involved) == 1) {
            int target = Long.numberOfTrailingZeros(involved);
            if (target == invocation.homeWorker()) {
                long reach = servingReach(invocation, involved);
                if (reach != involved) {
                    coordinator.submit(invocation, reach);
                    return false;
                }
                invocation.run();
                return true;
            }
            workers.executor(target).execute(() -> runOnShard(invocation, target));
            return false;
        }
        coordinator.submit(invocation, involved);
        return false;
    }

    /**
     * Runs a command that hopped to {@code shard}, then, while the connection's next pipelined
     * requests are already buffered and name only keys of this shard, those too, before hopping
     * back once: a hop round trip costs tens of microseconds of wakeups, a command far less.
     */
    private void runOnShard(Invocation invocation, int shard) {
        long own = 1L << shard;
        int ran = 0;
        do {
            long reach = servingReach(invocation, own);
            if (reach != own) {
                coordinator.submit(invocation, reach);
                return;
            }
            invocation.run();
        } while (++ran < HOP_BATCH && invocation.advance() && shardsOf(invocation) == own);
        invocation.completed();
    }

    /**
     * The shards a command must hold: {@code held} (its keys' shards, which the caller holds), and
     * those that serving the blocked clients it may wake could reach, found through the registries
     * of {@code held} ({@link PartitionedKeyspace#addServingReach}); more than {@code held} only
     * while a BLMOVE waits on one of its keys to move elsewhere. A caller that gets more runs the
     * command as a transaction, which asks again once it holds them.
     */
    private long servingReach(Invocation invocation, long held) {
        boolean mayLeave = false;
        for (long shards = held; shards != 0 && !mayLeave; shards &= shards - 1) {
            mayLeave = keyspace.servingMayLeave(Long.numberOfTrailingZeros(shards));
        }
        if (!mayLeave || invocation.scope() == KeyScope.ALL) {
            return held;
        }
        BitSet reach = BitSet.valueOf(new long[] {held});
        keyspace.addServingReach(invocation, reach);
        return reach.toLongArray()[0];
    }

    /**
     * Evicts from the shards the invocation holds: its keys' shards, or all of them for a command
     * over the whole keyspace (parked by its transaction, or the only one). A keyless command holds
     * none and only learns whether memory is over the limit.
     */
    @Override
    public boolean reclaimMemory(Invocation invocation) {
        if (keyspace.memory().maxmemory() == 0) {
            return true;
        }
        if (invocation.scope() == KeyScope.ALL) {
            return keyspace.reclaimAll();
        }
        long involved = invocation.scope() == KeyScope.KEYS ? shardsOf(invocation) : 0;
        int[] shards = new int[Long.bitCount(involved)];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = Long.numberOfTrailingZeros(involved);
            involved &= involved - 1;
        }
        return keyspace.reclaim(shards, shards.length);
    }

    /** The set of shards the invocation's keys live on, one bit per shard. */
    private long shardsOf(Invocation invocation) {
        Arguments args = invocation.arguments();
        int keys = invocation.keyCount();
        long involved = 0;
        for (int i = 0; i < keys; i++) {
            int argument = invocation.keyArgument(i);
            involved |= 1L << keyspace.partitionOf(args.array(), args.offset(argument), args.length(argument));
        }
        return involved;
    }

    @Override
    public Keyspace keyspace(int index) {
        return keyspace.database(index);
    }

    @Override
    public void swapDatabases(int first, int second) {
        keyspace.swapDatabases(first, second);
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
    public void close() {
        coordinator.close();
    }
}
