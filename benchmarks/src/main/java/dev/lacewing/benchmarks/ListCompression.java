package dev.lacewing.benchmarks;

import dev.lacewing.core.datatype.Quicklist;
import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * What {@code list-compress-depth} costs and saves on one long list: {@code count} elements
 * {@code value:%d} pushed to the tail of a list with 8 KiB nodes (list-max-listpack-size -2) at the
 * given depth; prints the list's {@code memoryUsage()} (MEMORY USAGE, used_memory), the heap in use
 * after full GCs with it and once it is freed, and the time of the full range reply (LRANGE 0 -1,
 * RESP-encoded into a heap buffer) and of LINDEX at the middle, each the best of several rounds after
 * a warm-up. One depth per JVM:
 *
 * <pre>java -Xmx3g -XX:+UseSerialGC -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
 *   dev.lacewing.benchmarks.ListCompression 1000000 1</pre>
 */
public final class ListCompression {

    private static final int ROUNDS = 8;
    private static final int LINDEX_CALLS = 20_000;

    private ListCompression() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int depth = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        long start = System.nanoTime();
        Quicklist list = new Quicklist(-2, depth);
        for (int i = 0; i < count; i++) {
            list.pushTail(("value:" + i).getBytes(StandardCharsets.US_ASCII));
        }
        long buildNanos = System.nanoTime() - start;
        long withList = heapAfterFullGc();
        ByteBuf out = Unpooled.buffer(count * 24);
        RespWriter writer = new RespWriter();
        writer.target(out);
        long bestRange = Long.MAX_VALUE;
        long bestIndex = Long.MAX_VALUE;
        long checksum = 0;
        for (int round = 0; round < ROUNDS; round++) {
            out.clear();
            long rangeStart = System.nanoTime();
            writer.array(count);
            list.writeRange(0, list.size() - 1, writer);
            bestRange = Math.min(bestRange, System.nanoTime() - rangeStart);
            checksum += out.writerIndex();
            long indexStart = System.nanoTime();
            for (int i = 0; i < LINDEX_CALLS; i++) {
                checksum += list.get(list.size() / 2 + (i & 1)).length;
            }
            bestIndex = Math.min(bestIndex, System.nanoTime() - indexStart);
        }
        long memoryUsage = list.memoryUsage();
        int replyBytes = out.writerIndex();
        out.release();
        list = null;
        // The list's heap is what freeing it gives back: growth since the start would also count
        // what the JVM itself kept from the build.
        long heap = withList - heapAfterFullGc();
        System.out.printf("depth %d, %d elements: memoryUsage %d (%.2f B/element), heap %d (%.2f B/element), "
                + "build %.0f ms, LRANGE 0 -1 %.1f ms (%d reply bytes), LINDEX middle %.2f us (checksum %d)%n",
            depth, count, memoryUsage, memoryUsage / (double) count, heap, heap / (double) count,
            buildNanos / 1e6, bestRange / 1e6, replyBytes, bestIndex / 1e3 / LINDEX_CALLS, checksum);
    }

    private static long heapAfterFullGc() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
