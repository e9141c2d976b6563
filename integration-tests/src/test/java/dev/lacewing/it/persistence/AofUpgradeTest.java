package dev.lacewing.it.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.reference.ReferenceRedis;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Redis 7.0's upgrade of a pre-7.0 single-file AOF ({@code dir/appendonly.aof}, no AOF
 * directory) on every engine and transport: the old file is loaded, moved into the AOF directory
 * as its base and a first incr file is opened, leaving the directory redis-server 7.0.15 leaves
 * from the same file; with an RDB preamble, the commands after it are loaded too.
 */
class AofUpgradeTest {

    private static final String OLD_STYLE = "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n"
        + "*3\r\n$3\r\nSET\r\n$6\r\nstring\r\n$5\r\nvalue\r\n"
        + "*4\r\n$5\r\nRPUSH\r\n$4\r\nlist\r\n$1\r\na\r\n$1\r\nb\r\n"
        + "*3\r\n$9\r\nPEXPIREAT\r\n$4\r\nlist\r\n$13\r\n4000000000000\r\n"
        + "*2\r\n$6\r\nSELECT\r\n$1\r\n3\r\n"
        + "*4\r\n$4\r\nHSET\r\n$4\r\nhash\r\n$1\r\nf\r\n$1\r\nv\r\n"
        + "*1\r\n$5\r\nMULTI\r\n"
        + "*2\r\n$4\r\nINCR\r\n$7\r\ncounter\r\n"
        + "*1\r\n$4\r\nEXEC\r\n";

    static Stream<Target> targets() {
        return Servers.all();
    }

    private static LacewingServer start(Target target, Path dir) {
        return Servers.builder(target).set("dir", dir.toString()).set("appendonly", "yes").start();
    }

    /** Every file under {@code dir}, one "path size" line each, sorted, then the manifest's text. */
    private static String layout(Path dir) throws IOException {
        String files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).map(path -> {
                try {
                    return dir.relativize(path) + " " + Files.size(path);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }).sorted().collect(Collectors.joining("\n"));
        }
        return files + "\n" + Files.readString(dir.resolve("appendonlydir/appendonly.aof.manifest"));
    }

    /** {@code dir} and a copy for redis-server, each holding {@code aof} as appendonly.aof. */
    private static Path[] oldStyleDirectories(byte[] aof) throws IOException {
        Path ours = Servers.freshDirectory();
        Path theirs = Servers.freshDirectory();
        Files.write(ours.resolve("appendonly.aof"), aof);
        Files.write(theirs.resolve("appendonly.aof"), aof);
        return new Path[] {ours, theirs};
    }

    /**
     * Starts redis-server on {@code theirs} and Lacewing on {@code ours}, two copies of one
     * old-style AOF; checks Lacewing holds {@code expected} and the two leave the same layout.
     */
    private static void assertUpgradedAsRedis(Target target, Path ours, Path theirs, Map<String, String> expected)
        throws Exception {
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", theirs.toString(), "--appendonly", "yes");
             RespClient client = RespClient.connect(redis.port())) {
            assertEquals("+PONG\r\n", client.call("PING"));
        }
        try (LacewingServer server = start(target, ours); RespClient client = RespClient.connect(server.port())) {
            RdbFileTest.assertSameContents(expected, RdbFileTest.contents(client));
        }
        assertEquals(layout(theirs), layout(ours));
        assertFalse(Files.exists(ours.resolve("appendonly.aof")));
        try (LacewingServer server = start(target, ours); RespClient client = RespClient.connect(server.port())) {
            RdbFileTest.assertSameContents(expected, RdbFileTest.contents(client));
        }
    }

    /** What redis-server holds after running the requests of {@code aof}, sent as they are. */
    private static Map<String, String> contentsAfter(RespClient client, String aof) {
        client.send(aof.getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < aof.split("\r\n\\*").length; i++) {
            String reply = client.readReplyText();
            assertFalse(reply.startsWith("-"), reply);
        }
        return RdbFileTest.contents(client);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void anOldStyleAofIsLoadedAndMovedIntoTheAofDirectoryAsRedisDoes(Target target) throws Exception {
        Path[] dirs = oldStyleDirectories(OLD_STYLE.getBytes(StandardCharsets.US_ASCII));
        Map<String, String> expected;
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", Servers.freshDirectory().toString());
             RespClient client = RespClient.connect(redis.port())) {
            expected = contentsAfter(client, OLD_STYLE);
        }
        assertUpgradedAsRedis(target, dirs[0], dirs[1], expected);
        try (LacewingServer server = start(target, dirs[0]); RespClient client = RespClient.connect(server.port())) {
            assertEquals("$5\r\nvalue\r\n", client.call("GET", "string"));
            assertEquals("*2\r\n$1\r\na\r\n$1\r\nb\r\n", client.call("LRANGE", "list", "0", "-1"));
            assertEquals(":4000000000000\r\n", client.call("PEXPIRETIME", "list"));
            client.call("SELECT", "3");
            assertEquals("$1\r\nv\r\n", client.call("HGET", "hash", "f"));
            assertEquals("$1\r\n1\r\n", client.call("GET", "counter"));
        }
    }

    /**
     * A pre-7.0 AOF with aof-use-rdb-preamble is an RDB image followed by commands: made here from
     * redis-server's own base file and the incr file written after it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void anOldStyleAofWithAnRdbPreambleIsLoadedWholeAsRedisDoes(Target target) throws Exception {
        Path source = Servers.freshDirectory();
        try (ReferenceRedis redis = ReferenceRedis.start("--dir", source.toString(), "--appendonly", "yes");
             RespClient client = RespClient.connect(redis.port())) {
            RdbFileTest.build(client);
            client.call("BGREWRITEAOF");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!client.call("INFO", "persistence").contains("aof_rewrite_in_progress:0")
                && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            for (String[] command : List.of(new String[] {"SET", "after-preamble", "1"},
                new String[] {"SELECT", "5"}, new String[] {"RPUSH", "tail-list", "x", "y"},
                new String[] {"DEL", "string"})) {
                String reply = client.call(command);
                assertFalse(reply.startsWith("-"), String.join(" ", command) + " -> " + reply);
            }
        }
        ByteArrayOutputStream aof = new ByteArrayOutputStream();
        for (String line : Files.readAllLines(source.resolve("appendonlydir/appendonly.aof.manifest"))) {
            aof.write(Files.readAllBytes(source.resolve("appendonlydir").resolve(line.split(" ")[1])));
        }
        assertEquals("REDIS", new String(aof.toByteArray(), 0, 5, StandardCharsets.US_ASCII));
        Path[] dirs = oldStyleDirectories(aof.toByteArray());
        Map<String, String> expected;
        try (LacewingServer server = start(target, source); RespClient client = RespClient.connect(server.port())) {
            expected = RdbFileTest.contents(client);
        }
        assertUpgradedAsRedis(target, dirs[0], dirs[1], expected);
        try (LacewingServer server = start(target, dirs[0]); RespClient client = RespClient.connect(server.port())) {
            assertEquals("$1\r\n1\r\n", client.call("GET", "after-preamble"));
            client.call("SELECT", "5");
            assertEquals("*2\r\n$1\r\nx\r\n$1\r\ny\r\n", client.call("LRANGE", "tail-list", "0", "-1"));
        }
    }
}
