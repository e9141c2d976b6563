package dev.lacewing.benchmarks;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.storage.Table;
import dev.lacewing.core.datatype.PackedTable;
import dev.lacewing.core.datatype.SortedSet;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The longest single insert while one large aggregate grows: {@code count} fields
 * {@code field:%d} -> {@code value:%d} put one by one into a {@link PackedTable} (a large hash), or
 * {@code count} members {@code member:%d} scored {@code i * 1.5} added one by one to a large
 * {@link SortedSet}, or {@code count} string keys {@code key:%d} -> {@code value:%d} stored one by
 * one in a keyspace table (the compact storage's); each insert is timed alone. For the aggregates the
 * longest is a doubling of the index, which holds the shard that owns the key for that long (the
 * index grows in one step, not incrementally as a Redis dict does); the keyspace's index grows one
 * 4096-slot segment at a time, so its longest insert is a split, a page allocation or a GC pause
 * (run with {@code -Xlog:gc} to tell); the growth steps without a collection in them are reported
 * apart. Three rounds per JVM; after the first the JIT has compiled
 * the path:
 *
 * <pre>java -Xmx2g -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
 *   dev.lacewing.benchmarks.AggregateGrowth large-hash|sorted-set|keyspace 2000000</pre>
 */
public final class AggregateGrowth {

    private static final int ROUNDS = 3;
    /** The sorted set stays in its large form: no listpack thresholds apply to it. */
    private static final long NO_LISTPACK = 0;

    private AggregateGrowth() {
    }

    public static void main(String[] args) {
        String shape = args.length > 0 ? args[0] : "large-hash";
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
        if (!shape.equals("large-hash") && !shape.equals("sorted-set") && !shape.equals("keyspace")) {
            throw new IllegalArgumentException("shape: large-hash, sorted-set or keyspace");
        }
        for (int round = 0; round < ROUNDS; round++) {
            PackedTable hash = new PackedTable(true);
            SortedSet sortedSet = SortedSet.large();
            Table keyspace = new PartitionedKeyspace(1, 1).partition(0).table(0);
            long longest = 0;
            int longestAt = 0;
            long longestGrowth = 0;
            int growths = 0;
            long[] growthTimes = new long[1 << 16];
            int growthsOver2ms = 0;
            boolean keys = shape.equals("keyspace");
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                int capacity = keys ? keyspace.capacity() : 0;
                // Cleared by any collection while the insert runs: cheaper than asking the collectors.
                WeakReference<Object> sentinel = keys ? new WeakReference<>(new Object()) : null;
                long took = switch (shape) {
                    case "large-hash" -> putField(hash, i);
                    case "sorted-set" -> addMember(sortedSet, i);
                    default -> putKey(keyspace, i);
                };
                if (took > longest) {
                    longest = took;
                    longestAt = i;
                }
                // A growth step the insert took, unless a GC pause fell inside it.
                if (keys && keyspace.capacity() != capacity && sentinel.get() != null) {
                    growthTimes[growths++ & 0xffff] = took;
                    growthsOver2ms += took > 2_000_000 ? 1 : 0;
                    longestGrowth = Math.max(longestGrowth, took);
                }
            }
            System.out.printf("%s round %d: %d elements in %d ms, longest insert %.1f ms (at %d elements)%n", shape,
                round, count, (System.nanoTime() - start) / 1_000_000, longest / 1e6, longestAt);
            if (keys) {
                long[] sorted = Arrays.copyOf(growthTimes, Math.min(growths, growthTimes.length));
                Arrays.sort(sorted);
                System.out.printf("  index growth steps without a GC in them: %d, median %.3f ms, p99 %.3f ms,"
                    + " longest %.3f ms, %d over 2 ms%n", growths, sorted[sorted.length / 2] / 1e6,
                    sorted[sorted.length * 99 / 100] / 1e6, longestGrowth / 1e6, growthsOver2ms);
            }
        }
    }

    /** Puts field {@code i}; returns the nanoseconds the put took. */
    private static long putField(PackedTable table, int i) {
        byte[] field = ("field:" + i).getBytes(StandardCharsets.US_ASCII);
        byte[] value = ("value:" + i).getBytes(StandardCharsets.US_ASCII);
        long before = System.nanoTime();
        table.put(field, 0, field.length, value, 0, value.length);
        return System.nanoTime() - before;
    }

    /** Stores string key {@code i}; returns the nanoseconds the store took. */
    private static long putKey(Table table, int i) {
        byte[] key = ("key:" + i).getBytes(StandardCharsets.US_ASCII);
        byte[] value = ("value:" + i).getBytes(StandardCharsets.US_ASCII);
        long before = System.nanoTime();
        table.putString(key, 0, key.length, value, 0, value.length, Keyspace.NO_EXPIRY);
        return System.nanoTime() - before;
    }

    /** Adds member {@code i}; returns the nanoseconds the add took. */
    private static long addMember(SortedSet set, int i) {
        byte[] member = ("member:" + i).getBytes(StandardCharsets.US_ASCII);
        long before = System.nanoTime();
        set.add(member, i * 1.5, NO_LISTPACK, NO_LISTPACK);
        return System.nanoTime() - before;
    }
}
