package dev.lacewing.benchmarks;

import dev.lacewing.core.keyspace.Slots;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The hash slot of a key, which the shared-nothing engine computes to route every keyed request
 * and the keyspace again to find its partition: a memtier-style key ({@code memtier-} and up to
 * seven digits) and a longer one.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SlotBenchmark {

    @Param({"memtier-1234567", "user:session:0123456789abcdef0123456789abcdef"})
    public String key;

    private byte[] bytes;

    @Setup
    public void setUp() {
        bytes = key.getBytes(StandardCharsets.US_ASCII);
    }

    @Benchmark
    public int slot() {
        return Slots.slot(bytes, 0, bytes.length);
    }
}
