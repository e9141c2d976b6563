package dev.lacewing.it.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
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
 * Lacewing's file; a damaged file refuses start-up. The transport plays no part in a file, so
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
    private static List<String[]> fixture() {
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

    private static void build(RespClient client) {
        for (String[] command : fixture()) {
            String reply = client.call(command);
            assertFalse(reply.startsWith("-"), String.join(" ", command) + " -> " + reply);
        }
    }

    /**
     * Every key of every database as "db key" -> type, encoding, absolute expiry and content; the
     * members of sets and fields of hashes sorted, since their order is a hash table's.
     */
    private static Map<String, String> contents(RespClient client) {
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

    private static void assertSameContents(Map<String, String> expected, Map<String, String> actual) {
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
            assertEquals("+OK\r\n", client.call("SAVE"));
        }
        assertTrue(Files.exists(dir.resolve("dump.rdb")));
        assertFalse(Files.list(dir).anyMatch(path -> path.getFileName().toString().startsWith("temp-")));
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertSameContents(before, contents(client));
            assertTrue(client.call("INFO", "persistence").contains("rdb_last_load_keys_loaded:" + before.size()));
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
