package dev.lacewing.it.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.LogCapture;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the log says about bad clients: a protocol error at verbose only (Redis's LL_VERBOSE), so
 * that at notice thousands of bad connections write nothing, and the client's bytes in any line
 * quoted and escaped, so that a client cannot write lines of its own into the log.
 *
 * <p>The log level is the JVM's (java.util.logging's "dev.lacewing" logger): each test puts it
 * back to notice, as every server start does.
 */
class ProtocolErrorLogTest {

    private final Logger lacewing = Logger.getLogger("dev.lacewing");
    private LogCapture capture;

    @BeforeEach
    void capture() {
        capture = LogCapture.attach("dev.lacewing");
    }

    @AfterEach
    void release() {
        capture.close();
        lacewing.setLevel(Level.INFO);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aProtocolErrorIsLoggedAtVerboseOnlyWithTheClientsBytesEscaped(Target target) throws Exception {
        String request = "*1\r\n" + marker(target) + "\n\u0001\"\\\u00ff\r\n";
        try (LacewingServer server = Servers.builder(target).set("requirepass", "secret").start()) {
            for (int i = 0; i < 20; i++) {
                sendBadRequest(server, request);
            }
            sendBadRequest(server, "*11\r\n");
            assertEquals(List.of(), messages("Protocol error"), "nothing at notice");

            try (RespClient admin = RespClient.connect(server.port())) {
                assertEquals("+OK\r\n", admin.call("AUTH", "secret"));
                assertEquals("+OK\r\n", admin.call("CONFIG", "SET", "loglevel", "verbose"));
            }
            sendBadRequest(server, request);
            String logged = awaitMessage(marker(target));
            assertTrue(logged.startsWith("Protocol error (expected $ but got something else) from client: id="),
                logged);
            assertTrue(logged.endsWith(". Query buffer during protocol error: \"" + marker(target)
                + "\\n\\x01\\\"\\\\\\xff\\r\\n\""), logged);
            assertOneLineOfPrintableAscii(logged);
            assertEquals(Level.FINE, recordOf(logged).getLevel(), "verbose: System.Logger DEBUG");

            sendBadRequest(server, "*11\r\n");
            assertTrue(messages("unauth mbulk count").get(0).endsWith(
                "Query buffer during protocol error: \"*11\\r\\n\""), messages("unauth mbulk count").toString());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theQueryBufferLimitLineQuotesTheBuffersFirstBytes(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).set("client-query-buffer-limit", "1mb").start();
             RespClient client = RespClient.connect(server.port())) {
            byte[] value = new byte[1024 * 1024];
            byte[] start = (marker(target) + "\r\n\u0007").getBytes(StandardCharsets.ISO_8859_1);
            System.arraycopy(start, 0, value, 0, start.length);
            try {
                client.send(RespClient.encode(List.of("SET".getBytes(StandardCharsets.US_ASCII),
                    "log:k".getBytes(StandardCharsets.US_ASCII), value)));
            } catch (RuntimeException e) {
                // closed while sending: the server refused the buffer
            }
            assertTrue(client.closedByServer(5000));
            String logged = awaitMessage("Closing client that reached max query buffer length");
            assertTrue(logged.contains("(qbuf initial bytes: \"" + marker(target) + "\\r\\n\\a\\x00\\x00"), logged);
            assertOneLineOfPrintableAscii(logged);
            assertEquals(Level.WARNING, recordOf(logged).getLevel(), "warning, as Redis logs it");
        }
    }

    private static String marker(Target target) {
        return "log-test-" + target.engine() + "-" + target.transport();
    }

    private static void sendBadRequest(LacewingServer server, String request) {
        try (RespClient client = RespClient.connect(server.port())) {
            client.send(request);
            assertTrue(client.readReplyText().startsWith("-ERR Protocol error: "));
            assertTrue(client.closedByServer(5000));
        }
    }

    private List<String> messages(String containing) {
        return capture.records().stream().map(LogRecord::getMessage).filter(m -> m != null && m.contains(containing)).toList();
    }

    private LogRecord recordOf(String message) {
        return capture.records().stream().filter(r -> message.equals(r.getMessage())).findFirst().orElseThrow();
    }

    /** The record is published before the reply is written; this only covers the threads' handover. */
    private String awaitMessage(String containing) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            List<String> found = messages(containing);
            if (!found.isEmpty()) {
                return found.get(0);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no log record containing " + containing + " in " + capture.records().size() + " records");
    }

    private static void assertOneLineOfPrintableAscii(String message) {
        assertTrue(message.chars().allMatch(c -> c >= 0x20 && c < 0x7f), message);
    }
}
