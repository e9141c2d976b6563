package dev.lacewing.it.commands;

import static dev.lacewing.it.commands.BitmapCommandsTest.keyOnShard;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.server.Servers;
import dev.lacewing.junit.LacewingMatrix;
import dev.lacewing.junit.LacewingTest;
import dev.lacewing.junit.LacewingServerInfo;
import dev.lacewing.junit.LacewingTarget;
import dev.lacewing.it.server.Target;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * PFADD, PFCOUNT and PFMERGE through lettuce on every pair of engine, transport and storage, keys on both shards; the
 * servers are lacewing-junit's {@link LacewingMatrix}, this class's own, two threads each as the
 * shared ones.
 */
class HyperLogLogCommandsTest {

    private static byte[][] elements(String prefix, int from, int to) {
        byte[][] elements = new byte[to - from][];
        for (int i = from; i < to; i++) {
            elements[i - from] = (prefix + i).getBytes(StandardCharsets.UTF_8);
        }
        return elements;
    }

    @LacewingMatrix(storages = {LacewingTest.Storage.COMPACT, LacewingTest.Storage.TIERED}, settings = "threads 2")
    void countsAreCloseAndUnionsSpanShards(LacewingServerInfo server, LacewingTarget lacewingTarget) {
        Target target = Target.of(lacewingTarget);
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(server)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            RedisAsyncCommands<byte[], byte[]> async = connection.async();
            byte[] a = keyOnShard(target, "hll:a", 0);
            byte[] b = keyOnShard(target, "hll:b", 1);
            byte[] merged = keyOnShard(target, "hll:merged", 0);
            sync.del(a, b, merged);
            connection.setAutoFlushCommands(false);
            List<RedisFuture<Long>> adds = new ArrayList<>();
            for (int i = 0; i < 10_000; i += 500) {
                adds.add(async.pfadd(a, elements("x", i, i + 500)));
                adds.add(async.pfadd(b, elements("x", i + 5_000, i + 5_500)));
            }
            connection.flushCommands();
            assertTrue(LettuceFutures.awaitAll(Duration.ofSeconds(20), adds.toArray(new RedisFuture[0])));
            connection.setAutoFlushCommands(true);
            assertWithin(10_000, sync.pfcount(a));
            assertWithin(10_000, sync.pfcount(b));
            byte[] before = sync.get(a);
            assertWithin(15_000, sync.pfcount(a, b));
            assertArrayEquals(before, sync.get(a), "a union count changes no value");
            assertEquals("OK", sync.pfmerge(merged, a, b));
            assertWithin(15_000, sync.pfcount(merged));
            assertEquals(0L, sync.pfadd(merged, elements("x", 0, 10)));
            sync.del(a, b, merged);
        }
    }

    @LacewingMatrix(storages = {LacewingTest.Storage.COMPACT, LacewingTest.Storage.TIERED}, settings = "threads 2")
    void plainStringsAreNotHyperLogLogs(LacewingServerInfo server, LacewingTarget lacewingTarget) {
        Target target = Target.of(lacewingTarget);
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(server)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            byte[] s = keyOnShard(target, "hll:string", 1);
            sync.set(s, "HYLL".getBytes(StandardCharsets.UTF_8));
            RedisCommandExecutionException error = assertThrows(RedisCommandExecutionException.class,
                () -> sync.pfcount(s));
            assertEquals("WRONGTYPE Key is not a valid HyperLogLog string value.", error.getMessage());
            sync.del(s);
        }
    }

    /** HyperLogLog's standard error with 16384 registers is 0.81%; 3% leaves no room for flakiness. */
    private static void assertWithin(long expected, long actual) {
        assertTrue(Math.abs(actual - expected) <= expected * 0.03, "count " + actual + ", expected about " + expected);
    }
}
