package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.it.server.Overlap;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
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
 * of one, an MSETNX sets nothing when a key on either shard exists, and of racing MSETNX over
 * overlapping keys exactly one wins. Loops are bounded in
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
            Overlap overlap = new Overlap(2);
            Future<Integer> written = pool.submit(() -> {
                overlap.awaitReaders();
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
                        if (checked++ == 0) {
                            overlap.checked();
                        }
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void readersSeeEveryMsetnxWholeOrNotAtAll(Target target) throws Exception {
        String[] keys = keys(target, "msetnx-read");
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (StatefulRedisConnection<String, String> writer = Servers.client(target).connect();
             StatefulRedisConnection<String, String> reader = Servers.client(target).connect()) {
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            Overlap overlap = new Overlap(1);
            Future<Integer> written = pool.submit(() -> {
                overlap.awaitReaders();
                int round = 1;
                for (; round <= 1000 && System.nanoTime() < deadline; round++) {
                    assertTrue(writer.sync().msetnx(generation(keys, round)), "none of the keys exists");
                    assertEquals(KEYS, writer.sync().del(keys));
                }
                writing.set(false);
                return round;
            });
            Future<Integer> read = pool.submit(() -> {
                int checked = 0;
                while (writing.get() && checked < 4000 && System.nanoTime() < deadline) {
                    List<KeyValue<String, String>> values = reader.sync().mget(keys);
                    String first = values.get(0).getValueOrElse(null);
                    for (KeyValue<String, String> value : values) {
                        assertEquals(first, value.getValueOrElse(null), "a torn MSETNX: " + values);
                    }
                    if (checked++ == 0) {
                        overlap.checked();
                    }
                }
                return checked;
            });
            assertTrue(written.get(10, TimeUnit.SECONDS) > 1);
            assertTrue(read.get(10, TimeUnit.SECONDS) > 0);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void msetnxSetsNothingWhenAnyKeyOnAnyShardExists(Target target) {
        String[] keys = keys(target, "msetnx-exists");
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> sync = connection.sync();
            for (int existing = 0; existing < KEYS; existing++) {
                sync.set(keys[existing], "old");
                assertEquals(false, sync.msetnx(generation(keys, 1)), "key " + existing + " exists");
                for (int i = 0; i < KEYS; i++) {
                    assertEquals(i == existing ? "old" : null, sync.get(keys[i]), "key " + i);
                }
                sync.del(keys[existing]);
            }
            assertEquals(true, sync.msetnx(generation(keys, 2)));
            for (KeyValue<String, String> value : sync.mget(keys)) {
                assertEquals("2", value.getValue());
            }
            cleanUp(sync, keys);
        }
    }

    /**
     * A script over a key of shard 1 keeps that shard's thread busy; an MSETNX over a key of each
     * shard then holds its shard-0 key and waits for shard 1. Meanwhile a GET of another key of
     * shard 0 answers: the MSETNX claims its keys there, not the shard. The multithread engine has
     * no shard claims (a command waits for its stripes on its worker's thread), so this is about
     * the shared-nothing engine only.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aCrossShardMsetnxWaitingOnOneShardLeavesTheOtherKeysOfItsShardsFree(Target target) throws Exception {
        assumeTrue(target.engine().equals("shared-nothing"), "shard claims are the shared-nothing engine's");
        String claimed = TransactionCommandsTest.keyOnShard(target, "claims:held", 0);
        String third = TransactionCommandsTest.keyOnShard(target, "claims:third", 0);
        String busy = TransactionCommandsTest.keyOnShard(target, "claims:busy", 1);
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                connections.add(Servers.client(target).connect());
            }
            RedisCommands<String, String> setup = connections.get(0).sync();
            setup.del(claimed, busy);
            setup.set(third, "free");
            String spin = "local t = redis.call('TIME') local start = t[1] * 1000000 + t[2] "
                + "repeat t = redis.call('TIME') until t[1] * 1000000 + t[2] - start >= tonumber(ARGV[1]) "
                + "return 'done'";
            // A script's first run takes the whole keyspace; later runs only their KEYS.
            assertEquals("done", setup.eval(spin, ScriptOutputType.STATUS, new String[] {busy}, "0"));
            RedisFuture<String> script = connections.get(0).async().eval(spin, ScriptOutputType.STATUS,
                new String[] {busy}, "3000000");
            Thread.sleep(200);
            List<RedisFuture<String>> pings = new ArrayList<>();
            for (StatefulRedisConnection<String, String> connection : connections) {
                pings.add(connection.async().ping());
            }
            Thread.sleep(300);
            // A connection whose thread runs the script cannot answer until it ends.
            List<StatefulRedisConnection<String, String>> free = new ArrayList<>();
            for (int i = 1; i < connections.size(); i++) {
                if (pings.get(i).isDone()) {
                    free.add(connections.get(i));
                }
            }
            assumeTrue(free.size() >= 2, "two connections live on the free worker");
            RedisFuture<Boolean> msetnx = free.get(0).async().msetnx(Map.of(claimed, "1", busy, "1"));
            Thread.sleep(200);
            assertEquals("free", free.get(1).async().get(third).get(10, TimeUnit.SECONDS));
            assertFalse(script.isDone(), "the GET answered while the script held shard 1");
            assertFalse(msetnx.isDone(), "the MSETNX still waits for shard 1");
            assertEquals("done", script.get(10, TimeUnit.SECONDS));
            assertTrue(msetnx.get(10, TimeUnit.SECONDS));
            assertEquals("1", free.get(1).sync().get(claimed));
            free.get(1).sync().del(claimed, busy, third);
        } finally {
            for (StatefulRedisConnection<String, String> connection : connections) {
                connection.close();
            }
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
