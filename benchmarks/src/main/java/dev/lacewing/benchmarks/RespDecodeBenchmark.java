package dev.lacewing.benchmarks;

import dev.lacewing.core.resp.RequestDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
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
 * Decoding a pipeline of 30 requests (GET or SET with a 256-byte value) as they arrive in one
 * read: copy into the decoder, parse every request, consume. Run with {@code -prof gc} to see
 * allocation per request (expected: none).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RespDecodeBenchmark {

    private static final int PIPELINE = 30;

    @Param({"GET", "SET"})
    public String command;

    private ByteBuf batch;
    private final RequestDecoder decoder = new RequestDecoder();

    @Setup
    public void setUp() {
        StringBuilder requests = new StringBuilder();
        String value = "x".repeat(256);
        for (int i = 0; i < PIPELINE; i++) {
            String key = "key:" + (100000 + i);
            if (command.equals("GET")) {
                requests.append("*2\r\n$3\r\nGET\r\n$").append(key.length()).append("\r\n").append(key).append("\r\n");
            } else {
                requests.append("*3\r\n$3\r\nSET\r\n$").append(key.length()).append("\r\n").append(key)
                    .append("\r\n$256\r\n").append(value).append("\r\n");
            }
        }
        batch = Unpooled.directBuffer().writeBytes(requests.toString().getBytes(StandardCharsets.US_ASCII));
    }

    /** Returns the argument bytes seen, so the work cannot be eliminated; one call = 30 requests. */
    @Benchmark
    @org.openjdk.jmh.annotations.OperationsPerInvocation(PIPELINE)
    public int decodePipeline() {
        batch.readerIndex(0);
        decoder.append(batch);
        int total = 0;
        while (decoder.decode() == RequestDecoder.Result.COMPLETE) {
            total += decoder.length(decoder.count() - 1);
            decoder.consume();
        }
        return total;
    }
}
