package dev.lacewing.core.diagnostics;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * MEMORY STATS, DOCTOR, MALLOC-STATS and PURGE over the JVM's figures, under Redis 7.0's names (object.c's
 * getMemoryOverheadData) so that tools reading them parse them. Redis's allocator is the JVM's heap
 * here: {@code allocator.allocated} is the heap in use, {@code allocator.active} the heap committed,
 * {@code allocator.resident} that plus the non-heap and direct buffers; {@code fragmentation} is RSS
 * over {@code total.allocated}, as INFO's {@code mem_fragmentation_ratio}. Figures Lacewing does not
 * have (replication backlog, AOF buffer, hash table overheads, startup memory) are 0.
 *
 * <p>Thread rule: stateless; any thread.
 */
public final class MemoryStats {

    /** Redis's thresholds in getMemoryDoctorReport. */
    private static final long EMPTY_BYTES = 5L << 20;
    private static final long TEN_MIB = 10L << 20;
    private static final long CLIENT_BUFFER_BYTES = 200L * 1024;

    private MemoryStats() {
    }

    /**
     * What the server knows of its own memory.
     *
     * @param used INFO's used_memory: the keyspace's estimate plus client buffers
     * @param peak INFO's used_memory_peak
     * @param clientBuffers the normal clients' buffers
     * @param clients connected clients
     * @param keysPerDb keys in each database that has any, by number
     * @param scripts scripts cached
     */
    public record Server(long used, long peak, long clientBuffers, long clients, Map<Integer, Long> keysPerDb,
                         long scripts) {
    }

    /** The JVM's side: heap, non-heap, direct buffers and the process's RSS. */
    public record Jvm(long heapUsed, long heapCommitted, long heapMax, long nonHeapUsed, long directBuffers,
                      long rss) {

        public static Jvm now() {
            MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            return new Jvm(heap.getUsed(), heap.getCommitted(), heap.getMax(),
                ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage().getUsed(), directBufferBytes(),
                residentSetSize());
        }

        /** allocator.resident: what the JVM holds beyond the heap in use. */
        long resident() {
            return heapCommitted + nonHeapUsed + directBuffers;
        }
    }

    /** MEMORY STATS' fields in Redis's order; a ratio is a Double, a database's entry a map. */
    public static Map<String, Object> stats(Server server, Jvm jvm) {
        Map<String, Object> stats = new LinkedHashMap<>();
        long total = server.used();
        stats.put("peak.allocated", server.peak());
        stats.put("total.allocated", total);
        stats.put("startup.allocated", 0L);
        stats.put("replication.backlog", 0L);
        stats.put("clients.slaves", 0L);
        stats.put("clients.normal", server.clientBuffers());
        stats.put("cluster.links", 0L);
        stats.put("aof.buffer", 0L);
        stats.put("lua.caches", 0L);
        stats.put("functions.caches", 0L);
        long keys = 0;
        for (Map.Entry<Integer, Long> db : server.keysPerDb().entrySet()) {
            Map<String, Object> overhead = new LinkedHashMap<>();
            overhead.put("overhead.hashtable.main", 0L);
            overhead.put("overhead.hashtable.expires", 0L);
            overhead.put("overhead.hashtable.slot-to-keys", 0L);
            stats.put("db." + db.getKey(), overhead);
            keys += db.getValue();
        }
        long overhead = server.clientBuffers();
        long dataset = Math.max(0, total - overhead);
        stats.put("overhead.total", overhead);
        stats.put("keys.count", keys);
        stats.put("keys.bytes-per-key", keys == 0 ? 0L : total / keys);
        stats.put("dataset.bytes", dataset);
        stats.put("dataset.percentage", total == 0 ? 0.0 : dataset * 100.0 / total);
        stats.put("peak.percentage", server.peak() == 0 ? 0.0 : total * 100.0 / server.peak());
        stats.put("allocator.allocated", jvm.heapUsed());
        stats.put("allocator.active", jvm.heapCommitted());
        stats.put("allocator.resident", jvm.resident());
        stats.put("allocator-fragmentation.ratio", ratio(jvm.heapCommitted(), jvm.heapUsed()));
        stats.put("allocator-fragmentation.bytes", jvm.heapCommitted() - jvm.heapUsed());
        stats.put("allocator-rss.ratio", ratio(jvm.resident(), jvm.heapCommitted()));
        stats.put("allocator-rss.bytes", jvm.resident() - jvm.heapCommitted());
        stats.put("rss-overhead.ratio", ratio(jvm.rss(), jvm.resident()));
        stats.put("rss-overhead.bytes", jvm.rss() - jvm.resident());
        stats.put("fragmentation", ratio(jvm.rss(), total));
        stats.put("fragmentation.bytes", jvm.rss() - total);
        return stats;
    }

    /**
     * MEMORY DOCTOR: Redis's checks (an almost empty instance, a peak over 150% of what is used,
     * RSS over 1.4 times used and 10 MiB more, big client buffers, many scripts) and two of the JVM's
     * (the heap in use near its maximum, committed heap far over what is used), worded as Redis's.
     */
    public static String doctor(Server server, Jvm jvm) {
        StringBuilder issues = new StringBuilder();
        if (server.used() < EMPTY_BYTES) {
            return "Hi Sam, this instance is empty or is using very little memory, my issues detector can't be used "
                + "in these conditions. Please, leave for your mission on Earth and fill it with some data. The new Sam "
                + "and I will be back to our programming as soon as I finished rebooting.\n";
        }
        if ((double) server.peak() / server.used() > 1.5) {
            issues.append(" * Peak memory: In the past this instance used more than 150% the memory that is currently "
                + "using. The JVM does not return its heap to the system at once after a peak, so you can expect to see "
                + "a big fragmentation ratio, however this is actually harmless and is only due to the memory peak, and "
                + "the memory will be used as soon as you fill the instance with more data.\n\n");
        }
        double fragmentation = ratio(jvm.rss(), server.used());
        if (fragmentation > 1.4 && jvm.rss() - server.used() > TEN_MIB) {
            issues.append(String.format(Locale.ROOT, " * High total RSS: This instance has a memory fragmentation and "
                + "RSS overhead greater than 1.4 (%.2f: the Resident Set Size of the process is much larger than the sum "
                + "of the logical allocations Lacewing performed). On the JVM this is mostly heap committed beyond what "
                + "is live (heap committed %d bytes, in use %d bytes), which a smaller -Xmx or a GC that uncommits "
                + "(G1 with -XX:G1PeriodicGCInterval, ZGC) gives back. Note: The currently used allocator is \"jvm\".\n\n",
                fragmentation, jvm.heapCommitted(), jvm.heapUsed()));
        }
        if (jvm.heapMax() > 0 && jvm.heapUsed() > 0.9 * jvm.heapMax()) {
            issues.append(String.format(Locale.ROOT, " * Little heap headroom: the heap in use is %.1f%% of the JVM's "
                + "maximum (%d of %d bytes). Garbage collection will run often and long, and the JVM may fail with "
                + "OutOfMemoryError: set maxmemory below the heap, or give the JVM a larger -Xmx.\n\n",
                jvm.heapUsed() * 100.0 / jvm.heapMax(), jvm.heapUsed(), jvm.heapMax()));
        }
        if (server.clients() > 0 && server.clientBuffers() / server.clients() > CLIENT_BUFFER_BYTES) {
            issues.append(" * Big client buffers: The clients output buffers in this instance are greater than 200K per "
                + "client (on average). This may result from different causes, like Pub/Sub clients subscribed to "
                + "channels bot not receiving data fast enough, so that data piles on the Redis instance output buffer, "
                + "or clients sending commands with large replies or very large sequences of commands in the same "
                + "pipeline. Please use the CLIENT LIST command in order to investigate the issue if it causes problems "
                + "in your instance, or to understand better why certain clients are using a big amount of memory.\n\n");
        }
        if (server.scripts() > 1000) {
            issues.append(" * Many scripts: There seem to be many cached scripts in this instance (more than 1000). This "
                + "may be because scripts are generated and `EVAL`ed, instead of being parameterized (with KEYS and "
                + "ARGV), `SCRIPT LOAD`ed and `EVALSHA`ed. Unless `SCRIPT FLUSH` is called periodically, the scripts' "
                + "caches may end up consuming most of your memory.\n\n");
        }
        if (issues.length() == 0) {
            return "Hi Sam, I can't find any memory issue in your instance. I can only account for what occurs on this "
                + "base.\n";
        }
        return "Sam, I detected a few issues in this Redis instance memory implants:\n\n" + issues
            + "I'm here to keep you safe, Sam. I want to help you.\n";
    }

    /**
     * What MEMORY PURGE gave back: the JVM's figures before and after, and whether the C heap was
     * trimmed (JDK 17.0.9+ and 21+ have the System.trim_native_heap diagnostic command).
     */
    public record Purge(Jvm before, Jvm after, long collectionMillis, boolean nativeHeapTrimmed) {

        /** For the log: {@code heap committed 512.0M -> 48.0M, rss 640.2M -> 170.4M (full GC 85 ms, C heap trimmed)}. */
        public String describe() {
            return "heap used " + mebibytes(before.heapUsed) + " -> " + mebibytes(after.heapUsed) + ", heap committed "
                + mebibytes(before.heapCommitted) + " -> " + mebibytes(after.heapCommitted) + ", rss "
                + mebibytes(before.rss) + " -> " + mebibytes(after.rss) + " (collection " + collectionMillis + " ms"
                + (nativeHeapTrimmed ? ", C heap trimmed)" : ", C heap not trimmed: this JVM cannot)");
        }

        private static String mebibytes(long bytes) {
            return String.format(Locale.ROOT, "%.1fM", bytes / 1048576.0);
        }
    }

    /**
     * MEMORY PURGE, the JVM's counterpart of Redis's jemalloc purge: a full collection, after which
     * the collector gives the heap above its free-ratio bounds back to the system (G1 at a full GC,
     * as the launcher's MinHeapFreeRatio/MaxHeapFreeRatio bound it; ZGC after ZUncommitDelay), then
     * glibc's malloc_trim through the System.trim_native_heap diagnostic command where the JVM has
     * it. Blocks the calling thread for the collection, as Redis's purge blocks its one thread.
     */
    public static Purge purge() {
        Jvm before = Jvm.now();
        long started = System.nanoTime();
        System.gc();
        long millis = (System.nanoTime() - started) / 1_000_000;
        boolean trimmed = trimNativeHeap();
        return new Purge(before, Jvm.now(), millis, trimmed);
    }

    private static boolean trimNativeHeap() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName commands = new ObjectName("com.sun.management:type=DiagnosticCommand");
            for (MBeanOperationInfo operation : server.getMBeanInfo(commands).getOperations()) {
                if (operation.getName().equals("systemTrimNativeHeap") && operation.getSignature().length == 0) {
                    server.invoke(commands, "systemTrimNativeHeap", null, null);
                    return true;
                }
            }
            return false;
        } catch (JMException | RuntimeException e) {
            return false;
        }
    }

    /** MEMORY MALLOC-STATS: the JVM's heap and its pools, non-heap, direct and mapped buffers, and each collector. */
    public static String mallocStats() {
        StringBuilder text = new StringBuilder("___ Begin JVM memory statistics ___\n");
        text.append("Version: \"").append(Runtime.version()).append("\"\n");
        usage(text, "heap", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage());
        usage(text, "non-heap", ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage());
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            usage(text, "pool \"" + pool.getName() + "\" (" + pool.getType().toString().toLowerCase(Locale.ROOT) + ")",
                pool.getUsage());
        }
        for (BufferPoolMXBean buffers : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            text.append("buffers \"").append(buffers.getName()).append("\": count ").append(buffers.getCount())
                .append(", used ").append(buffers.getMemoryUsed()).append(", capacity ")
                .append(buffers.getTotalCapacity()).append('\n');
        }
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            text.append("gc \"").append(collector.getName()).append("\": collections ")
                .append(collector.getCollectionCount()).append(", time ").append(collector.getCollectionTime())
                .append(" ms\n");
        }
        text.append("rss: ").append(residentSetSize()).append('\n');
        return text.append("--- End JVM memory statistics ---\n").toString();
    }

    private static void usage(StringBuilder text, String name, MemoryUsage usage) {
        text.append(name).append(": init ").append(usage.getInit()).append(", used ").append(usage.getUsed())
            .append(", committed ").append(usage.getCommitted()).append(", max ").append(usage.getMax()).append('\n');
    }

    private static double ratio(long numerator, long denominator) {
        return denominator <= 0 ? 0.0 : (double) numerator / denominator;
    }

    private static long directBufferBytes() {
        long used = 0;
        for (BufferPoolMXBean buffers : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            used += buffers.getMemoryUsed();
        }
        return used;
    }

    /** RSS from /proc/self/statm; 0 where there is none. */
    private static long residentSetSize() {
        try {
            String[] fields = Files.readString(Path.of("/proc/self/statm")).trim().split("\\s+");
            return Long.parseLong(fields[1]) * 4096;
        } catch (Exception e) {
            return 0;
        }
    }
}
