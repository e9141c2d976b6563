package dev.lacewing.benchmarks;

import dev.lacewing.core.datatype.PackedTable;
import java.nio.charset.StandardCharsets;

/**
 * The longest single insert while one large hash grows: {@code count} fields {@code field:%d} ->
 * {@code value:%d} put one by one into a {@link PackedTable}, each put timed alone. The longest is
 * the doubling of the index, which holds the shard that owns the key for that long (the table
 * grows in one step, not incrementally as a Redis dict does). Three rounds per JVM, after the
 * first the JIT has compiled the path:
 *
 * <pre>java -Xmx2g -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
 *   dev.lacewing.benchmarks.PackedTableGrowth 2000000</pre>
 */
public final class PackedTableGrowth {

    private static final int ROUNDS = 3;

    private PackedTableGrowth() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        for (int round = 0; round < ROUNDS; round++) {
            PackedTable table = new PackedTable(true);
            long longest = 0;
            int longestAt = 0;
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                byte[] field = ("field:" + i).getBytes(StandardCharsets.US_ASCII);
                byte[] value = ("value:" + i).getBytes(StandardCharsets.US_ASCII);
                long before = System.nanoTime();
                table.put(field, 0, field.length, value, 0, value.length);
                long took = System.nanoTime() - before;
                if (took > longest) {
                    longest = took;
                    longestAt = i;
                }
            }
            System.out.printf("round %d: %d fields in %d ms, longest put %.1f ms (at %d fields)%n", round, count,
                (System.nanoTime() - start) / 1_000_000, longest / 1e6, longestAt);
        }
    }
}
