package dev.lacewing.it.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The limits a request meets on its way in, as Redis 7.0 sets them: before AUTH (requirepass set)
 * at most 10 arguments and bulks of 16 KiB, refused from the header; and client-query-buffer-limit,
 * which bounds what is not yet parsed into complete arguments, not a whole command.
 */
class RequestLimitsTest {

    private static final int MIB = 1024 * 1024;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void beforeAuthAMultibulkOverTenArgumentsOrABulkOverSixteenKibIsRefusedFromItsHeaderAndCloses(Target target) {
        try (LacewingServer server = Servers.builder(target).set("requirepass", "secret").start()) {
            String[][] cases = {
                {"*100\r\n", "-ERR Protocol error: unauthenticated multibulk length\r\n"},
                {"*11\r\n", "-ERR Protocol error: unauthenticated multibulk length\r\n"},
                {"*1\r\n$16385\r\n", "-ERR Protocol error: unauthenticated bulk length\r\n"},
                {"*1\r\n$100000000\r\n", "-ERR Protocol error: unauthenticated bulk length\r\n"},
                {"*2\r\n$4\r\nECHO\r\n$16385\r\n", "-ERR Protocol error: unauthenticated bulk length\r\n"},
            };
            for (String[] c : cases) {
                try (RespClient client = RespClient.connect(server.port())) {
                    client.send(c[0]);
                    assertEquals(c[1], client.readReplyText(), c[0]);
                    assertTrue(client.closedByServer(5000), c[0]);
                }
            }
            try (RespClient client = RespClient.connect(server.port())) {
                assertEquals("-NOAUTH Authentication required.\r\n",
                    client.call("ECHO", "e".repeat(16384)), "a bulk of exactly 16 KiB is read");
                List<String> tenArguments = new ArrayList<>(List.of("RPUSH", "limits:k"));
                for (int i = 0; i < 8; i++) {
                    tenArguments.add("v" + i);
                }
                assertEquals("-NOAUTH Authentication required.\r\n",
                    client.call(tenArguments.toArray(String[]::new)), "ten arguments are read");
                client.send("PING " + "x".repeat(60_000) + "\r\n");
                assertEquals("-NOAUTH Authentication required.\r\n", client.readReplyText(),
                    "an inline request is held only to the 64 KiB every client has, as in Redis");
                assertFalse(client.closedByServer(200));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void authLiftsTheLimitsForTheRequestsSentBehindItInTheSameWrite(Target target) {
        try (LacewingServer server = Servers.builder(target).set("requirepass", "secret").start();
             RespClient client = RespClient.connect(server.port())) {
            String value = "v".repeat(20_000);
            List<String> eleven = new ArrayList<>(List.of("RPUSH", "limits:after-auth"));
            for (int i = 0; i < 9; i++) {
                eleven.add(value);
            }
            client.send(concat(RespClient.encode(RespClient.toBytes("AUTH", "secret")),
                RespClient.encode(RespClient.toBytes(eleven.toArray(String[]::new)))));
            assertEquals("+OK\r\n", client.readReplyText());
            assertEquals(":9\r\n", client.readReplyText());
            assertEquals(":1\r\n", client.call("DEL", "limits:after-auth"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aConnectionIsLimitedOnlyWhileAPasswordIsSetAndItHasNotAuthenticated(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient before = RespClient.connect(server.port());
             RespClient admin = RespClient.connect(server.port())) {
            // A connect returns once the kernel has the connection, before the server accepted it
            // (on its accept thread) and made its client; a reply shows it was made.
            assertEquals("+PONG\r\n", before.call("PING"));
            assertEquals("+OK\r\n", admin.call("CONFIG", "SET", "requirepass", "secret"));
            String big = "b".repeat(20_000);
            assertEquals("$20000\r\n" + big + "\r\n", before.call("ECHO", big),
                "a connection made while no password was set counts as authenticated, as in Redis");
            try (RespClient unauthenticated = RespClient.connect(server.port())) {
                assertEquals("-NOAUTH Authentication required.\r\n", unauthenticated.call("PING"));
                assertEquals("+OK\r\n", admin.call("CONFIG", "SET", "requirepass", ""));
                assertEquals("+PONG\r\n", unauthenticated.call("PING"),
                    "once requirepass is cleared no connection needs AUTH (Redis's authRequired)");
                assertEquals("$20000\r\n" + big + "\r\n", unauthenticated.call("ECHO", big));
                assertEquals("+OK\r\n", admin.call("CONFIG", "SET", "requirepass", "secret"));
                assertEquals("-NOAUTH Authentication required.\r\n", unauthenticated.call("PING"));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theQueryBufferLimitBoundsEachArgumentNotTheWholeCommand(Target target) {
        try (LacewingServer server = Servers.builder(target).set("client-query-buffer-limit", "1mb").start();
             RespClient client = RespClient.connect(server.port())) {
            byte[] value = new byte[900 * 1024];
            Arrays.fill(value, (byte) 'x');
            List<byte[]> rpush = List.of(bytes("RPUSH"), bytes("limits:list"), value, value, value);
            assertEquals(":3\r\n", RespClient.text(client.callBytes(rpush)));
            assertEquals(":3\r\n", client.call("LLEN", "limits:list"));
            assertEquals("$921600\r\n", client.call("LINDEX", "limits:list", "2").substring(0, 9));
        }
    }

    /** Redis counts a bulk with its CRLF: MIB - 2 bytes fill a 1mb query buffer, one more passes it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aBulkWhoseBytesAndCrlfPassTheQueryBufferLimitClosesItsConnection(Target target) {
        try (LacewingServer server = Servers.builder(target).set("client-query-buffer-limit", "1mb").start();
             RespClient bystander = RespClient.connect(server.port())) {
            try (RespClient client = RespClient.connect(server.port())) {
                assertEquals("+OK\r\n", RespClient.text(client.callBytes(
                    List.of(bytes("SET"), bytes("limits:fits"), new byte[MIB - 2]))));
            }
            try (RespClient client = RespClient.connect(server.port())) {
                boolean reset = false;
                try {
                    client.send(RespClient.encode(List.of(bytes("SET"), bytes("limits:over"), new byte[MIB - 1])));
                } catch (RuntimeException e) {
                    reset = true;
                }
                assertTrue(reset || client.closedByServer(5000), "closed without a reply, as Redis closes it");
            }
            assertEquals(":" + (MIB - 2) + "\r\n", bystander.call("STRLEN", "limits:fits"));
            assertEquals(":0\r\n", bystander.call("EXISTS", "limits:over"));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
