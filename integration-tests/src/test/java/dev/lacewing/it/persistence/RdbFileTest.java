package dev.lacewing.it.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.core.server.Plugins;
import dev.lacewing.it.reference.ReferenceRedis;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The RDB file on every engine: SAVE and a restart on the same directory give back every key, its
 * encoding and its expiry; redis-server 7.0.15 loads Lacewing's file and Lacewing loads
 * redis-server's, each compared key by key with the same data built by commands on the same kind
 * of server (score and encoding replies are compared within one kind); redis-check-rdb accepts
 * Lacewing's file; a damaged file refuses start-up. Function libraries travel in the file both ways,
 * and a server without the scripting plugin refuses a file that has some. The transport plays no part in a file, so
 * each engine runs on the default transport.
 */
class RdbFileTest {

    private static final Path REDIS_CHECK_RDB = Path.of("/usr/bin/redis-check-rdb");

    static Stream<Arguments> engines() {
        return Servers.ENGINES.stream().map(engine -> Arguments.of(new Target(engine, "auto")));
    }

    private static String[] cmd(String... arguments) {
        return arguments;
    }

    /** Far enough ahead to outlive the test, and the same on both servers: PEXPIRETIME compares exactly. */
    private static final long EXPIRE_AT = System.currentTimeMillis() + TimeUnit.HOURS.toMillis(5);

    /** Every type and encoding, a key with an expiry, one in another database and a binary key name. */
    static List<String[]> fixture() {
        List<String[]> commands = new ArrayList<>();
        commands.add(cmd("SET", "int8", "-12"));
        commands.add(cmd("SET", "int16", "30000"));
        commands.add(cmd("SET", "int32", "-2000000000"));
        commands.add(cmd("SET", "int64", "9223372036854775807"));
        commands.add(cmd("SET", "embstr", "hello\r\n\u0000"));
        commands.add(cmd("SET", "empty", ""));
        commands.add(cmd("SET", "compressible", "abc".repeat(200)));
        commands.add(cmd("SET", "incompressible", randomText(300)));
        commands.add(cmd("SET", "appended", "12"));
        commands.add(cmd("APPEND", "appended", "34"));
        // Grown past 1 MiB by edits: Lacewing keeps it in chunks, and writes it as one string.
        commands.add(cmd("APPEND", "chunked", "c".repeat(700_000)));
        commands.add(cmd("APPEND", "chunked", "d".repeat(700_000)));
        commands.add(cmd("PFADD", "hyperloglog", "a", "b", "c", "d"));
        commands.add(cmd("RPUSH", "list", "a", "1", "-5000", "70000", "-9000000", "3000000000", "x".repeat(100),
            "y".repeat(5000)));
        for (int i = 0; i < 40; i++) {
            String[] push = new String[52];
            push[0] = "RPUSH";
            push[1] = "long-list";
            for (int j = 0; j < 50; j++) {
                push[j + 2] = "value:" + (i * 50 + j) + ":padding-padding";
            }
            commands.add(push);
        }
        commands.add(cmd("SADD", "intset", "5", "-3", "100", "70000"));
        commands.add(cmd("SADD", "set-table", "a", "b", "1", "c", "long member ".repeat(5)));
        for (int i = 0; i < 600; i++) {
            commands.add(cmd("SADD", "set-many-integers", Integer.toString(i * 7)));
        }
        commands.add(cmd("ZADD", "zset-listpack", "1", "a", "-2.5", "b", "0.1", "c", "1e300", "d", "-inf", "e",
            "inf", "f", "3", "g", "-0", "i", "123456.789", "k"));
        for (int i = 0; i < 200; i++) {
            commands.add(cmd("ZADD", "zset-skiplist", Double.toString(i * 0.37 - 20), "member:" + i));
        }
        commands.add(cmd("HSET", "hash-listpack", "f1", "v1", "f2", "12", "num", "-70000", "f3", "z".repeat(60)));
        commands.add(cmd("HSET", "hash-table", "f1", "v1", "f2", "w".repeat(100), "12", "34"));
        commands.add(cmd("SET", "expiring", "soon"));
        commands.add(cmd("PEXPIREAT", "expiring", Long.toString(EXPIRE_AT)));
        commands.add(cmd("HSET", "expiring-hash", "f", "v"));
        commands.add(cmd("PEXPIREAT", "expiring-hash", Long.toString(EXPIRE_AT + 1)));
        commands.add(cmd("SET", "key\u0000with\r\nbytes", "binary name"));
        // A stream of three nodes with deleted and trimmed entries, other fields than the master's,
        // groups with pending entries (one deleted from the stream, one claimed), consumers with and
        // without pending entries; one stream emptied by XDEL, one with a single entry.
        for (int i = 1; i <= 250; i++) {
            commands.add(i % 40 == 0 ? cmd("XADD", "stream", i + "-" + i, "other", "x", "n", Integer.toString(-i))
                : cmd("XADD", "stream", i + "-1", "f", "value-" + i, "n", Long.toString(i * 9_999_999L)));
        }
        commands.add(cmd("XADD", "stream", "5000000000-7", "f", "v".repeat(100), "n", "-70000"));
        commands.add(cmd("XDEL", "stream", "3-1", "150-1", "250-1"));
        commands.add(cmd("XTRIM", "stream", "MAXLEN", "240"));
        commands.add(cmd("XGROUP", "CREATE", "stream", "g1", "0"));
        commands.add(cmd("XGROUP", "CREATE", "stream", "g2", "120-1", "ENTRIESREAD", "100"));
        commands.add(cmd("XGROUP", "CREATE", "stream", "g3", "$"));
        commands.add(cmd("XREADGROUP", "GROUP", "g1", "alice", "COUNT", "3", "STREAMS", "stream", ">"));
        commands.add(cmd("XREADGROUP", "GROUP", "g1", "bob", "COUNT", "2", "STREAMS", "stream", ">"));
        commands.add(cmd("XGROUP", "CREATECONSUMER", "stream", "g1", "idle"));
        commands.add(cmd("XACK", "stream", "g1", "12-1"));
        commands.add(cmd("XDEL", "stream", "14-1"));
        commands.add(cmd("XCLAIM", "stream", "g1", "bob", "0", "11-1"));
        commands.add(cmd("XREADGROUP", "GROUP", "g2", "carol", "COUNT", "1", "STREAMS", "stream", ">"));
        commands.add(cmd("XADD", "stream-emptied", "7-7", "a", "b"));
        commands.add(cmd("XDEL", "stream-emptied", "7-7"));
        commands.add(cmd("XGROUP", "CREATE", "stream-emptied", "g", "$"));
        commands.add(cmd("XADD", "stream-single", "1700000000000-3", "only", "entry"));
        commands.add(cmd("SELECT", "3"));
        commands.add(cmd("SET", "in-db-3", "three"));
        commands.add(cmd("RPUSH", "list-in-db-3", "x", "y"));
        commands.add(cmd("SELECT", "0"));
        return commands;
    }

    private static String randomText(int length) {
        java.util.Random random = new java.util.Random(17);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append((char) ('!' + random.nextInt(90)));
        }
        return text.toString();
    }

    static void build(RespClient client) {
        for (String[] command : fixture()) {
            String reply = client.call(command);
            assertFalse(reply.startsWith("-"), String.join(" ", command) + " -> " + reply);
        }
    }

    /**
     * Every key of every database as "db key" -> type, encoding, absolute expiry and content; the
     * members of sets and fields of hashes sorted, since their order is a hash table's.
     */
    static Map<String, String> contents(RespClient client) {
        Map<String, String> all = new TreeMap<>();
        for (int db = 0; db < 16; db++) {
            assertEquals("+OK\r\n", client.call("SELECT", Integer.toString(db)));
            for (String key : RespClient.elements(client.call("KEYS", "*"))) {
                String name = bulkText(key);
                String type = client.call("TYPE", name);
                String content = switch (type) {
                    case "+string\r\n" -> client.call("GET", name);
                    case "+list\r\n" -> client.call("LRANGE", name, "0", "-1");
                    case "+set\r\n" -> sorted(client.call("SMEMBERS", name));
                    case "+zset\r\n" -> client.call("ZRANGE", name, "0", "-1", "WITHSCORES");
                    case "+hash\r\n" -> sorted(client.call("HGETALL", name));
                    case "+stream\r\n" -> streamContents(client, name);
                    default -> throw new AssertionError("type " + type + " of " + name);
                };
                // A string's encoding is not compared: loading makes it again from the bytes (Redis's
                // tryObjectEncoding), so an APPENDed "1234" saved raw loads as int, in Redis as here.
                String encoding = type.equals("+string\r\n") ? "" : client.call("OBJECT", "ENCODING", name);
                all.put(db + " " + name, type + encoding + client.call("PEXPIRETIME", name) + content);
            }
        }
        client.call("SELECT", "0");
        return all;
    }

    /**
     * A stream's entries, XINFO STREAM (less radix-tree-nodes, which counts Redis's radix tree's
     * inner nodes), and each group's XINFO GROUPS line and XPENDING summary: no times, which differ
     * between two servers built apart.
     */
    private static String streamContents(RespClient client, String name) {
        StringBuilder content = new StringBuilder(client.call("XRANGE", name, "-", "+"));
        content.append(streamInfo(client, name, false)).append(client.call("XINFO", "GROUPS", name));
        for (String group : RespClient.elements(client.call("XINFO", "GROUPS", name))) {
            String groupName = bulkText(RespClient.elements(group).get(1));
            content.append(client.call("XPENDING", name, groupName));
        }
        return content.toString();
    }

    private static String streamInfo(RespClient client, String name, boolean full) {
        String info = full ? client.call("XINFO", "STREAM", name, "FULL") : client.call("XINFO", "STREAM", name);
        return info.replaceFirst("radix-tree-nodes\r\n:\\d+", "");
    }

    static void assertSameContents(Map<String, String> expected, Map<String, String> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        List<String> different = new ArrayList<>();
        expected.forEach((key, value) -> {
            if (!value.equals(actual.get(key))) {
                different.add(key + ": expected " + RespClient.escape(value.getBytes(StandardCharsets.ISO_8859_1))
                    .substring(0, Math.min(200, value.length())) + " got "
                    + RespClient.escape(actual.get(key).getBytes(StandardCharsets.ISO_8859_1))
                    .substring(0, Math.min(200, actual.get(key).length())));
            }
        });
        assertEquals(List.of(), different);
    }

    private static String bulkText(String element) {
        return element.substring(element.indexOf("\r\n") + 2, element.length() - 2);
    }

    private static String sorted(String reply) {
        List<String> elements = new ArrayList<>(RespClient.elements(reply));
        elements.sort(null);
        return String.join("", elements);
    }

    private static LacewingServer start(Target target, Path dir, String... settings) {
        LacewingServer.Builder builder = Servers.builder(target).set("dir", dir.toString());
        for (int i = 0; i < settings.length; i += 2) {
            builder.set(settings[i], settings[i + 1]);
        }
        return builder.start();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void saveAndRestartGiveBackEveryKey(Target target) throws IOException {
        Path dir = Servers.freshDirectory();
        Map<String, String> before;
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            build(client);
            before = contents(client);
            // With times: delivery and seen times travel in the file.
            before.put("stream in full", streamInfo(client, "stream", true));
            assertEquals("+OK\r\n", client.call("SAVE"));
        }
        assertTrue(Files.exists(dir.resolve("dump.rdb")));
        assertFalse(Files.list(dir).anyMatch(path -> path.getFileName().toString().startsWith("temp-")));
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            Map<String, String> after = contents(client);
            after.put("stream in full", streamInfo(client, "stream", true));
            assertSameContents(before, after);
            assertTrue(client.call("INFO", "persistence").contains("rdb_last_load_keys_loaded:" + (before.size() - 1)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void redisLoadsLacewingsFileAndRedisCheckRdbAcceptsIt(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            build(client);
            assertEquals("+OK\r\n", client.call("SAVE"));
        }
        Path file = dir.resolve("dump.rdb");
        String check = run(REDIS_CHECK_RDB.toString(), file.toString());
        assertTrue(check.contains("\\o/ RDB looks OK! \\o/"), check);

        Map<String, String> expected;
        try (ReferenceRedis built = ReferenceRedis.start(); RespClient client = RespClient.connect(built.port())) {
            build(client);
            expected = contents(client);
        }
        try (ReferenceRedis loaded = ReferenceRedis.start("--dir", dir.toString(), "--dbfilename", "dump.rdb");
             RespClient client = RespClient.connect(loaded.port())) {
            assertSameContents(expected, contents(client));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void lacewingLoadsRedisFile(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", dir.toString(), "--dbfilename", "redis.rdb");
             RespClient client = RespClient.connect(redis.port())) {
            build(client);
            assertEquals("+OK\r\n", client.call("SAVE"));
        }
        Map<String, String> expected;
        try (LacewingServer server = start(target, Servers.freshDirectory());
             RespClient client = RespClient.connect(server.port())) {
            build(client);
            expected = contents(client);
        }
        try (LacewingServer server = start(target, dir, "dbfilename", "redis.rdb");
             RespClient client = RespClient.connect(server.port())) {
            assertSameContents(expected, contents(client));
        }
    }

    /**
     * Function libraries: one of two functions with flags and a description, one of one function,
     * and one whose code is over the writer's 64 KiB flush and LZF-compressed in the file.
     */
    private static final List<String> LIBRARIES = List.of(
        "#!lua name=kv\nredis.register_function('kv_set', function(keys, args) return redis.call('set', keys[1], "
            + "args[1]) end)\nredis.register_function{function_name='kv_get', callback=function(keys) return "
            + "redis.call('get', keys[1]) end, flags={'no-writes', 'allow-stale'}, description='reads a key'}",
        "#!lua name=one\nredis.register_function('one_echo', function(keys, args) return args[1] end)",
        "#!lua name=large\n-- " + "padding ".repeat(10_000) + "\nredis.register_function('large_len', "
            + "function(keys, args) return #args[1] end)");

    private static void loadLibraries(RespClient client) {
        for (String library : LIBRARIES) {
            String reply = client.call("FUNCTION", "LOAD", library);
            assertTrue(reply.startsWith("$"), reply);
        }
    }

    /**
     * Each library's FUNCTION LIST WITHCODE and a call of each function; the two-function library
     * is listed by its calls only where {@code listAll} is false, since Redis lists a library's
     * functions in a dictionary's order.
     */
    private static String libraries(RespClient client, boolean listAll) {
        StringBuilder libraries = new StringBuilder();
        for (String name : List.of("kv", "one", "large")) {
            if (listAll || !name.equals("kv")) {
                libraries.append(client.call("FUNCTION", "LIST", "LIBRARYNAME", name, "WITHCODE"));
            }
        }
        libraries.append(client.call("FCALL", "kv_set", "1", "fn-key", "stored"));
        libraries.append(client.call("FCALL_RO", "kv_get", "1", "fn-key"));
        libraries.append(client.call("FCALL", "one_echo", "0", "echoed"));
        libraries.append(client.call("FCALL", "large_len", "0", "four"));
        libraries.append(client.call("FUNCTION", "STATS"));
        return libraries.toString();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void functionLibrariesSurviveSaveAndRestart(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        String before;
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            loadLibraries(client);
            client.call("SET", "plain", "key");
            before = client.call("FUNCTION", "LIST", "WITHCODE") + libraries(client, true);
            client.call("DEL", "fn-key");
            assertEquals("+OK\r\n", client.call("SAVE"));
        }
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals(before, client.call("FUNCTION", "LIST", "WITHCODE") + libraries(client, true));
            assertEquals("$3\r\nkey\r\n", client.call("GET", "plain"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void redisLoadsLacewingsFunctionLibraries(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        String expected;
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            loadLibraries(client);
            assertEquals("+OK\r\n", client.call("SAVE"));
            expected = libraries(client, false);
        }
        String check = run(REDIS_CHECK_RDB.toString(), dir.resolve("dump.rdb").toString());
        assertTrue(check.contains("\\o/ RDB looks OK! \\o/"), check);
        try (ReferenceRedis loaded = ReferenceRedis.start("--dir", dir.toString(), "--dbfilename", "dump.rdb");
             RespClient client = RespClient.connect(loaded.port())) {
            assertEquals(expected, libraries(client, false));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void lacewingLoadsRedisFunctionLibraries(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        String expected;
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", dir.toString(), "--dbfilename", "redis.rdb");
             RespClient client = RespClient.connect(redis.port())) {
            loadLibraries(client);
            assertEquals("+OK\r\n", client.call("SAVE"));
            expected = libraries(client, false);
        }
        try (LacewingServer server = start(target, dir, "dbfilename", "redis.rdb");
             RespClient client = RespClient.connect(server.port())) {
            assertEquals(expected, libraries(client, false));
        }
    }

    /** As Redis refuses a library whose engine it lacks (rdbFunctionLoad), start-up stops. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void withoutTheScriptingPluginAFileWithLibrariesRefusesStartUp(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            loadLibraries(client);
            assertEquals("+OK\r\n", client.call("SAVE"));
        }
        Plugins all = Plugins.fromClassPath();
        Plugins withoutScripting = new Plugins(all.mode(), all.engines(), all.storages(), all.transports(), all.threadingStrategies(),
            all.commands(), List.of());
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> Servers.builder(target)
            .plugins(withoutScripting).set("dir", dir.toString()).start().close());
        assertEquals("Failed loading library, Engine 'lua' not found (scripting is not available: no scripting "
            + "plugin (script-lua) is installed)", refused.getMessage());
    }

    private static boolean hasFile(Path dir) {
        return Files.exists(dir.resolve("dump.rdb"));
    }

    /** SHUTDOWN's reply: the server closes the connection once it decided to exit. */
    private static void shutdown(LacewingServer server, String... arguments) {
        try (RespClient client = RespClient.connect(server.port())) {
            List<String> command = new ArrayList<>(List.of("SHUTDOWN"));
            command.addAll(List.of(arguments));
            client.send(RespClient.encode(RespClient.toBytes(command.toArray(String[]::new))));
            assertTrue(client.closedByServer(10_000), "SHUTDOWN " + String.join(" ", arguments));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void shutdownSavesWhenASavePointIsSetOrSaveIsGiven(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir, "save", "")) {
            RespClient.connect(server.port()).call("SET", "k", "v");
            shutdown(server);
            server.awaitShutdown();
        }
        assertFalse(hasFile(dir), "no save point: SHUTDOWN does not save");
        try (LacewingServer server = start(target, dir, "save", "")) {
            RespClient.connect(server.port()).call("SET", "k", "v");
            shutdown(server, "SAVE");
        }
        assertTrue(hasFile(dir), "SHUTDOWN SAVE saves");
        Files.delete(dir.resolve("dump.rdb"));
        try (LacewingServer server = start(target, dir, "save", "3600 1")) {
            shutdown(server, "NOSAVE", "NOW");
        }
        assertFalse(hasFile(dir), "SHUTDOWN NOSAVE does not save");
        try (LacewingServer server = start(target, dir, "save", "3600 1")) {
            RespClient.connect(server.port()).call("SET", "k", "v");
            shutdown(server);
        }
        assertTrue(hasFile(dir), "a save point: SHUTDOWN saves");
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("$1\r\nv\r\n", client.call("GET", "k"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void aFailedSaveKeepsTheServerRunningUnlessForced(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir, "save", "3600 1");
             RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "k", "v");
            Files.delete(dir);
            assertEquals("-ERR\r\n", client.call("SAVE"));
            assertEquals("-ERR Errors trying to SHUTDOWN. Check logs.\r\n", client.call("SHUTDOWN"));
            assertEquals("-ERR Errors trying to SHUTDOWN. Check logs.\r\n", client.call("SHUTDOWN", "SAVE"));
            assertEquals("+PONG\r\n", client.call("PING"));
            assertEquals("-ERR syntax error\r\n", client.call("SHUTDOWN", "SAVE", "NOSAVE"));
            assertEquals("-ERR syntax error\r\n", client.call("SHUTDOWN", "ABORT", "NOW"));
            assertEquals("-ERR No shutdown in progress.\r\n", client.call("SHUTDOWN", "ABORT"));
            shutdown(server, "FORCE");
            server.awaitShutdown();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void aDamagedFileRefusesStartUp(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            build(client);
            assertEquals("+OK\r\n", client.call("SAVE"));
        }
        byte[] good = Files.readAllBytes(dir.resolve("dump.rdb"));

        Files.write(dir.resolve("dump.rdb"), java.util.Arrays.copyOf(good, good.length / 2));
        assertRefused(target, dir, "Short read or OOM loading DB. Unrecoverable error, aborting now.");

        // A bit of a plain string value: only the checksum can tell.
        byte[] flipped = good.clone();
        flipped[new String(good, StandardCharsets.ISO_8859_1).indexOf("three") + 1] ^= 1;
        Files.write(dir.resolve("dump.rdb"), flipped);
        assertRefused(target, dir, "Wrong RDB checksum expected: (");

        byte[] signature = good.clone();
        signature[0] = 'X';
        Files.write(dir.resolve("dump.rdb"), signature);
        assertRefused(target, dir, "Wrong signature trying to load DB from file");

        byte[] version = good.clone();
        version[8] = '1';
        version[7] = '1';
        Files.write(dir.resolve("dump.rdb"), version);
        assertRefused(target, dir, "Can't handle RDB format version 11");
    }

    private static void assertRefused(Target target, Path dir, String message) {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> start(target, dir).close());
        assertTrue(refused.getMessage().contains(message), refused.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void keysWhoseTimePassedAreNotLoaded(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "stays", "1");
            client.call("SET", "goes", "2", "PX", "300");
            assertEquals("+OK\r\n", client.call("SAVE"));
        }
        Thread.sleep(400);
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("*1\r\n$5\r\nstays\r\n", client.call("KEYS", "*"));
            String info = client.call("INFO", "persistence");
            assertTrue(info.contains("rdb_last_load_keys_loaded:1\r\n"), info);
            assertTrue(info.contains("rdb_last_load_keys_expired:1\r\n"), info);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void lastsaveAndInfoFollowSaves(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            long started = Long.parseLong(client.call("LASTSAVE").substring(1).strip());
            assertTrue(Math.abs(System.currentTimeMillis() / 1000 - started) <= 5, "LASTSAVE at start-up: " + started);
            assertTrue(client.call("INFO", "persistence").contains("rdb_saves:0\r\n"));
            assertEquals("+OK\r\n", client.call("SAVE"));
            String info = client.call("INFO", "persistence");
            assertTrue(info.contains("rdb_saves:1\r\n"), info);
            assertTrue(info.contains("rdb_last_save_time:" + client.call("LASTSAVE").substring(1).strip()), info);
            assertEquals("-ERR wrong number of arguments for 'save' command\r\n", client.call("SAVE", "x"));
        }
    }

    /** The settings as redis-server 7.0.15 takes them (its replies checked by hand against it). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void settingsTakeRedisValues(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir, "enable-protected-configs", "yes");
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("*2\r\n$3\r\ndir\r\n$" + dir.toRealPath().toString().length() + "\r\n"
                + dir.toRealPath() + "\r\n", client.call("CONFIG", "GET", "dir"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'dir') - No such file or directory\r\n",
                client.call("CONFIG", "SET", "dir", dir.resolve("missing").toString()));
            Files.writeString(dir.resolve("a-file"), "x");
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'dir') - Not a directory\r\n",
                client.call("CONFIG", "SET", "dir", dir.resolve("a-file").toString()));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'dbfilename') - dbfilename can't be a "
                + "path, just a filename\r\n", client.call("CONFIG", "SET", "dbfilename", "a/b.rdb"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'save') - Invalid save parameters\r\n",
                client.call("CONFIG", "SET", "save", "1"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'save') - Invalid save parameters\r\n",
                client.call("CONFIG", "SET", "save", "a b"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "save", " 10  5 3 2"));
            assertEquals("*2\r\n$4\r\nsave\r\n$8\r\n10 5 3 2\r\n", client.call("CONFIG", "GET", "save"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'rdbchecksum') - can't set immutable "
                + "config\r\n", client.call("CONFIG", "SET", "rdbchecksum", "no"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'rdbcompression') - argument must be "
                + "'yes' or 'no'\r\n", client.call("CONFIG", "SET", "rdbcompression", "maybe"));
            assertEquals("*2\r\n$27\r\nstop-writes-on-bgsave-error\r\n$3\r\nyes\r\n",
                client.call("CONFIG", "GET", "stop-writes-on-bgsave-error"));

            Path other = Files.createDirectory(dir.resolve("other"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "dir", other.toString(), "dbfilename", "x.rdb"));
            assertEquals("+OK\r\n", client.call("SAVE"));
            assertTrue(Files.exists(other.resolve("x.rdb")));
        }
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'dir') - can't set protected config\r\n",
                client.call("CONFIG", "SET", "dir", dir.toString()));
            assertEquals("*2\r\n$4\r\nsave\r\n$0\r\n\r\n", client.call("CONFIG", "GET", "save"));
        }
    }

    /** With rdbchecksum no the trailer is zero, which redis-check-rdb and redis-server accept unchecked. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void withoutChecksumTheTrailerIsZero(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir, "rdbchecksum", "no", "rdbcompression", "no");
             RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "compressible", "abc".repeat(200));
            assertEquals("+OK\r\n", client.call("SAVE"));
        }
        byte[] file = Files.readAllBytes(dir.resolve("dump.rdb"));
        assertTrue(new String(file, StandardCharsets.ISO_8859_1).contains("abc".repeat(200)), "not compressed");
        assertEquals(0, java.nio.ByteBuffer.wrap(file, file.length - 8, 8).getLong());
        String check = run(REDIS_CHECK_RDB.toString(), dir.resolve("dump.rdb").toString());
        assertTrue(check.contains("\\o/ RDB looks OK! \\o/"), check);
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals("$600\r\n" + "abc".repeat(200) + "\r\n", client.call("GET", "compressible"));
        }
    }

    /** The payload of a DUMP reply. */
    private static byte[] dump(RespClient client, String key) {
        byte[] reply = client.callBytes(RespClient.toBytes("DUMP", key));
        int headerEnd = 0;
        while (reply[headerEnd] != '\r') {
            headerEnd++;
        }
        return java.util.Arrays.copyOfRange(reply, headerEnd + 2, reply.length - 2);
    }

    private static long integer(String reply) {
        return Long.parseLong(reply.substring(1).strip());
    }

    /**
     * Under an LRU policy the file carries each key's idle time, under an LFU one its counter
     * (rdbSaveKeyValuePair), and both servers give them back on load (objectSetLRUOrLFU).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void idleTimeAndFrequencyTravelUnderTheirPolicies(Target target) throws Exception {
        for (String policy : List.of("allkeys-lru", "allkeys-lfu")) {
            Path dir = Servers.freshDirectory();
            String field = policy.endsWith("lru") ? "IDLETIME" : "FREQ";
            long expected = policy.endsWith("lru") ? 1000 : 100;
            try (LacewingServer server = start(target, dir, "maxmemory-policy", policy);
                 RespClient client = RespClient.connect(server.port())) {
                client.call("SET", "source", "v");
                List<byte[]> restore = new ArrayList<>(RespClient.toBytes("RESTORE", "k", "0"));
                restore.add(dump(client, "source"));
                restore.addAll(RespClient.toBytes(field, Long.toString(expected)));
                assertEquals("+OK\r\n", RespClient.text(client.callBytes(restore)));
                assertEquals("+OK\r\n", client.call("SAVE"));
            }
            try (LacewingServer server = start(target, dir, "maxmemory-policy", policy);
                 RespClient client = RespClient.connect(server.port())) {
                long loaded = integer(client.call("OBJECT", field, "k"));
                assertTrue(loaded >= expected && loaded <= expected + 30, policy + " Lacewing: " + loaded);
            }
            try (ReferenceRedis redis = ReferenceRedis.start("--dir", dir.toString(), "--maxmemory-policy", policy);
                 RespClient client = RespClient.connect(redis.port())) {
                long loaded = integer(client.call("OBJECT", field, "k"));
                assertTrue(loaded >= expected && loaded <= expected + 30, policy + " redis-server: " + loaded);
            }
        }
    }

    /** redis-check-rdb's output; the test is skipped without it. */
    private static String run(String... command) throws IOException, InterruptedException {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of(command[0])), command[0]);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
