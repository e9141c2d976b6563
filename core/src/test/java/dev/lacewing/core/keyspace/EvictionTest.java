package dev.lacewing.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.storage.PartitionStore;
import dev.lacewing.api.storage.Storage;
import dev.lacewing.api.storage.StorageProvider;
import dev.lacewing.api.storage.Table;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.List;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/** maxmemory and eviction over {@link PartitionedKeyspace#reclaim}. */
class EvictionTest {

    private static final int KEYS = 2000;

    private long now = 1_700_000_000_000L;
    private final MemoryPolicy memory = new MemoryPolicy();

    private PartitionedKeyspace keyspace() {
        return new PartitionedKeyspace(1, 16, memory, () -> now);
    }

    /** Eviction tasks the keyspace queued, partition by partition, for the test to run. */
    private final ArrayDeque<Integer> queued = new ArrayDeque<>();

    /** A keyspace of one database whose eviction tasks are queued on {@link #queued}, under a policy. */
    private PartitionedKeyspace queuingEviction(int partitions, String policy) {
        PartitionedKeyspace keyspace = new PartitionedKeyspace(partitions, 1, memory, () -> now);
        memory.set("maxmemory-policy", policy);
        keyspace.evictionRunner(queued::add);
        return keyspace;
    }

    private static byte[] key(int i) {
        return ("key:" + i).getBytes(StandardCharsets.US_ASCII);
    }

    private static void fill(Keyspace db, int from, int to, long expireAt) {
        for (int i = from; i < to; i++) {
            byte[] key = key(i);
            db.put(key, 0, key.length, new byte[100], expireAt);
        }
    }

    /** A limit that holds about {@code fraction} of what the keyspace holds now. */
    private void limitTo(PartitionedKeyspace keyspace, double fraction) {
        memory.set("maxmemory", Long.toString((long) (keyspace.liveMemory() * fraction)));
        now += 2;
    }

    /**
     * An eviction allocates only the pool's copies of the keys that enter it: no receiver per
     * database sampled (sixteen here, fifteen of them empty), which was half of what an eviction
     * load allocated (JFR). The 1,000 keys are deleted as evictions before the pages need compacting.
     */
    @Test
    void evictingSamplesEveryDatabaseWithoutAnObjectPerDatabase() {
        memory.set("maxmemory-policy", "allkeys-lru");
        Partition partition = new PartitionedKeyspace(1, 16, memory, () -> now).partition(0);
        for (int i = 0; i < KEYS; i++) {
            byte[] key = key(i);
            partition.table(0).put(key, 0, key.length, new byte[100], Keyspace.NO_EXPIRY);
        }
        int evictions = 1000;
        long before = allocatedByThisThread();
        for (int i = 0; i < evictions; i++) {
            assertTrue(partition.evictOne(now));
        }
        long perEviction = (allocatedByThisThread() - before) / evictions;
        assertEquals(KEYS - evictions, partition.table(0).size());
        // A pool entry's key copy is 24 bytes; five samples, most of which the pool already holds.
        assertTrue(perEviction < 160, perEviction + " bytes allocated per eviction");
    }

    /** HotSpot's count of the bytes this thread allocated (com.sun.management, which core does not read). */
    private static long allocatedByThisThread() {
        try {
            Method allocated = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
            return (long) allocated.invoke(ManagementFactory.getThreadMXBean());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("this JVM does not count allocated bytes", e);
        }
    }

    @Test
    void noevictionRefusesOverTheLimitAndAdmitsUnderIt() {
        PartitionedKeyspace keyspace = keyspace();
        fill(keyspace.database(0), 0, KEYS, Keyspace.NO_EXPIRY);
        assertTrue(keyspace.reclaimAll(), "no limit");
        limitTo(keyspace, 0.5);
        sleepPastEstimate();
        assertFalse(keyspace.reclaimAll());
        assertEquals(KEYS, keyspace.database(0).size());
        assertEquals(0, keyspace.evictedKeys());
        memory.set("maxmemory", "0");
        assertTrue(keyspace.reclaimAll());
    }

    @Test
    void allkeysLruEvictsDownToTheLimitSparingRecentlyReadKeys() {
        PartitionedKeyspace keyspace = keyspace();
        memory.set("maxmemory-policy", "allkeys-lru");
        Keyspace db = keyspace.database(0);
        fill(db, 0, KEYS, Keyspace.NO_EXPIRY);
        now += 100_000;
        for (int i = 0; i < 100; i++) {
            byte[] key = key(i);
            assertNotNull(db.get(key, 0, key.length));
        }
        limitTo(keyspace, 0.6);
        sleepPastEstimate();
        assertTrue(keyspace.reclaimAll());
        assertTrue(keyspace.liveMemory() <= memory.maxmemory(), keyspace.liveMemory() + " > " + memory.maxmemory());
        long evicted = keyspace.evictedKeys();
        assertEquals(KEYS - evicted, db.size());
        assertTrue(evicted > KEYS / 5, "evicted " + evicted);
        int recentLeft = 0;
        for (int i = 0; i < 100; i++) {
            byte[] key = key(i);
            recentLeft += db.peek(key, 0, key.length) != null ? 1 : 0;
        }
        assertTrue(recentLeft >= 95, "recently read keys kept: " + recentLeft);
    }

    @Test
    void allkeysLfuSparesFrequentlyReadKeys() {
        PartitionedKeyspace keyspace = keyspace();
        memory.set("maxmemory-policy", "allkeys-lfu");
        Keyspace db = keyspace.database(0);
        fill(db, 0, KEYS, Keyspace.NO_EXPIRY);
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 100; i++) {
                byte[] key = key(i);
                db.get(key, 0, key.length);
            }
        }
        limitTo(keyspace, 0.5);
        sleepPastEstimate();
        assertTrue(keyspace.reclaimAll());
        int frequentLeft = 0;
        for (int i = 0; i < 100; i++) {
            byte[] key = key(i);
            frequentLeft += db.peek(key, 0, key.length) != null ? 1 : 0;
        }
        assertTrue(frequentLeft >= 95, "frequently read keys kept: " + frequentLeft);
    }

    @Test
    void volatilePoliciesEvictOnlyKeysWithAnExpiryAndRefuseWhenNoneIsLeft() {
        for (String policy : new String[] {"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl"}) {
            PartitionedKeyspace keyspace = keyspace();
            memory.set("maxmemory", "0");
            memory.set("maxmemory-policy", policy);
            Keyspace db = keyspace.database(3);
            fill(db, 0, KEYS / 2, Keyspace.NO_EXPIRY);
            fill(db, KEYS / 2, KEYS, now + 3_600_000);
            limitTo(keyspace, 0.1);
            sleepPastEstimate();
            assertFalse(keyspace.reclaimAll(), policy + ": the persistent half cannot go");
            assertEquals(0, db.expiringSize(), policy);
            assertEquals(KEYS / 2, db.size(), policy);
            assertEquals(KEYS / 2, keyspace.evictedKeys(), policy);
        }
    }

    @Test
    void volatileTtlEvictsTheKeysThatExpireSoonestFirst() {
        PartitionedKeyspace keyspace = keyspace();
        memory.set("maxmemory-policy", "volatile-ttl");
        Keyspace db = keyspace.database(0);
        for (int i = 0; i < KEYS; i++) {
            byte[] key = key(i);
            db.put(key, 0, key.length, new byte[100], now + 1_000_000 + i * 1000L);
        }
        limitTo(keyspace, 0.7);
        sleepPastEstimate();
        assertTrue(keyspace.reclaimAll());
        int lateLeft = 0;
        for (int i = KEYS - 200; i < KEYS; i++) {
            byte[] key = key(i);
            lateLeft += db.peek(key, 0, key.length) != null ? 1 : 0;
        }
        assertTrue(lateLeft >= 190, "keys expiring last kept: " + lateLeft);
    }

    @Test
    void allkeysRandomEvictsFromEveryDatabase() {
        PartitionedKeyspace keyspace = keyspace();
        memory.set("maxmemory-policy", "allkeys-random");
        fill(keyspace.database(0), 0, KEYS / 2, Keyspace.NO_EXPIRY);
        fill(keyspace.database(1), 0, KEYS / 2, Keyspace.NO_EXPIRY);
        limitTo(keyspace, 0.5);
        sleepPastEstimate();
        assertTrue(keyspace.reclaimAll());
        assertTrue(keyspace.liveMemory() <= memory.maxmemory());
        assertTrue(keyspace.database(0).size() < KEYS / 2 && keyspace.database(1).size() < KEYS / 2);
    }

    @Test
    void aPartitionEvictsOnlyDownToItsShareWhileOthersHoldTheExcess() {
        PartitionedKeyspace keyspace = new PartitionedKeyspace(2, 1, memory, () -> now);
        memory.set("maxmemory-policy", "allkeys-lru");
        Keyspace db = keyspace.database(0);
        fill(db, 0, KEYS, Keyspace.NO_EXPIRY);
        limitTo(keyspace, 0.5);
        sleepPastEstimate();
        assertTrue(keyspace.reclaim(new int[] {0}, 1));
        long share = memory.maxmemory() / 2;
        long first = keyspace.partition(0).liveMemory();
        assertTrue(first <= share && first > share - 1000, "partition 0 down to its share " + share + ": " + first);
        assertTrue(keyspace.liveMemory() > memory.maxmemory(), "partition 1 still holds the excess");
        assertTrue(keyspace.reclaim(new int[] {1}, 1));
        assertTrue(keyspace.liveMemory() <= memory.maxmemory());
        assertEquals(first, keyspace.partition(0).liveMemory());
    }

    /**
     * What the command's partitions cannot give, the others give on their owners: one queued task
     * each at a time, a bounded step per run, queueing itself again until the keyspace is under the
     * limit or the partition at its share. Here the runner only records; the test runs the tasks.
     */
    @Test
    void theRestOfTheExcessIsEvictedByOneQueuedTaskPerOtherPartition() {
        PartitionedKeyspace keyspace = new PartitionedKeyspace(4, 1, memory, () -> now);
        memory.set("maxmemory-policy", "allkeys-random");
        // No time for more than 16 keys per pass, whatever the machine's speed.
        memory.set("maxmemory-eviction-tenacity", "0");
        Keyspace db = keyspace.database(0);
        fill(db, 0, KEYS, Keyspace.NO_EXPIRY);
        memory.set("maxmemory", "1");
        keyspace.evictionRunner(queued::add);
        sleepPastEstimate();
        assertTrue(keyspace.reclaim(new int[] {0}, 1), "admitted while the other partitions evict");
        // Partition 0 too when the time limit cut the command's eviction short.
        assertTrue(queued.containsAll(List.of(1, 2, 3)), queued::toString);
        int tasks = queued.size();
        assertTrue(keyspace.reclaim(new int[] {0}, 1));
        assertEquals(tasks, queued.size(), "no second task while one is queued");
        int runs = 0;
        while (!queued.isEmpty() && runs < KEYS) {
            keyspace.evictQueued(queued.poll());
            runs++;
        }
        assertTrue(queued.isEmpty());
        assertTrue(runs > 3, "each run evicts a bounded step: " + runs + " runs");
        assertEquals(0, db.size());
        assertEquals(KEYS, keyspace.evictedKeys());
        sleepPastEstimate();
        assertFalse(keyspace.reclaim(new int[] {0}, 1), "refused once nothing is left to evict");
        assertTrue(queued.isEmpty());
    }

    /**
     * As Redis's updateMaxmemory: a limit set below the memory in use starts eviction at once, one
     * task queued on every partition over its share, without waiting for a command; a limit above
     * it queues none.
     */
    @Test
    void settingALimitBelowTheMemoryInUseQueuesEvictionOnEveryPartition() {
        PartitionedKeyspace keyspace = queuingEviction(4, "allkeys-lru");
        fill(keyspace.database(0), 0, KEYS, Keyspace.NO_EXPIRY);
        memory.set("maxmemory", Long.toString(keyspace.liveMemory() * 2));
        assertFalse(keyspace.maxmemoryChanged(null));
        assertTrue(queued.isEmpty());
        memory.set("maxmemory", Long.toString(keyspace.liveMemory() / 2));
        assertFalse(keyspace.maxmemoryChanged(null), "no reply to hold");
        assertEquals(List.of(0, 1, 2, 3), List.copyOf(queued));
        while (!queued.isEmpty()) {
            keyspace.evictQueued(queued.poll());
        }
        assertTrue(keyspace.liveMemory() <= memory.maxmemory(), keyspace.liveMemory() + " > " + memory.maxmemory());
        assertTrue(keyspace.evictedKeys() > 0);
    }

    /**
     * maxmemory-eviction-tenacity bounds each pass as Redis's evictionTimeLimitUs, checked every 16
     * keys: at 0 a queued run evicts 16 keys and queues itself again; at 100 one run evicts all its
     * partition must give.
     */
    @Test
    void tenacityBoundsEachQueuedRunFromSixteenKeysToNoLimit() {
        PartitionedKeyspace keyspace = queuingEviction(1, "allkeys-random");
        fill(keyspace.database(0), 0, KEYS, Keyspace.NO_EXPIRY);
        memory.set("maxmemory", "1");
        memory.set("maxmemory-eviction-tenacity", "0");
        assertTrue(keyspace.reclaim(new int[0], 0));
        assertEquals(List.of(0), List.copyOf(queued));
        keyspace.evictQueued(queued.poll());
        assertEquals(16, keyspace.evictedKeys());
        assertEquals(List.of(0), List.copyOf(queued), "queued again");
        memory.set("maxmemory-eviction-tenacity", "100");
        keyspace.evictQueued(queued.poll());
        assertEquals(KEYS, keyspace.evictedKeys());
        assertTrue(queued.isEmpty(), "done in one run");
    }

    /** The limits of Redis's evictionTimeLimitUs, in nanoseconds. */
    @Test
    void tenacityGivesRedisEvictionTimeLimits() {
        assertEquals(0, MemoryPolicy.evictionTimeLimitNanos(0));
        assertEquals(250_000, MemoryPolicy.evictionTimeLimitNanos(5));
        assertEquals(500_000, MemoryPolicy.evictionTimeLimitNanos(10));
        assertEquals(575_000, MemoryPolicy.evictionTimeLimitNanos(11));
        assertEquals(133_931_000, MemoryPolicy.evictionTimeLimitNanos(50));
        assertEquals(Long.MAX_VALUE, MemoryPolicy.evictionTimeLimitNanos(100));
        assertEquals(500_000, memory.evictionTimeLimitNanos(), "the default, 10");
    }

    /**
     * CONFIG SET maxmemory's reply waits for the first run of every task it queued on another
     * thread, without waiting on this one: what ends the wait runs once, on the thread that ends
     * the last first run (here the test's, which runs the tasks), a dropped task counting as run.
     */
    @Test
    void settingALimitReportsTheEndOfEveryQueuedTasksFirstRunOnce() {
        PartitionedKeyspace keyspace = queuingEviction(4, "allkeys-lru");
        fill(keyspace.database(0), 0, KEYS, Keyspace.NO_EXPIRY);
        memory.set("maxmemory", Long.toString(keyspace.liveMemory() / 2));
        int[] ended = {0};
        assertTrue(keyspace.maxmemoryChanged(() -> ended[0]++));
        assertEquals(List.of(0, 1, 2, 3), List.copyOf(queued));
        keyspace.evictQueued(queued.poll());
        keyspace.dropQueuedEviction(queued.poll());
        keyspace.evictQueued(queued.poll());
        assertEquals(0, ended[0], "one first run still to end");
        keyspace.evictQueued(queued.poll());
        assertEquals(1, ended[0]);
        for (int runs = 0; runs < KEYS && !queued.isEmpty(); runs++) {
            keyspace.evictQueued(queued.poll());
        }
        assertEquals(1, ended[0], "later runs end nothing");
    }

    /**
     * Where the setting's thread may take every partition, it evicts them itself, within the time
     * limit, and queues only what that leaves, never waiting for a partition it took.
     */
    @Test
    void settingALimitEvictsHereWhereThePartitionsMayBeTaken() {
        PartitionedKeyspace keyspace = queuingEviction(4, "allkeys-lru");
        keyspace.evictionHere((partition, body) -> {
            body.run();
            return true;
        });
        fill(keyspace.database(0), 0, 40, Keyspace.NO_EXPIRY);
        memory.set("maxmemory", Long.toString(keyspace.liveMemory() / 2));
        assertFalse(keyspace.maxmemoryChanged(() -> {
            throw new AssertionError("nothing to wait for");
        }));
        while (!queued.isEmpty()) {
            keyspace.evictQueued(queued.poll());
        }
        assertTrue(keyspace.liveMemory() <= memory.maxmemory());
    }

    /**
     * A queued task asks its storage to offload before it evicts, as a command's reclaim does: no
     * key goes while offloading frees all it was asked, and keys go only once it frees less.
     */
    @Test
    void aQueuedTaskOffloadsBeforeItEvicts() {
        long[] offloadable = {0};
        PartitionedKeyspace keyspace = new PartitionedKeyspace(4, 16, offloading(offloadable), memory, () -> now,
            () -> 0);
        memory.set("maxmemory-policy", "allkeys-lru");
        fill(keyspace.database(0), 0, KEYS, Keyspace.NO_EXPIRY);
        offloadable[0] = Long.MAX_VALUE;
        keyspace.evictionRunner(queued::add);
        memory.set("maxmemory", Long.toString(keyspace.liveMemory() / 2));
        keyspace.maxmemoryChanged(null);
        assertEquals(4, queued.size());
        for (int runs = 0; runs < 1000 && !queued.isEmpty(); runs++) {
            keyspace.evictQueued(queued.poll());
        }
        assertTrue(queued.isEmpty());
        assertEquals(0, keyspace.evictedKeys(), "offloading covered the excess");
        offloadable[0] = 0;
        sleepPastEstimate();
        memory.set("maxmemory", Long.toString(keyspace.liveMemory() / 2));
        keyspace.maxmemoryChanged(null);
        for (int runs = 0; runs < 1000 && !queued.isEmpty(); runs++) {
            keyspace.evictQueued(queued.poll());
        }
        assertTrue(keyspace.evictedKeys() > 0, "evicted once nothing is left to offload");
    }

    /**
     * The compact storage, whose partitions claim to offload up to {@code offloadable[0]} bytes in
     * all (freeing nothing: the test's keyspace does not see its memory fall).
     */
    private Storage offloading(long[] offloadable) {
        return offloading(bytes -> {
            long freed = Math.min(bytes, offloadable[0]);
            offloadable[0] -= freed;
            return freed;
        });
    }

    /** The compact storage, whose partitions answer an offload of some bytes with what {@code offload} says it freed. */
    private Storage offloading(LongUnaryOperator offload) {
        StorageProvider compact = ServiceLoader.load(StorageProvider.class).stream()
            .map(ServiceLoader.Provider::get).filter(provider -> provider.name().equals("compact")).findFirst()
            .orElseThrow();
        Storage inner = compact.open(new StorageSetup(name -> Optional.empty(), 16, () -> now, memory));
        return (index, count) -> new PartitionStore() {
            private final PartitionStore store = inner.partition(index, count);

            @Override
            public Table newTable() {
                return store.newTable();
            }

            @Override
            public long offload(long bytes, long now) {
                return offload.applyAsLong(bytes);
            }
        };
    }

    /**
     * A storage that can move values out of memory is asked to, for the whole excess, before any key
     * is evicted: here it covers all of it (as it says), so nothing is evicted, even under noeviction.
     */
    @Test
    void aStorageThatOffloadsIsAskedForTheExcessBeforeAnyKeyIsEvicted() {
        long[] asked = {0};
        Storage offloading = offloading(bytes -> {
            asked[0] += bytes;
            return bytes;
        });
        PartitionedKeyspace keyspace = new PartitionedKeyspace(1, 16, offloading, memory, () -> now, () -> 0);
        fill(keyspace.database(0), 0, KEYS, Keyspace.NO_EXPIRY);
        long used = keyspace.liveMemory();
        limitTo(keyspace, 0.5);
        sleepPastEstimate();
        assertTrue(keyspace.reclaimAll());
        assertEquals(used - memory.maxmemory(), asked[0]);
        assertEquals(0, keyspace.evictedKeys());
        assertEquals(KEYS, keyspace.database(0).size());
    }

    /** The keyspace sums its partitions again once its estimate is a millisecond old. */
    private static void sleepPastEstimate() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
