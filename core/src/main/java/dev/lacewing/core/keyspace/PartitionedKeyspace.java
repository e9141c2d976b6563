package dev.lacewing.core.keyspace;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.storage.Storage;
import dev.lacewing.api.storage.StorageProvider;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

/**
 * All the data of a server: its partitions, and one {@link Database} view per database over
 * them. Engines build on it and differ only in who may touch which partition when.
 *
 * <p>It holds the keyspace to {@code maxmemory} ({@link #reclaim}): the check is global, as in
 * Redis, and eviction starts local, each command evicting from the partitions it was granted; what
 * they cannot give is evicted from the others by a task queued on each one's owner
 * ({@link #evictQueued}), as Redis's eviction timer goes on where a command stopped. What is
 * checked is what Redis's used_memory counts: the keyspace's live bytes ({@link #liveMemory}) and
 * the clients' buffers the server reports.
 *
 * <p>It also tells an engine which partitions a command needs beyond its keys' ({@link
 * #addServingReach}): serving a blocked BLMOVE moves an element to a destination that may live in
 * another partition, and Redis serves it within the command that woke it. An engine runs every
 * invocation holding those partitions too; that is what lets the serving code touch a destination
 * elsewhere.
 *
 * <p>Thread rule: partitions follow the engine's rule; the approximate counts read racily; the
 * live-memory estimate is shared by every thread (atomic, and refreshed racily).
 */
public final class PartitionedKeyspace {

    /**
     * How long a sum of every partition's live bytes stands for the keyspace's: summing costs
     * partitions times databases reads, too much for every command under a limit. Within it a
     * burst of writes may overshoot the limit until the next sum, which then evicts the excess.
     */
    private static final long ESTIMATE_NANOS = 1_000_000;

    /**
     * Bytes one eviction step asks its storage to offload at most: between steps the time limit
     * ({@link MemoryPolicy#evictionTimeLimitNanos}) is checked, as it is every 16 keys evicted.
     */
    private static final long OFFLOAD_BYTES_PER_TASK = 1 << 20;

    private static final System.Logger LOG = System.getLogger(PartitionedKeyspace.class.getName());

    private final Partition[] partitions;
    private final Database[] databases;
    private final MemoryPolicy memory;
    private final LongSupplier clock;
    private final LongSupplier clientBufferBytes;
    private final AtomicLong liveEstimate = new AtomicLong();
    /** Changes Redis counts in server.dirty that no key holds ({@link #changedWithoutKey}); any thread. */
    private final LongAdder keylessChanges = new LongAdder();
    private volatile long estimatedAt;
    private volatile boolean estimated;
    /** Per partition, 1 while an eviction task is queued for it: at most one at a time. */
    private final AtomicIntegerArray evictionQueued;
    /** Runs {@link #evictQueued} for a partition on its owner; set by the engine, none by default. */
    private volatile IntConsumer evictionRunner;
    /** Runs work on a partition on the calling thread where it may; set by the engine, none by default. */
    private volatile PartitionHere evictionHere;
    /**
     * Per partition, what waits for the end of its queued eviction task's next run
     * ({@link #maxmemoryChanged}'s countdown); null when nothing does. Set only by the thread that
     * queued the task, before queueing it, so one run ends one wait.
     */
    private final AtomicReferenceArray<Runnable> afterNextRun;

    /**
     * How an engine lets the calling thread, which runs a keyless command (CONFIG SET), work on a
     * partition at once: {@link #runHolding} runs {@code body} holding the partition and returns
     * true when the thread may take it without waiting for anyone; else it runs nothing.
     */
    @FunctionalInterface
    public interface PartitionHere {
        boolean runHolding(int partition, Runnable body);
    }

    /** A keyspace under Redis's default memory settings (no limit) on the system clock. */
    public PartitionedKeyspace(int partitionCount, int databaseCount) {
        this(partitionCount, databaseCount, System::currentTimeMillis);
    }

    /** With the clock expiry is judged by; tests set their own. */
    public PartitionedKeyspace(int partitionCount, int databaseCount, LongSupplier clock) {
        this(partitionCount, databaseCount, new MemoryPolicy(), clock);
    }

    /**
     * With the memory settings the server keeps up to date (see {@link MemoryPolicy#of}), and no
     * client buffers, over the {@code compact} storage found by ServiceLoader, as the server finds
     * it: for tests and benchmarks, which have it on their class or module path.
     */
    public PartitionedKeyspace(int partitionCount, int databaseCount, MemoryPolicy memory,
                               LongSupplier clock) {
        this(partitionCount, databaseCount,
            compactStorage().open(new StorageSetup(name -> Optional.empty(), databaseCount, clock, memory)),
            memory, clock, () -> 0);
    }

    private static StorageProvider compactStorage() {
        for (StorageProvider provider : ServiceLoader.load(StorageProvider.class,
                PartitionedKeyspace.class.getClassLoader())) {
            if (provider.name().equals("compact")) {
                return provider;
            }
        }
        throw new IllegalStateException("no storage named 'compact' on the class or module path");
    }

    /**
     * A server's keyspace over {@code storage}, which was opened with the same memory settings and
     * clock: {@code clientBufferBytes} gives the bytes of its clients' buffers, which count against
     * {@code maxmemory} beside the keyspace's, as in Redis 7.0.
     */
    public PartitionedKeyspace(int partitionCount, int databaseCount, Storage storage, MemoryPolicy memory,
                               LongSupplier clock, LongSupplier clientBufferBytes) {
        this.memory = memory;
        this.clock = clock;
        this.clientBufferBytes = clientBufferBytes;
        partitions = new Partition[partitionCount];
        evictionQueued = new AtomicIntegerArray(partitionCount);
        afterNextRun = new AtomicReferenceArray<>(partitionCount);
        for (int i = 0; i < partitionCount; i++) {
            partitions[i] = new Partition(databaseCount, storage.partition(i, partitionCount), memory, clock);
        }
        databases = new Database[databaseCount];
        for (int i = 0; i < databaseCount; i++) {
            databases[i] = new Database(i, partitions, keylessChanges, clock);
        }
    }

    /**
     * Where partitions belong to different threads: the partitions the running command holds, so
     * that a SCAN step goes on from one partition into the next only when the command holds it
     * too. An engine may then run a SCAN call on the one partition its cursor names (the cursor is
     * {@code tableCursor * partitions + partition}). Set before serving starts; every partition by
     * default.
     */
    public void scanReach(IntPredicate reach) {
        for (Database database : databases) {
            database.scanReach(reach);
        }
    }

    /**
     * How the engine runs {@link #evictQueued} for a partition on the thread allowed to touch it:
     * {@code runner} queues the task there and returns. Without one, the keyspace evicts only from
     * the partitions a command holds. Set before serving starts.
     */
    public void evictionRunner(IntConsumer runner) {
        evictionRunner = runner;
    }

    /**
     * How CONFIG SET maxmemory evicts on its own thread before it replies, where that thread may
     * take a partition ({@link PartitionHere}); without it, every partition's eviction is queued.
     * Set before serving starts.
     */
    public void evictionHere(PartitionHere here) {
        evictionHere = here;
    }

    public int partitionCount() {
        return partitions.length;
    }

    public Partition partition(int index) {
        return partitions[index];
    }

    public Database database(int index) {
        return databases[index];
    }

    /** The partition a key lives in. */
    public int partitionOf(byte[] key, int offset, int length) {
        return Slots.partitionOf(key, offset, length, partitions.length);
    }

    /**
     * Whether serving the blocked clients of {@code partition} may touch another partition (a client
     * there waits to move to a key elsewhere): false nearly always, one field read. The caller holds
     * the partition. When false for every partition a command holds, it needs no other.
     */
    public boolean servingMayLeave(int partition) {
        return partitions[partition].blockedKeys().hasMoversElsewhere();
    }

    /**
     * Adds to {@code held} (the partitions the caller holds) those that serving the blocked clients
     * {@code invocation} may wake could touch: a mover waiting on one of its keys pushes to its
     * destination, whose own movers go on in turn, all within the command as Redis's
     * handleClientsBlockedOnKeys does. Chains are followed through the registries of held partitions
     * only; one that leaves them stops at the first partition outside, which is added: the caller
     * takes what was added and asks again, until nothing is. Keys match in every database, which can
     * only add a partition that is not needed. O(keys + movers followed).
     *
     * @return whether any partition was added
     */
    public boolean addServingReach(Invocation invocation, BitSet held) {
        Arguments args = invocation.arguments();
        ArrayDeque<byte[]> pending = new ArrayDeque<>();
        for (int i = 0; i < invocation.keyCount(); i++) {
            int argument = invocation.keyArgument(i);
            pending.add(Arrays.copyOfRange(args.array(), args.offset(argument),
                args.offset(argument) + args.length(argument)));
        }
        Set<ByteBuffer> followed = new HashSet<>();
        boolean added = false;
        while (!pending.isEmpty()) {
            byte[] key = pending.poll();
            int partition = partitionOf(key, 0, key.length);
            if (!held.get(partition)) {
                held.set(partition);
                added = true;
            } else if (followed.add(ByteBuffer.wrap(key))) {
                partitions[partition].blockedKeys().destinations(key, 0, key.length, pending::add);
            }
        }
        return added;
    }

    /** SWAPDB: one change in the dirty counter, as swapdbCommand counts it, even for one database with itself. */
    public void swapDatabases(int first, int second) {
        for (Partition partition : partitions) {
            partition.swap(first, second);
        }
        changedWithoutKey();
    }

    /**
     * Counts one change in the dirty counter that no key holds (SWAPDB, FUNCTION LOAD, DELETE,
     * FLUSH and RESTORE, each server.dirty++ in Redis); callable from any thread.
     */
    public void changedWithoutKey() {
        keylessChanges.increment();
        ThreadChanges.add(1);
    }

    public long approximateSize(int database) {
        return databases[database].size();
    }

    public long approximateExpiringSize(int database) {
        return databases[database].expiringSize();
    }

    /**
     * Bytes the keyspace's storage holds, exactly: {@link #liveMemory} plus page space awaiting
     * reuse or compaction; racy.
     */
    public long allocatedMemory() {
        long total = 0;
        for (Partition partition : partitions) {
            total += partition.usedMemory();
        }
        return total;
    }

    public MemoryPolicy memory() {
        return memory;
    }

    /**
     * Makes room before a command that holds partitions {@code granted[0..count)}, as Redis's
     * performEvictions: when the keyspace's live bytes and the clients' buffers exceed
     * {@code maxmemory}, first asks the storage to offload values from those partitions
     * ({@link Partition#offload}), then evicts keys by
     * the policy from those partitions until it is back under the limit or each of them is down
     * to its even share of it (so that a command on a small partition does not empty it while
     * others hold the excess), for at most Redis's eviction time limit (checked every 16 keys, as
     * performEvictions does). When still over, every other partition over its share gets an
     * eviction task on its owner ({@link #evictQueued}), the granted ones too when the time limit
     * cut it short, as Redis's eviction timer evicts the rest after a command. False, as Redis's EVICT_FAIL, only when memory stays over the limit and
     * nothing is left to evict: noeviction, or no candidate in the granted partitions and none in
     * another partition over its share. While another partition's task has keys to evict the answer
     * is true, as Redis admits a write when its time limit cut eviction short (EVICT_RUNNING).
     */
    public boolean reclaim(int[] granted, int count) {
        long limit = memory.maxmemory();
        if (limit == 0) {
            return true;
        }
        long clients = clientBufferBytes.getAsLong();
        long used = liveMemoryEstimate() + clients;
        if (used <= limit) {
            return true;
        }
        long now = clock.getAsLong();
        // A storage that can move values out of memory does so first: keys go only for the rest.
        for (int i = 0; i < count && used > limit; i++) {
            long freed = partitions[granted[i]].offload(used - limit, now);
            used -= freed;
            liveEstimate.addAndGet(-freed);
        }
        if (used <= limit) {
            return true;
        }
        if (memory.policy() == EvictionPolicy.NOEVICTION) {
            return false;
        }
        // The clients' buffers are not evictable: the keyspace's shares divide what they leave.
        long share = Math.max(0, limit - clients) / partitions.length;
        // Without queued tasks to go on, nothing would evict the rest: no time limit then.
        long deadline = evictionRunner != null ? evictionDeadline() : Long.MAX_VALUE;
        boolean atShare = false;
        boolean timedOut = false;
        for (int i = 0; i < count && used > limit && !timedOut; i++) {
            Partition partition = partitions[granted[i]];
            long before = partition.liveMemory();
            long current = before;
            int evicted = 0;
            while (before - current < used - limit) {
                if (current <= share) {
                    atShare = true;
                    break;
                }
                if (!partition.evictOne(now)) {
                    break;
                }
                current = partition.liveMemory();
                if (++evicted % 16 == 0 && System.nanoTime() > deadline) {
                    timedOut = true;
                    break;
                }
            }
            used -= before - current;
            liveEstimate.addAndGet(current - before);
        }
        if (used <= limit) {
            return true;
        }
        // Cut short by the time limit, the granted partitions' tasks go on after the command too.
        return queueEvictions(granted, timedOut ? 0 : count, share) || timedOut || atShare;
    }

    /**
     * Queues an eviction task for each partition outside {@code granted[0..count)} over
     * {@code share} with a key to evict that has none queued. O(partitions x databases) reads,
     * only while over the limit.
     *
     * @return whether such a partition has a task queued or running: eviction goes on elsewhere
     */
    private boolean queueEvictions(int[] granted, int count, long share) {
        IntConsumer runner = evictionRunner;
        if (runner == null) {
            return false;
        }
        boolean evicting = false;
        for (int index = 0; index < partitions.length; index++) {
            Partition partition = partitions[index];
            if (contains(granted, count, index) || partition.liveMemory() <= share
                || !partition.hasEvictionCandidates()) {
                continue;
            }
            evicting = true;
            if (evictionQueued.get(index) == 0 && evictionQueued.compareAndSet(index, 0, 1)) {
                runner.accept(index);
            }
        }
        return evicting;
    }

    /**
     * CONFIG SET maxmemory, as Redis's updateMaxmemory: below the memory in use it logs Redis's
     * warning and evicts at once (performEvictions) rather than at the next command. Each
     * partition over its share with a key to evict is evicted on this thread, while Redis's time
     * limit lasts, where the engine lets it take the partition ({@link #evictionHere}), or gets an
     * eviction task on its owner: so a small excess is gone before the reply, as in Redis, and a
     * large one goes on in the background while writes are admitted. The caller holds no partition.
     *
     * <p>Nothing waits here for another thread: when tasks were queued, {@code firstRunsEnded} (if
     * given) runs once, on the thread that ends the last of their first runs (each one bounded
     * step), and the reply waits for it.
     *
     * @return whether {@code firstRunsEnded} will run; false when nothing was queued or every
     *         queued task has run once already (it then never runs)
     */
    public boolean maxmemoryChanged(Runnable firstRunsEnded) {
        long limit = memory.maxmemory();
        if (limit == 0) {
            return false;
        }
        long clients = clientBufferBytes.getAsLong();
        long live = liveMemory();
        liveEstimate.set(live);
        estimatedAt = System.nanoTime();
        estimated = true;
        if (live + clients <= limit) {
            return false;
        }
        LOG.log(System.Logger.Level.WARNING, "WARNING: the new maxmemory value set via CONFIG SET (" + limit
            + ") is smaller than the current memory usage (" + (live + clients) + "). This will result in key "
            + "eviction and/or the inability to accept new write commands depending on the maxmemory-policy.");
        IntConsumer runner = evictionRunner;
        PartitionHere here = evictionHere;
        if (runner == null || memory.policy() == EvictionPolicy.NOEVICTION) {
            return false;
        }
        long share = Math.max(0, limit - clients) / partitions.length;
        long deadline = evictionDeadline();
        // The first partition taken here gets one step however short the limit, as performEvictions
        // checks its limit only after 16 keys; the others only while time is left.
        boolean[] timeLeft = {true};
        // One count per task awaited, and one for this loop, so that no run ends the wait before it is set up.
        AtomicInteger pending = new AtomicInteger(1);
        Runnable ranOnce = () -> {
            if (pending.decrementAndGet() == 0) {
                firstRunsEnded.run();
            }
        };
        for (int index = 0; index < partitions.length; index++) {
            Partition partition = partitions[index];
            if (partition.liveMemory() <= share || !partition.hasEvictionCandidates()
                || !evictionQueued.compareAndSet(index, 0, 1)) {
                continue;
            }
            int owned = index;
            boolean[] more = {true};
            if (here != null && here.runHolding(index, () -> more[0] = !timeLeft[0] || evictUntil(owned, deadline))) {
                timeLeft[0] = System.nanoTime() <= deadline;
                if (more[0]) {
                    runner.accept(index);
                } else {
                    evictionQueued.set(index, 0);
                }
                continue;
            }
            if (firstRunsEnded != null) {
                pending.incrementAndGet();
                afterNextRun.set(index, ranOnce);
            }
            runner.accept(index);
        }
        return pending.decrementAndGet() != 0;
    }

    /** Eviction steps on partition {@code index} (held), one at least, until done or past {@code deadline}; whether more is left. */
    private boolean evictUntil(int index, long deadline) {
        boolean more;
        do {
            more = evictStep(index, deadline);
        } while (more && System.nanoTime() <= deadline);
        return more;
    }

    /** When an eviction pass starting now must stop: {@link Long#MAX_VALUE} at tenacity 100. */
    private long evictionDeadline() {
        long limit = memory.evictionTimeLimitNanos();
        return limit == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + limit;
    }

    /** Ends partition {@code index}'s queued eviction task unrun: its owner could not touch it then. */
    public void dropQueuedEviction(int index) {
        Runnable waiting = afterNextRun.getAndSet(index, null);
        evictionQueued.set(index, 0);
        if (waiting != null) {
            waiting.run();
        }
    }

    private static boolean contains(int[] values, int count, int value) {
        for (int i = 0; i < count; i++) {
            if (values[i] == value) {
                return true;
            }
        }
        return false;
    }

    /**
     * The queued eviction task of partition {@code index}, run by its owner, as Redis's
     * evictionTimeProc: steps for at most the eviction time limit. While the keyspace is over
     * {@code maxmemory} and the partition over its share each step first asks the storage to
     * offload (up to {@link #OFFLOAD_BYTES_PER_TASK}), as {@link #reclaim} does, and evicts no key
     * while that frees all it was asked; else it evicts keys for the rest until the limit (checked
     * every 16 keys). It queues itself again while both still hold when the time is up, else ends
     * (the next command over the limit queues a new one). Keys evicted here are counted and published
     * as a command's evictions are.
     */
    public void evictQueued(int index) {
        boolean more = evictUntil(index, evictionDeadline());
        Runnable waiting = afterNextRun.getAndSet(index, null);
        IntConsumer runner = evictionRunner;
        if (more && runner != null) {
            runner.accept(index);
        } else {
            evictionQueued.set(index, 0);
        }
        if (waiting != null) {
            waiting.run();
        }
    }

    /** One step of partition {@code index}'s eviction ({@link #evictQueued}), holding it; whether more is left. */
    private boolean evictStep(int index, long deadline) {
        boolean more = false;
        long limit = memory.maxmemory();
        if (limit != 0 && memory.policy() != EvictionPolicy.NOEVICTION) {
            long clients = clientBufferBytes.getAsLong();
            long share = Math.max(0, limit - clients) / partitions.length;
            long over = liveMemoryEstimate() + clients - limit;
            Partition partition = partitions[index];
            long now = clock.getAsLong();
            long wanted = Math.min(over, partition.liveMemory() - share);
            long asked = Math.min(wanted, OFFLOAD_BYTES_PER_TASK);
            long freed = asked > 0 ? partition.offload(asked, now) : 0;
            liveEstimate.addAndGet(-freed);
            if (freed > 0 && freed >= asked) {
                more = wanted > freed;
            } else {
                over -= freed;
                long before = partition.liveMemory();
                long current = before;
                int evicted = 0;
                boolean timedOut = false;
                while (before - current < over && current > share && partition.evictOne(now)) {
                    current = partition.liveMemory();
                    if (++evicted % 16 == 0 && System.nanoTime() > deadline) {
                        timedOut = true;
                        break;
                    }
                }
                liveEstimate.addAndGet(current - before);
                more = timedOut && before - current < over && current > share;
            }
        }
        return more;
    }

    /** {@link #reclaim} for a command holding every partition. */
    public boolean reclaimAll() {
        int[] all = new int[partitions.length];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return reclaim(all, all.length);
    }

    /** The keyspace's live bytes, summed again when the last sum is older than {@link #ESTIMATE_NANOS}. */
    private long liveMemoryEstimate() {
        long nanos = System.nanoTime();
        if (!estimated || nanos - estimatedAt > ESTIMATE_NANOS) {
            liveEstimate.set(liveMemory());
            estimatedAt = nanos;
            estimated = true;
        }
        return liveEstimate.get();
    }

    /**
     * Live bytes of every partition, summed now: entries and the structures indexing them, what
     * Redis's used_memory counts of its data; racy.
     */
    public long liveMemory() {
        long total = 0;
        for (Partition partition : partitions) {
            total += partition.liveMemory();
        }
        return total;
    }

    public long evictedKeys() {
        long total = 0;
        for (Partition partition : partitions) {
            total += partition.evictedCount();
        }
        return total;
    }

    public long expiredKeys() {
        long total = 0;
        for (Partition partition : partitions) {
            total += partition.expiredCount();
        }
        return total;
    }
}
