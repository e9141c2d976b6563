package dev.lacewing.it.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code aof-use-rdb-preamble no}, on every engine and transport: BGREWRITEAOF writes the base as
 * commands ({@code .base.aof}, Redis 7.0's rewriteAppendOnlyFileRio) that redis-check-aof accepts,
 * that redis-server 7.0.15 and Lacewing load to the same dataset, in the forms redis-server's own
 * rewrite of the same dataset writes; CONFIG SET switches the form from the next rewrite.
 */
class AofCommandBaseTest {

    private static final Path REDIS_CHECK_AOF = Path.of("/usr/bin/redis-check-aof");
    private static final String MANIFEST = "appendonlydir/appendonly.aof.manifest";
    private static final String LIBRARY = "#!lua name=mylib\nredis.register_function('f1', function() return 1 end)";

    private static LacewingServer start(Target target, Path dir, String preamble) {
        return Servers.builder(target).set("dir", dir.toString()).set("appendonly", "yes")
            .set("aof-use-rdb-preamble", preamble).set("appendfsync", "always").set("save", "").start();
    }

    /** A dataset of every type, with an expiry, a stream with groups and pending entries, a library. */
    private static void fill(RespClient client) {
        List<String[]> commands = new ArrayList<>();
        commands.add(new String[] {"FUNCTION", "LOAD", LIBRARY});
        commands.add(new String[] {"SET", "s", "v"});
        commands.add(new String[] {"PEXPIREAT", "s", "4102444800000"});
        List<String> rpush = new ArrayList<>(List.of("RPUSH", "l"));
        IntStream.rangeClosed(1, 200).forEach(i -> rpush.add(i % 2 == 0 ? Integer.toString(i) : "e" + i));
        commands.add(rpush.toArray(new String[0]));
        commands.add(new String[] {"SADD", "is", "3", "1", "2"});
        commands.add(new String[] {"SADD", "st", "a"});
        commands.add(new String[] {"ZADD", "z", "1.5", "a", "2", "b", "inf", "c", "0.1", "d"});
        commands.add(new String[] {"HSET", "h", "f1", "v1", "f2", "v2"});
        List<String> bigHash = new ArrayList<>(List.of("HSET", "big-h"));
        IntStream.rangeClosed(1, 130).forEach(i -> bigHash.addAll(List.of("f" + i, "v" + i)));
        commands.add(bigHash.toArray(new String[0]));
        List<String> bigSet = new ArrayList<>(List.of("SADD", "big-s"));
        IntStream.rangeClosed(1, 70).forEach(i -> bigSet.add("m" + i));
        commands.add(bigSet.toArray(new String[0]));
        commands.add(new String[] {"XADD", "x", "1-1", "f", "v"});
        commands.add(new String[] {"XADD", "x", "2-1", "f", "v", "g", "h"});
        commands.add(new String[] {"XADD", "x", "3-1", "a", "b"});
        commands.add(new String[] {"XDEL", "x", "2-1"});
        commands.add(new String[] {"XGROUP", "CREATE", "x", "g1", "0"});
        commands.add(new String[] {"XREADGROUP", "GROUP", "g1", "c1", "COUNT", "1", "STREAMS", "x", ">"});
        commands.add(new String[] {"XCLAIM", "x", "g1", "c1", "0", "1-1", "TIME", "1700000000000", "RETRYCOUNT", "2",
            "JUSTID"});
        commands.add(new String[] {"XGROUP", "CREATECONSUMER", "x", "g1", "c2"});
        commands.add(new String[] {"XGROUP", "CREATE", "x", "g2", "$"});
        commands.add(new String[] {"XADD", "e", "5-5", "a", "b"});
        commands.add(new String[] {"XDEL", "e", "5-5"});
        commands.add(new String[] {"SELECT", "3"});
        commands.add(new String[] {"SET", "k3", "v3"});
        commands.add(new String[] {"SELECT", "0"});
        for (String[] command : commands) {
            String reply = client.call(command);
            assertTrue(!reply.startsWith("-"), String.join(" ", command) + " -> " + reply);
        }
    }

    /**
     * What the dataset reads as, key by key. Scores are compared by value: redis-server 7.0.15
     * replies 0.1 as 0.10000000000000001 (%.17g), Lacewing as 0.1 (7.2's shortest form).
     */
    private static List<String> contents(RespClient client) {
        List<String> replies = new ArrayList<>();
        String[][] reads = {
            {"FCALL", "f1", "0"}, {"DBSIZE"}, {"GET", "s"}, {"PEXPIRETIME", "s"}, {"LRANGE", "l", "0", "-1"},
            {"SMEMBERS", "is"}, {"SMEMBERS", "st"}, {"ZRANGE", "z", "0", "-1"},
            {"ZRANGEBYSCORE", "z", "0.1", "0.1"}, {"ZSCORE", "z", "a"}, {"ZSCORE", "z", "c"}, {"HGETALL", "h"},
            {"HLEN", "big-h"}, {"HMGET", "big-h", "f1", "f64", "f65", "f130"}, {"SCARD", "big-s"},
            {"SMISMEMBER", "big-s", "m1", "m64", "m65", "m70"},
            {"XRANGE", "x", "-", "+"}, {"XINFO", "GROUPS", "x"}, {"XPENDING", "x", "g1"}, {"XLEN", "e"},
            {"TYPE", "e"}, {"XINFO", "GROUPS", "e"}, {"SELECT", "3"}, {"GET", "k3"}, {"SELECT", "0"},
        };
        for (String[] read : reads) {
            replies.add(String.join(" ", read) + " -> " + client.call(read));
        }
        for (String key : List.of("x", "e")) {
            List<String> info = RespClient.elements(client.call("XINFO", "STREAM", key));
            for (int i = 0; i + 1 < info.size(); i += 2) {
                if (info.get(i).matches("(?s).*(length|last-generated-id|max-deleted-entry-id|entries-added).*")) {
                    replies.add(key + " " + info.get(i).trim() + " " + info.get(i + 1));
                }
            }
        }
        return replies;
    }

    private static void awaitRewrite(RespClient client) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            String info = client.call("INFO", "persistence");
            if (info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the rewrite did not finish in 30 s");
    }

    private static String rewrite(RespClient client) throws InterruptedException {
        assertEquals("+Background append only file rewriting started\r\n", client.call("BGREWRITEAOF"));
        awaitRewrite(client);
        String info = client.call("INFO", "persistence");
        assertTrue(info.contains("aof_last_bgrewrite_status:ok"), info);
        return info;
    }

    /** The RESP commands of an AOF file. */
    private static List<List<String>> commands(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        List<List<String>> commands = new ArrayList<>();
        int[] at = {0};
        while (at[0] < bytes.length) {
            assertEquals('*', bytes[at[0]], "a command at offset " + at[0]);
            at[0]++;
            int count = Integer.parseInt(line(bytes, at));
            List<String> argv = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                assertEquals('$', bytes[at[0]]);
                at[0]++;
                int length = Integer.parseInt(line(bytes, at));
                argv.add(new String(bytes, at[0], length, StandardCharsets.UTF_8));
                at[0] += length + 2;
            }
            commands.add(argv);
        }
        return commands;
    }

    private static String line(byte[] bytes, int[] at) {
        int start = at[0];
        while (bytes[at[0]] != '\r') {
            at[0]++;
        }
        String text = new String(bytes, start, at[0] - start, StandardCharsets.US_ASCII);
        at[0] += 2;
        return text;
    }

    /**
     * A base file's commands by database and key, each key's in file order: the forms compared,
     * independent of the order keys come in (Redis's dict order). Of a {@code big-} key, in
     * hashtable encoding whose order neither server defines, only each command's name and size.
     */
    private static Map<String, Map<String, List<List<String>>>> byKey(List<List<String>> commands) {
        Map<String, Map<String, List<List<String>>>> databases = new TreeMap<>();
        String database = "functions";
        for (List<String> argv : commands) {
            String name = argv.get(0).toUpperCase();
            if (name.equals("SELECT")) {
                database = argv.get(1);
                continue;
            }
            String key = name.equals("FUNCTION") || name.equals("XGROUP") ? argv.get(2) : argv.get(1);
            List<String> form = key.startsWith("big-") ? List.of(name, key, Integer.toString(argv.size())) : argv;
            databases.computeIfAbsent(database, d -> new TreeMap<>())
                .computeIfAbsent(key, k -> new ArrayList<>()).add(form);
        }
        return databases;
    }

    private static Path base(Path dir, String manifest) {
        String first = manifest.lines().findFirst().orElseThrow();
        return dir.resolve("appendonlydir").resolve(first.split(" ")[1]);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aCommandBaseLoadsInRedisAndLacewingAndMatchesRedisOwnRewrite(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        List<String> before;
        String manifest;
        try (LacewingServer server = start(target, dir, "no"); RespClient client = RespClient.connect(server.port())) {
            fill(client);
            before = contents(client);
            rewrite(client);
            manifest = Files.readString(dir.resolve(MANIFEST));
        }
        assertEquals("file appendonly.aof.2.base.aof seq 2 type b\nfile appendonly.aof.2.incr.aof seq 2 type i\n",
            manifest);
        List<List<String>> ours = commands(base(dir, manifest));

        Path referenceDir = Servers.freshDirectory();
        List<List<String>> theirs;
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", referenceDir.toString(), "--appendonly", "yes",
            "--aof-use-rdb-preamble", "no"); RespClient client = RespClient.connect(redis.port())) {
            fill(client);
            assertEquals(before, contents(client));
            rewrite(client);
            theirs = commands(base(referenceDir, Files.readString(referenceDir.resolve(MANIFEST))));
        }
        assertEquals(byKey(theirs), byKey(ours));
        assertEquals(4, ours.stream().filter(argv -> argv.get(0).equals("RPUSH")).count());
        assertEquals(List.of("FUNCTION", "LOAD", LIBRARY), ours.get(0));

        String check = AofTest.tool(REDIS_CHECK_AOF.toString(), dir.resolve(MANIFEST).toString());
        assertTrue(check.contains("is valid"), check);
        try (LacewingServer server = start(target, dir, "no"); RespClient client = RespClient.connect(server.port())) {
            assertEquals(before, contents(client));
        }
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", dir.toString(), "--appendonly", "yes",
            "--aof-use-rdb-preamble", "no"); RespClient client = RespClient.connect(redis.port())) {
            assertEquals(before, contents(client));
        }
    }

    /** As in Redis, the setting is read at each rewrite: the next base takes the form it names. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void configSetChangesTheFormOfTheNextBase(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        List<String> before;
        try (LacewingServer server = start(target, dir, "yes"); RespClient client = RespClient.connect(server.port())) {
            assertEquals("file appendonly.aof.1.base.rdb seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n",
                Files.readString(dir.resolve(MANIFEST)));
            fill(client);
            before = contents(client);
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "aof-use-rdb-preamble", "no"));
            rewrite(client);
            assertEquals("file appendonly.aof.2.base.aof seq 2 type b\nfile appendonly.aof.2.incr.aof seq 2 type i\n",
                Files.readString(dir.resolve(MANIFEST)));
            assertEquals("+OK\r\n", client.call("SET", "after", "1"));
        }
        try (LacewingServer server = start(target, dir, "no"); RespClient client = RespClient.connect(server.port())) {
            assertEquals(":1\r\n", client.call("DEL", "after"));
            assertEquals(before, contents(client));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "aof-use-rdb-preamble", "yes"));
            rewrite(client);
            assertEquals("file appendonly.aof.3.base.rdb seq 3 type b\nfile appendonly.aof.3.incr.aof seq 3 type i\n",
                Files.readString(dir.resolve(MANIFEST)));
        }
        try (LacewingServer server = start(target, dir, "yes"); RespClient client = RespClient.connect(server.port())) {
            assertEquals(before, contents(client));
        }
    }

    /** Start-up with an empty directory writes the first base in the configured form, as redis-server does. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theFirstBaseAtStartUpIsACommandFile(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir, "no"); RespClient client = RespClient.connect(server.port())) {
            assertEquals("file appendonly.aof.1.base.aof seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n",
                Files.readString(dir.resolve(MANIFEST)));
            assertEquals(0, Files.size(dir.resolve("appendonlydir/appendonly.aof.1.base.aof")));
            assertEquals("+OK\r\n", client.call("SET", "k", "v"));
        }
        try (LacewingServer server = start(target, dir, "no"); RespClient client = RespClient.connect(server.port())) {
            assertEquals("$1\r\nv\r\n", client.call("GET", "k"));
        }
    }
}
