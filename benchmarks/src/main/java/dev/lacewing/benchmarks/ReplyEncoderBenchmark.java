package dev.lacewing.benchmarks;

import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link RespWriter} encoding one reply into a direct buffer from Netty's default pooled allocator
 * (the connection's outbound buffer): a 256-byte bulk string (GET), an integer (INCR, DEL), or an array of ten 16-byte bulk
 * strings (MGET, LRANGE). The buffer is emptied after each reply, as a flush leaves it. Run with
 * {@code -prof gc}: encoding allocates nothing.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReplyEncoderBenchmark {

    @Param({"bulk", "integer", "array"})
    public String reply;

    private final RespWriter writer = new RespWriter();
    private final byte[] value = new byte[256];
    private final byte[] element = new byte[16];
    private ByteBuf out;
    private long counter = 1_234_567;

    @Setup
    public void setUp() {
        out = ByteBufAllocator.DEFAULT.ioBuffer(4096);
        writer.target(out);
    }

    @TearDown
    public void tearDown() {
        out.release();
    }

    /** Returns the encoded length, so the work cannot be eliminated. */
    @Benchmark
    public int encode() {
        out.clear();
        switch (reply) {
            case "bulk" -> writer.bulk(value, 0, value.length);
            case "integer" -> writer.integer(counter++);
            default -> {
                writer.array(10);
                for (int i = 0; i < 10; i++) {
                    writer.bulk(element, 0, element.length);
                }
            }
        }
        return out.writerIndex();
    }
}
