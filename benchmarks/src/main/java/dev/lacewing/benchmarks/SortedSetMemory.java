package dev.lacewing.benchmarks;

import dev.lacewing.core.datatype.SortedSet;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;

/**
 * Bytes per member of one large sorted set ({@code skiplist} form): {@code members} members
 * {@code member:%d} with scores {@code i * 1.5}, as {@code ZADD key score member} would store
 * them. Heap in use after a full GC before and after filling, divided by the member count, beside
 * the set's own {@link SortedSet#memoryUsage()} (what MEMORY USAGE and used_memory count):
 *
 * <pre>java -Xmx4g -cp "benchmarks/target/classes:core/target/classes:api/target/classes" \
 *   dev.lacewing.benchmarks.SortedSetMemory 1000000</pre>
 */
public final class SortedSetMemory {

    private SortedSetMemory() {
    }

    public static void main(String[] args) {
        int members = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        long before = heapAfterFullGc();
        SortedSet set = SortedSet.large();
        for (int i = 0; i < members; i++) {
            set.add(("member:" + i).getBytes(StandardCharsets.US_ASCII), i * 1.5, 128, 64);
        }
        long after = heapAfterFullGc();
        System.out.printf("members=%d heap/member=%.1f memoryUsage/member=%.1f size=%d encoding=%s%n", members,
            (double) (after - before) / members, (double) set.memoryUsage() / members, set.size(), set.encoding());
    }

    private static long heapAfterFullGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
