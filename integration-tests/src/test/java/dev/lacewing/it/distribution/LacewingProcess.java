package dev.lacewing.it.distribution;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A Lacewing server running as a process of the unpacked distribution
 * ({@code assembly/target/lacewing/bin/lacewing-server}), on a free loopback port, with its
 * output in a log file; and redis-cli / redis-benchmark pointed at it. Every wait is bounded.
 */
final class LacewingProcess implements AutoCloseable {

    static final Path DISTRIBUTION = Path.of(System.getProperty("lacewing.distribution", "../assembly/target/lacewing"))
        .toAbsolutePath().normalize();
    static final Path SERVER_SCRIPT = DISTRIBUTION.resolve("bin/lacewing-server");
    static final Path TEST_PLUGIN = Path.of(System.getProperty("lacewing.testPlugin",
        "../test-plugin/target/lacewing-test-plugin-0.1.0-SNAPSHOT.jar")).toAbsolutePath().normalize();
    static final Path REDIS_CLI = Path.of("/usr/bin/redis-cli");
    static final Path REDIS_BENCHMARK = Path.of("/usr/bin/redis-benchmark");
    static final Path TEMURIN_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

    /** JVM start, option probes and plugin loading on a busy two-core machine stay well within this. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(60);

    /** Servers still running; killed if the test JVM exits without closing them. */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly),
            "kill-lacewing-servers"));
    }

    private final Process process;
    private final int port;
    private final Path log;

    private LacewingProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Why a server did not come up: its exit status (or -1 when it hung) and everything it printed. */
    static final class StartFailure extends RuntimeException {

        final int exitCode;
        final String output;

        StartFailure(int exitCode, String output) {
            super("server did not start (exit " + exitCode + "):\n" + output);
            this.exitCode = exitCode;
            this.output = output;
        }
    }

    /** {@code bin/lacewing-server args... --port <free>}, once it answers PING. */
    static LacewingProcess start(String... args) {
        return start(Map.of(), List.of(args));
    }

    /** The same, with extra environment variables (JAVA_HOME, LACEWING_JAVA_OPTS). */
    static LacewingProcess start(Map<String, String> environment, List<String> args) {
        int port = freePort();
        List<String> command = new ArrayList<>();
        command.add(SERVER_SCRIPT.toString());
        command.addAll(args);
        command.add("--port");
        command.add(Integer.toString(port));
        return startCommand(command, environment, port);
    }

    /** Any command that starts a server on {@code port}, once it answers PING. */
    static LacewingProcess startCommand(List<String> command, Map<String, String> environment, int port) {
        assumeTrue(Files.isExecutable(SERVER_SCRIPT), "the distribution is not built: " + SERVER_SCRIPT);
        Path log = createLog();
        Process process = launch(command, environment, log);
        LacewingProcess server = new LacewingProcess(process, port, log);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                String output = server.log();
                server.close();
                throw new StartFailure(process.exitValue(), output);
            }
            if (server.answersPing()) {
                return server;
            }
            sleep(100);
        }
        String output = server.log();
        server.close();
        throw new StartFailure(-1, output);
    }

    /** Runs {@code bin/lacewing-server args...} expecting it to stop by itself (a start-up error). */
    static Exited run(String... args) {
        assumeTrue(Files.isExecutable(SERVER_SCRIPT), "the distribution is not built: " + SERVER_SCRIPT);
        List<String> command = new ArrayList<>(List.of(SERVER_SCRIPT.toString()));
        command.addAll(List.of(args));
        Path log = createLog();
        Process process = launch(command, Map.of(), log);
        int code = waitFor(process, START_TIMEOUT);
        String output = read(log);
        deleteLog(log);
        return new Exited(code, output);
    }

    /** @param code the exit status, -1 when it had to be killed  @param output what it printed */
    record Exited(int code, String output) {
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** The command-line arguments of a running JVM (from /proc), empty if unknown. */
    static List<String> jvmArguments(long pid) {
        return ProcessHandle.of(pid).flatMap(process -> process.info().arguments()).map(List::of).orElse(List.of());
    }

    /** What the server has printed so far. */
    String log() {
        return read(log);
    }

    /**
     * The log once it holds {@code text}, or as it is after {@link #START_TIMEOUT}: the server opens
     * its port before it logs its ready line, so a client that got PONG may read the log too early.
     */
    String awaitLog(String text) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String output = log();
        while (!output.contains(text) && System.nanoTime() < deadline) {
            sleep(50);
            output = log();
        }
        return output;
    }

    /** redis-cli's output (raw, as when piped) for one command; the test is skipped without redis-cli. */
    String cli(String... args) {
        assumeTrue(Files.isExecutable(REDIS_CLI), "redis-cli is not installed (apt-get install redis-tools)");
        List<String> command = new ArrayList<>(List.of(REDIS_CLI.toString(), "-h", "127.0.0.1", "-p",
            Integer.toString(port)));
        command.addAll(List.of(args));
        return tool(command).strip();
    }

    /** INFO section as name -> value; {@code cliOptions} go before the command (-a password). */
    Map<String, String> info(String section, String... cliOptions) {
        List<String> args = new ArrayList<>(List.of(cliOptions));
        args.add("INFO");
        args.add(section);
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : cli(args.toArray(String[]::new)).split("\\R")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }

    /** redis-benchmark's output for {@code args} against this server; skipped without redis-benchmark. */
    String benchmark(String... args) {
        assumeTrue(Files.isExecutable(REDIS_BENCHMARK), "redis-benchmark is not installed (apt-get install redis-tools)");
        List<String> command = new ArrayList<>(List.of(REDIS_BENCHMARK.toString(), "-h", "127.0.0.1", "-p",
            Integer.toString(port)));
        command.addAll(List.of(args));
        return tool(command);
    }

    /** Waits for the process to end by itself; its exit status, -1 when it had to be killed. */
    int awaitExit() {
        return waitFor(process, EXIT_TIMEOUT);
    }

    /** SIGTERM, then the exit status. */
    int terminate() {
        process.destroy();
        return awaitExit();
    }

    /** Sends a signal by name (TERM, INT) with kill(1), then the exit status. */
    int signal(String name) {
        tool(List.of("kill", "-" + name, Long.toString(process.pid())));
        return awaitExit();
    }

    /** Stops the server if it still runs (SIGTERM, so that it cleans up; then SIGKILL) and removes its log. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            waitFor(process, EXIT_TIMEOUT);
        }
        deleteLog(log);
    }

    private boolean answersPing() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = in.readNBytes(7);
            // An error (NOAUTH when requirepass is set) also says the server is up.
            return reply.length > 0 && (reply[0] == '+' || reply[0] == '-');
        } catch (IOException e) {
            return false;
        }
    }

    /** Runs a client tool to its end; its output, standard error included. */
    static String tool(List<String> command) {
        try {
            Process tool = new ProcessBuilder(command).redirectErrorStream(true).start();
            tool.getOutputStream().close();
            byte[][] output = new byte[1][];
            Thread reader = new Thread(() -> {
                try {
                    output[0] = tool.getInputStream().readAllBytes();
                } catch (IOException e) {
                    output[0] = new byte[0];
                }
            });
            reader.start();
            if (!tool.waitFor(TOOL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                tool.destroyForcibly();
                fail(command + " did not finish within " + TOOL_TIMEOUT);
            }
            reader.join(TOOL_TIMEOUT.toMillis());
            return new String(output[0], StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static Process launch(List<String> command, Map<String, String> environment, Path log) {
        Path workingDirectory;
        try {
            // Its own working directory, as a fresh install: the dump.rdb a stop saves (default save
            // points) must not be loaded by the next server a test starts.
            workingDirectory = Files.createTempDirectory("lacewing-process");
        } catch (IOException e) {
            throw new AssertionError("cannot create a working directory", e);
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(log.toFile()).directory(workingDirectory.toFile());
        builder.environment().putAll(environment);
        try {
            Process process = builder.start();
            RUNNING.add(process);
            process.onExit().thenRun(() -> {
                RUNNING.remove(process);
                deleteTree(workingDirectory);
            });
            process.getOutputStream().close();
            return process;
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command, e);
        }
    }

    private static void deleteTree(Path directory) {
        try (var paths = Files.walk(directory)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // A temporary directory left behind harms nothing.
        }
    }

    private static int waitFor(Process process, Duration timeout) {
        try {
            if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return process.exitValue();
            }
            process.destroyForcibly();
            process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return -1;
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new AssertionError("no free port", e);
        }
    }

    private static void deleteLog(Path log) {
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // a leftover temp file is harmless
        }
    }

    private static Path createLog() {
        try {
            return Files.createTempFile("lacewing-server-", ".log");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
