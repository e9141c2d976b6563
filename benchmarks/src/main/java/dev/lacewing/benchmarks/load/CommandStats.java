package dev.lacewing.benchmarks.load;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * What one command did: a latency histogram in nanoseconds (1 ns to 1 hour, 3 significant
 * digits), hits, misses, errors and bytes. Each load thread records into its own; the report
 * merges them with {@link #add} once the threads have stopped. Not thread-safe.
 */
public final class CommandStats {

    private static final long HIGHEST_LATENCY_NANOS = TimeUnit.HOURS.toNanos(1);

    final Histogram latency = new Histogram(1, HIGHEST_LATENCY_NANOS, 3);
    long hits;
    long misses;
    long errors;
    long bytesSent;
    long bytesReceived;
    String firstError;

    void record(long latencyNanos, int outcome, int replyBytes) {
        latency.recordValue(Math.min(Math.max(latencyNanos, 1), HIGHEST_LATENCY_NANOS));
        bytesReceived += replyBytes;
        switch (outcome) {
            case ReplyScanner.VALUE -> hits++;
            case ReplyScanner.NIL -> misses++;
            default -> errors++;
        }
    }

    void recordError(String text) {
        if (firstError == null) {
            firstError = text;
        }
    }

    void add(CommandStats other) {
        latency.add(other.latency);
        hits += other.hits;
        misses += other.misses;
        errors += other.errors;
        bytesSent += other.bytesSent;
        bytesReceived += other.bytesReceived;
        if (firstError == null) {
            firstError = other.firstError;
        }
    }

    public long count() {
        return latency.getTotalCount();
    }
}
