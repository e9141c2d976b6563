package dev.lacewing.engine.sharednothing;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.EngineContext;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.SettingSpec;
import dev.lacewing.api.Workers;
import dev.lacewing.core.keyspace.KeyspaceEngine;
import dev.lacewing.core.keyspace.MemoryPolicy;
import dev.lacewing.core.keyspace.Partition;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
import java.util.Arrays;
import java.util.BitSet;

/**
 * Dragonfly-style shared-nothing: shard {@code i} is owned by worker {@code i}, and only that
 * thread touches it. A command whose keys all live on the connection's own shard runs inline; a
 * command whose keys all live on one other shard hops there as a message and its completion
 * hops back, taking along the connection's following pipelined commands for that shard. Work over
 * several shards goes through one door, {@link #schedule}: a {@link Transaction} takes its place
 * in one global order on every shard it involves, and each shard's {@link TransactionQueue}
 * grants its parts in that order, by key (MGET, MSET, DEL... run their parts in parallel; RENAME,
 * SMOVE, LMOVE, the STORE forms gather on each shard and run on the destination's, in rounds:
 * {@link Transaction.Kind#SPLIT}) or by whole shard (anything that must run on one thread,
 * {@link Transaction.Kind#WHOLE}). A one-shard command runs at once unless a transaction claims
 * its keys; then it waits in that shard's queue. No thread ever blocks: waiting is a place in a
 * queue. A command that may wake a BLMOVE waiting to move to another shard runs whole over both
 * shards ({@link #servingReach}), so the move is served before any later command sees the element.
 *
 * <p>Thread rule: shard state is touched by its worker, or by the thread running a
 * {@link Transaction.Kind#WHOLE} transaction its queue granted, until that releases it.
 */
final class SharedNothingEngine extends KeyspaceEngine {

    /**
     * Commands one hop runs for a connection before it hops back: bounds how long one client's
     * pipeline holds a shard's thread, while other connections' hops queue behind it.
     */
    private static final int HOP_BATCH = 64;

    /**
     * Up to this many keys in the database a SCAN call claims every shard: scanning them all is
     * cheap, and Redis answers a SCAN whose COUNT covers a small keyspace in one call (cursor 0),
     * which clients and tests count on. Past it, a call holds only the shard its cursor names.
     */
    private static final int SCAN_WHOLE_UP_TO = 1024;

    /** The engine's own setting ({@link SharedNothingEngineProvider#settings}), read once at start-up. */
    static final SettingSpec SHARD_WRITES_REPLIES = SettingSpec.flag("shard-writes-replies", "no",
        "a shard that ran a hopped command writes its reply on the socket itself (epoll, io_uring; not TLS) "
            + "instead of handing the connection back to its event loop first");

    private final boolean shardWritesReplies;
    private final Workers workers;
    private final TransactionQueue[] queues;
    /**
     * Orders enqueues: a transaction reaches every shard's arrivals while holding it, so its place
     * there is the global sequence: all shards see any two transactions in one order. Held for a
     * few queue offers only.
     */
    private final Object order = new Object();
    /** The shards the whole-claimed command running on this thread holds; null outside one. */
    private final ThreadLocal<BitSet> running = new ThreadLocal<>();
    /** Room for every shard's index, per thread, for {@link #reclaimMemory}. */
    private final ThreadLocal<int[]> reclaimScratch;
    /** Per thread, {@link #scheduleSplit}'s counts per shard and shard per key; grown as needed. */
    private final ThreadLocal<int[]> splitScratch = ThreadLocal.withInitial(() -> new int[0]);
    private static final int[] NO_SHARDS = new int[0];

    SharedNothingEngine(EngineContext context) {
        super(new PartitionedKeyspace(context.workers().count(), context.databases(), context.storage(),
            MemoryPolicy.of(context.settings()), System::currentTimeMillis, context.clientBufferBytes()));
        workers = context.workers();
        shardWritesReplies = context.settings().get(SHARD_WRITES_REPLIES.name()).map("yes"::equals).orElse(false);
        int shardCount = keyspace.partitionCount();
        reclaimScratch = ThreadLocal.withInitial(() -> new int[shardCount]);
        keyspace.scanReach(partition -> {
            BitSet held = running.get();
            return held == null || held.get(partition);
        });
        keyspace.evictionRunner(shard -> workers.executeAfterIo(shard, () -> evictQueued(shard)));
        keyspace.evictionHere(this::evictHere);
        queues = new TransactionQueue[workers.count()];
        for (int shard = 0; shard < workers.count(); shard++) {
            int owned = shard;
            queues[shard] = new TransactionQueue(shard, this::granted, task -> workers.executeAfterIo(owned, task),
                task -> workers.executeAtPassEnd(owned, task));
            workers.scheduleRepeating(shard, () -> expireCycle(owned),
                () -> Partition.cyclePeriodMillis(context.settings()));
        }
    }

    @Override
    public boolean writesRepliesWhereRun() {
        return shardWritesReplies;
    }

    /**
     * The one shard a SCAN call claims: the one its cursor names, when the database holds more
     * than {@link #SCAN_WHOLE_UP_TO} keys; -1 (claim every shard) for other commands and for a small
     * database, which one call scans through as Redis's would.
     */
    private int scanShard(Invocation invocation) {
        int one = invocation.spec().partitionOf(invocation.arguments(), keyspace.partitionCount());
        return one >= 0 && keyspace.approximateSize(invocation.database()) > SCAN_WHOLE_UP_TO ? one : -1;
    }

    /** Active expiry, skipped while a transaction claims the shard whole (another thread may hold its data). */
    private void expireCycle(int shard) {
        if (!queues[shard].claimedWhole()) {
            keyspace.partition(shard).expireCycle(System.currentTimeMillis(), 250_000);
        }
    }

    /** CONFIG SET maxmemory evicts its own thread's shard before it replies, unless a transaction claims it whole. */
    private boolean evictHere(int shard, Runnable body) {
        if (workers.currentIndex() != shard || queues[shard].claimedWhole()) {
            return false;
        }
        body.run();
        return true;
    }

    /** A queued eviction task, dropped while a transaction claims the shard whole (as {@link #expireCycle}). */
    private void evictQueued(int shard) {
        if (queues[shard].claimedWhole()) {
            keyspace.dropQueuedEviction(shard);
        } else {
            keyspace.evictQueued(shard);
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
            BitSet claimed = new BitSet(shards);
            int one = scanShard(invocation);
            if (one >= 0) {
                claimed.set(one);
            } else {
                claimed.set(0, shards);
            }
            scheduleWhole(invocation, claimed, true);
            return false;
        }
        if (invocation.keyCount() == 0) {
            invocation.run();
            return true;
        }
        int target = singleShard(invocation);
        if (target == invocation.homeWorker()) {
            return runHere(invocation, target);
        }
        if (target >= 0) {
            workers.executor(target).execute(hop(invocation, target));
            return false;
        }
        Invocation.Split split = splittable(invocation) ? invocation.split() : null;
        if (split != null) {
            scheduleSplit(invocation, split);
        } else {
            scheduleWhole(invocation, shardsOf(invocation), true);
        }
        return false;
    }

    /**
     * The task that runs {@code invocation} on {@code shard}'s thread: the one this engine keeps with
     * the connection ({@link Invocation#engineState}), so a hop allocates nothing, else a new one.
     * A connection has one request away at a time, so its task is free again when it is handed over.
     */
    private Hop hop(Invocation invocation, int shard) {
        Hop hop = invocation.engineState() instanceof Hop kept && kept.engine == this ? kept : null;
        if (hop == null) {
            hop = new Hop(this, invocation);
            invocation.engineState(hop);
        }
        hop.shard = shard;
        return hop;
    }

    /** {@link #runOnShard} of one invocation; written on the connection's thread, run on the shard's after the hand-over. */
    private static final class Hop implements Runnable {
        final SharedNothingEngine engine;
        final Invocation invocation;
        int shard;

        Hop(SharedNothingEngine engine, Invocation invocation) {
            this.engine = engine;
            this.invocation = invocation;
        }

        @Override
        public void run() {
            engine.runOnShard(invocation, shard);
        }
    }

    /**
     * Runs a one-shard command on its shard's thread when nothing holds its keys and serving its
     * wakes stays there; otherwise it waits in the queue or runs whole over the reach. True when
     * it ran.
     */
    private boolean runHere(Invocation invocation, int shard) {
        if (!queues[shard].free(invocation)) {
            queues[shard].enqueueLocal(new Transaction(Transaction.Kind.LOCAL, invocation, null, new int[] {shard},
                null, new long[][] {intents(invocation, null)}));
            return false;
        }
        BitSet reach = servingReach(invocation, null, shard);
        if (reach != null) {
            scheduleWhole(invocation, reach, false);
            return false;
        }
        invocation.run();
        return true;
    }

    /**
     * Runs a command that hopped to {@code shard}, then, while the connection's next pipelined
     * requests are already buffered and name only keys of this shard, those too, before hopping
     * back once: a hop round trip costs tens of microseconds of wakeups, a command far less.
     */
    private void runOnShard(Invocation invocation, int shard) {
        int ran = 0;
        do {
            if (!runHere(invocation, shard)) {
                return;
            }
        } while (++ran < HOP_BATCH && invocation.advance() && singleShard(invocation) == shard);
        invocation.completed();
    }

    /**
     * MGET, MSET, DEL... over several shards split into a part per shard, unless a part could
     * fail alone: under a memory limit a DENYOOM command is refused or not as a whole, so it
     * runs whole.
     */
    private boolean splittable(Invocation invocation) {
        return keyspace.memory().maxmemory() == 0 || !invocation.spec().has(CommandFlag.DENYOOM);
    }

    private void scheduleSplit(Invocation invocation, Invocation.Split split) {
        Arguments args = invocation.arguments();
        int keyCount = invocation.keyCount();
        int shardCount = keyspace.partitionCount();
        // Which shard each key is on and how many keys each shard has, in this thread's scratch:
        // only what the transaction keeps (its shards, their keys and intents) is allocated.
        int[] scratch = splitScratch.get();
        if (scratch.length < 2 * shardCount + keyCount) {
            scratch = new int[2 * shardCount + keyCount];
            splitScratch.set(scratch);
        }
        int keysOf = 0;
        int partOf = shardCount;
        int shardOf = 2 * shardCount;
        Arrays.fill(scratch, keysOf, partOf, 0);
        for (int i = 0; i < keyCount; i++) {
            int argument = invocation.keyArgument(i);
            int shard = keyspace.partitionOf(args.array(), args.offset(argument), args.length(argument));
            scratch[shardOf + i] = shard;
            scratch[keysOf + shard]++;
        }
        int parts = 0;
        for (int shard = 0; shard < shardCount; shard++) {
            parts += scratch[keysOf + shard] > 0 ? 1 : 0;
        }
        int[] shards = new int[parts];
        int[][] keys = new int[parts][];
        for (int shard = 0, part = 0; shard < shardCount; shard++) {
            if (scratch[keysOf + shard] > 0) {
                shards[part] = shard;
                keys[part] = new int[scratch[keysOf + shard]];
                scratch[partOf + shard] = part++;
            }
        }
        // keysOf now counts the keys placed in each shard's part.
        Arrays.fill(scratch, keysOf, partOf, 0);
        for (int i = 0; i < keyCount; i++) {
            int shard = scratch[shardOf + i];
            keys[scratch[partOf + shard]][scratch[keysOf + shard]++] = i;
        }
        long[][] intents = new long[parts][];
        int here = workers.currentIndex();
        int lone = -1;
        for (int part = 0; part < parts; part++) {
            intents[part] = intents(invocation, keys[part]);
            lone = lone < 0 && shards[part] != here ? part : lone;
        }
        if (lone >= 0) {
            split.preferLonePart(keys[lone]);
        }
        schedule(new Transaction(Transaction.Kind.SPLIT, invocation, split, shards, keys, intents), true);
    }

    private void scheduleWhole(Invocation invocation, BitSet shards, boolean dispatched) {
        schedule(new Transaction(Transaction.Kind.WHOLE, invocation, null, shards.stream().toArray(), null, null),
            dispatched);
    }

    /**
     * The door: the transaction takes its place in the arrivals of every shard it involves,
     * atomically with respect to every other transaction, so shards grant in one global order;
     * then the calling thread's own shard (the connection's home, nearly always) takes it in here,
     * a task fewer per transaction, and only then is each other shard woken to take it in. Taking
     * in drains the arrivals in order, so an earlier transaction still waiting there goes in first
     * and nothing overtakes it. From the dispatch of a connection of this thread
     * ({@code dispatched}) what the take-in grants starts at once, outside the pass's budget of
     * parts ({@link TransactionQueue#takeInDispatched}). Called from a grant on this shard (a LOCAL
     * or a split that must run whole after all), the take-in's grant joins that pass's loop instead
     * of nesting ({@link TransactionQueue#takeIn}).
     *
     * <p>Waking the others after the take-in, not before, makes the part here (granted at once,
     * nearly always) run before theirs, so the round ends on another shard: where the engine
     * offered a split's lone part ({@link #scheduleSplit}), whose next round then follows on that
     * thread. A round that ends here instead hands the lone round over to that shard: one more
     * wake-up per gathered EXEC.
     */
    private void schedule(Transaction transaction, boolean dispatched) {
        synchronized (order) {
            for (int shard : transaction.shards) {
                queues[shard].arrive(transaction);
            }
        }
        int here = workers.currentIndex();
        for (int shard : transaction.shards) {
            if (shard == here && dispatched) {
                queues[here].takeInDispatched();
            } else if (shard == here) {
                queues[here].takeIn();
            }
        }
        for (int shard : transaction.shards) {
            if (shard != here) {
                workers.executor(shard).execute(queues[shard].drain);
            }
        }
    }

    /** A part of {@code transaction} was granted on {@code shard}; on that shard's thread. */
    private void granted(Transaction transaction, int shard) {
        switch (transaction.kind) {
            case LOCAL -> runLocal(transaction, shard);
            case SPLIT -> runPart(transaction, shard);
            case WHOLE -> {
                if (transaction.countDown()) {
                    runWhole(transaction, shard);
                }
            }
        }
    }

    private void runLocal(Transaction transaction, int shard) {
        Invocation invocation = transaction.invocation;
        BitSet reach = servingReach(invocation, null, shard);
        if (reach == null) {
            invocation.run();
        }
        queues[shard].release(transaction);
        if (reach == null) {
            invocation.completed();
        } else {
            scheduleWhole(invocation, reach, false);
        }
    }

    private void runPart(Transaction transaction, int shard) {
        int part = transaction.part(shard);
        if (keyspace.memory().maxmemory() != 0) {
            keyspace.reclaim(new int[] {shard}, 1);
        }
        transaction.replies[part] = transaction.split.runPart(transaction.keys[part]);
        if (transaction.split.releasesEachPart()) {
            queues[shard].release(transaction);
        }
        if (transaction.countDown()) {
            endRound(transaction, shard);
        }
    }

    /** Every part of a round ran; on the thread that ran the last: the next round, the whole run, or the join. */
    private void endRound(Transaction transaction, int shard) {
        if (transaction.split.another(transaction.replies)) {
            nextRound(transaction, shard);
            return;
        }
        if (transaction.split.whole(transaction.replies)) {
            releaseAll(transaction, shard);
            scheduleWhole(transaction.invocation, shardsOf(transaction.invocation), false);
            return;
        }
        transaction.split.join(transaction.keys, transaction.replies);
        if (transaction.split.releasesEachPart()) {
            transaction.invocation.completed();
        } else {
            releaseAllAndComplete(transaction, shard);
        }
    }

    /**
     * Runs the parts of a split's next round that take part in it ({@link Invocation.Split#runsPart}),
     * on the shards that still hold its keys; the others reply null unwoken. Claims are released
     * only after the join, so no command sees the state between rounds.
     */
    private void nextRound(Transaction transaction, int current) {
        Invocation.Split split = transaction.split;
        boolean[] runs = new boolean[transaction.shards.length];
        int running = 0;
        for (int part = 0; part < runs.length; part++) {
            runs[part] = split.runsPart(transaction.keys[part]);
            running += runs[part] ? 1 : 0;
            if (!runs[part]) {
                transaction.replies[part] = null;
            }
        }
        if (running == 0) {
            endRound(transaction, current);
            return;
        }
        transaction.expect(running);
        int here = -1;
        for (int part = 0; part < runs.length; part++) {
            int shard = transaction.shards[part];
            if (!runs[part]) {
                continue;
            }
            if (shard == current) {
                here = shard;
            } else {
                workers.executor(shard).execute(() -> runPart(transaction, shard));
            }
        }
        if (here >= 0) {
            runPart(transaction, here);
        }
    }

    /**
     * Every shard granted the transaction whole: run it here, unless serving the clients it may
     * wake reaches a shard it does not hold; then it gives its shards back and goes through the
     * door again over the larger set (taking more while holding some would break the order).
     */
    private void runWhole(Transaction transaction, int shard) {
        Invocation invocation = transaction.invocation;
        BitSet held = new BitSet();
        for (int s : transaction.shards) {
            held.set(s);
        }
        BitSet reach = invocation.scope() == KeyScope.ALL ? null : servingReach(invocation, held, -1);
        if (reach == null) {
            running.set(held);
            try {
                invocation.run();
            } finally {
                running.set(null);
            }
        }
        if (reach == null) {
            releaseAllAndComplete(transaction, shard);
        } else {
            releaseAll(transaction, shard);
            scheduleWhole(invocation, reach, false);
        }
    }

    /**
     * {@link #releaseAll}, then completes the invocation. When the connection's home shard is
     * one of those released from another thread, its release and the completion go there as one
     * task: one wake-up of the home thread, not two.
     */
    private void releaseAllAndComplete(Transaction transaction, int current) {
        int home = transaction.invocation.homeWorker();
        int homePart = home == current ? -1 : transaction.partOrNone(home);
        for (int part = 0; part < transaction.shards.length; part++) {
            int shard = transaction.shards[part];
            int[] keys = transaction.keys == null ? null : transaction.keys[part];
            if (shard == current) {
                release(transaction, shard, keys);
            } else if (part != homePart) {
                workers.executor(shard).execute(() -> release(transaction, shard, keys));
            }
        }
        if (homePart < 0) {
            transaction.invocation.completed();
            return;
        }
        int[] homeKeys = transaction.keys == null ? null : transaction.keys[homePart];
        workers.executor(home).execute(() -> {
            release(transaction, home, homeKeys);
            transaction.invocation.completed();
        });
    }

    /** Settles each part of a split on its shard's thread ({@link Invocation.Split#settle}), then releases its claims there. */
    private void releaseAll(Transaction transaction, int current) {
        for (int part = 0; part < transaction.shards.length; part++) {
            int shard = transaction.shards[part];
            int[] keys = transaction.keys == null ? null : transaction.keys[part];
            if (shard == current) {
                release(transaction, shard, keys);
            } else {
                workers.executor(shard).execute(() -> release(transaction, shard, keys));
            }
        }
    }

    private void release(Transaction transaction, int shard, int[] keys) {
        if (transaction.split != null) {
            transaction.split.settle(keys);
        }
        queues[shard].release(transaction);
    }

    /**
     * The keys of {@code invocation} at key indexes {@code keys} (all of them when null), as
     * intents: their {@link TransactionQueue#intent} hashes, which outlive the request's buffer.
     */
    private static long[] intents(Invocation invocation, int[] keys) {
        Arguments args = invocation.arguments();
        int count = keys == null ? invocation.keyCount() : keys.length;
        long[] intents = new long[count];
        for (int i = 0; i < count; i++) {
            int argument = invocation.keyArgument(keys == null ? i : keys[i]);
            intents[i] = TransactionQueue.intent(args.array(), args.offset(argument), args.length(argument));
        }
        return intents;
    }

    /**
     * The shards a command must hold beyond {@code held} (or none) and {@code shard} (or -1), which
     * the caller holds: those that serving the blocked clients it may wake could reach, found
     * through the registries of the held shards ({@link PartitionedKeyspace#addServingReach}).
     * Null when it needs no more, as nearly always: only while a BLMOVE waits on one of its keys to
     * move elsewhere.
     */
    private BitSet servingReach(Invocation invocation, BitSet held, int shard) {
        boolean mayLeave = shard >= 0 && keyspace.servingMayLeave(shard);
        for (int s = held == null ? -1 : held.nextSetBit(0); s >= 0 && !mayLeave; s = held.nextSetBit(s + 1)) {
            mayLeave = keyspace.servingMayLeave(s);
        }
        if (!mayLeave) {
            return null;
        }
        BitSet reach = held == null ? new BitSet() : (BitSet) held.clone();
        if (shard >= 0) {
            reach.set(shard);
        }
        return keyspace.addServingReach(invocation, reach) ? reach : null;
    }

    /**
     * Evicts from the shards the invocation holds: its keys' shards, or all of them for a command
     * over the whole keyspace (held whole by its transaction, or the only one). A keyless command
     * holds none and only learns whether memory is over the limit.
     */
    @Override
    public boolean reclaimMemory(Invocation invocation) {
        if (keyspace.memory().maxmemory() == 0) {
            return true;
        }
        if (invocation.scope() == KeyScope.ALL) {
            BitSet held = running.get();
            return held != null ? keyspace.reclaim(held.stream().toArray(), held.cardinality()) : keyspace.reclaimAll();
        }
        if (invocation.scope() != KeyScope.KEYS) {
            return keyspace.reclaim(NO_SHARDS, 0);
        }
        // Under an eviction load nearly every write comes here: the shards go in this thread's
        // scratch, not a set and an array per request (a quarter of such a load's allocation).
        int[] shards = reclaimScratch.get();
        int count = 0;
        Arguments args = invocation.arguments();
        for (int i = 0; i < invocation.keyCount(); i++) {
            int argument = invocation.keyArgument(i);
            int shard = keyspace.partitionOf(args.array(), args.offset(argument), args.length(argument));
            int seen = 0;
            while (seen < count && shards[seen] != shard) {
                seen++;
            }
            if (seen == count) {
                shards[count++] = shard;
            }
        }
        return keyspace.reclaim(shards, count);
    }

    /** The one shard all the invocation's keys live on, or -1 when they span several. */
    private int singleShard(Invocation invocation) {
        Arguments args = invocation.arguments();
        int keys = invocation.keyCount();
        int shard = -1;
        for (int i = 0; i < keys; i++) {
            int argument = invocation.keyArgument(i);
            int of = keyspace.partitionOf(args.array(), args.offset(argument), args.length(argument));
            if (shard >= 0 && of != shard) {
                return -1;
            }
            shard = of;
        }
        return shard;
    }

    /** The shards the invocation's keys live on. */
    private BitSet shardsOf(Invocation invocation) {
        Arguments args = invocation.arguments();
        BitSet shards = new BitSet(keyspace.partitionCount());
        for (int i = 0; i < invocation.keyCount(); i++) {
            int argument = invocation.keyArgument(i);
            shards.set(keyspace.partitionOf(args.array(), args.offset(argument), args.length(argument)));
        }
        return shards;
    }

    @Override
    public void close() {
        // Nothing of its own to stop: transactions live in the workers' queues.
    }
}
