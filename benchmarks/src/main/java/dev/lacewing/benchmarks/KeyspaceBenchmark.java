package dev.lacewing.benchmarks;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
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
 * GET (of a key there and of one not), SET of an existing key, and a new key's insert and delete
 * against the keyspace (one partition, as a shard sees it) holding {@code keys} keys of
 * {@code valueLength}-byte values (at most 8,000,000 keys, so that every key has seven digits):
 * 256 bytes, or 3 as redis-benchmark's default {@code -d 3}. Keys are looked up as slices of a
 * request-like buffer, as the server does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class KeyspaceBenchmark {

    @Param({"1000000"})
    public int keys;

    @Param({"256"})
    public int valueLength;

    private Keyspace database;
    private byte[] requestBuffer;
    private byte[] value;
    private final ValueView view = new ValueView();
    private int next;

    @Setup
    public void setUp() {
        value = new byte[valueLength];
        database = new PartitionedKeyspace(1, 16).database(0);
        for (int i = 0; i < keys; i++) {
            byte[] key = key(i);
            database.put(key, 0, key.length, value, Keyspace.NO_EXPIRY);
        }
        requestBuffer = new byte[64];
    }

    private static byte[] key(int i) {
        return ("key:" + (1_000_000 + i)).getBytes(StandardCharsets.US_ASCII);
    }

    /** Writes key number {@code i} into the request buffer at offset 8, as a decoder slice would be. */
    private int slice(int i) {
        int n = 1_000_000 + i;
        requestBuffer[8] = 'k';
        requestBuffer[9] = 'e';
        requestBuffer[10] = 'y';
        requestBuffer[11] = ':';
        for (int d = 18; d >= 12; d--) {
            requestBuffer[d] = (byte) ('0' + n % 10);
            n /= 10;
        }
        return 11;
    }

    /** As GET reads: through a view, without copying the value. */
    @Benchmark
    public int get() {
        int length = slice(next);
        next = (next + 7919) % keys;
        return database.getValue(requestBuffer, 8, length, view) ? view.length() : -1;
    }

    /** A key that is not there, as a cache's misses ask. */
    @Benchmark
    public boolean getMissing() {
        int length = slice(keys + next);
        next = (next + 7919) % keys;
        return database.getValue(requestBuffer, 8, length, view);
    }

    /** A new key and then its delete, so that the table stays at its size (and its index's load). */
    @Benchmark
    public boolean insertAndRemove() {
        int length = slice(keys + next);
        next = (next + 7919) % keys;
        database.put(requestBuffer, 8, length, value, Keyspace.NO_EXPIRY);
        return database.remove(requestBuffer, 8, length);
    }

    @Benchmark
    public void set() {
        int length = slice(next);
        next = (next + 7919) % keys;
        database.put(requestBuffer, 8, length, value, Keyspace.NO_EXPIRY);
    }
}
