package dev.lacewing.it.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.reference.ReferenceRedis;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where the append-only file meets other features, on every engine and transport: the gather form
 * of cross-shard commands (its keys on the two shards of a two-thread server), MULTI/EXEC and
 * scripts over two shards, and a blocked client served by a gathered command. After a restart from
 * the file, every key equals what a redis-server 7.0.15 fed the same commands holds.
 */
class CrossFeatureTest {

    static Stream<Target> targets() {
        return Servers.all();
    }

    private static LacewingServer startWithAof(Target target, Path dir) {
        return Servers.builder(target).set("dir", dir.toString()).set("appendonly", "yes")
            .set("appendfsync", "always").start();
    }

    private static String[] cmd(String... arguments) {
        return arguments;
    }

    /**
     * Pairs of keys with no hash tag: with two shards, some of each pair's keys hash to different
     * shards, so the commands below take the gather form.
     */
    private static final List<String[]> CROSS_SHARD_WRITES = List.of(
        cmd("SET", "s1", "one"), cmd("SET", "s2", "two"), cmd("SET", "s3", "three"), cmd("SET", "s4", "four"),
        cmd("RENAME", "s1", "r1"), cmd("RENAME", "s2", "r2"), cmd("RENAME", "s3", "r3"), cmd("RENAME", "s4", "r4"),
        cmd("SADD", "set1", "a", "b", "c"), cmd("SADD", "set2", "c", "d"), cmd("SADD", "set3", "x"),
        cmd("SMOVE", "set1", "set2", "a"), cmd("SMOVE", "set1", "set3", "b"), cmd("SMOVE", "set1", "set4", "c"),
        cmd("SMOVE", "set2", "set5", "d"),
        cmd("RPUSH", "l1", "1", "2", "3", "4"), cmd("LMOVE", "l1", "l2", "LEFT", "RIGHT"),
        cmd("LMOVE", "l1", "l3", "RIGHT", "LEFT"), cmd("LMOVE", "l1", "l4", "LEFT", "LEFT"),
        cmd("LMOVE", "l1", "l5", "LEFT", "LEFT"),
        cmd("SUNIONSTORE", "u1", "set2", "set3", "set4"), cmd("SUNIONSTORE", "u2", "set3", "set5"),
        cmd("SINTERSTORE", "i1", "set2", "set3"), cmd("SDIFFSTORE", "d1", "set2", "set3"),
        cmd("ZADD", "z1", "1", "a", "2", "b"), cmd("ZADD", "z2", "3", "b", "4", "c"),
        cmd("ZUNIONSTORE", "zu1", "2", "z1", "z2"), cmd("ZUNIONSTORE", "zu2", "2", "z1", "z2", "WEIGHTS", "2", "3"),
        cmd("ZINTERSTORE", "zi1", "2", "z1", "z2"), cmd("ZRANGESTORE", "zr1", "z2", "0", "-1"),
        cmd("COPY", "r1", "c1"), cmd("COPY", "r2", "c2"), cmd("COPY", "l2", "c3"), cmd("COPY", "z1", "c4"),
        cmd("COPY", "r3", "r4", "REPLACE"),
        cmd("SET", "b1", "abc"), cmd("SET", "b2", "xyz"), cmd("BITOP", "AND", "bo1", "b1", "b2"),
        cmd("BITOP", "OR", "bo2", "b1", "b2"), cmd("BITOP", "NOT", "bo3", "b2"),
        cmd("PFADD", "h1", "a", "b"), cmd("PFADD", "h2", "c", "d"), cmd("PFMERGE", "hm1", "h1", "h2"),
        cmd("PFMERGE", "hm2", "h2", "h1"),
        cmd("RPUSH", "sortme", "3", "1", "2"), cmd("SORT", "sortme", "STORE", "sorted1"),
        cmd("SORT", "sortme", "DESC", "STORE", "sorted2"),
        cmd("MSET", "m1", "1", "m2", "2", "m3", "3", "m4", "4"), cmd("MSETNX", "n1", "1", "n2", "2", "n3", "3"),
        cmd("MSETNX", "n4", "4", "n1", "9"),
        cmd("DEL", "m1", "m2", "m3"), cmd("UNLINK", "m4", "n3"),
        cmd("GEOADD", "g1", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"),
        cmd("GEOSEARCHSTORE", "g2", "g1", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "ASC"),
        cmd("SET", "dst-in-eval", "0"),
        cmd("EVAL", "redis.call('set', KEYS[1], 'e1') redis.call('set', KEYS[2], 'e2') "
            + "redis.call('incr', KEYS[3]) return 1", "3", "ev1", "ev2", "dst-in-eval"),
        cmd("EVAL", "redis.call('rename', KEYS[1], KEYS[2]) return 1", "2", "ev1", "ev3"),
        cmd("EVAL", "redis.call('sunionstore', KEYS[1], KEYS[2], KEYS[3]) return 1", "3", "eu1", "set2", "set3"));

    private static final List<String[]> TRANSACTION = List.of(
        cmd("MULTI"), cmd("SET", "t1", "1"), cmd("SET", "t2", "2"), cmd("RENAME", "r1", "t3"),
        cmd("SMOVE", "set3", "t4", "x"), cmd("LMOVE", "l2", "t5", "LEFT", "LEFT"), cmd("INCR", "t1"),
        cmd("SUNIONSTORE", "t6", "set2", "set4"), cmd("DEL", "t2", "c1"), cmd("EXEC"));

    private static List<String> feed(RespClient client) {
        List<String> replies = new ArrayList<>();
        for (String[] command : CROSS_SHARD_WRITES) {
            replies.add(String.join(" ", command) + " -> " + client.call(command));
        }
        for (String[] command : TRANSACTION) {
            replies.add(String.join(" ", command) + " -> " + client.call(command));
        }
        return replies;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void crossShardWritesRestartFromTheAofAsRedisHoldsThem(Target target) throws Exception {
        List<String> expectedReplies;
        Map<String, String> expected;
        try (ReferenceRedis redis = ReferenceRedis.start(); RespClient client = RespClient.connect(redis.port())) {
            expectedReplies = feed(client);
            expected = RdbFileTest.contents(client);
        }
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = startWithAof(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals(expectedReplies, feed(client));
            RdbFileTest.assertSameContents(expected, RdbFileTest.contents(client));
        }
        try (LacewingServer server = startWithAof(target, dir); RespClient client = RespClient.connect(server.port())) {
            RdbFileTest.assertSameContents(expected, RdbFileTest.contents(client));
        }
    }

    /** BLMOVE blocked on the destination of an LMOVE from another shard is served, and the file says so. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aBlockedMoveServedByACrossShardMoveRestartsAsServed(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = startWithAof(target, dir); RespClient blocked = RespClient.connect(server.port());
             RespClient mover = RespClient.connect(server.port())) {
            assertEquals(":2\r\n", mover.call("RPUSH", "source", "a", "b"));
            blocked.send(RespClient.encode(RespClient.toBytes("BLMOVE", "waited", "final", "LEFT", "RIGHT", "10")));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!mover.call("INFO", "clients").contains("blocked_clients:1") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            for (String destination : List.of("waited", "waited")) {
                mover.call("LMOVE", "source", destination, "LEFT", "RIGHT");
            }
            assertEquals("$1\r\na\r\n", blocked.readReplyText());
            assertEquals("*1\r\n$1\r\nb\r\n", mover.call("LRANGE", "waited", "0", "-1"));
            assertEquals("*1\r\n$1\r\na\r\n", mover.call("LRANGE", "final", "0", "-1"));
        }
        try (LacewingServer server = startWithAof(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("*0\r\n", client.call("LRANGE", "source", "0", "-1"));
            assertEquals("*1\r\n$1\r\nb\r\n", client.call("LRANGE", "waited", "0", "-1"));
            assertEquals("*1\r\n$1\r\na\r\n", client.call("LRANGE", "final", "0", "-1"));
            assertTrue(client.call("DBSIZE").equals(":2\r\n"));
        }
    }
}
