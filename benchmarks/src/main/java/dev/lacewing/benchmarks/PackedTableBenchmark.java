package dev.lacewing.benchmarks;

import dev.lacewing.core.datatype.PackedTable;
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
 * The large hash's table as HGET, HSET and HDEL use it: {@code fields} fields {@code field:N} ->
 * {@code value:N} (the shape of issue 5's million-field hash), each looked up as a slice of a
 * request-like buffer, in an order that jumps across the table. {@code insertAndRemove} adds a new
 * field and deletes it again, so the table keeps its size and never resizes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class PackedTableBenchmark {

    private static final int STRIDE = 7919;

    @Param({"1000000"})
    public int fields;

    private PackedTable table;
    private final byte[] requestBuffer = new byte[64];
    private final byte[] value = new byte[16];
    private int next;

    @Setup
    public void setUp() {
        table = new PackedTable(true);
        for (int i = 0; i < fields; i++) {
            byte[] field = ascii("field:" + i);
            byte[] stored = ascii("value:" + i);
            table.put(field, 0, field.length, stored, 0, stored.length);
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Writes {@code field:n} into the request buffer at offset 8 and returns its length. */
    private int slice(int n) {
        requestBuffer[8] = 'f';
        requestBuffer[9] = 'i';
        requestBuffer[10] = 'e';
        requestBuffer[11] = 'l';
        requestBuffer[12] = 'd';
        requestBuffer[13] = ':';
        int digits = 1;
        for (int rest = n / 10; rest > 0; rest /= 10) {
            digits++;
        }
        for (int d = 13 + digits; d > 13; d--) {
            requestBuffer[d] = (byte) ('0' + n % 10);
            n /= 10;
        }
        return 6 + digits;
    }

    private int nextField() {
        int n = next;
        next = (next + STRIDE) % fields;
        return n;
    }

    /** HGET: find a present field and read its value's length. */
    @Benchmark
    public int get() {
        int position = table.find(requestBuffer, 8, slice(nextField()));
        return position < 0 ? -1 : table.valueLength(position);
    }

    /** HEXISTS of an absent field: a miss runs to the end of its probe run. */
    @Benchmark
    public int getMissing() {
        return table.find(requestBuffer, 8, slice(fields + nextField()));
    }

    /** HSET of a present field with a value of the same length (written in place). */
    @Benchmark
    public boolean overwrite() {
        // "value:N" is as long as "field:N".
        int length = slice(nextField());
        return table.put(requestBuffer, 8, length, value, 0, length);
    }

    /** HSET of a new field, then HDEL of it. */
    @Benchmark
    public boolean insertAndRemove() {
        int length = slice(fields + nextField());
        table.put(requestBuffer, 8, length, value, 0, 8);
        return table.remove(requestBuffer, 8, length);
    }
}
