package dev.lacewing.it.commands;

import static dev.lacewing.it.commands.ShardStall.keyOnShard;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.reference.ReferenceRedisExtension;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Overlap;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Commands that read keys of one shard and write a key of another (RENAME, SMOVE, LMOVE, COPY, the
 * STORE forms) or read several shards (SINTER, PFCOUNT...) run under key claims in the gather form:
 * they reply as redis-server 7.0 does, no reader sees half of a move, and other keys of their shards
 * stay served while one of their parts waits. Loops are bounded in rounds and in time.
 */
class CrossShardGatherTest {

    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final long TIME_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(3);

    /** Commands whose array reply has no defined order: compared as sorted elements. */
    private static final Set<String> UNORDERED = Set.of("SUNION", "SINTER", "SDIFF", "SMEMBERS");

    /**
     * One sequence over keys of both shards, every reply compared with redis-server's: results,
     * Redis's errors (WRONGTYPE from a source before anything is written, RENAME of a missing key,
     * LMOVE onto a wrong-type destination leaving its source intact), expiry moved by RENAME.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void repliesAsRedisDoesWithKeysOnDifferentShards(Target target) {
        LacewingServer server = Servers.server(target);
        String p = "gather:" + target + ":";
        String a = keyOnShard(p + "a", 0);
        String b = keyOnShard(p + "b", 1);
        String c = keyOnShard(p + "c", 0);
        String d = keyOnShard(p + "d", 1);
        String s = keyOnShard(p + "str", 0);
        String[][] script = {
            {"DEL", a, b, c, d, s},
            {"SET", a, "va", "EX", "1000"},
            {"RENAME", a, b},
            {"EXISTS", a},
            {"GET", b},
            {"TTL", b},
            {"RENAME", a, b},
            {"SET", c, "vc"},
            {"RENAMENX", b, c},
            {"RENAMENX", b, d},
            {"GET", d},
            {"EXISTS", b},
            {"RENAME", d, a},
            {"GET", a},
            {"DEL", a, b, c, d},
            {"SADD", a, "x", "y", "z"},
            {"SADD", b, "y", "w"},
            {"SMOVE", a, b, "x"},
            {"SMOVE", a, b, "missing"},
            {"SCARD", a},
            {"SCARD", b},
            {"SET", s, "string"},
            {"SMOVE", a, s, "y"},
            {"SMOVE", s, b, "y"},
            {"SMEMBERS", a},
            {"SUNION", a, b},
            {"SINTER", a, b},
            {"SDIFF", b, a},
            {"SINTERCARD", "2", a, b},
            {"SUNIONSTORE", d, a, b},
            {"SMEMBERS", d},
            {"SINTERSTORE", c, a, b},
            {"SDIFFSTORE", c, b, a},
            {"SMEMBERS", c},
            {"SUNIONSTORE", d, a, s},
            {"SMEMBERS", d},
            {"DEL", a, b, c, d},
            {"RPUSH", a, "1", "2", "3"},
            {"LMOVE", a, b, "LEFT", "RIGHT"},
            {"RPOPLPUSH", a, b},
            {"LRANGE", a, "0", "-1"},
            {"LRANGE", b, "0", "-1"},
            {"LMOVE", a, s, "LEFT", "LEFT"},
            {"LRANGE", a, "0", "-1"},
            {"LMOVE", a, b, "LEFT", "LEFT"},
            {"EXISTS", a},
            {"LRANGE", b, "0", "-1"},
            {"LMPOP", "2", a, b, "RIGHT", "COUNT", "2"},
            {"COPY", b, c},
            {"LRANGE", c, "0", "-1"},
            {"COPY", b, c},
            {"COPY", b, c, "REPLACE"},
            {"DEL", a, b, c, d},
            {"ZADD", a, "1", "one", "2", "two"},
            {"ZADD", b, "3", "two", "4", "four"},
            {"ZUNIONSTORE", c, "2", a, b, "WEIGHTS", "1", "2"},
            {"ZRANGE", c, "0", "-1", "WITHSCORES"},
            {"ZINTERSTORE", d, "2", a, b},
            {"ZRANGE", d, "0", "-1", "WITHSCORES"},
            {"ZDIFFSTORE", d, "2", b, a},
            {"ZRANGE", d, "0", "-1", "WITHSCORES"},
            {"ZRANGESTORE", d, a, "0", "-1", "REV"},
            {"ZRANGE", d, "0", "-1", "WITHSCORES"},
            {"ZUNION", "2", a, b, "WITHSCORES"},
            {"ZINTER", "2", a, b, "WITHSCORES"},
            {"ZDIFF", "2", a, b},
            {"ZINTERCARD", "2", a, b},
            {"ZMPOP", "2", c, a, "MIN"},
            {"ZUNIONSTORE", d, "2", a, s},
            {"DEL", a, b, c, d},
            {"SET", a, "abc"},
            {"SET", b, "ab\u0001"},
            {"BITOP", "AND", c, a, b},
            {"GET", c},
            {"BITOP", "XOR", d, a, b},
            {"STRLEN", d},
            {"DEL", a, b, c, d},
            {"PFADD", a, "1", "2", "3"},
            {"PFADD", b, "3", "4"},
            {"PFCOUNT", a, b},
            {"PFMERGE", c, a, b},
            {"PFCOUNT", c},
            {"DEL", a, b, c, d},
            {"RPUSH", a, "3", "1", "2"},
            {"SORT", a, "STORE", b},
            {"LRANGE", b, "0", "-1"},
            {"GEOADD", a, "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"},
            {"GEOSEARCHSTORE", b, a, "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "ASC"},
            {"ZRANGE", b, "0", "-1"},
            {"GEORADIUS", a, "15", "37", "200", "km", "STORE", d},
            {"ZRANGE", d, "0", "-1"},
            {"DEL", a, b, c, d, s},
        };
        try (RespClient lacewing = RespClient.connect(server.port());
             RespClient reference = RespClient.connect(redis.port())) {
            for (String[] command : script) {
                String expected = normalized(command[0], reference.call(command));
                String actual = normalized(command[0], lacewing.call(command));
                assertEquals(expected, actual, String.join(" ", command));
            }
        }
    }

    private static String normalized(String command, String reply) {
        if (!UNORDERED.contains(command) || !reply.startsWith("*")) {
            return reply;
        }
        List<String> elements = new ArrayList<>(RespClient.elements(reply));
        Collections.sort(elements);
        return elements.toString();
    }

    /**
     * A writer renames a key back and forth between two shards, moves a member between two sets and
     * an element between two lists; readers never see both names or neither, the member in both sets
     * or in neither, the element on both lists or on neither.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aMoveBetweenShardsIsNeverSeenHalfDone(Target target) throws Exception {
        LacewingServer server = Servers.server(target);
        String p = "gather-atomic:" + target + ":";
        String[] names = {keyOnShard(p + "name", 0), keyOnShard(p + "name", 1)};
        String[] sets = {keyOnShard(p + "set", 0), keyOnShard(p + "set", 1)};
        String[] lists = {keyOnShard(p + "list", 0), keyOnShard(p + "list", 1)};
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<RespClient> opened = new ArrayList<>();
        try {
            RespClient writer = RespClient.connect(server.port());
            opened.add(writer);
            writer.call("DEL", names[0], names[1], sets[0], sets[1], lists[0], lists[1]);
            writer.call("SET", names[0], "v");
            writer.call("SADD", sets[0], "member");
            writer.call("RPUSH", lists[0], "element");
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            Overlap overlap = new Overlap(2);
            Future<Integer> written = pool.submit(() -> {
                overlap.awaitReaders();
                int round = 0;
                for (; round < 2000 && System.nanoTime() < deadline; round++) {
                    int from = round % 2;
                    int to = 1 - from;
                    assertEquals("+OK\r\n", writer.call("RENAME", names[from], names[to]));
                    assertEquals(":1\r\n", writer.call("SMOVE", sets[from], sets[to], "member"));
                    assertEquals("$7\r\nelement\r\n", writer.call("LMOVE", lists[from], lists[to], "LEFT", "RIGHT"));
                }
                return round;
            });
            List<Future<Integer>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                RespClient reader = RespClient.connect(server.port());
                opened.add(reader);
                readers.add(pool.submit(() -> {
                    int checked = 0;
                    for (; writing.get() && checked < 5000 && System.nanoTime() < deadline; checked++) {
                        assertEquals(":1\r\n", reader.call("EXISTS", names[0], names[1]), "renamed half way");
                        assertEquals(":1\r\n", reader.call("EXISTS", sets[0], sets[1]), "member in both or neither");
                        assertEquals("*1\r\n$6\r\nmember\r\n", reader.call("SUNION", sets[0], sets[1]));
                        assertEquals(":1\r\n", reader.call("EXISTS", lists[0], lists[1]), "element on both or neither");
                        if (checked == 0) {
                            overlap.checked();
                        }
                    }
                    return checked;
                }));
            }
            assertTrue(written.get(30, TimeUnit.SECONDS) > 0);
            writing.set(false);
            for (Future<Integer> read : readers) {
                assertTrue(read.get(30, TimeUnit.SECONDS) > 0);
            }
            writer.call("DEL", names[0], names[1], sets[0], sets[1], lists[0], lists[1]);
        } finally {
            pool.shutdownNow();
            opened.forEach(RespClient::close);
        }
    }

    /**
     * DEBUG SLEEP keeps shard 1's thread busy; a RENAME (then a SUNIONSTORE) from a key of shard 0
     * to one of shard 1 then waits for shard 1 holding only its keys: a GET of another shard-0 key is
     * answered meanwhile. (A shard claimed whole would not answer it until shard 1's thread woke.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void otherKeysOfTheShardsAreServedWhileAGatherWaits(Target target) throws Exception {
        assumeTrue(target.engine().equals("shared-nothing"), "transactions queue per shard in the shared-nothing engine");
        try (ShardStall stall = ShardStall.start(target)) {
            RespClient reader = stall.reader;
            String source = keyOnShard("source", 0);
            String other = keyOnShard("other", 0);
            String destination = keyOnShard("destination", 1);
            String set = keyOnShard("set", 0);
            String union = keyOnShard("union", 1);
            assertEquals("+OK\r\n", reader.call("SET", other, "unrelated"));
            assertEquals("+OK\r\n", reader.call("SET", source, "moving"));
            assertEquals(":1\r\n", reader.call("SADD", set, "m"));

            String[][] commands = {{"RENAME", source, destination}, {"SUNIONSTORE", union, set}};
            String[] replies = {"+OK\r\n", ":1\r\n"};
            for (int i = 0; i < commands.length; i++) {
                stall.sleepShardOne(2);
                Future<String> command = stall.sendAndAwaitRunning(stall.writer, commands[i]);
                long asked = System.nanoTime();
                assertEquals("$9\r\nunrelated\r\n", reader.call("GET", other));
                long answeredMillis = (System.nanoTime() - asked) / 1_000_000;
                assertFalse(command.isDone(), "the GET of another key waited for " + commands[i][0] + " ("
                    + answeredMillis + " ms)");
                Thread.sleep(50);
                assertFalse(command.isDone(), commands[i][0] + " waits for shard 1");
                assertEquals(replies[i], command.get(10, TimeUnit.SECONDS));
                assertEquals("+OK\r\n", stall.awoken());
                assertEquals("+PONG\r\n", stall.sleeper.call("PING"), "the next DEBUG SLEEP is told apart");
                assertEquals("+PONG\r\n", stall.writer.call("PING"));
            }
            assertEquals("$6\r\nmoving\r\n", reader.call("GET", destination));
            assertEquals("*1\r\n$1\r\nm\r\n", reader.call("SMEMBERS", union));
        }
    }

    /**
     * LMOVE and SORT ... STORE onto a list a client BLPOPs on another shard serve that client, as
     * Redis's do: it gets the element, and the list is left as Redis leaves it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aWriteAcrossShardsServesAClientBlockedOnItsDestination(Target target) throws Exception {
        LacewingServer server = Servers.server(target);
        String p = "gather-wake:" + target + ":";
        String source = keyOnShard(p + "source", 0);
        String destination = keyOnShard(p + "destination", 1);
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try (RespClient writer = RespClient.connect(server.port());
             RespClient blocked = RespClient.connect(server.port())) {
            writer.call("DEL", source, destination);
            assertEquals(":2\r\n", writer.call("RPUSH", source, "first", "second"));
            String[][] writes = {{"LMOVE", source, destination, "LEFT", "RIGHT"}, {"SORT", source, "ALPHA", "STORE",
                destination}};
            String[] writeReplies = {"$5\r\nfirst\r\n", ":1\r\n"};
            String[] served = {"first", "second"};
            for (int i = 0; i < writes.length; i++) {
                blocked.send(RespClient.encode(RespClient.toBytes("BLPOP", destination, "10")));
                Future<String> pop = pool.submit(blocked::readReplyText);
                awaitBlocked(writer, 1);
                assertEquals(writeReplies[i], writer.call(writes[i]));
                assertEquals("*2\r\n$" + destination.length() + "\r\n" + destination + "\r\n$" + served[i].length()
                    + "\r\n" + served[i] + "\r\n", pop.get(10, TimeUnit.SECONDS));
                assertEquals(":0\r\n", writer.call("EXISTS", destination));
            }
            assertEquals("*1\r\n$6\r\nsecond\r\n", writer.call("LRANGE", source, "0", "-1"));
            writer.call("DEL", source);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Waits (bounded) until INFO counts {@code count} blocked clients. */
    private static void awaitBlocked(RespClient observer, int count) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            if (observer.call("INFO", "clients").contains("blocked_clients:" + count + "\r\n")) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no client blocked");
    }
}
