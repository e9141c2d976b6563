package dev.lacewing.engine.sharednothing;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.EngineContext;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StorageEngine;
import dev.lacewing.api.Workers;
import dev.lacewing.core.keyspace.KeyspaceLayout;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
import java.util.concurrent.TimeUnit;

/**
 * Dragonfly-style shared-nothing: shard {@code i} is owned by worker {@code i}, and only that
 * thread touches it. A command whose keys all live on the connection's own shard runs inline; a
 * command whose keys all live on one other shard hops there as a message and its completion
 * hops back; a command over several shards (or the whole keyspace) is a {@link Transaction}:
 * the one door for multi-shard work, which later serves MULTI/EXEC and EVAL too.
 *
 * <p>Thread rule: shard state is touched by its worker, or by the coordinator while the
 * worker is parked by a transaction.
 */
final class SharedNothingEngine implements StorageEngine {

    private final PartitionedKeyspace keyspace;
    private final Workers workers;
    private final Transaction.Coordinator coordinator;

    SharedNothingEngine(EngineContext context) {
        workers = context.workers();
        keyspace = new PartitionedKeyspace(workers.count(), context.databases(),
            KeyspaceLayout.named(context.settings().get("keyspace-layout", "compact")));
        coordinator = new Transaction.Coordinator(workers);
        long hz = Math.max(1, Math.min(500, context.settings().getLong("hz", 10)));
        for (int shard = 0; shard < workers.count(); shard++) {
            int owned = shard;
            workers.scheduleAtFixedRate(shard,
                () -> keyspace.partition(owned).expireCycle(System.currentTimeMillis(), 250_000),
                1000 / hz, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public boolean execute(Invocation invocation) {
        int shards = keyspace.partitionCount();
        if (invocation.spec().scope() == KeyScope.ALL) {
            if (shards == 1) {
                invocation.run();
                return true;
            }
            coordinator.submit(invocation, Transaction.allShards(shards));
            return false;
        }
        Arguments args = invocation.arguments();
        int keys = invocation.keyCount();
        int argument = invocation.keyArgument(0);
        int target = keyspace.partitionOf(args.array(), args.offset(argument), args.length(argument));
        long involved = 1L << target;
        boolean oneShard = true;
        for (int i = 1; i < keys; i++) {
            argument = invocation.keyArgument(i);
            int shard = keyspace.partitionOf(args.array(), args.offset(argument), args.length(argument));
            if (shard != target) {
                oneShard = false;
                involved |= 1L << shard;
            }
        }
        if (oneShard) {
            if (target == invocation.homeWorker()) {
                invocation.run();
                return true;
            }
            workers.executor(target).execute(() -> {
                invocation.run();
                invocation.completed();
            });
            return false;
        }
        coordinator.submit(invocation, involved);
        return false;
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
        return keyspace.usedMemory();
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
