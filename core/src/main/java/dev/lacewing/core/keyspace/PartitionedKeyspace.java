package dev.lacewing.core.keyspace;

import dev.lacewing.api.Keyspace;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * All the data of a server: its partitions, and one {@link Database} view per database over
 * them. Engines build on it and differ only in who may touch which partition when.
 *
 * <p>It holds the keyspace to {@code maxmemory} ({@link #reclaim}): the check is global, as in
 * Redis, but eviction is local, each command evicting from the partitions it was granted.
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

    private final Partition[] partitions;
    private final Database[] databases;
    private final MemoryPolicy memory;
    private final LongSupplier clock;
    private final AtomicLong liveEstimate = new AtomicLong();
    private volatile long estimatedAt;
    private volatile boolean estimated;

    /** A keyspace under Redis's default memory settings (no limit) on the system clock. */
    public PartitionedKeyspace(int partitionCount, int databaseCount, KeyspaceLayout layout) {
        this(partitionCount, databaseCount, layout, System::currentTimeMillis);
    }

    /** With the clock expiry is judged by; tests set their own. */
    public PartitionedKeyspace(int partitionCount, int databaseCount, KeyspaceLayout layout, LongSupplier clock) {
        this(partitionCount, databaseCount, layout, new MemoryPolicy(), clock);
    }

    /** With the memory settings the server keeps up to date (see {@link MemoryPolicy#of}). */
    public PartitionedKeyspace(int partitionCount, int databaseCount, KeyspaceLayout layout, MemoryPolicy memory,
                               LongSupplier clock) {
        this.memory = memory;
        this.clock = clock;
        partitions = new Partition[partitionCount];
        for (int i = 0; i < partitionCount; i++) {
            partitions[i] = new Partition(databaseCount, layout, memory, clock);
        }
        databases = new Database[databaseCount];
        for (int i = 0; i < databaseCount; i++) {
            databases[i] = new Database(i, partitions, clock);
        }
    }

    public int partitionCount() {
        return partitions.length;
    }

    public Partition partition(int index) {
        return partitions[index];
    }

    public Keyspace database(int index) {
        return databases[index];
    }

    /** The partition a key lives in. */
    public int partitionOf(byte[] key, int offset, int length) {
        return Slots.partitionOf(key, offset, length, partitions.length);
    }

    public void swapDatabases(int first, int second) {
        for (Partition partition : partitions) {
            partition.swap(first, second);
        }
    }

    public long approximateSize(int database) {
        return databases[database].size();
    }

    public long approximateExpiringSize(int database) {
        return databases[database].expiringSize();
    }

    /** Bytes the keyspace holds, exactly, or -1 when its layout cannot say cheaply; racy. */
    public long usedMemory() {
        long total = 0;
        for (Partition partition : partitions) {
            long used = partition.usedMemory();
            if (used < 0) {
                return -1;
            }
            total += used;
        }
        return total;
    }

    public MemoryPolicy memory() {
        return memory;
    }

    /**
     * Makes room before a command that holds partitions {@code granted[0..count)}, as Redis's
     * performEvictions: when the keyspace's live bytes exceed {@code maxmemory}, evicts keys by
     * the policy from those partitions until it is back under the limit or each of them is down
     * to its even share of it (so that a command on a small partition does not empty it while
     * others hold the excess; their own commands evict there). False when memory stays over the
     * limit and no granted partition could give more: noeviction, or no candidate left.
     */
    public boolean reclaim(int[] granted, int count) {
        long limit = memory.maxmemory();
        if (limit == 0) {
            return true;
        }
        long used = liveMemoryEstimate();
        if (used <= limit) {
            return true;
        }
        if (memory.policy() == EvictionPolicy.NOEVICTION) {
            return false;
        }
        long now = clock.getAsLong();
        long share = limit / partitions.length;
        boolean atShare = false;
        for (int i = 0; i < count && used > limit; i++) {
            Partition partition = partitions[granted[i]];
            long before = partition.liveMemory();
            long current = before;
            while (before - current < used - limit) {
                if (current <= share) {
                    atShare = true;
                    break;
                }
                if (!partition.evictOne(now)) {
                    break;
                }
                current = partition.liveMemory();
            }
            used -= before - current;
            liveEstimate.addAndGet(current - before);
        }
        return used <= limit || atShare;
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

    /** Live bytes of every partition, summed now; racy. */
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
