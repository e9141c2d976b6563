package dev.lacewing.it.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CONFIG SET port at runtime, as Redis 7.0's changeListenPort: the new port is bound before the old
 * listener closes, a port that cannot be bound fails the CONFIG SET and keeps the old one, 0 closes
 * TCP; connections already open stay. On every engine and transport.
 */
class ListenPortTest {

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether 127.0.0.1:port takes connections. */
    static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            return true;
        } catch (ConnectException e) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether the port stops taking connections within a few seconds: a listener on another event
     * loop closes just after the CONFIG SET's reply.
     */
    static boolean stopsAccepting(int port) throws InterruptedException {
        for (int attempt = 0; attempt < 100; attempt++) {
            if (!accepts(port)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void configSetPortMovesTheListenerKeepsOpenClientsAndRefusesABusyPort(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient open = RespClient.connect(server.port());
             ServerSocket busy = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            int first = server.port();
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'port') - Unable to listen on this "
                + "port. Check server logs.\r\n", open.call("CONFIG", "SET", "port", Integer.toString(busy.getLocalPort())));
            assertEquals(first, server.port());
            try (RespClient again = RespClient.connect(first)) {
                assertEquals("+PONG\r\n", again.call("PING"), "the old listener stays when the new port is busy");
            }

            int second = freePort();
            assertEquals("+OK\r\n", open.call("CONFIG", "SET", "port", Integer.toString(second)));
            assertEquals(second, server.port());
            try (RespClient moved = RespClient.connect(second)) {
                assertEquals("+PONG\r\n", moved.call("PING"));
                assertEquals("*2\r\n$4\r\nport\r\n$" + Integer.toString(second).length() + "\r\n" + second + "\r\n",
                    moved.call("CONFIG", "GET", "port"));
                assertTrue(moved.call("INFO", "server").contains("tcp_port:" + second + "\r\n"));
            }
            assertTrue(stopsAccepting(first), "the old port closes");
            assertEquals("+PONG\r\n", open.call("PING"), "a client of the old port stays connected");

            assertEquals("+OK\r\n", open.call("CONFIG", "SET", "port", "0"));
            assertTrue(stopsAccepting(second), "port 0 closes TCP");
            assertEquals(0, server.port());
            assertEquals("+PONG\r\n", open.call("PING"));
        }
    }
}
