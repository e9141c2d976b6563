package dev.lacewing.it.commands;

import static dev.lacewing.it.commands.BitmapCommandsTest.keyOnShard;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.server.Overlap;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BITOP, PFCOUNT of several keys and PFMERGE read their source keys, one per shard, as one
 * snapshot: a writer keeps both sources equal with MSET (itself atomic), so a command that saw one
 * source before an MSET and the other after it would give a visible trace (a non-zero XOR, a union
 * twice too large). Loops are bounded in rounds and in time.
 */
class CrossShardBitsAtomicityTest {

    private static final long TIME_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final int GENERATIONS = 50;

    /** Keeps {@code a} and {@code b} equal to {@code values[round % n]} until told to stop. */
    private static Future<Integer> writer(ExecutorService pool, StatefulRedisConnection<byte[], byte[]> connection,
                                          byte[] a, byte[] b, byte[][] values, AtomicBoolean writing, long deadline,
                                          Overlap overlap) {
        return pool.submit(() -> {
            overlap.awaitReaders();
            int round = 1;
            try {
                for (; round <= 3000 && System.nanoTime() < deadline; round++) {
                    byte[] value = values[round % values.length];
                    Map<byte[], byte[]> both = new LinkedHashMap<>();
                    both.put(a, value);
                    both.put(b, value);
                    connection.sync().mset(both);
                }
            } finally {
                writing.set(false);
            }
            return round;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void bitopSeesBothSourcesFromTheSameMset(Target target) throws Exception {
        byte[] a = keyOnShard(target, "atomic:bitop:a", 0);
        byte[] b = keyOnShard(target, "atomic:bitop:b", 1);
        byte[] destination = keyOnShard(target, "atomic:bitop:d", 0);
        byte[][] values = new byte[GENERATIONS][];
        for (int g = 0; g < GENERATIONS; g++) {
            values[g] = new byte[1 + g % 7];
            java.util.Arrays.fill(values[g], (byte) (g + 1));
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicBoolean writing = new AtomicBoolean(true);
        try (StatefulRedisConnection<byte[], byte[]> writerConnection = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> reader = Servers.connect(target)) {
            writerConnection.sync().mset(Map.of(a, values[0], b, values[0]));
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            Overlap overlap = new Overlap(1);
            Future<Integer> written = writer(pool, writerConnection, a, b, values, writing, deadline, overlap);
            Future<Integer> checked = pool.submit(() -> {
                RedisCommands<byte[], byte[]> sync = reader.sync();
                int rounds = 0;
                while (writing.get() && rounds < 3000 && System.nanoTime() < deadline) {
                    long length = sync.bitopXor(destination, a, b);
                    byte[] xor = sync.get(destination);
                    assertEquals(length, xor.length);
                    for (byte x : xor) {
                        assertEquals(0, x, "BITOP saw the two sources from different MSETs");
                    }
                    if (rounds++ == 0) {
                        overlap.checked();
                    }
                }
                return rounds;
            });
            assertTrue(written.get(10, TimeUnit.SECONDS) > 1);
            assertTrue(checked.get(10, TimeUnit.SECONDS) > 0);
            writerConnection.sync().del(a, b, destination);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void pfcountAndPfmergeSeeBothSourcesFromTheSameMset(Target target) throws Exception {
        byte[] a = keyOnShard(target, "atomic:hll:a", 1);
        byte[] b = keyOnShard(target, "atomic:hll:b", 0);
        byte[] destination = keyOnShard(target, "atomic:hll:d", 1);
        byte[] scratch = keyOnShard(target, "atomic:hll:scratch", 0);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicBoolean writing = new AtomicBoolean(true);
        try (StatefulRedisConnection<byte[], byte[]> writerConnection = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> reader = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> setup = writerConnection.sync();
            byte[][] values = new byte[GENERATIONS][];
            for (int g = 0; g < GENERATIONS; g++) {
                setup.del(scratch);
                List<byte[]> elements = new ArrayList<>();
                for (int e = 0; e < 5; e++) {
                    elements.add(("generation " + g + " element " + e).getBytes(StandardCharsets.UTF_8));
                }
                setup.pfadd(scratch, elements.toArray(new byte[0][]));
                values[g] = setup.get(scratch);
            }
            setup.mset(Map.of(a, values[0], b, values[0]));
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            Overlap overlap = new Overlap(1);
            Future<Integer> written = writer(pool, writerConnection, a, b, values, writing, deadline, overlap);
            Future<Integer> checked = pool.submit(() -> {
                RedisCommands<byte[], byte[]> sync = reader.sync();
                int rounds = 0;
                while (writing.get() && rounds < 2000 && System.nanoTime() < deadline) {
                    assertTrue(sync.pfcount(a, b) <= 7, "PFCOUNT saw the two sources from different MSETs");
                    sync.del(destination);
                    sync.pfmerge(destination, a, b);
                    assertTrue(sync.pfcount(destination) <= 7, "PFMERGE saw the two sources from different MSETs");
                    if (rounds++ == 0) {
                        overlap.checked();
                    }
                }
                return rounds;
            });
            assertTrue(written.get(10, TimeUnit.SECONDS) > 1);
            assertTrue(checked.get(10, TimeUnit.SECONDS) > 0);
            setup.del(a, b, destination, scratch);
        } finally {
            pool.shutdownNow();
        }
    }
}
