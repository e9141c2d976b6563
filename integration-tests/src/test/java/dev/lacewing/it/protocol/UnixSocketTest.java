package dev.lacewing.it.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * unixsocket and unixsocketperm on every engine and transport (NIO through JDK 16's Unix domain
 * socket channels, epoll and io_uring through Netty's native ones), driven by redis-cli -s.
 */
class UnixSocketTest {

    private static String redisCli(Path socket, String... command) {
        List<String> line = new ArrayList<>(List.of("redis-cli", "-s", socket.toString()));
        line.addAll(List.of(command));
        try {
            Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("timed out: " + line);
            }
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void redisCliTalksOverTheSocketWhichHasItsPermissionsReplacesAStaleFileAndGoesAtClose(Target target)
            throws IOException {
        Path socket = Servers.freshDirectory().resolve("lacewing.sock");
        Files.writeString(socket, "left by a server that crashed");
        try (LacewingServer server = Servers.builder(target)
                .set("unixsocket", socket.toString())
                .set("unixsocketperm", "700")
                .start()) {
            assertEquals(0, server.port(), "port 0 with unixsocket turns TCP off");
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
            assertEquals("OK", redisCli(socket, "SET", "unix:key", "over a socket"));
            assertEquals("over a socket", redisCli(socket, "GET", "unix:key"));
            String clients = redisCli(socket, "CLIENT", "LIST");
            assertTrue(clients.contains("addr=" + socket + ":0 laddr=" + socket + ":0 "), clients);
        }
        assertFalse(Files.exists(socket), "the socket file is removed at close");
    }
}
