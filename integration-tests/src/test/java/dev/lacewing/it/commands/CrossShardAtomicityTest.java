package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.KeyValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
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
 * MSET and MSETNX over keys on both shards are all-or-nothing: concurrent MGETs never see half
 * of one, and of racing MSETNX over overlapping keys exactly one wins. Loops are bounded in
 * rounds and in time.
 */
class CrossShardAtomicityTest {

    private static final int KEYS = 16;
    private static final long TIME_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(4);

    private static String[] keys(Target target, String name) {
        String[] keys = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = "atomic:" + target + ":" + name + ":" + i;
        }
        return keys;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void readersSeeEveryMsetWholeOrNotAtAll(Target target) throws Exception {
        String[] keys = keys(target, "mset");
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (StatefulRedisConnection<String, String> writer = Servers.client(target).connect();
             StatefulRedisConnection<String, String> reader1 = Servers.client(target).connect();
             StatefulRedisConnection<String, String> reader2 = Servers.client(target).connect()) {
            writer.sync().mset(generation(keys, 0));
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            Future<Integer> written = pool.submit(() -> {
                int round = 1;
                for (; round <= 2000 && System.nanoTime() < deadline; round++) {
                    writer.sync().mset(generation(keys, round));
                }
                writing.set(false);
                return round;
            });
            List<Future<Integer>> reads = new ArrayList<>();
            for (StatefulRedisConnection<String, String> reader : List.of(reader1, reader2)) {
                reads.add(pool.submit(() -> {
                    int checked = 0;
                    while (writing.get() && checked < 4000 && System.nanoTime() < deadline) {
                        List<KeyValue<String, String>> values = reader.sync().mget(keys);
                        String first = values.get(0).getValue();
                        for (KeyValue<String, String> value : values) {
                            assertEquals(first, value.getValue(), "a torn MSET: " + values);
                        }
                        checked++;
                    }
                    return checked;
                }));
            }
            assertTrue(written.get(10, TimeUnit.SECONDS) > 1);
            for (Future<Integer> read : reads) {
                assertTrue(read.get(10, TimeUnit.SECONDS) > 0);
            }
            cleanUp(writer.sync(), keys);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void ofRacingMsetnxOverOverlappingKeysExactlyOneWins(Target target) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (StatefulRedisConnection<String, String> a = Servers.client(target).connect();
             StatefulRedisConnection<String, String> b = Servers.client(target).connect()) {
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            for (int round = 0; round < 200 && System.nanoTime() < deadline; round++) {
                String[] keys = keys(target, "msetnx:" + round);
                Map<String, String> fromA = new LinkedHashMap<>();
                Map<String, String> fromB = new LinkedHashMap<>();
                for (int i = 0; i < KEYS; i++) {
                    fromA.put(keys[i], "a");
                    fromB.put(keys[KEYS - 1 - i], "b");
                }
                Future<Boolean> wonA = pool.submit(() -> a.sync().msetnx(fromA));
                Future<Boolean> wonB = pool.submit(() -> b.sync().msetnx(fromB));
                boolean aWon = wonA.get(10, TimeUnit.SECONDS);
                boolean bWon = wonB.get(10, TimeUnit.SECONDS);
                assertTrue(aWon ^ bWon, "exactly one MSETNX wins, round " + round);
                String winner = aWon ? "a" : "b";
                for (KeyValue<String, String> value : a.sync().mget(keys)) {
                    assertEquals(winner, value.getValue(), "every key holds the winner's value");
                }
                cleanUp(a.sync(), keys);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static Map<String, String> generation(String[] keys, int round) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String key : keys) {
            values.put(key, Integer.toString(round));
        }
        return values;
    }

    private static void cleanUp(RedisCommands<String, String> sync, String[] keys) {
        for (String key : keys) {
            sync.getdel(key);
        }
    }
}
