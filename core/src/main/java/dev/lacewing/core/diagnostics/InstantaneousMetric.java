package dev.lacewing.core.diagnostics;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One of INFO's instantaneous_* figures, as Redis's trackInstantaneousMetric keeps it: every
 * 100 ms the rate per second since the previous sample goes into a ring of 16, and the figure is
 * their mean, so it follows the last 1.6 s.
 *
 * <p>Thread rule: {@link #sample} runs on one thread (a worker's repeating task); any thread reads.
 */
public final class InstantaneousMetric {

    /** Redis's STATS_METRIC_SAMPLES. */
    private static final int SAMPLES = 16;

    private final AtomicLongArray rates = new AtomicLongArray(SAMPLES);
    private int next;
    private long lastMillis = -1;
    private long lastReading;

    /** Takes a sample of the counter's current reading at {@code nowMillis}. */
    public void sample(long reading, long nowMillis) {
        if (lastMillis >= 0) {
            long elapsed = nowMillis - lastMillis;
            // A reading below the last one is a CONFIG RESETSTAT: no rate for that period.
            rates.set(next, elapsed > 0 ? Math.max(0, reading - lastReading) * 1000 / elapsed : 0);
            next = (next + 1) % SAMPLES;
        }
        lastMillis = nowMillis;
        lastReading = reading;
    }

    /** The mean rate per second of the last 16 samples. */
    public long perSecond() {
        long sum = 0;
        for (int i = 0; i < SAMPLES; i++) {
            sum += rates.get(i);
        }
        return sum / SAMPLES;
    }
}
