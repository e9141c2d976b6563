package dev.lacewing.it.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.persistence.aof.AppendOnlyFile;
import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.reference.ReferenceRedis;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The append-only file on every engine and transport: what a restart gives back, the files Redis
 * 7.0.15 writes for the same commands (relative times made absolute, results written as effects),
 * redis-server and Lacewing loading each other's AOF directory, redis-check-aof accepting
 * Lacewing's, BGREWRITEAOF's new base and incr files, a truncated tail, and CONFIG SET appendonly
 * yes at runtime.
 */
class AofTest {

    private static final Path REDIS_CHECK_AOF = Path.of("/usr/bin/redis-check-aof");
    private static final String MANIFEST = "appendonlydir/appendonly.aof.manifest";

    static Stream<Target> targets() {
        return Servers.all();
    }

    private static LacewingServer start(Target target, Path dir, String... settings) {
        LacewingServer.Builder builder = Servers.builder(target).set("dir", dir.toString()).set("appendonly", "yes")
            .set("appendfsync", "always");
        for (int i = 0; i < settings.length; i += 2) {
            builder.set(settings[i], settings[i + 1]);
        }
        return builder.start();
    }

    /** Commands whose AOF form is not the request itself, each changing something. */
    private static final List<String[]> REWRITTEN = List.of(
        new String[] {"SET", "ex", "v", "EX", "1000"},
        new String[] {"SET", "px", "v", "PX", "1000000", "GET"},
        new String[] {"SETEX", "setex", "1000", "v"},
        new String[] {"PSETEX", "psetex", "1000000", "v"},
        new String[] {"SET", "expired", "v"},
        new String[] {"EXPIRE", "expired", "2000"},
        new String[] {"PEXPIRE", "expired", "3000000"},
        new String[] {"EXPIREAT", "expired", "4000000000"},
        new String[] {"GETEX", "expired", "EX", "5000"},
        new String[] {"GETEX", "expired", "PERSIST"},
        new String[] {"INCRBYFLOAT", "float", "1.5"},
        new String[] {"HINCRBYFLOAT", "hfloat", "f", "2.25"},
        new String[] {"SADD", "set", "a"},
        new String[] {"SPOP", "set"},
        new String[] {"RPUSH", "list", "1", "2", "3", "4"},
        new String[] {"BLPOP", "list", "0"},
        new String[] {"BRPOP", "list", "0"},
        new String[] {"BLMOVE", "list", "other", "LEFT", "RIGHT", "0"},
        new String[] {"ZADD", "zset", "1", "a", "2", "b"},
        new String[] {"BZPOPMIN", "zset", "0"},
        new String[] {"EVAL", "redis.call('set', KEYS[1], 'x') redis.call('incr', KEYS[2])", "2", "{s}a", "{s}b"},
        new String[] {"EVAL", "redis.call('set', KEYS[1], 'y')", "1", "{s}c"},
        new String[] {"SELECT", "2"},
        new String[] {"SET", "in-db-2", "v"},
        new String[] {"SELECT", "0"},
        new String[] {"SET", "last", "v"});

    private static void run(RespClient client, List<String[]> commands) {
        for (String[] command : commands) {
            String reply = client.call(command);
            assertFalse(reply.startsWith("-"), String.join(" ", command) + " -> " + reply);
        }
    }

    /** Every incr file's text, the 13-digit Unix millisecond times replaced (each server has its own clock). */
    private static String incrFiles(Path dir) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String line : Files.readAllLines(dir.resolve(MANIFEST))) {
            String name = line.split(" ")[1];
            if (name.endsWith(".incr.aof")) {
                text.append(Files.readString(dir.resolve("appendonlydir").resolve(name), StandardCharsets.ISO_8859_1));
            }
        }
        return text.toString().replaceAll("\\$13\r\n1\\d{12}\r\n", "\\$13\r\n<time>\r\n")
            .replaceAll("\\$\\d+\r\n1\\d{12}-\\d+\r\n", "\\$<n>\r\n<time>-<seq>\r\n");
    }

    /**
     * Runs {@code commands} on a fresh Lacewing and a fresh redis-server, each with appendfsync
     * always, and checks that their incr files say the same; returns Lacewing's directory.
     */
    private static Path assertIncrFilesAsRedis(Target target, List<String[]> commands) throws Exception {
        Path ours = Servers.freshDirectory();
        try (LacewingServer server = start(target, ours); RespClient client = RespClient.connect(server.port())) {
            run(client, commands);
        }
        Path theirs = Servers.freshDirectory();
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", theirs.toString(), "--appendonly", "yes",
            "--appendfsync", "always"); RespClient client = RespClient.connect(redis.port())) {
            run(client, commands);
        }
        assertEquals(incrFiles(theirs), incrFiles(ours));
        return ours;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void incrFileHoldsWhatRedisWritesForTheSameCommands(Target target) throws Exception {
        assertIncrFilesAsRedis(target, REWRITTEN);
    }

    /**
     * Writes that change nothing (Redis's call() propagates a command only when server.dirty moved),
     * among writes that do; MSETNX and DEL over keys of several shards run split, the script's DEL
     * is a script's write. FLUSHALL and FLUSHDB of empty databases, SWAPDB and FUNCTION LOAD are
     * written all the same.
     */
    private static final List<String[]> CHANGING_NOTHING = List.of(
        new String[] {"FLUSHALL"},
        new String[] {"FLUSHDB"},
        new String[] {"SWAPDB", "0", "1"},
        new String[] {"SWAPDB", "0", "1"},
        new String[] {"FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f', function() return 1 end)"},
        new String[] {"DEL", "missing"},
        new String[] {"DEL", "missing", "also-missing", "and-this-one"},
        new String[] {"UNLINK", "missing"},
        new String[] {"SADD", "set", "a"},
        new String[] {"SADD", "set", "a"},
        new String[] {"SREM", "set", "nothing"},
        new String[] {"EXPIRE", "missing", "10"},
        new String[] {"EXPIRE", "set", "100", "GT"},
        new String[] {"PERSIST", "set"},
        new String[] {"SET", "nx", "v", "NX"},
        new String[] {"SET", "nx", "w", "NX"},
        new String[] {"SET", "nx", "w", "NX", "EX", "100"},
        new String[] {"MSETNX", "nx", "1", "other", "2"},
        new String[] {"HDEL", "missing", "f"},
        new String[] {"HSET", "hash", "f", "v"},
        new String[] {"HSETNX", "hash", "f", "w"},
        new String[] {"LPOP", "missing"},
        new String[] {"ZREM", "missing", "m"},
        new String[] {"GETDEL", "missing"},
        new String[] {"EVAL", "redis.call('del', KEYS[1])", "1", "missing"},
        new String[] {"SET", "last", "v"});

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aWriteThatChangesNothingIsNotWrittenAsInRedis(Target target) throws Exception {
        assertIncrFilesAsRedis(target, CHANGING_NOTHING);
    }

    /**
     * Writes over keys of several shards (a cross-shard EXEC, whose commands run over a gathered
     * view, and the gathered RENAME and SMOVE) are written as Redis writes them, those that changed
     * nothing left out, and a restart gives every key back.
     */
    private static final List<String[]> ACROSS_SHARDS = List.of(
        new String[] {"MSET", "k1", "1", "k2", "2", "k3", "3", "k4", "4", "k5", "5", "k6", "6"},
        new String[] {"MULTI"},
        new String[] {"SET", "k1", "one"},
        new String[] {"INCR", "k2"},
        new String[] {"APPEND", "k3", "-three"},
        new String[] {"DEL", "k4", "missing"},
        new String[] {"SADD", "s1", "a", "b"},
        new String[] {"EXPIRE", "k5", "1000"},
        new String[] {"GET", "k6"},
        new String[] {"EXEC"},
        new String[] {"MULTI"},
        new String[] {"GET", "k1"},
        new String[] {"DEL", "missing1", "missing2", "missing3"},
        new String[] {"EXEC"},
        new String[] {"RENAME", "k6", "k7"},
        new String[] {"SMOVE", "s1", "s2", "a"},
        new String[] {"SMOVE", "s1", "s2", "not-a-member"},
        new String[] {"SMOVE", "s3", "s2", "a"});

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void writesAcrossShardsAreWrittenAsInRedisAndComeBackAfterARestart(Target target) throws Exception {
        Path ours = assertIncrFilesAsRedis(target, ACROSS_SHARDS);
        try (LacewingServer server = start(target, ours); RespClient client = RespClient.connect(server.port())) {
            assertEquals("*7\r\n$3\r\none\r\n$1\r\n3\r\n$7\r\n3-three\r\n$-1\r\n$1\r\n5\r\n$-1\r\n$1\r\n6\r\n",
                client.call("MGET", "k1", "k2", "k3", "k4", "k5", "k6", "k7"));
            assertEquals("*1\r\n$1\r\nb\r\n", client.call("SMEMBERS", "s1"));
            assertEquals("*1\r\n$1\r\na\r\n", client.call("SMEMBERS", "s2"));
            String ttl = client.call("TTL", "k5");
            long seconds = Long.parseLong(ttl.substring(1, ttl.length() - 2));
            assertTrue(seconds > 900 && seconds <= 1000, "k5 keeps its expiry: " + ttl);
        }
    }

    /**
     * Stream writes as Redis 7.0 propagates them (t_stream.c): XADD's generated or partial ID as the
     * ID it got and a {@code ~} trim as the exact one it did, LIMIT kept; XREADGROUP as an XCLAIM per
     * entry delivered, or with NOACK one XGROUP SETID; XCLAIM and XAUTOCLAIM as an XCLAIM per entry
     * claimed or dropped as deleted (the deleted one as its old owner had it), XCLAIM's LASTID alone
     * as XGROUP SETID; reads of a consumer's history not at all.
     */
    private static final List<String[]> STREAMS = List.of(
        new String[] {"XADD", "s", "5-*", "f", "v"},
        new String[] {"XADD", "s", "5-*", "f", "v"},
        new String[] {"XADD", "s", "6-1", "f", "v"},
        new String[] {"XADD", "s", "MAXLEN", "~", "1", "7-*", "f", "v"},
        new String[] {"XADD", "s", "MAXLEN", "=", "3", "8-*", "f", "v"},
        new String[] {"XADD", "s", "MAXLEN", "~", "2", "LIMIT", "5", "9-*", "f", "v"},
        new String[] {"XTRIM", "s", "MAXLEN", "~", "1"},
        new String[] {"XADD", "s", "MINID", "~", "2", "10-*", "f", "v"},
        new String[] {"XADD", "generated", "*", "f", "v"},
        new String[] {"XGROUP", "CREATE", "s", "g", "0"},
        new String[] {"XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", "s", ">"},
        new String[] {"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", "0"},
        new String[] {"XADD", "s", "11-1", "f", "v"},
        new String[] {"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">"},
        new String[] {"XDEL", "s", "11-1"},
        new String[] {"XCLAIM", "s", "g", "carol", "0", "10-0", "11-1"},
        new String[] {"XAUTOCLAIM", "s", "g", "dave", "0", "0"},
        new String[] {"XCLAIM", "s", "g", "erin", "0", "10-0", "LASTID", "50-0"},
        new String[] {"XADD", "s", "60-1", "f", "v"},
        new String[] {"XREADGROUP", "GROUP", "g", "frank", "NOACK", "STREAMS", "s", ">"},
        new String[] {"XCLAIM", "s", "g", "erin", "0", "1-1", "LASTID", "70-0"},
        new String[] {"XADD", "s", "71-1", "f", "v"},
        new String[] {"XREADGROUP", "GROUP", "g", "gina", "STREAMS", "s", ">"},
        new String[] {"XDEL", "s", "71-1"},
        new String[] {"XAUTOCLAIM", "s", "g", "hank", "0", "70-0"},
        new String[] {"XTRIM", "s", "MAXLEN", "2"},
        new String[] {"SET", "last", "v"});

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void streamWritesAreWrittenAsRedisPropagatesThemAndComeBackAfterARestart(Target target) throws Exception {
        Path ours = assertIncrFilesAsRedis(target, STREAMS);
        try (LacewingServer server = start(target, ours); RespClient client = RespClient.connect(server.port())) {
            assertEquals(":2\r\n", client.call("XLEN", "s"));
            assertEquals(":1\r\n", client.call("XLEN", "generated"));
        }
    }

    /** The key's time passes and a read finds it gone: both servers write the key's deletion. */
    private static void expireOne(RespClient client) throws InterruptedException {
        assertEquals("+OK\r\n", client.call("SET", "short", "v", "PX", "50"));
        Thread.sleep(300);
        assertEquals("$-1\r\n", client.call("GET", "short"));
        assertEquals("+OK\r\n", client.call("CONFIG", "SET", "lazyfree-lazy-expire", "yes"));
        assertEquals("+OK\r\n", client.call("SET", "lazy", "v", "PX", "50"));
        Thread.sleep(300);
        assertEquals("$-1\r\n", client.call("GET", "lazy"));
        assertEquals("+OK\r\n", client.call("SET", "last", "v"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void anExpiredKeyIsWrittenAsItsDeletionAsInRedis(Target target) throws Exception {
        Path ours = Servers.freshDirectory();
        try (LacewingServer server = start(target, ours); RespClient client = RespClient.connect(server.port())) {
            expireOne(client);
        }
        Path theirs = Servers.freshDirectory();
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", theirs.toString(), "--appendonly", "yes",
            "--appendfsync", "always"); RespClient client = RespClient.connect(redis.port())) {
            expireOne(client);
        }
        String expected = incrFiles(theirs);
        assertTrue(expected.contains("*2\r\n$3\r\nDEL\r\n$5\r\nshort\r\n"), expected);
        assertTrue(expected.contains("*2\r\n$6\r\nUNLINK\r\n$4\r\nlazy\r\n"), expected);
        assertEquals(expected, incrFiles(ours));
        try (LacewingServer server = start(target, ours); RespClient client = RespClient.connect(server.port())) {
            assertEquals(":0\r\n", client.call("EXISTS", "short", "lazy"));
        }
    }

    /**
     * A key that expires inside a write is deleted first: its DEL comes before the write (Redis 7.0
     * writes the two as one MULTI/EXEC when the read finds the key, as here unless active expiry got
     * there first), and the restart finds the write's value, not the old one.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aKeyExpiredInsideAWriteStaysGoneAfterARestart(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals(":3\r\n", client.call("RPUSH", "list", "a", "b", "c"));
            assertEquals(":1\r\n", client.call("PEXPIRE", "list", "30"));
            Thread.sleep(100);
            assertEquals(":1\r\n", client.call("RPUSH", "list", "fresh"));
        }
        String incr = incrFiles(dir);
        int deletion = incr.indexOf("*2\r\n$3\r\nDEL\r\n$4\r\nlist\r\n");
        assertTrue(deletion >= 0 && deletion < incr.indexOf("$5\r\nfresh\r\n"), incr);
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("*1\r\n$5\r\nfresh\r\n", client.call("LRANGE", "list", "0", "-1"));
            assertEquals(":-1\r\n", client.call("PTTL", "list"));
        }
    }

    /**
     * Keys evicted over maxmemory are written as DEL (UNLINK under lazyfree-lazy-eviction), as
     * Redis writes them, so a restart from the file does not bring them back.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void evictedKeysStayGoneAfterARestart(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        String big = "x".repeat(20_000);
        try (LacewingServer server = start(target, dir, "maxmemory-policy", "allkeys-random");
             RespClient client = RespClient.connect(server.port())) {
            for (int i = 0; i < 50; i++) {
                assertEquals("+OK\r\n", client.call("SET", "big:" + i, big));
            }
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "lazyfree-lazy-eviction", "yes"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "maxmemory", "1"));
            // Eviction a pass's time limit cut short goes on in the background (Redis's
            // EVICT_RUNNING admits a write meanwhile); once every key is gone a write is refused.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!client.call("DBSIZE").equals(":0\r\n") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(":0\r\n", client.call("DBSIZE"));
            assertTrue(client.call("SET", "refused", "v").startsWith("-OOM"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "maxmemory", "0"));
            assertEquals("+OK\r\n", client.call("SET", "kept", "v"));
        }
        String incr = incrFiles(dir);
        assertTrue(incr.contains("*2\r\n$6\r\nUNLINK\r\n$5\r\nbig:"), "evictions written as UNLINK");
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals(":1\r\n", client.call("DBSIZE"));
            assertEquals("$1\r\nv\r\n", client.call("GET", "kept"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void everyAcknowledgedWriteSurvivesARestart(Target target) {
        Path dir = Servers.freshDirectory();
        Map<String, String> before;
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            RdbFileTest.build(client);
            run(client, REWRITTEN);
            assertEquals("+OK\r\n", client.call("MULTI"));
            assertEquals("+QUEUED\r\n", client.call("SET", "in-multi", "1"));
            assertEquals("+QUEUED\r\n", client.call("SPOP", "set-many-integers", "5"));
            assertEquals("+QUEUED\r\n", client.call("INCRBYFLOAT", "in-multi", "0.5"));
            assertTrue(client.call("EXEC").startsWith("*3"));
            before = RdbFileTest.contents(client);
        }
        assertFalse(Files.exists(dir.resolve("dump.rdb")));
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            RdbFileTest.assertSameContents(withoutEntriesRead(before), withoutEntriesRead(RdbFileTest.contents(client)));
            String info = client.call("INFO", "persistence");
            assertTrue(info.contains("aof_enabled:1"), info);
            assertTrue(info.contains("aof_last_write_status:ok"), info);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aBlockedPopServedLaterIsWrittenAsItsPop(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient blocked = RespClient.connect(server.port());
             RespClient pusher = RespClient.connect(server.port())) {
            blocked.send(RespClient.encode(RespClient.toBytes("BLPOP", "queue", "10")));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!pusher.call("INFO", "clients").contains("blocked_clients:1") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(":2\r\n", pusher.call("RPUSH", "queue", "first", "second"));
            assertTrue(blocked.readReplyText().contains("first"));
        }
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("*1\r\n$6\r\nsecond\r\n", client.call("LRANGE", "queue", "0", "-1"));
        }
    }

    /**
     * Blocked stream reads served by a later XADD, each on a server's own port: XREADGROUP as
     * Redis's serveClientsBlockedOnStreamKey propagates it (an XCLAIM per entry; with NOACK XGROUP
     * SETID, after XGROUP CREATECONSUMER for a new consumer, the two in MULTI/EXEC), XREAD not at all.
     */
    private static void serveBlockedStreamReads(int port) throws Exception {
        try (RespClient client = RespClient.connect(port); RespClient blocked = RespClient.connect(port)) {
            assertEquals("+OK\r\n", client.call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"));
            String[][] served = {
                {"XREADGROUP", "GROUP", "g", "alice", "BLOCK", "10000", "STREAMS", "s", ">"},
                {"XREADGROUP", "GROUP", "g", "bob", "NOACK", "BLOCK", "10000", "STREAMS", "s", ">"},
                {"XREADGROUP", "GROUP", "g", "bob", "NOACK", "COUNT", "5", "BLOCK", "10000", "STREAMS", "s", ">"},
                {"XREAD", "BLOCK", "10000", "STREAMS", "s", "$"}};
            for (int i = 0; i < served.length; i++) {
                blocked.send(RespClient.encode(RespClient.toBytes(served[i])));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!client.call("INFO", "clients").contains("blocked_clients:1\r\n") && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                String id = (i + 1) + "-1";
                assertEquals("$" + id.length() + "\r\n" + id + "\r\n", client.call("XADD", "s", id, "f", "v"));
                assertTrue(blocked.readReplyText().contains(id), String.join(" ", served[i]));
            }
            assertEquals("+OK\r\n", client.call("SET", "last", "v"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aBlockedXreadgroupServedLaterIsWrittenAsRedisWritesIt(Target target) throws Exception {
        Path ours = Servers.freshDirectory();
        try (LacewingServer server = start(target, ours)) {
            serveBlockedStreamReads(server.port());
        }
        Path theirs = Servers.freshDirectory();
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", theirs.toString(), "--appendonly", "yes",
            "--appendfsync", "always")) {
            serveBlockedStreamReads(redis.port());
        }
        assertEquals(incrFiles(theirs), incrFiles(ours));
    }

    /**
     * A write's fsync held back (the file's force waits for the test, as a slow disk would): a GET
     * on another connection that shows the write is not answered before the fsync that makes the
     * write durable, as Redis sends no reply of a pass before the pass's fsync; both replies leave
     * once it ends.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aReadShowingAWriteIsNotAnsweredBeforeTheWritesFsync(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        Semaphore forceStarted = new Semaphore(0);
        Semaphore forceMayEnd = new Semaphore(0);
        AtomicBoolean holding = new AtomicBoolean(true);
        LacewingServer.Builder builder = Servers.builder(target).set("dir", dir.toString()).set("appendonly", "yes")
            .set("appendfsync", "always").aofIncrWrites(heldForces(holding, forceStarted, forceMayEnd));
        try (LacewingServer server = builder.start(); RespClient writer = RespClient.connect(server.port());
             RespClient reader = RespClient.connect(server.port())) {
            try {
                writer.send(RespClient.encode(RespClient.toBytes("SET", "k", "v")));
                assertTrue(forceStarted.tryAcquire(10, TimeUnit.SECONDS), "the SET's fsync began");
                reader.send(RespClient.encode(RespClient.toBytes("GET", "k")));
                assertFalse(reader.available(500), "a read showed a write before its fsync ended");
                assertFalse(writer.available(0), "a write was acknowledged before its fsync ended");
            } finally {
                holding.set(false);
                forceMayEnd.release(1000);
            }
            assertEquals("$1\r\nv\r\n", reader.readReplyText());
            assertEquals("+OK\r\n", writer.readReplyText());
        }
    }

    /** The AOF's own writes, each force waiting for {@code forceMayEnd} while {@code holding}: a slow disk. */
    private static AppendOnlyFile.IncrWrites heldForces(AtomicBoolean holding, Semaphore forceStarted,
                                                        Semaphore forceMayEnd) {
        return new AppendOnlyFile.IncrWrites() {
            @Override
            public void write(FileChannel file, ByteBuffer bytes) throws IOException {
                AppendOnlyFile.IncrWrites.DIRECT.write(file, bytes);
            }

            @Override
            public void force(FileChannel file) throws IOException {
                if (holding.get()) {
                    forceStarted.release();
                    forceMayEnd.acquireUninterruptibly();
                }
                AppendOnlyFile.IncrWrites.DIRECT.force(file);
            }
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void redisLoadsLacewingsAofDirectoryAndRedisCheckAofAcceptsIt(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "before-rewrite", "1");
            assertEquals("+Background append only file rewriting started\r\n", client.call("BGREWRITEAOF"));
            awaitRewrite(client);
            RdbFileTest.build(client);
        }
        String check = tool(REDIS_CHECK_AOF.toString(), dir.resolve(MANIFEST).toString());
        assertTrue(check.contains("is valid"), check);
        Map<String, String> expected;
        try (ReferenceRedis built = ReferenceRedis.start(); RespClient client = RespClient.connect(built.port())) {
            client.call("SET", "before-rewrite", "1");
            RdbFileTest.build(client);
            expected = RdbFileTest.contents(client);
        }
        try (ReferenceRedis loaded = ReferenceRedis.start("--dir", dir.toString(), "--appendonly", "yes");
             RespClient client = RespClient.connect(loaded.port())) {
            RdbFileTest.assertSameContents(withoutEntriesRead(expected), withoutEntriesRead(RdbFileTest.contents(client)));
        }
    }

    /**
     * The contents with each consumer group's entries-read and lag left out: XREADGROUP is written
     * as Redis writes it, XCLAIMs that do not carry them, so a replay (Redis's of its own file too)
     * leaves entries-read where the last XGROUP command put it.
     */
    private static Map<String, String> withoutEntriesRead(Map<String, String> contents) {
        Map<String, String> without = new java.util.HashMap<>(contents);
        without.replaceAll((key, value) -> value.replaceAll(
            "\\$12\r\nentries-read\r\n(:\\d+|\\$-1|_)\r\n\\$3\r\nlag\r\n(:\\d+|\\$-1|_)\r\n", ""));
        return without;
    }

    /**
     * Redis's file holds its own forms (XREADGROUP as MULTI and XCLAIM ... LASTID, blocking pops as
     * pops...). A stream's consumer groups are compared by their entries only: Redis's XCLAIM form
     * leaves entries-read where XREADGROUP had moved it, in Redis as here.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void lacewingLoadsRedisAofDirectory(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", dir.toString(), "--appendonly", "yes");
             RespClient client = RespClient.connect(redis.port())) {
            client.call("SET", "before-rewrite", "1");
            client.call("BGREWRITEAOF");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!client.call("INFO", "persistence").contains("aof_rewrite_in_progress:0")
                && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            RdbFileTest.build(client);
            run(client, REWRITTEN.subList(10, REWRITTEN.size()));
        }
        Map<String, String> expected;
        String expectedStream;
        try (LacewingServer server = start(target, Servers.freshDirectory());
             RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "before-rewrite", "1");
            RdbFileTest.build(client);
            run(client, REWRITTEN.subList(10, REWRITTEN.size()));
            expected = RdbFileTest.contents(client);
            expectedStream = client.call("XRANGE", "stream", "-", "+");
        }
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            Map<String, String> loaded = RdbFileTest.contents(client);
            expected.remove("0 stream");
            loaded.remove("0 stream");
            RdbFileTest.assertSameContents(expected, loaded);
            assertEquals(expectedStream, client.call("XRANGE", "stream", "-", "+"));
        }
    }

    private static void awaitRewrite(RespClient client) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            String info = client.call("INFO", "persistence");
            if (info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the rewrite did not finish in 20 s");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void bgrewriteaofWritesANewBaseStartsANewIncrFileAndDeletesTheOldOnes(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("file appendonly.aof.1.base.rdb seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n",
                Files.readString(dir.resolve(MANIFEST)));
            for (int i = 0; i < 100; i++) {
                client.call("INCR", "counter");
            }
            assertEquals("+Background append only file rewriting started\r\n", client.call("BGREWRITEAOF"));
            awaitRewrite(client);
            client.call("INCR", "counter");
            assertEquals("file appendonly.aof.2.base.rdb seq 2 type b\nfile appendonly.aof.2.incr.aof seq 2 type i\n",
                Files.readString(dir.resolve(MANIFEST)));
            assertFalse(Files.exists(dir.resolve("appendonlydir/appendonly.aof.1.base.rdb")));
            assertFalse(Files.exists(dir.resolve("appendonlydir/appendonly.aof.1.incr.aof")));
            assertEquals("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*2\r\n$4\r\nINCR\r\n$7\r\ncounter\r\n",
                Files.readString(dir.resolve("appendonlydir/appendonly.aof.2.incr.aof")));
            String info = client.call("INFO", "persistence");
            assertTrue(info.contains("aof_rewrites:1"), info);
        }
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("$3\r\n101\r\n", client.call("GET", "counter"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aTruncatedTailIsCutOffWithAofLoadTruncatedAndRefusedWithout(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "whole", "1");
        }
        Path incr = dir.resolve("appendonlydir/appendonly.aof.1.incr.aof");
        long whole = Files.size(incr);
        Files.writeString(incr, "*3\r\n$3\r\nSET\r\n$4\r\ntorn\r\n$5\r\nval", StandardOpenOption.APPEND);
        IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> start(target, dir, "aof-load-truncated", "no").close());
        assertTrue(refused.getMessage().startsWith("Unexpected end of file reading the append only file "
            + "appendonly.aof.1.incr.aof"), refused.getMessage());
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("$1\r\n1\r\n", client.call("GET", "whole"));
            assertEquals("$-1\r\n", client.call("GET", "torn"));
        }
        assertTrue(Files.size(incr) >= whole);
        Files.writeString(incr, "garbage\r\n", StandardOpenOption.APPEND);
        IllegalStateException damaged = assertThrows(IllegalStateException.class, () -> start(target, dir).close());
        assertTrue(damaged.getMessage().startsWith("Bad file format reading the append only file"), damaged.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void configSetAppendonlyYesStartsTheAofWithARewrite(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir, "appendonly", "no");
             RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "before", "1");
            assertTrue(client.call("INFO", "persistence").contains("aof_enabled:0"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "appendonly", "yes"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!client.call("INFO", "persistence").contains("aof_enabled:1") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            client.call("SET", "after", "2");
        }
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("$1\r\n1\r\n", client.call("GET", "before"));
            assertEquals("$1\r\n2\r\n", client.call("GET", "after"));
        }
    }

    /**
     * The once-a-second duties (everysec's fsync, the auto-rewrite check) are scheduled only while
     * the AOF is on: on a server started without it they start with CONFIG SET appendonly yes, stop
     * with no, and start again with yes; the auto-rewrite check's rewrite shows each time.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void theAutoRewriteCheckFollowsConfigSetAppendonly(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir, "appendonly", "no", "appendfsync", "everysec",
                "auto-aof-rewrite-min-size", "1024", "auto-aof-rewrite-percentage", "100");
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "appendonly", "yes"));
            awaitPersistence(client, "aof_rewrites:1");
            growUntilRewritten(client, "aof_rewrites:2");
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "appendonly", "no"));
            awaitPersistence(client, "aof_enabled:0");
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "appendonly", "yes"));
            awaitPersistence(client, "aof_rewrites:3");
            growUntilRewritten(client, "aof_rewrites:4");
        }
    }

    private static void awaitPersistence(RespClient client, String line) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!client.call("INFO", "persistence").contains(line + "\r\n") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        String info = client.call("INFO", "persistence");
        assertTrue(info.contains(line + "\r\n"), info);
    }

    /** Appends past twice the base and the minimum size until the background check starts a rewrite, then waits for its end. */
    private static void growUntilRewritten(RespClient client, String line) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (int i = 0; i < 200 && !client.call("INFO", "persistence").contains(line + "\r\n")
                && System.nanoTime() < deadline; i++) {
            assertEquals("+OK\r\n", client.call("SET", "grow:" + i, "v".repeat(512)));
            Thread.sleep(50);
        }
        awaitPersistence(client, line);
    }

    /** When both exist and appendonly is yes, the AOF is loaded and the RDB file is not, as in Redis. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void theAofWinsOverTheRdbFile(Target target) {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "k", "from-aof");
        }
        try (LacewingServer server = start(target, dir, "appendonly", "no");
             RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "k", "from-rdb");
            client.call("SET", "only-in-rdb", "1");
            assertEquals("+OK\r\n", client.call("SAVE"));
        }
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("$8\r\nfrom-aof\r\n", client.call("GET", "k"));
            assertEquals("$-1\r\n", client.call("GET", "only-in-rdb"));
        }
    }

    static String tool(String... command) throws IOException, InterruptedException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of(command[0])), command[0]);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
