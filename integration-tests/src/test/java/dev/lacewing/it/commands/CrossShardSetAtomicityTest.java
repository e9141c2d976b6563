package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.server.Overlap;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Multi-key set commands over keys on different shards (different hash tags) are atomic: a member
 * SMOVEd back and forth between two sets is, to concurrent SUNION and SINTERCARD readers, always in
 * exactly one of them; a SUNIONSTORE is never seen half-written. Loops are bounded in rounds and time.
 */
class CrossShardSetAtomicityTest {

    private static final long TIME_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(4);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aMovingMemberIsAlwaysInExactlyOneSet(Target target) throws Exception {
        String[] sets = new String[8];
        for (int i = 0; i < sets.length; i++) {
            sets[i] = "{move" + i + "}:" + target;
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (StatefulRedisConnection<String, String> writer = Servers.client(target).connect();
             StatefulRedisConnection<String, String> reader1 = Servers.client(target).connect();
             StatefulRedisConnection<String, String> reader2 = Servers.client(target).connect()) {
            RedisCommands<String, String> w = writer.sync();
            for (String set : sets) {
                w.sadd(set, "base");
            }
            w.sadd(sets[0], "m");
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            Overlap overlap = new Overlap(2);
            Future<Integer> moved = pool.submit(() -> {
                overlap.awaitReaders();
                int round = 0;
                for (; round < 3000 && System.nanoTime() < deadline; round++) {
                    assertTrue(w.smove(sets[round % sets.length], sets[(round + 1) % sets.length], "m"));
                }
                writing.set(false);
                return round;
            });
            List<Future<Integer>> reads = new ArrayList<>();
            reads.add(pool.submit(() -> {
                int checked = 0;
                while (writing.get() && checked < 4000 && System.nanoTime() < deadline) {
                    assertEquals(Set.of("base", "m"), reader1.sync().sunion(sets), "a torn SMOVE");
                    if (checked++ == 0) {
                        overlap.checked();
                    }
                }
                return checked;
            }));
            reads.add(pool.submit(() -> {
                int checked = 0;
                while (writing.get() && checked < 4000 && System.nanoTime() < deadline) {
                    for (int i = 0; i + 1 < sets.length; i++) {
                        // Both sets hold "base"; "m" in both at once would make it 2.
                        assertEquals(1L, reader2.sync().sintercard(sets[i], sets[i + 1]), "a torn SMOVE");
                    }
                    if (checked++ == 0) {
                        overlap.checked();
                    }
                }
                return checked;
            }));
            assertTrue(moved.get(10, TimeUnit.SECONDS) > 1);
            for (Future<Integer> read : reads) {
                assertTrue(read.get(10, TimeUnit.SECONDS) > 0);
            }
            w.del(sets);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aSunionstoreIsSeenWholeOrNotAtAll(Target target) throws Exception {
        String left = "{left}:" + target;
        String right = "{right}:" + target;
        String destination = "{destination}:" + target;
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (StatefulRedisConnection<String, String> writer = Servers.client(target).connect();
             StatefulRedisConnection<String, String> reader = Servers.client(target).connect()) {
            RedisCommands<String, String> w = writer.sync();
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            Overlap overlap = new Overlap(1);
            Future<Integer> stored = pool.submit(() -> {
                overlap.awaitReaders();
                int round = 0;
                for (; round < 2000 && System.nanoTime() < deadline; round++) {
                    // Each round: left and right get the round's members, then their union is stored.
                    w.del(left, right);
                    w.sadd(left, "l" + round, "same");
                    w.sadd(right, "r" + round, "same");
                    assertEquals(3L, w.sunionstore(destination, left, right));
                }
                writing.set(false);
                return round;
            });
            Future<Integer> read = pool.submit(() -> {
                int checked = 0;
                while (writing.get() && checked < 4000 && System.nanoTime() < deadline) {
                    long size = reader.sync().scard(destination);
                    assertTrue(size == 0 || size == 3, "a half-stored SUNIONSTORE: " + size);
                    if (checked++ == 0) {
                        overlap.checked();
                    }
                }
                return checked;
            });
            assertTrue(stored.get(10, TimeUnit.SECONDS) > 1);
            assertTrue(read.get(10, TimeUnit.SECONDS) > 0);
            w.del(left, right, destination);
        } finally {
            pool.shutdownNow();
        }
    }
}
