package dev.lacewing.benchmarks;

import dev.lacewing.core.datatype.StreamValue;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;

/**
 * Bytes per entry of one stream of {@code entries} two-field entries, as
 * {@code XADD s <id> name sensor-<i % 100> reading <i>} stores them with the default node bounds
 * (4096 bytes, 100 entries), IDs ten to a millisecond as a busy {@code *} makes them
 * ({@code 1700000000000 + i / 10}-{@code i % 10}). Heap in use after a full GC before and after
 * filling, divided by the entry count, beside the stream's own {@link StreamValue#memoryUsage()}
 * (what MEMORY USAGE and used_memory count). The same entries for redis-server:
 * {@code --redis} prints them as commands for {@code redis-cli --pipe}.
 *
 * <pre>java -Xmx3g -cp "benchmarks/target/classes:core/target/classes:api/target/classes" \
 *   dev.lacewing.benchmarks.StreamMemory 1000000</pre>
 */
public final class StreamMemory {

    private static final long BASE_MS = 1_700_000_000_000L;

    private StreamMemory() {
    }

    public static void main(String[] args) {
        int entries = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        if (args.length > 1 && args[1].equals("--redis")) {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < entries; i++) {
                out.setLength(0);
                out.append("XADD s ").append(BASE_MS + i / 10).append('-').append(i % 10)
                    .append(" name sensor-").append(i % 100).append(" reading ").append(i).append('\n');
                System.out.print(out);
            }
            return;
        }
        long before = heapAfterFullGc();
        StreamValue stream = new StreamValue();
        int[] offsets = new int[4];
        int[] lengths = new int[4];
        for (int i = 0; i < entries; i++) {
            byte[] fields = ("name" + "sensor-" + (i % 100) + "reading" + i).getBytes(StandardCharsets.US_ASCII);
            lengths[0] = 4;
            lengths[1] = ("sensor-" + (i % 100)).length();
            lengths[2] = 7;
            lengths[3] = fields.length - 4 - lengths[1] - 7;
            offsets[1] = 4;
            offsets[2] = 4 + lengths[1];
            offsets[3] = offsets[2] + 7;
            stream.add(BASE_MS + i / 10, i % 10, fields, offsets, lengths, 0, 4, 4096, 100);
        }
        long after = heapAfterFullGc();
        System.out.printf("entries=%d heap/entry=%.1f memoryUsage/entry=%.1f length=%d nodes=%d%n", entries,
            (double) (after - before) / entries, (double) stream.memoryUsage() / entries, stream.length(),
            stream.nodeCount());
    }

    private static long heapAfterFullGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
