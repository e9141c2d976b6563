package dev.lacewing.it.distribution;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The distribution started with Debian's stock redis.conf (package redis-server), as an operator
 * moving from Redis would: only what an unprivileged run on a free port needs is overridden on the
 * command line (dir, pidfile, logfile, daemonize, port), as it would be for redis-server.
 */
@Tag("distribution")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisConfTest {

    private static final Path STOCK_CONF = Path.of("/etc/redis/redis.conf");
    private static final Path REDIS_SERVER = Path.of("/usr/bin/redis-server");

    /** Directives the stock file sets, or leaves at Redis's default, of every value kind. */
    private static final List<String> SAMPLE = List.of("bind", "protected-mode", "tcp-backlog", "timeout",
        "tcp-keepalive", "loglevel", "databases", "save", "stop-writes-on-bgsave-error", "rdbcompression",
        "dbfilename", "replica-read-only", "slave-read-only", "repl-diskless-load", "repl-diskless-sync-delay",
        "acllog-max-len", "lazyfree-lazy-user-flush", "oom-score-adj", "oom-score-adj-values", "appendonly",
        "appendfilename", "appendfsync", "auto-aof-rewrite-min-size", "notify-keyspace-events",
        "hash-max-ziplist-entries", "list-max-listpack-size", "zset-max-listpack-value", "stream-node-max-bytes",
        "client-output-buffer-limit", "hz", "dynamic-hz", "jemalloc-bg-thread", "proc-title-template",
        "maxmemory-policy", "io-threads", "supervised", "daemonize");

    private Path directory;
    private Path conf;
    private LacewingProcess server;

    @BeforeAll
    void start() throws IOException {
        assumeTrue(Files.isReadable(STOCK_CONF), "no stock redis.conf: " + STOCK_CONF
            + " is absent (apt-get install redis-server)");
        directory = Files.createTempDirectory("lacewing-redis-conf");
        conf = directory.resolve("redis.conf");
        Files.copy(STOCK_CONF, conf);
        Files.writeString(conf, "\nuser alice on >alicepw ~app:* &* +@all\n", java.nio.file.StandardOpenOption.APPEND);
        server = LacewingProcess.start(Map.of(), overrides(directory, "lacewing"));
    }

    /** The stock file and what makes it run here, for either server. */
    private List<String> overrides(Path workingDirectory, String name) {
        return List.of(conf.toString(), "--dir", workingDirectory.toString(), "--pidfile",
            workingDirectory.resolve(name + ".pid").toString(), "--logfile",
            workingDirectory.resolve(name + ".log").toString(), "--daemonize", "no");
    }

    @AfterAll
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        if (directory != null) {
            try (var files = Files.list(directory)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(directory);
        }
    }

    @Test
    void itAnswersPingSetAndGet() {
        assertEquals("PONG", server.cli("PING"));
        assertEquals("OK", server.cli("SET", "greeting", "hello"));
        assertEquals("hello", server.cli("GET", "greeting"));
    }

    @Test
    void aUserDirectiveAddsAnAclUser() {
        assertEquals("alice", server.cli("--no-auth-warning", "--user", "alice", "--pass", "alicepw", "ACL", "WHOAMI"));
        assertEquals("NOPERM this user has no permissions to access one of the keys used as arguments",
            server.cli("--no-auth-warning", "--user", "alice", "--pass", "alicepw", "GET", "other"));
    }

    @Test
    void configGetAgreesWithRedisServerReadingTheSameFile() throws Exception {
        assumeTrue(Files.isExecutable(REDIS_SERVER), "redis-server is not installed (apt-get install redis-server)");
        Path redisDirectory = Files.createTempDirectory(directory, "redis");
        int port = LacewingProcess.freePort();
        List<String> command = new ArrayList<>(List.of(REDIS_SERVER.toString()));
        command.addAll(overrides(redisDirectory, "redis"));
        command.addAll(List.of("--port", Integer.toString(port)));
        Process redis = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(redisDirectory.resolve("stdout").toFile()).start();
        try {
            Map<String, String> expected = configGet(port);
            assertTrue(expected.values().stream().noneMatch(value -> value.startsWith("<")), expected.toString());
            assertEquals(expected, configGet(server.port()));
        } finally {
            redis.destroy();
            redis.waitFor();
            try (var files = Files.list(redisDirectory)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(redisDirectory);
        }
    }

    /** CONFIG GET of each sampled directive, once the server answers (redis-server may still be starting). */
    private static Map<String, String> configGet(int port) throws InterruptedException {
        Map<String, String> values = new LinkedHashMap<>();
        for (String name : SAMPLE) {
            String reply = "";
            for (int attempt = 0; attempt < 100; attempt++) {
                reply = LacewingProcess.tool(List.of(LacewingProcess.REDIS_CLI.toString(), "-h", "127.0.0.1", "-p",
                    Integer.toString(port), "CONFIG", "GET", name));
                if (reply.startsWith(name)) {
                    break;
                }
                Thread.sleep(100);
            }
            String[] lines = reply.split("\n", -1);
            values.put(name, lines.length > 1 ? lines[1] : "<" + reply.strip() + ">");
        }
        return values;
    }

    @Test
    void theLogFileNamesTheDirectivesAcceptedWithoutEffectOnce() throws IOException, InterruptedException {
        Path log = directory.resolve("lacewing.log");
        String text = "";
        for (int attempt = 0; attempt < 100 && !text.contains("Ready to accept connections"); attempt++) {
            text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
            Thread.sleep(100);
        }
        List<String> lines = text.lines().filter(line -> line.contains("accepted, no effect")).toList();
        assertEquals(1, lines.size(), text);
        String line = lines.get(0);
        assertAll(
            () -> assertFalse(line.contains(" aof-use-rdb-preamble,"), line),
            () -> assertFalse(line.contains(" appendonly,"), line),
            () -> assertTrue(line.contains(" repl-diskless-sync,"), line),
            () -> assertTrue(line.contains(" jemalloc-bg-thread"), line),
            () -> assertFalse(line.contains(" port,"), line),
            () -> assertFalse(line.contains(" tcp-keepalive,"), line),
            () -> assertFalse(line.contains(" pidfile,"), line));
    }

    @Test
    void thePidFileHoldsTheProcessIdAndInfoNamesTheConfigFile() throws IOException {
        assertEquals(Long.toString(server.pid()),
            Files.readString(directory.resolve("lacewing.pid"), StandardCharsets.US_ASCII).strip());
        assertEquals(conf.toAbsolutePath().toString(), server.info("server").get("config_file"));
    }
}
