package dev.lacewing.it.clients;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A client program in another process (node with ioredis, python3 with redis-py), run to its end
 * with its output in files, so that a chatty program never blocks on a full pipe, and killed after
 * a time limit. Holds no state; any thread may call it.
 */
final class ExternalClient {

    private ExternalClient() {
    }

    /** What a program printed on stdout and stderr, and its exit status (-1 when it was killed). */
    record Execution(int exitStatus, String stdout, String stderr) {

        @Override
        public String toString() {
            return "exit status " + exitStatus + "\nstdout: " + stdout.strip() + "\nstderr: " + stderr.strip();
        }
    }

    /**
     * Runs {@code command} in {@code directory} with no input, killed after {@code seconds}; its
     * stderr then starts with that. Fails with an IOException where the program cannot be started
     * (not installed) or the thread is interrupted while it runs.
     */
    static Execution run(List<String> command, Path directory, long seconds) throws IOException {
        Path stdout = Files.createTempFile("external-client", ".out");
        Path stderr = Files.createTempFile("external-client", ".err");
        try {
            Process process = new ProcessBuilder(command).directory(directory.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            boolean exited;
            try {
                exited = process.waitFor(seconds, TimeUnit.SECONDS);
                if (!exited) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while running " + command, e);
            }
            String killed = exited ? "" : "killed after " + seconds + " s\n";
            return new Execution(exited ? process.exitValue() : -1, Files.readString(stdout, StandardCharsets.UTF_8),
                killed + Files.readString(stderr, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }
}
