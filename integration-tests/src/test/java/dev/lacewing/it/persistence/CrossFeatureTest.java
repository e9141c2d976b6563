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

    /**
     * BGSAVE while RENAME and SMOVE move keys between shards: the file passes redis-check-rdb and
     * redis-server loading it finds each moved key (and set member) exactly once; a chunked string
     * APPENDed right after BGSAVE began is saved at its value then.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aBackgroundSaveDuringCrossShardMovesHoldsEachKeyOnce(Target target) throws Exception {
        int keys = 20_000;
        int batch = 500;
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = Servers.builder(target).set("dir", dir.toString()).start();
             RespClient mover = RespClient.connect(server.port()); RespClient saver = RespClient.connect(server.port())) {
            String chunk = "c".repeat(256 * 1024);
            for (int i = 0; i < 6; i++) {
                mover.call("APPEND", "big", chunk);
            }
            for (int from = 0; from < keys; from += batch) {
                pipeline(mover, from, batch, i -> List.of(RespClient.toBytes("SET", "k" + i, "v" + i),
                    RespClient.toBytes("SADD", "s" + i, "m", "n")));
            }
            for (int from = 0; from < keys; from += batch) {
                if (from == 4 * batch) {
                    assertEquals("+Background saving started\r\n", saver.call("BGSAVE"));
                    assertEquals(":" + (6 * chunk.length() + 4) + "\r\n", saver.call("APPEND", "big", "tail"));
                }
                pipeline(mover, from, batch, i -> List.of(RespClient.toBytes("RENAME", "k" + i, "r" + i),
                    RespClient.toBytes("SMOVE", "s" + i, "t" + i, "m")));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!saver.call("INFO", "persistence").contains("rdb_bgsave_in_progress:0")
                && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(saver.call("INFO", "persistence").contains("rdb_last_bgsave_status:ok"));
        }
        Process check = new ProcessBuilder("/usr/bin/redis-check-rdb", dir.resolve("dump.rdb").toString())
            .redirectErrorStream(true).start();
        String checked = new String(check.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, check.waitFor(), checked);
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", dir.toString(), "--dbfilename", "dump.rdb");
             RespClient client = RespClient.connect(redis.port())) {
            assertEquals(":0\r\n", client.call("EVAL", "local wrong = 0 for i = 0, " + (keys - 1) + " do "
                + "if redis.call('exists', 'k' .. i) + redis.call('exists', 'r' .. i) ~= 1 then wrong = wrong + 1 end "
                + "if redis.call('scard', 's' .. i) + redis.call('scard', 't' .. i) ~= 2 then wrong = wrong + 1 end "
                + "end return wrong", "0"));
            assertEquals(":" + (6 * 256 * 1024) + "\r\n", client.call("STRLEN", "big"));
        }
    }

    /** Sends the commands of {@code count} indexes from {@code from} at once, then reads their replies. */
    private static void pipeline(RespClient client, int from, int count,
                                 java.util.function.IntFunction<List<List<byte[]>>> commands) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int sent = 0;
        for (int i = from; i < from + count; i++) {
            for (List<byte[]> command : commands.apply(i)) {
                out.writeBytes(RespClient.encode(command));
                sent++;
            }
        }
        client.send(out.toByteArray());
        for (int i = 0; i < sent; i++) {
            String reply = client.readReplyText();
            assertTrue(!reply.startsWith("-"), reply);
        }
    }
}
