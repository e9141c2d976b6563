package dev.lacewing.benchmarks;

import dev.lacewing.api.Keyspace;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;

/**
 * Bytes per entry of the keyspace, as Redis users measure memory: {@code keys} keys of 16
 * bytes ({@code key:%012d}) with values of {@code value-bytes}, with or without a TTL, stored in
 * one partition's database 0. Heap in use after a full GC (several {@code System.gc()} under G1
 * or Serial, which are full collections) before and after filling, divided by the key count; the
 * keyspace's own count (INFO's used_memory) beside it. Run one measurement per JVM, so another's
 * garbage does not count:
 *
 * <pre>java -Xmx8g -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
 *   dev.lacewing.benchmarks.KeyspaceMemory 8 ttl 1000000</pre>
 */
public final class KeyspaceMemory {

    private KeyspaceMemory() {
    }

    public static void main(String[] args) {
        int valueBytes = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        boolean ttl = args.length > 1 && args[1].equals("ttl");
        int keys = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;

        long before = heapAfterFullGc();
        PartitionedKeyspace keyspace = new PartitionedKeyspace(1, 16);
        Keyspace database = keyspace.database(0);
        byte[] value = new byte[valueBytes];
        long expireAt = ttl ? System.currentTimeMillis() + 3_600_000 : Keyspace.NO_EXPIRY;
        for (int i = 0; i < keys; i++) {
            byte[] key = String.format("key:%012d", i).getBytes(StandardCharsets.US_ASCII);
            value[0] = (byte) i;
            database.putString(key, 0, key.length, value, 0, valueBytes, expireAt);
        }
        long after = heapAfterFullGc();
        long counted = keyspace.liveMemory();
        System.out.printf("keys=%d key=16B value=%dB ttl=%s heap/entry=%.1f used_memory/entry=%s size=%d%n",
            keys, valueBytes, ttl ? "yes" : "no", (double) (after - before) / keys,
            counted < 0 ? "n/a" : String.format("%.1f", (double) counted / keys), database.size());
    }

    private static long heapAfterFullGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
