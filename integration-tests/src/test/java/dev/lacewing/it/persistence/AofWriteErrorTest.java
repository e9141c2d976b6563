package dev.lacewing.it.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A real AOF write error, on every engine and transport: the server runs in a process of its own
 * under a file size limit ({@code ulimit -f}; the JVM ignores SIGXFSZ, so a write past the limit
 * fails with EFBIG, "File too large"), with {@code appendfsync everysec}, so the error refuses
 * writes instead of stopping the server. Redis's processCommand then answers MISCONF to writes and
 * PING, to writes queued in MULTI (the transaction aborts at EXEC), and to an EXEC whose queued
 * writes were accepted before the error, and to a script's first write; reads, queued or not,
 * still work.
 */
class AofWriteErrorTest {

    /** The size limit in dash's 512-byte blocks: 512 KiB, several times the empty AOF's start. */
    private static final int FILE_SIZE_BLOCKS = 1024;
    private static final String MISCONF = "-MISCONF Errors writing to the AOF file: File too large\r\n";

    private static Process start(Target target, Path dir, int port) throws Exception {
        return AofCrashServer.launch(target, dir, port, "everysec", dir.resolve("server.log"),
            List.of("/bin/sh", "-c", "ulimit -f " + FILE_SIZE_BLOCKS + " && exec \"$@\"", "sh"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void writesQueuedOrExecutedAreRefusedWhileTheAofCannotBeWritten(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        int port = freePort();
        Process process = start(target, dir, port);
        try (RespClient client = RespClient.connect(port);
             RespClient transaction = RespClient.connect(port)) {
            assertEquals("+OK\r\n", client.call("SET", "k", "v"));
            assertEquals("+OK\r\n", transaction.call("MULTI"));
            assertEquals("+QUEUED\r\n", transaction.call("SET", "q", "1"));
            assertEquals("+QUEUED\r\n", transaction.call("GET", "k"));

            // Past the limit within 1 MiB: each SET's reply comes after its pass wrote the file.
            String value = "x".repeat(4096);
            String reply = "";
            for (int i = 0; i < 256 && !reply.startsWith("-"); i++) {
                reply = client.call("SET", "fill:" + i, value);
            }
            assertEquals(MISCONF, reply);
            assertEquals(MISCONF, client.call("PING"));
            assertEquals("$1\r\nv\r\n", client.call("GET", "k"));

            assertEquals("-EXECABORT Transaction discarded because of: " + MISCONF.substring(1),
                transaction.call("EXEC"));
            assertEquals("+OK\r\n", transaction.call("MULTI"));
            assertEquals(MISCONF, transaction.call("SET", "q", "1"));
            assertEquals(MISCONF, transaction.call("PING"));
            assertEquals("+QUEUED\r\n", transaction.call("GET", "k"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", transaction.call("EXEC"));
            assertEquals("+OK\r\n", transaction.call("MULTI"));
            assertEquals("+QUEUED\r\n", transaction.call("GET", "k"));
            assertEquals("*1\r\n$1\r\nv\r\n", transaction.call("EXEC"));
            assertEquals("$-1\r\n", client.call("GET", "q"));
            // Scripts: the first write raises MISCONF; a shebang script that may write is refused whole.
            assertEquals(MISCONF.substring(0, MISCONF.length() - 2)
                + " script: 7822ea6ad7bd20a3f95a07458fc7088142fcfc19, on @user_script:1.\r\n",
                client.call("EVAL", "return redis.call('set','k','w')", "0"));
            assertEquals("$1\r\nv\r\n", client.call("EVAL", "return redis.call('get','k')", "0"));
            assertEquals(MISCONF, client.call("EVAL", "#!lua\nreturn redis.call('get','k')", "0"));
            assertTrue(client.call("INFO", "persistence").contains("aof_last_write_status:err\r\n"));
        } finally {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
