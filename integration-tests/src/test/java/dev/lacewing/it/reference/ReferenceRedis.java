package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.it.resp.RespClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's real redis-server, started on a free loopback port without persistence, as the
 * reference Lacewing's replies are compared against. Tests are skipped when it is not installed.
 */
public final class ReferenceRedis implements AutoCloseable {

    static final Path EXECUTABLE = Path.of("/usr/bin/redis-server");

    private final Process process;
    private final int port;

    private ReferenceRedis(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts one and waits (at most 10 s) until it answers PING; skips the caller when absent. */
    public static ReferenceRedis start() throws IOException, InterruptedException {
        return start(new String[0]);
    }

    /** The same, with more options after the default ones ({@code --dir}, {@code --dbfilename}). */
    public static ReferenceRedis start(String... options) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(EXECUTABLE), EXECUTABLE + " is not installed: apt-get install redis-server");
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(EXECUTABLE.toString(), "--port", Integer.toString(port),
            "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", ""));
        command.addAll(List.of(options));
        Process process = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (RespClient client = RespClient.connect(port)) {
                if (client.call("PING").equals("+PONG\r\n")) {
                    return new ReferenceRedis(process, port);
                }
            } catch (RuntimeException notYet) {
                Thread.sleep(50);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("redis-server did not start on port " + port);
    }

    public int port() {
        return port;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
