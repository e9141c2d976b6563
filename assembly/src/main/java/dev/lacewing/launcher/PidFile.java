package dev.lacewing.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code pidfile} setting: the process id written before the server answers its first request,
 * removed at exit or when start fails, as Redis's createPidFile and removePidFile. A file that cannot be written is a warning, not a
 * fatal error, as in Redis.
 *
 * <p>Thread rule: written by the main thread at start; removed once, by whichever thread closes
 * the server (under {@code Main.Running}'s lock).
 */
final class PidFile {

    private static final System.Logger LOG = System.getLogger(PidFile.class.getName());

    /** Null for no pidfile. */
    private final Path path;

    private PidFile(Path path) {
        this.path = path;
    }

    /** Writes the file {@code setting} names; an empty setting writes none. */
    static PidFile write(String setting) {
        if (setting.isEmpty()) {
            return new PidFile(null);
        }
        Path path = Path.of(setting).toAbsolutePath();
        try {
            Files.writeString(path, ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
            return new PidFile(path);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Failed to write PID file: " + e.getMessage());
            return new PidFile(null);
        }
    }

    void remove() {
        if (path == null) {
            return;
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Failed to remove PID file: " + e.getMessage());
        }
    }
}
