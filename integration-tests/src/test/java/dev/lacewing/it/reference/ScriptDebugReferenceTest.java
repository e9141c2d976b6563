package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SCRIPT DEBUG (Redis's Lua debugger, LDB) over real sockets on every target, against
 * redis-server 7.0.15: the raw protocol of a session (log lines as arrays of status replies, the
 * debugger commands, {@code <endsession>}, the reply, the connection closed), the modes' effects
 * on the dataset, the errors around it, and redis-cli's own {@code --ldb-sync-mode --eval} fed
 * from stdin. Lacewing's deliberate difference, YES refusing keys outside the copy of its KEYS,
 * is checked on Lacewing alone.
 */
class ScriptDebugReferenceTest {

    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final String SCRIPT = """
        local a = redis.call('set', KEYS[1], ARGV[1])
        local t = {1, 'two', {x=3}}
        redis.debug('dbg', a, t)
        local b = redis.call('get', KEYS[1])
        redis.breakpoint()
        return b
        """;

    private static String key(Target target, String name) {
        return "ldb:" + target + ":" + name;
    }

    /** Every debugger command a stopped script takes, and the script's writes kept, as SYNC keeps them. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aSyncSessionReadsAsRedisAndKeepsItsWrites(Target target) {
        String k = key(target, "sync");
        String counter = key(target, "counter");
        List<String> commands = List.of("s", "p", "s", "s", "print t", "print nosuch", "print KEYS", "list 2 1", "b 6",
            "b", "b 99", "b -6", "b", "b 6", "e 1+1", "e local z = 1", "e +", "r incr " + counter, "r set", "trace",
            "foo", "maxlen 10", "maxlen", "help", "c", "c");
        assertSameTranscripts(target, "SYNC", SCRIPT, List.of(k), List.of("v"), commands, List.of(k, counter));
        for (int port : new int[] {redis.port(), Servers.server(target).port()}) {
            try (RespClient client = RespClient.connect(port)) {
                assertEquals("$1\r\nv\r\n", client.call("GET", k));
                assertEquals("$1\r\n1\r\n", client.call("GET", counter));
                client.call("DEL", k, counter);
            }
        }
    }

    /** YES: the script sees its KEYS as they were, and the dataset is as before once the session ends. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aYesSessionLeavesTheDatasetUntouched(Target target) {
        String k = key(target, "yes");
        String body = """
            local v = redis.call('get', KEYS[1])
            redis.call('set', KEYS[1], 'new')
            redis.call('expire', KEYS[1], 100)
            return {v, redis.call('get', KEYS[1]), redis.call('ttl', KEYS[1])}
            """;
        for (int port : new int[] {redis.port(), Servers.server(target).port()}) {
            try (RespClient client = RespClient.connect(port)) {
                client.call("SET", k, "orig", "PX", "500000");
            }
        }
        assertSameTranscripts(target, "YES", body, List.of(k), List.of(), List.of("n", "r get " + k, "c"), List.of());
        for (int port : new int[] {redis.port(), Servers.server(target).port()}) {
            try (RespClient client = RespClient.connect(port)) {
                assertEquals("$4\r\norig\r\n", client.call("GET", k));
                client.call("DEL", k);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void abortAndCompileErrorsEndTheSessionAsInRedis(Target target) {
        String k = key(target, "abort");
        assertSameTranscripts(target, "SYNC", SCRIPT, List.of(k), List.of("v"), List.of("a"), List.of(k));
        assertSameTranscripts(target, "YES", "return 1", List.of(), List.of(), List.of("c"), List.of());
        assertSameTranscripts(target, "SYNC", "return 'x", List.of("0"), List.of(), List.of(), List.of());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void scriptDebugRefusalsAreRedis(Target target) {
        for (int port : new int[] {redis.port(), Servers.server(target).port()}) {
            try (RespClient client = RespClient.connect(port)) {
                assertEquals("-ERR Use SCRIPT DEBUG YES/SYNC/NO\r\n", client.call("SCRIPT", "DEBUG", "MAYBE"));
                assertEquals("-ERR wrong number of arguments for 'script|debug' command\r\n", client.call("SCRIPT", "DEBUG"));
                assertEquals("+OK\r\n", client.call("MULTI"));
                assertEquals("+QUEUED\r\n", client.call("SCRIPT", "DEBUG", "YES"));
                assertEquals("*1\r\n-ERR SCRIPT DEBUG must be called outside a pipeline\r\n", client.call("EXEC"));
                assertTrue(client.call("EVAL", "return redis.call('script','debug','yes')", "0")
                    .startsWith("-ERR This Redis command is not allowed from script"), port + "");
                // Outside a session redis.debug() does nothing and redis.breakpoint() is false.
                assertEquals("$-1\r\n", client.call("EVAL", "return redis.debug('x')", "0"));
                assertEquals("$-1\r\n", client.call("EVAL", "return redis.breakpoint()", "0"));
                assertEquals("+OK\r\n", client.call("SCRIPT", "DEBUG", "YES"));
                assertEquals("-ERR Please use EVAL instead of EVALSHA for debugging\r\n",
                    client.call("EVALSHA", "e0e1f9fabfc9d4800c877a703b823ac0578ff8db", "0"));
                assertEquals("+OK\r\n", client.call("SCRIPT", "DEBUG", "NO"));
                assertEquals(":1\r\n", client.call("EVAL", "return 1", "0"));
            }
        }
    }

    /** A client that goes away ends the session: the script runs on to its end without stopping, and SYNC keeps its writes. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aClientLeavingMidSessionLetsTheScriptFinish(Target target) throws InterruptedException {
        String k = key(target, "gone");
        for (int port : new int[] {redis.port(), Servers.server(target).port()}) {
            try (RespClient client = RespClient.connect(port)) {
                assertEquals("+OK\r\n", client.call("SCRIPT", "DEBUG", "SYNC"));
                client.send(RespClient.encode(RespClient.toBytes("EVAL", "redis.call('set', KEYS[1], 'done') return 1", "1", k)));
                assertTrue(client.readReplyText().contains("Stopped at 1"));
            }
            try (RespClient client = RespClient.connect(port)) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                String value = client.call("GET", k);
                while (!value.equals("$4\r\ndone\r\n") && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                    value = client.call("GET", k);
                }
                assertEquals("$4\r\ndone\r\n", value, "port " + port);
                client.call("DEL", k);
            }
        }
    }

    /** Lacewing's YES runs on a copy of the KEYS only: any other key is refused, and the live one is untouched. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aYesSessionRefusesKeysOutsideItsCopy(Target target) {
        String k = key(target, "copy");
        String other = key(target, "other");
        List<String> replies = transcript(Servers.server(target).port(), "YES",
            "return redis.pcall('set', KEYS[2] or ARGV[1], 'x')", List.of(k), List.of(other), List.of("c"));
        assertEquals("-ERR SCRIPT DEBUG YES runs the script on a copy of its KEYS: it cannot reach other keys; use "
            + "SCRIPT DEBUG SYNC\r\n", replies.get(replies.size() - 1));
    }

    /** SYNC's writes reach the AOF as they run (a restart finds them); YES's, made on a copy, do not. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void syncWritesAreInTheAofAndYesWritesAreNot(Target target) {
        Path dir = Servers.freshDirectory();
        String k = key(target, "aof");
        String y = key(target, "aof-yes");
        String body = "redis.call('set', KEYS[1], ARGV[1]) redis.call('expire', KEYS[1], 1000) return 1";
        try (LacewingServer server = Servers.builder(target).set("dir", dir.toString()).set("appendonly", "yes")
            .set("appendfsync", "always").start()) {
            transcript(server.port(), "SYNC", body, List.of(k), List.of("x"), List.of("c"));
            transcript(server.port(), "YES", body, List.of(y), List.of("y"), List.of("c"));
        }
        try (LacewingServer server = Servers.builder(target).set("dir", dir.toString()).set("appendonly", "yes").start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("$1\r\nx\r\n", client.call("GET", k));
            assertTrue(client.call("TTL", k).matches(":(99\\d|1000)\r\n"), client.call("TTL", k));
            assertEquals(":0\r\n", client.call("EXISTS", y));
        }
    }

    /** redis-cli --ldb-sync-mode --eval, its commands on stdin, prints the same session from both servers. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void redisCliLdbSyncModeShowsTheSameSession(Target target) throws IOException, InterruptedException {
        Path cli = Path.of("/usr/bin/redis-cli");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(cli), "redis-cli is not installed");
        String k = key(target, "cli");
        Path file = Files.createTempFile("ldb", ".lua");
        try {
            Files.writeString(file, SCRIPT);
            String stdin = String.join("\n", "s", "p", "n", "print t", "list", "b 6", "e 1+1", "r get " + k, "help",
                "c", "c", "");
            String expected = redisCli(cli, redis.port(), file, k, stdin);
            String actual = redisCli(cli, Servers.server(target).port(), file, k, stdin);
            assertTrue(expected.contains("<endsession>") || expected.contains("Lua debugging session ended"), expected);
            assertEquals(expected, actual);
        } finally {
            Files.deleteIfExists(file);
            for (int port : new int[] {redis.port(), Servers.server(target).port()}) {
                try (RespClient client = RespClient.connect(port)) {
                    client.call("DEL", k);
                }
            }
        }
    }

    private static String redisCli(Path cli, int port, Path file, String key, String stdin)
        throws IOException, InterruptedException {
        Process process = new ProcessBuilder(cli.toString(), "-h", "127.0.0.1", "-p", String.valueOf(port),
            "--ldb-sync-mode", "--eval", file.toString(), key, ",", "v").redirectErrorStream(true).start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("redis-cli did not end against port " + port);
        }
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    /** Runs the session on the reference and on the target (their keys deleted first) and compares every reply. */
    private static void assertSameTranscripts(Target target, String mode, String body, List<String> keys,
                                              List<String> args, List<String> commands, List<String> cleared) {
        for (int port : new int[] {redis.port(), Servers.server(target).port()}) {
            try (RespClient client = RespClient.connect(port)) {
                for (String key : cleared) {
                    client.call("DEL", key);
                }
            }
        }
        List<String> expected = transcript(redis.port(), mode, body, keys, args, commands);
        List<String> actual = transcript(Servers.server(target).port(), mode, body, keys, args, commands);
        assertTrue(expected.size() >= 2, () -> "reference transcript too short: " + expected);
        assertEquals(normalized(expected), normalized(actual));
    }

    /** luaj's compile errors lack Lua's "near ..." (a documented difference). */
    private static List<String> normalized(List<String> replies) {
        return replies.stream().map(r -> r.replaceAll(" near '[^']*'", "")).toList();
    }

    /**
     * SCRIPT DEBUG {@code mode}, the EVAL, then each command; every reply as text, the script's own
     * reply last, after which the server must close the connection.
     */
    private static List<String> transcript(int port, String mode, String body, List<String> keys, List<String> args,
                                           List<String> commands) {
        List<String> replies = new ArrayList<>();
        try (RespClient client = RespClient.connect(port)) {
            assertEquals("+OK\r\n", client.call("SCRIPT", "DEBUG", mode));
            List<String> eval = new ArrayList<>(List.of("EVAL", body, String.valueOf(keys.size())));
            eval.addAll(keys);
            eval.addAll(args);
            client.send(RespClient.encode(RespClient.toBytes(eval.toArray(String[]::new))));
            String reply = client.readReplyText();
            replies.add(reply);
            int next = 0;
            while (!reply.endsWith("+<endsession>\r\n")) {
                if (next == commands.size()) {
                    throw new AssertionError("the session did not end on port " + port + ": " + replies);
                }
                client.send(RespClient.encode(RespClient.toBytes(commands.get(next++).split(" "))));
                reply = client.readReplyText();
                replies.add(reply);
            }
            replies.add(client.readReplyText());
            assertTrue(client.closedByServer(5000), "the connection stays open after the session, port " + port);
        }
        return replies;
    }
}
