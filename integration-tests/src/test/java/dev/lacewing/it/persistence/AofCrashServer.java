package dev.lacewing.it.persistence;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A Lacewing server in a process of its own, for {@link AofCrashTest} to kill with SIGKILL:
 * {@code port engine transport storage dir appendfsync}, a server of that target as
 * {@link Servers#builder} makes it, appendonly yes, no RDB save points.
 */
public final class AofCrashServer {

    private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private AofCrashServer() {
    }

    /**
     * Starts this server for {@code target} on {@code dir} in a process of its own, its output in
     * {@code log}, and waits (at most 60 s) until it answers PING; {@code launcher} goes before the
     * java command (e.g. a shell setting a limit first), empty for none. Skips the calling test when
     * the target's transport cannot load here.
     */
    static Process launch(Target target, Path dir, int port, String appendfsync, Path log, List<String> launcher)
        throws Exception {
        Assumptions.assumeTrue(Servers.unavailability(target.transport()).isEmpty(), target.transport());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(java, "-cp", System.getProperty("java.class.path"), AofCrashServer.class.getName(),
            Integer.toString(port), target.engine(), target.transport(), target.storage(), dir.toString(), appendfsync));
        Process process = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
        long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("server exited: " + Files.readString(log));
            }
            try (RespClient client = RespClient.connect(port)) {
                if (client.call("PING").equals("+PONG\r\n")) {
                    return process;
                }
            } catch (RuntimeException notYet) {
                Thread.sleep(100);
            }
        }
        process.destroyForcibly();
        throw new AssertionError("server did not start in 60 s");
    }

    public static void main(String[] args) throws InterruptedException {
        LacewingServer server = Servers.builder(new Target(args[1], args[2], args[3]))
            .port(Integer.parseInt(args[0]))
            .set("dir", args[4])
            .set("appendonly", "yes")
            .set("appendfsync", args[5])
            .start();
        System.out.println("serving on " + server.port());
        server.awaitShutdown();
    }
}
