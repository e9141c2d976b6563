package dev.lacewing.core.diagnostics;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * INFO errorstats: how many error replies were written, by error prefix, as Redis's
 * afterErrorReply counts them: the prefix is the error's first word when a space comes within its
 * first 32 bytes, "ERR" otherwise. At most 128 distinct prefixes are kept, Redis's
 * ERROR_STATS_NUMBER; errors with a new prefix past that are not counted.
 *
 * <p>Thread rule: any thread; counters are per-prefix adders, summed when INFO reads them.
 */
public final class ErrorStats {

    private static final int MAX_PREFIXES = 128;
    private static final int PREFIX_SEARCH_BYTES = 32;

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    /** Counts the error written in {@code out} from {@code start} (after its '-') to the writer index. */
    public void record(ByteBuf out, int start) {
        int limit = Math.min(out.writerIndex(), start + PREFIX_SEARCH_BYTES);
        int space = -1;
        for (int i = start; i < limit; i++) {
            if (out.getByte(i) == ' ') {
                space = i;
                break;
            }
        }
        String prefix = space < 0 ? "ERR" : out.toString(start, space - start, StandardCharsets.ISO_8859_1);
        LongAdder count = counts.get(prefix);
        if (count == null) {
            if (counts.size() >= MAX_PREFIXES) {
                return;
            }
            count = counts.computeIfAbsent(prefix, p -> new LongAdder());
        }
        count.increment();
    }

    /** Prefix to count, in prefix order as Redis's radix tree lists them. */
    public Map<String, Long> counts() {
        Map<String, Long> sorted = new TreeMap<>();
        counts.forEach((prefix, count) -> sorted.put(prefix, count.sum()));
        return sorted;
    }

    /** CONFIG RESETSTAT. */
    public void reset() {
        counts.clear();
    }
}
