package dev.lacewing.engine.multithread;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.EngineContext;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Workers;
import dev.lacewing.api.storage.Storage;
import dev.lacewing.core.keyspace.KeyspaceEngine;
import dev.lacewing.core.keyspace.MemoryPolicy;
import dev.lacewing.core.keyspace.Partition;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One keyspace shared by all workers (KeyDB and Garnet style): the keyspace is split into lock
 * stripes by hash slot, and a command runs on the worker that read it, holding the locks of the
 * stripes its keys live in, taken in ascending order so that two commands never deadlock. A
 * command over the whole keyspace takes every lock. A command that may wake a BLMOVE waiting to
 * move to another stripe also takes that stripe ({@link #runWithServingReach}).
 *
 * <p>Thread rule: a stripe's partition is touched only by the thread holding its lock.
 */
final class MultithreadEngine extends KeyspaceEngine {

    /**
     * Stripes per worker: enough that two workers rarely want the same lock, and few, since each
     * stripe is a table of its own with its open page's unfilled end and a sixteenth of its pages
     * dead at most. The spare pages and the compaction floor (three pages) are held once by the
     * stripes together ({@link Storage#striped}), not once a stripe as when each stripe kept its
     * own (about 1.5 MiB of 256 KiB pages a stripe: with 16 stripes of 6 MiB at maxmemory 100mb
     * the pages held 1.20x the live bytes under an eviction load).
     */
    private static final int STRIPES_PER_WORKER = 4;

    private final ReentrantLock[] locks;
    private volatile boolean closed;

    MultithreadEngine(EngineContext context) {
        super(new PartitionedKeyspace(stripes(context), context.databases(), context.storage().striped(),
            MemoryPolicy.of(context.settings()), System::currentTimeMillis, context.clientBufferBytes()));
        int stripes = keyspace.partitionCount();
        locks = new ReentrantLock[stripes];
        for (int i = 0; i < stripes; i++) {
            locks[i] = new ReentrantLock();
        }
        Workers workers = context.workers();
        keyspace.evictionRunner(stripe -> workers.executeAfterIo(stripe % workers.count(), () -> evictQueued(stripe)));
        // CONFIG SET maxmemory evicts every stripe it can lock at once before it replies.
        keyspace.evictionHere((stripe, body) -> {
            ReentrantLock lock = locks[stripe];
            if (!lock.tryLock()) {
                return false;
            }
            try {
                body.run();
            } finally {
                lock.unlock();
            }
            return true;
        });
        context.workers().scheduleRepeating(0, this::expireCycle, () -> Partition.cyclePeriodMillis(context.settings()));
    }

    /** A queued eviction task ({@link PartitionedKeyspace#evictQueued}), holding the stripe's lock. */
    private void evictQueued(int stripe) {
        ReentrantLock lock = locks[stripe];
        lock.lock();
        try {
            keyspace.evictQueued(stripe);
        } finally {
            lock.unlock();
        }
    }

    /** A power of two, {@link #STRIPES_PER_WORKER} per worker or more. */
    private static int stripes(EngineContext context) {
        return Integer.highestOneBit(context.workers().count() * STRIPES_PER_WORKER * 2 - 1);
    }

    @Override
    public boolean execute(Invocation invocation) {
        if (invocation.scope() == KeyScope.ALL) {
            lockAll();
            try {
                invocation.run();
            } finally {
                unlockAll();
            }
            return true;
        }
        int keys = invocation.keyCount();
        Arguments args = invocation.arguments();
        if (keys == 1) {
            int argument = invocation.keyArgument(0);
            int stripe = keyspace.partitionOf(args.array(), args.offset(argument), args.length(argument));
            ReentrantLock lock = locks[stripe];
            lock.lock();
            try {
                if (!keyspace.servingMayLeave(stripe)) {
                    invocation.run();
                    return true;
                }
            } finally {
                lock.unlock();
            }
            runWithServingReach(invocation, keys);
            return true;
        }
        int[] stripes = new int[keys];
        int distinct = stripesOf(invocation, keys, stripes);
        for (int i = 0; i < distinct; i++) {
            locks[stripes[i]].lock();
        }
        try {
            if (!servingMayLeave(stripes, distinct)) {
                invocation.run();
                return true;
            }
        } finally {
            for (int i = distinct - 1; i >= 0; i--) {
                locks[stripes[i]].unlock();
            }
        }
        runWithServingReach(invocation, keys);
        return true;
    }

    private boolean servingMayLeave(int[] stripes, int count) {
        for (int i = 0; i < count; i++) {
            if (keyspace.servingMayLeave(stripes[i])) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs a command that may wake a BLMOVE waiting to move to another stripe: holding its keys'
     * stripes and those that serving may reach ({@link PartitionedKeyspace#addServingReach}), so
     * the move is served before any later command sees the element. Locks are only ever taken in
     * ascending order, so when the reach grows, all are let go and the larger set taken afresh,
     * and the reach asked again (it may have changed meanwhile); it only grows, so this ends.
     */
    private void runWithServingReach(Invocation invocation, int keys) {
        int[] keyStripes = new int[keys];
        BitSet wanted = new BitSet(locks.length);
        for (int i = 0, distinct = stripesOf(invocation, keys, keyStripes); i < distinct; i++) {
            wanted.set(keyStripes[i]);
        }
        while (true) {
            BitSet held = (BitSet) wanted.clone();
            for (int stripe = held.nextSetBit(0); stripe >= 0; stripe = held.nextSetBit(stripe + 1)) {
                locks[stripe].lock();
            }
            try {
                if (!keyspace.addServingReach(invocation, wanted)) {
                    invocation.run();
                    return;
                }
            } finally {
                for (int stripe = held.previousSetBit(locks.length - 1); stripe >= 0;
                     stripe = held.previousSetBit(stripe - 1)) {
                    locks[stripe].unlock();
                }
            }
        }
    }

    /**
     * Evicts from the stripes the invocation holds: its keys' stripes, or every stripe for a
     * command over the whole keyspace. A keyless command holds none and only learns whether
     * memory is over the limit.
     */
    @Override
    public boolean reclaimMemory(Invocation invocation) {
        if (keyspace.memory().maxmemory() == 0) {
            return true;
        }
        if (invocation.scope() == KeyScope.ALL) {
            return keyspace.reclaimAll();
        }
        int keys = invocation.scope() == KeyScope.KEYS ? invocation.keyCount() : 0;
        int[] stripes = new int[keys];
        return keyspace.reclaim(stripes, stripesOf(invocation, keys, stripes));
    }

    /** The distinct stripes of the invocation's first {@code keys} keys, ascending, into {@code stripes}; returns how many. */
    private int stripesOf(Invocation invocation, int keys, int[] stripes) {
        Arguments args = invocation.arguments();
        for (int i = 0; i < keys; i++) {
            int argument = invocation.keyArgument(i);
            stripes[i] = keyspace.partitionOf(args.array(), args.offset(argument), args.length(argument));
        }
        Arrays.sort(stripes, 0, keys);
        int distinct = 0;
        for (int i = 0; i < keys; i++) {
            if (i == 0 || stripes[i] != stripes[i - 1]) {
                stripes[distinct++] = stripes[i];
            }
        }
        return distinct;
    }

    private void lockAll() {
        for (ReentrantLock lock : locks) {
            lock.lock();
        }
    }

    private void unlockAll() {
        for (int i = locks.length - 1; i >= 0; i--) {
            locks[i].unlock();
        }
    }

    /** Active expiry, one stripe at a time so that commands wait on at most one stripe's sweep. */
    private void expireCycle() {
        if (closed) {
            return;
        }
        long now = System.currentTimeMillis();
        for (int i = 0; i < locks.length; i++) {
            if (locks[i].tryLock()) {
                try {
                    keyspace.partition(i).expireCycle(now, 200_000);
                } finally {
                    locks[i].unlock();
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
