package dev.lacewing.core.diagnostics;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Redis 7.0's per-command latency tracking ({@code latency-tracking}, {@code
 * latency-tracking-info-percentiles}): whether calls are recorded in their command's {@link
 * LatencyHistogram}, and how LATENCY HISTOGRAM and INFO latencystats render one (latency.c's
 * fillCommandCDF, server.c's fillPercentileDistributionLatencies).
 *
 * <p>Thread rule: any thread; the settings are volatile fields CONFIG SET replaces.
 */
public final class LatencyTracking {

    /** hdr_iter_log_init(&iter, histogram, 1024, 2): the first bucket is 1024 ns, each next one twice as wide. */
    private static final long FIRST_BUCKET_NANOS = 1024;

    /** A LATENCY HISTOGRAM bucket: the calls that took at most {@code micros}, cumulative. */
    public record Bucket(long micros, long calls) {
    }

    private volatile boolean enabled;
    private volatile double[] percentiles;

    public LatencyTracking(boolean enabled, String percentiles) {
        configure(enabled, percentiles);
    }

    /** New settings; {@code percentiles} as CONFIG SET has already checked them ({@link #normalize}). */
    public void configure(boolean enabled, String percentiles) {
        this.enabled = enabled;
        this.percentiles = parse(percentiles);
    }

    public boolean enabled() {
        return enabled;
    }

    /** latency-tracking-info-percentiles, each from 0 to 100. */
    public double[] percentiles() {
        return percentiles.clone();
    }

    /** One call, in the microseconds Redis's call() measures (it records them times 1000, in nanoseconds). */
    public void record(LatencyHistogram histogram, long micros) {
        if (enabled) {
            histogram.record(micros * 1000);
        }
    }

    /**
     * LATENCY HISTOGRAM's buckets: at 1024 ns and each power of two above it, the calls up to that
     * bucket's highest equivalent value, in microseconds; a bucket that adds no call is left out.
     */
    public static List<Bucket> buckets(Histogram histogram) {
        List<Bucket> buckets = new ArrayList<>();
        long total = histogram.getTotalCount();
        long previous = 0;
        for (long level = FIRST_BUCKET_NANOS; previous < total; level *= 2) {
            long bounded = Math.min(level, histogram.getHighestTrackableValue());
            long calls = histogram.getCountBetweenValues(0, bounded);
            if (calls > previous) {
                buckets.add(new Bucket(histogram.highestEquivalentValue(bounded) / 1000, calls));
            }
            previous = calls;
            if (bounded < level) {
                break;
            }
        }
        return buckets;
    }

    /** INFO latencystats' line: {@code latency_percentiles_usec_get:p50=1.003,p99=1.003,p99.9=1.003}. */
    public String percentilesLine(String commandName, Histogram histogram) {
        StringBuilder line = new StringBuilder("latency_percentiles_usec_").append(commandName).append(':');
        double[] wanted = percentiles;
        for (int i = 0; i < wanted.length; i++) {
            if (i > 0) {
                line.append(',');
            }
            line.append('p').append(trimmed(wanted[i])).append('=').append(String.format(Locale.ROOT, "%.3f",
                histogram.getValueAtPercentile(wanted[i]) / 1000.0));
        }
        return line.toString();
    }

    /**
     * {@code latency-tracking-info-percentiles} as CONFIG GET replies it: each number trimmed of
     * trailing zeros, one space between; Redis's errors for a word that is not a number or one
     * outside 0..100.
     */
    public static String normalize(String value) {
        StringBuilder normalized = new StringBuilder();
        for (double percentile : parse(value)) {
            normalized.append(normalized.length() == 0 ? "" : " ").append(trimmed(percentile));
        }
        return normalized.toString();
    }

    private static double[] parse(String value) {
        String stripped = value.strip();
        if (stripped.isEmpty()) {
            return new double[0];
        }
        String[] words = stripped.split("\\s+");
        double[] parsed = new double[words.length];
        for (int i = 0; i < words.length; i++) {
            try {
                parsed[i] = Double.parseDouble(words[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Invalid latency-tracking-info-percentiles parameters");
            }
            if (!(parsed[i] >= 0.0 && parsed[i] <= 100.0)) {
                throw new IllegalArgumentException(
                    "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]");
            }
        }
        return parsed;
    }

    /** Redis's "%f" then trimDoubleString: 50 for 50.0, 99.9 for 99.9. */
    private static String trimmed(double value) {
        return new BigDecimal(String.format(Locale.ROOT, "%f", value)).stripTrailingZeros().toPlainString();
    }
}
