package dev.lacewing.it.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every engine, threading strategy and transport of plugins/, chosen on the command line. */
@Tag("distribution")
class PluginChoiceTest {

    @ParameterizedTest(name = "--engine {0} --threading {1}")
    @CsvSource({
        "shared-nothing, per-core",
        "shared-nothing, single",
        "multithread, per-core",
        "multithread, single",
    })
    void eachEngineRunsUnderEachThreadingItSupports(String engine, String threading) {
        try (LacewingProcess server = LacewingProcess.start("--engine", engine, "--threading", threading,
            "--threads", "2")) {
            Map<String, String> info = server.info("server");
            assertEquals(engine, info.get("lacewing_engine"));
            assertEquals(threading, info.get("lacewing_threading"));
            assertEquals(threading.equals("single") ? "1" : "2", info.get("lacewing_threads"));
            assertKeysRoundTrip(server);
        }
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"auto", "nio", "epoll", "io_uring"})
    void eachTransportServesOrIsSkippedWithItsReason(String transport) {
        LacewingProcess server;
        try {
            server = LacewingProcess.start("--transport", transport, "--threads", "2");
        } catch (LacewingProcess.StartFailure failure) {
            String reason = failure.output.lines().filter(line -> line.contains("transport")).findFirst()
                .orElse(failure.output);
            Assumptions.assumeTrue(failure.exitCode != 1 || !(reason.contains("no transport named")
                || reason.contains("cannot run here")), () -> "transport " + transport + " is not loadable here: "
                + reason);
            throw failure;
        }
        try (server) {
            String chosen = server.info("server").get("lacewing_transport");
            if (transport.equals("auto")) {
                assertTrue(List.of("io_uring", "epoll", "nio").contains(chosen), chosen);
            } else {
                assertEquals(transport, chosen);
            }
            assertKeysRoundTrip(server);
        }
    }

    /** Keys spread over both shards / stripes: single-key and multi-key commands. */
    private static void assertKeysRoundTrip(LacewingProcess server) {
        assertEquals("OK", server.cli("MSET", "{a}1", "one", "{b}2", "two", "{c}3", "three", "{d}4", "four"));
        assertEquals("one\ntwo\nthree\nfour", server.cli("MGET", "{a}1", "{b}2", "{c}3", "{d}4"));
        assertEquals("OK", server.cli("SET", "counter", "41"));
        assertEquals("42", server.cli("INCR", "counter"));
        assertEquals("7", server.cli("APPEND", "{a}1", "-one"));
        assertEquals("one-one", server.cli("GETDEL", "{a}1"));
        assertEquals("", server.cli("GET", "{a}1"));
    }
}
