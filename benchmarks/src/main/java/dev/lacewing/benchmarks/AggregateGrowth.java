package dev.lacewing.benchmarks;

import dev.lacewing.api.Keyspace;
import dev.lacewing.core.datatype.PackedTable;
import dev.lacewing.core.datatype.SortedSet;
import dev.lacewing.core.keyspace.CompactTable;
import java.nio.charset.StandardCharsets;

/**
 * The longest single insert while one large aggregate grows: {@code count} fields
 * {@code field:%d} -> {@code value:%d} put one by one into a {@link PackedTable} (a large hash), or
 * {@code count} members {@code member:%d} scored {@code i * 1.5} added one by one to a large
 * {@link SortedSet}, or {@code count} string keys {@code key:%d} -> {@code value:%d} stored one by
 * one in a keyspace table ({@link CompactTable}); each insert is timed alone. The longest is a
 * doubling of the index, which holds the shard that owns the key for that long (the index grows in
 * one step, not incrementally as a Redis dict does). Three rounds per JVM; after the first the JIT
 * has compiled the path:
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
            CompactTable keyspace = new CompactTable();
            long longest = 0;
            int longestAt = 0;
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                long took = switch (shape) {
                    case "large-hash" -> putField(hash, i);
                    case "sorted-set" -> addMember(sortedSet, i);
                    default -> putKey(keyspace, i);
                };
                if (took > longest) {
                    longest = took;
                    longestAt = i;
                }
            }
            System.out.printf("%s round %d: %d elements in %d ms, longest insert %.1f ms (at %d elements)%n", shape,
                round, count, (System.nanoTime() - start) / 1_000_000, longest / 1e6, longestAt);
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
    private static long putKey(CompactTable table, int i) {
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
