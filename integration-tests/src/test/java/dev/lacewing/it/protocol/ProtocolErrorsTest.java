package dev.lacewing.it.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed requests over raw sockets: each closes only its own connection, and early, from the header. */
class ProtocolErrorsTest {

    private static int port(Target target) {
        return Servers.server(target).port();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aMultibulkCountOverOneMebiIsRefusedFromTheHeaderAndCloses(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            client.send("*1048577\r\n");
            assertEquals("-ERR Protocol error: invalid multibulk length\r\n", client.readReplyText());
            assertTrue(client.closedByServer(5000));
        }
        try (RespClient client = RespClient.connect(port(target))) {
            client.send("*1048576\r\n");
            assertTrue(!client.closedByServer(200), "a count of exactly 1024*1024 waits for its arguments");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aBulkLengthOverProtoMaxBulkLenIsRefusedBeforeItsBytesArrive(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            long started = System.nanoTime();
            client.send("*1\r\n$536870913\r\n");
            assertEquals("-ERR Protocol error: invalid bulk length\r\n", client.readReplyText());
            assertTrue(client.closedByServer(5000));
            assertTrue(System.nanoTime() - started < 5_000_000_000L);
        }
        try (RespClient client = RespClient.connect(port(target))) {
            assertEquals("+PONG\r\n", client.call("PING"), "the server is unharmed");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void malformedRequestsGetTheirProtocolErrorAndClose(Target target) {
        String[][] cases = {
            {"*abc\r\n", "-ERR Protocol error: invalid multibulk length\r\n"},
            {"*1\r\nfoo\r\n", "-ERR Protocol error: expected '$', got 'f'\r\n"},
            {"*1\r\n$x\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
            {"*1\r\n$-1\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
            {"ECHO \"abc\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n"},
            {"ECHO 'abc\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n"},
            {"ECHO \"a\"b\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n"},
        };
        for (String[] c : cases) {
            try (RespClient client = RespClient.connect(port(target))) {
                client.send(c[0]);
                assertEquals(c[1], client.readReplyText(), RespClient.escape(c[0].getBytes()));
                assertTrue(client.closedByServer(5000), RespClient.escape(c[0].getBytes()));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void anInlineLineOverSixtyFourKibWithoutNewlineIsRefused(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            client.send("ECHO " + "x".repeat(70 * 1024));
            assertEquals("-ERR Protocol error: too big inline request\r\n", client.readReplyText());
            assertTrue(client.closedByServer(5000));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void inlineCommandsSplitOnBlanksAndUnquote(Target target) {
        String key = "proto:inline:" + target;
        try (RespClient client = RespClient.connect(port(target))) {
            client.send("SET \"" + key + " a\" \"v\\x41\\n\"\r\nGET \"" + key + " a\"\r\nECHO 'it\\'s'\r\n\r\nPING\n");
            assertEquals("+OK\r\n", client.readReplyText());
            assertEquals("$3\r\nvA\n\r\n", client.readReplyText());
            assertEquals("$4\r\nit's\r\n", client.readReplyText());
            assertEquals("+PONG\r\n", client.readReplyText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aProtocolErrorClosesOnlyItsConnectionAndOthersKeepTheirData(Target target) throws Exception {
        String key = "proto:survivor:" + target;
        try (RespClient survivor = RespClient.connect(port(target))) {
            assertEquals("+OK\r\n", survivor.call("SET", key, "intact"));
            // A request the survivor has half sent while another client fails.
            survivor.send("*3\r\n$3\r\nSET\r\n$" + (key.length() + 2) + "\r\n" + key + ":2\r\n$2\r\n");
            try (RespClient offender = RespClient.connect(port(target))) {
                offender.send("*1\r\n$abc\r\n");
                assertEquals("-ERR Protocol error: invalid bulk length\r\n", offender.readReplyText());
                assertTrue(offender.closedByServer(5000));
            }
            survivor.send("ok\r\n");
            assertEquals("+OK\r\n", survivor.readReplyText());
            assertEquals("$6\r\nintact\r\n", survivor.call("GET", key));
            assertEquals("$2\r\nok\r\n", survivor.call("GET", key + ":2"));
            assertEquals("$2\r\nok\r\n", survivor.call("GETDEL", key + ":2"));
            assertEquals("$6\r\nintact\r\n", survivor.call("GETDEL", key));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aClientOverTheQueryBufferLimitIsClosedAndOthersAreNot(Target target) {
        try (LacewingServer server = Servers.builder(target).set("client-query-buffer-limit", "1mb").start();
             RespClient bystander = RespClient.connect(server.port());
             RespClient greedy = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", bystander.call("SET", "k", "v"));
            greedy.send("*2\r\n$4\r\nECHO\r\n$4000000\r\n");
            byte[] chunk = new byte[64 * 1024];
            boolean closed = false;
            for (int i = 0; i < 40 && !closed; i++) {
                try {
                    greedy.send(chunk);
                } catch (RuntimeException e) {
                    closed = true;
                }
            }
            assertTrue(closed || greedy.closedByServer(5000), "closed once its buffer passed 1mb");
            assertEquals("$1\r\nv\r\n", bystander.call("GET", "k"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void protectedModeAcceptsLoopbackClientsWithoutAPassword(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            assertEquals("*2\r\n$14\r\nprotected-mode\r\n$3\r\nyes\r\n", client.call("CONFIG", "GET", "protected-mode"));
            assertEquals("+PONG\r\n", client.call("PING"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "protected-mode", "no"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "protected-mode", "yes"));
        }
    }

    /**
     * A client that connects to one of this machine's own non-loopback addresses arrives from that
     * address, not from 127.0.0.1, so protected mode can be exercised without leaving the host:
     * refused while no password is set, served once one is or once protected mode is off.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void protectedModeRefusesClientsFromOtherInterfacesWhenNoPasswordIsSet(Target target) throws Exception {
        String address = Servers.nonLoopbackAddress();
        assumeTrue(address != null, "this machine has no non-loopback IPv4 address to connect from");
        try (LacewingServer server = Servers.builder(target).set("bind", address + " 127.0.0.1").start()) {
            try (RespClient outsider = RespClient.connect(address, server.port())) {
                String reply = outsider.call("PING");
                assertTrue(reply.startsWith("-DENIED ") && reply.contains("protected mode"), reply);
                assertTrue(outsider.closedByServer(5000), "refused connection closed");
            }
            try (RespClient local = RespClient.connect(server.port())) {
                assertEquals("+PONG\r\n", local.call("PING"));
                assertEquals("+OK\r\n", local.call("CONFIG", "SET", "requirepass", "secret"));
            }
            try (RespClient outsider = RespClient.connect(address, server.port())) {
                assertEquals("-NOAUTH Authentication required.\r\n", outsider.call("PING"));
                assertEquals("+OK\r\n", outsider.call("AUTH", "secret"));
                assertEquals("+OK\r\n", outsider.call("CONFIG", "SET", "requirepass", ""));
            }
            try (RespClient outsider = RespClient.connect(address, server.port())) {
                assertTrue(outsider.call("PING").startsWith("-DENIED "), "refused again without a password");
            }
            try (RespClient local = RespClient.connect(server.port())) {
                assertEquals("+OK\r\n", local.call("CONFIG", "SET", "protected-mode", "no"));
            }
            try (RespClient outsider = RespClient.connect(address, server.port())) {
                assertEquals("+PONG\r\n", outsider.call("PING"));
            }
        }
    }
}
