package dev.lacewing.benchmarks.load;

import java.util.random.RandomGenerator;

/**
 * The key indexes one client uses for one command, in [minimum, maximum], following a
 * {@link KeyPattern} with memtier_benchmark's semantics. Sequential patterns wrap to the minimum
 * after the maximum. Owned by the client's event-loop thread; {@link #next()} allocates nothing.
 */
public final class KeySequence {

    private final KeyPattern pattern;
    private final long minimum;
    private final long maximum;
    private final double stddev;
    private final double median;
    private final RandomGenerator random;
    private long nextSequential;

    private KeySequence(KeyPattern pattern, long minimum, long maximum, double stddev, double median,
                        RandomGenerator random) {
        this.pattern = pattern;
        this.minimum = minimum;
        this.maximum = maximum;
        this.stddev = stddev;
        this.median = median;
        this.random = random;
        this.nextSequential = minimum;
    }

    /**
     * The sequence of client {@code clientIndex} of {@code clients}. For P the range is cut into
     * {@code (maximum - minimum) / clients + 1} keys per client (memtier's slice size), the last
     * client taking what is left; a gaussian's stddev and median default (when 0) to a sixth of the
     * range and its middle, as memtier's do.
     */
    public static KeySequence of(KeyPattern pattern, long minimum, long maximum, double stddev, double median,
                                 int clientIndex, int clients, RandomGenerator random) {
        if (pattern == KeyPattern.PARALLEL) {
            long slice = (maximum - minimum) / clients + 1;
            long sliceMinimum = Math.min(maximum, minimum + slice * clientIndex);
            long sliceMaximum = clientIndex == clients - 1 ? maximum : Math.min(maximum, sliceMinimum + slice - 1);
            return new KeySequence(pattern, sliceMinimum, sliceMaximum, 0, 0, random);
        }
        double sd = stddev > 0 ? stddev : (maximum - minimum) / 6.0;
        double mid = median > 0 ? median : minimum + (maximum - minimum) / 2.0;
        return new KeySequence(pattern, minimum, maximum, sd, mid, random);
    }

    public long minimum() {
        return minimum;
    }

    public long maximum() {
        return maximum;
    }

    public long next() {
        switch (pattern) {
            case RANDOM:
                return minimum + random.nextLong(maximum - minimum + 1);
            case GAUSSIAN:
                return gaussian();
            default:
                long key = nextSequential;
                nextSequential = key >= maximum ? minimum : key + 1;
                return key;
        }
    }

    /** Draws until a value falls in range, as memtier does; with a sane stddev that is 1-2 draws. */
    private long gaussian() {
        if (stddev == 0 || minimum == maximum) {
            return Math.max(minimum, Math.min(maximum, (long) median));
        }
        while (true) {
            long key = Math.round(random.nextGaussian(median, stddev));
            if (key >= minimum && key <= maximum) {
                return key;
            }
        }
    }
}
