package dev.lacewing.it.clients;

import static org.junit.jupiter.api.Assumptions.abort;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Node project in src/test/node (ioredis at the version its package-lock.json pins), copied
 * to target/node-clients and installed there with {@code npm ci} once: again only when the lock
 * file changed. Where node or npm is missing, or the install fails, every caller is skipped with
 * that reason rather than passed. The install state is guarded by the class's lock.
 */
final class NodeClients {

    private static final Path SOURCE = Path.of(System.getProperty("lacewing.nodeClients", "src/test/node"));
    private static final Path INSTALL = Path.of(System.getProperty("lacewing.nodeClientsInstall",
        "target/node-clients"));
    private static final long INSTALL_SECONDS = 300;
    private static final long SCRIPT_SECONDS = 60;

    private static boolean attempted;
    private static String unavailable;

    private NodeClients() {
    }

    /** What a script printed on stdout and stderr, and its exit status. */
    record Run(int exitStatus, String stdout, String stderr) {

        boolean passed() {
            return exitStatus == 0 && stdout.startsWith("{\"ok\":true");
        }

        @Override
        public String toString() {
            return "exit status " + exitStatus + "\nstdout: " + stdout + "\nstderr: " + stderr;
        }
    }

    /**
     * Runs {@code node script port arguments...} in the installed project, at most a minute; the
     * script prints one JSON line and exits 0 only when its scenario passed.
     */
    static Run run(String script, int port, String... arguments) {
        Path directory = install();
        List<String> command = new ArrayList<>(List.of("node", script, Integer.toString(port)));
        command.addAll(List.of(arguments));
        try {
            ExternalClient.Execution execution = ExternalClient.run(command, directory, SCRIPT_SECONDS);
            return new Run(execution.exitStatus(), execution.stdout().strip(), execution.stderr().strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static synchronized Path install() {
        if (!attempted) {
            attempted = true;
            try {
                unavailable = installationProblem();
            } catch (IOException e) {
                unavailable = "the Node client project could not be installed: " + e;
            }
        }
        if (unavailable != null) {
            abort(unavailable);
        }
        return INSTALL;
    }

    /** Installs the project into {@link #INSTALL} unless it is there already; why it cannot, or null. */
    private static String installationProblem() throws IOException {
        for (String tool : List.of("node", "npm")) {
            try {
                ExternalClient.Execution version = ExternalClient.run(List.of(tool, "--version"), SOURCE, 60);
                if (version.exitStatus() != 0) {
                    return tool + " --version failed: " + version.stderr().strip();
                }
            } catch (IOException missing) {
                return tool + " is not installed (apt-get install nodejs npm): " + missing.getMessage();
            }
        }
        Path lock = SOURCE.resolve("package-lock.json");
        Path marker = INSTALL.resolve("node_modules/.installed-package-lock.json");
        boolean current = Files.exists(marker) && Files.mismatch(lock, marker) == -1;
        Files.createDirectories(INSTALL);
        try (Stream<Path> files = Files.list(SOURCE)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, INSTALL.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        if (current) {
            return null;
        }
        ExternalClient.Execution npm = ExternalClient.run(List.of("npm", "ci", "--prefix", INSTALL.toString(), "--prefer-offline",
            "--no-audit", "--no-fund"), INSTALL, INSTALL_SECONDS);
        if (npm.exitStatus() != 0) {
            return "npm ci failed (exit status " + npm.exitStatus() + "): " + tail(npm.stderr());
        }
        Files.copy(lock, marker, StandardCopyOption.REPLACE_EXISTING);
        return null;
    }

    private static String tail(String text) {
        String stripped = text.strip();
        return stripped.length() <= 2000 ? stripped : "..." + stripped.substring(stripped.length() - 2000);
    }
}
