package dev.lacewing.core.diagnostics;

import io.netty.util.concurrent.FastThreadLocal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One command's latency distribution, as Redis 7.0's latency tracking keeps it (an hdr_histogram
 * of nanoseconds from 1 ns to 1 s, two significant digits): LATENCY HISTOGRAM and INFO latencystats
 * read it.
 *
 * <p>Thread rule: {@link #record} from any thread, without contention: each thread records into its
 * own {@link SingleWriterRecorder}, found through a {@link FastThreadLocal} (an array index on the
 * event loops) and made on the thread's first call. Readers ({@link #snapshot}, {@link #reset}) take
 * the histogram's lock, drain every thread's recorder into the running total and copy it.
 */
public final class LatencyHistogram {

    /** Redis's LATENCY_HISTOGRAM_MIN_VALUE, _MAX_VALUE (nanoseconds) and _PRECISION. */
    static final long LOWEST_NANOS = 1;
    static final long HIGHEST_NANOS = 1_000_000_000L;
    static final int SIGNIFICANT_DIGITS = 2;

    /** A thread's recorder, and the interval histogram the reader hands back to it for reuse. */
    private static final class ThreadRecorder {
        final SingleWriterRecorder recorder = new SingleWriterRecorder(LOWEST_NANOS, HIGHEST_NANOS, SIGNIFICANT_DIGITS);
        Histogram spare;
    }

    private final List<ThreadRecorder> recorders = new CopyOnWriteArrayList<>();
    private final FastThreadLocal<SingleWriterRecorder> recorder = new FastThreadLocal<>() {
        @Override
        protected SingleWriterRecorder initialValue() {
            ThreadRecorder made = new ThreadRecorder();
            recorders.add(made);
            return made.recorder;
        }
    };
    /** Everything drained from the recorders since the last reset; guarded by this. */
    private Histogram total;

    /** One call's duration, clamped to the histogram's range as Redis's updateCommandLatencyHistogram does. */
    public void record(long nanos) {
        recorder.get().recordValue(Math.min(Math.max(nanos, LOWEST_NANOS), HIGHEST_NANOS));
    }

    /** A copy of everything recorded since the last reset; empty (total count 0) when nothing was. */
    public synchronized Histogram snapshot() {
        drain();
        return total.copy();
    }

    /** CONFIG RESETSTAT: forgets everything recorded so far. */
    public synchronized void reset() {
        drain();
        total.reset();
    }

    private void drain() {
        if (total == null) {
            total = new Histogram(LOWEST_NANOS, HIGHEST_NANOS, SIGNIFICANT_DIGITS);
        }
        for (ThreadRecorder each : recorders) {
            each.spare = each.recorder.getIntervalHistogram(each.spare);
            total.add(each.spare);
        }
    }
}
