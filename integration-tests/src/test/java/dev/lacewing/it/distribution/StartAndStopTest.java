package dev.lacewing.it.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** bin/lacewing-server's command line, configuration file, start-up errors, JVMs and ways to stop. */
@Tag("distribution")
class StartAndStopTest {

    /** A Redis-style log line: {@code pid:M 03 Dec 2026 08:01:02.345 # message}. */
    private static final Pattern FATAL_LINE = Pattern.compile("\\d+:M \\d{2} \\w{3} \\d{4} [\\d:.]+ # .+");

    @Test
    void confFileSettingsApplyAndOptionsOverrideThem(@TempDir Path directory) throws IOException {
        Path conf = directory.resolve("test.conf");
        Files.writeString(conf, String.join("\n",
            "# a redis.conf-style file",
            "port 1",
            "requirepass \"s3cret word\"",
            "engine multithread",
            "threading single",
            "loglevel warning",
            ""));
        try (LacewingProcess server = LacewingProcess.start(conf.toString(), "--threading", "per-core",
            "--threads", "2")) {
            assertEquals("NOAUTH Authentication required.", server.cli("PING"));
            String[] auth = {"-a", "s3cret word", "--no-auth-warning"};
            assertEquals("PONG", server.cli(concat(auth, "PING")));
            Map<String, String> info = server.info("server", auth);
            assertEquals("multithread", info.get("lacewing_engine"));
            assertEquals("per-core", info.get("lacewing_threading"));
            assertEquals("2", info.get("lacewing_threads"));
            assertEquals(Integer.toString(server.port()), info.get("tcp_port"));
            assertEquals("loglevel\nwarning", server.cli(concat(auth, "CONFIG", "GET", "loglevel")));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--no-such-setting 1         | Fatal config error: 'no-such-setting 1': Bad directive or wrong number of arguments",
        "--port eighty               | Fatal config error: 'port eighty': argument couldn't be parsed into an integer",
        "/no/such/lacewing.conf      | Fatal error, can't open config file '/no/such/lacewing.conf'",
        "--engine no-such-engine     | no engine named 'no-such-engine'",
        "--plugin-mode felix         | argument must be one of the following: jpms, osgi, classpath",
        "--enable-module-command on  | Fatal config error: 'enable-module-command on': argument(s) must be one of the following: no, yes, local",
        "--daemonize yes             | Fatal config error: 'daemonize yes': a JVM cannot fork",
        "--threading io-pool         | no threading strategy named 'io-pool'",
        "--tiered-offload sometimes  | Fatal config error: 'tiered-offload sometimes': argument(s) must be one of the following: pressure, eager",
        "--keyspace-layout objects   | Fatal config error: 'keyspace-layout objects': no keyspace layout named 'objects' (removed: see docs/architecture.md)",
    })
    void aStartUpErrorIsOneRedisStyleLineAndExitStatusOne(String arguments, String message) {
        LacewingProcess.Exited exited = LacewingProcess.run(arguments.strip().split(" +"));
        assertEquals(1, exited.code(), exited.output());
        List<String> lines = exited.output().lines().filter(line -> !line.isBlank()).toList();
        assertEquals(1, lines.size(), exited.output());
        assertTrue(FATAL_LINE.matcher(lines.get(0)).matches(), lines.get(0));
        assertTrue(lines.get(0).contains(message.strip()), lines.get(0));
    }

    @Test
    void aPortInUseIsAStartUpError() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            LacewingProcess.Exited exited = LacewingProcess.run("--port", Integer.toString(taken.getLocalPort()),
                "--bind", "127.0.0.1");
            assertEquals(1, exited.code(), exited.output());
            assertTrue(exited.output().contains("Could not create server TCP listening socket 127.0.0.1:"
                + taken.getLocalPort()), exited.output());
        }
    }

    @Test
    void shutdownStopsTheProcessWithStatusZero() {
        try (LacewingProcess server = LacewingProcess.start("--threads", "1")) {
            server.cli("SHUTDOWN");
            assertEquals(0, server.awaitExit(), server.log());
            assertTrue(server.log().contains("ready to exit"), server.log());
        }
    }

    @ParameterizedTest(name = "SIG{0}")
    @ValueSource(strings = {"TERM", "INT"})
    void aSignalStopsTheProcessWithStatusZero(String signal) throws IOException {
        try (LacewingProcess server = LacewingProcess.start("--threads", "1", "--plugin-mode", "osgi")) {
            assertEquals("PONG", server.cli("PING"));
            // A shell starts background jobs with SIGINT ignored, and the JVM then leaves it ignored.
            assumeFalse(signal.equals("INT") && ignoresSigint(server.pid()),
                "SIGINT is ignored in this process tree (started as a background job)");
            assertEquals(0, server.signal(signal), server.log());
            assertTrue(server.log().contains("Received SIG" + signal), server.log());
        }
    }

    /** As Redis: with a save point configured (the default), SIGTERM saves, and the next start loads it. */
    @Test
    void sigtermSavesTheDatasetAndTheNextStartLoadsIt(@TempDir Path dir) {
        try (LacewingProcess server = LacewingProcess.start("--threads", "1", "--dir", dir.toString())) {
            assertEquals("OK", server.cli("SET", "kept", "across restarts"));
            assertEquals(0, server.signal("TERM"), server.log());
            assertTrue(server.log().contains("Saving the final RDB snapshot before exiting."), server.log());
            assertTrue(server.log().contains("DB saved on disk"), server.log());
        }
        assertTrue(Files.exists(dir.resolve("dump.rdb")));
        try (LacewingProcess server = LacewingProcess.start("--threads", "1", "--dir", dir.toString())) {
            assertEquals("across restarts", server.cli("GET", "kept"));
            assertTrue(server.log().contains("DB loaded from disk: "), server.log());
        }
    }

    /** Bit 2 of SigIgn in /proc/PID/status is SIGINT. */
    private static boolean ignoresSigint(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseLong(line.substring("SigIgn:".length()).strip(), 16) & 2) != 0;
            }
        }
        return false;
    }

    @Test
    void runsOnTemurin25WithCompactObjectHeadersAndGenerationalZgc() {
        assumeTrue(Files.isExecutable(LacewingProcess.TEMURIN_25.resolve("bin/java")),
            "Temurin 25 is not installed at " + LacewingProcess.TEMURIN_25);
        try (LacewingProcess server = LacewingProcess.start(
            Map.of("JAVA_HOME", LacewingProcess.TEMURIN_25.toString()), List.of("--threads", "2"))) {
            assertEquals("OK", server.cli("SET", "k", "v"));
            assertEquals("v", server.cli("GET", "k"));
            List<String> jvmArguments = LacewingProcess.jvmArguments(server.pid());
            assertTrue(jvmArguments.contains("-XX:+UseCompactObjectHeaders"), jvmArguments.toString());
            assertTrue(jvmArguments.contains("-XX:+UseZGC"), jvmArguments.toString());
            assertFalse(server.log().contains("WARNING"), server.log());
            assertEquals(0, server.terminate(), server.log());
        }
    }

    @Test
    void aCollectorInLacewingJavaOptsReplacesZgc() {
        assumeTrue(Files.isExecutable(LacewingProcess.TEMURIN_25.resolve("bin/java")),
            "Temurin 25 is not installed at " + LacewingProcess.TEMURIN_25);
        try (LacewingProcess server = LacewingProcess.start(Map.of("JAVA_HOME", LacewingProcess.TEMURIN_25.toString(),
            "LACEWING_JAVA_OPTS", "-XX:+UseSerialGC"), List.of("--threads", "1", "--plugin-mode", "osgi"))) {
            List<String> jvmArguments = LacewingProcess.jvmArguments(server.pid());
            assertTrue(jvmArguments.contains("-XX:+UseSerialGC"), jvmArguments.toString());
            assertFalse(jvmArguments.contains("-XX:+UseZGC"), jvmArguments.toString());
            assertFalse(server.log().contains("WARNING"), server.log());
        }
    }

    private static String[] concat(String[] first, String... second) {
        String[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
