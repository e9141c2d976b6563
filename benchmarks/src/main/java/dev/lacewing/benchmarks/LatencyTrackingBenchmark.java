package dev.lacewing.benchmarks;

import dev.lacewing.core.diagnostics.LatencyHistogram;
import dev.lacewing.core.diagnostics.LatencyTracking;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What latency-tracking adds to every command: {@link LatencyTracking#record} into one command's
 * {@link LatencyHistogram} (the thread's own recorder, found through a FastThreadLocal), with
 * tracking on and off. Run with 1 and 2 threads ({@code -t 2}): the threads share the command's
 * histogram as the workers share GET's, and must not slow each other.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LatencyTrackingBenchmark {

    @Param({"yes", "no"})
    public String tracking;

    private final LatencyHistogram histogram = new LatencyHistogram();
    private LatencyTracking latencyTracking;

    @Setup
    public void setUp() {
        latencyTracking = new LatencyTracking(tracking.equals("yes"), "50 99 99.9");
    }

    @Benchmark
    public void record() {
        latencyTracking.record(histogram, 7);
    }
}
