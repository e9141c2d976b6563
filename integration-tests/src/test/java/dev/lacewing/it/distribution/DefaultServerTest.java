package dev.lacewing.it.distribution;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The distribution started with no settings but two threads: what a first user sees. */
@Tag("distribution")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DefaultServerTest {

    private LacewingProcess server;

    @BeforeAll
    void start() {
        server = LacewingProcess.start(Map.of("LACEWING_JAVA_OPTS", "-Xmx512m -Dlacewing.test=default"),
            List.of("--threads", "2"));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void redisCliPingSetAndGetWork() {
        assertEquals("PONG", server.cli("PING"));
        assertEquals("OK", server.cli("SET", "greeting", "hello world"));
        assertEquals("hello world", server.cli("GET", "greeting"));
        assertEquals("", server.cli("GET", "missing"));
    }

    @Test
    void theJvmGetsTheOptionsOfLacewingJavaOpts() {
        List<String> jvmArguments = LacewingProcess.jvmArguments(server.pid());
        assertTrue(jvmArguments.contains("-Xmx512m") && jvmArguments.contains("-Dlacewing.test=default"),
            jvmArguments.toString());
    }

    @Test
    void infoServerReportsTheChosenPluginsAndTheProcess() {
        Map<String, String> info = server.info("server");
        assertAll(
            () -> assertEquals("0.1.0", info.get("lacewing_version")),
            () -> assertEquals("shared-nothing", info.get("lacewing_engine")),
            () -> assertTrue(List.of("io_uring", "epoll", "nio").contains(info.get("lacewing_transport")),
                info.toString()),
            () -> assertEquals("per-core", info.get("lacewing_threading")),
            () -> assertEquals("2", info.get("lacewing_threads")),
            () -> assertEquals("jpms", info.get("lacewing_plugin_mode")),
            () -> assertEquals("7.0.15", info.get("redis_version")),
            () -> assertEquals(Integer.toString(server.port()), info.get("tcp_port")),
            () -> assertEquals(Long.toString(server.pid()), info.get("process_id")),
            () -> assertTrue(Long.parseLong(info.get("uptime_in_seconds")) >= 0, info.toString()));
    }

    /** As Redis 7's default (enable-module-command no), before the plugin mode is considered. */
    @Test
    void moduleLoadIsRefusedAsRedisRefusesItByDefault() {
        String reply = server.cli("MODULE", "LOAD", LacewingProcess.TEST_PLUGIN.toString());
        assertEquals("ERR MODULE command not allowed. If the enable-module-command option is set to \"local\", you "
            + "can run it from a local connection, otherwise you need to set this option in the configuration file, "
            + "and then restart the server.", reply);
        assertFalse(server.log().contains("needs plugin-mode osgi"), server.log());
        assertEquals("", server.cli("MODULE", "LIST"));
    }

    @Test
    void redisBenchmarkSetAndGetCompleteWithoutErrors() {
        String output = server.benchmark("-t", "set,get", "-n", "20000", "-P", "16", "-q");
        assertTrue(output.contains("SET: ") && output.contains("GET: "), output);
        assertTrue(output.contains("requests per second"), output);
        assertFalse(output.contains("ERR") || output.toLowerCase().contains("error"), output);
        assertEquals("PONG", server.cli("PING"));
    }
}
