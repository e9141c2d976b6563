package dev.lacewing.it.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/lacewing-server runs one JVM when it has started with the same java, environment, maxmemory
 * arguments and config files before: the options JvmOptions chose are cached. The JVMs are counted through a
 * JAVA_HOME whose bin/java logs each invocation and then becomes the real java.
 */
@Tag("distribution")
class WarmStartTest {

    private static final String SERVER_MAIN = "dev.lacewing.launcher.Main";

    @Test
    void aSecondStartWithTheSameInputsRunsOneJvm(@TempDir Path directory) throws IOException {
        Path invocations = directory.resolve("invocations.log");
        Map<String, String> environment = Map.of("JAVA_HOME", countingJavaHome(directory, invocations).toString());
        int port = LacewingProcess.freePort();

        List<String> cold = javaStarts(invocations, () -> startAndStop(environment, port, "--threads", "1"));
        assertEquals(2, cold.size(), cold.toString());
        List<String> warm = javaStarts(invocations, () -> startAndStop(environment, port, "--threads", "1"));
        assertEquals(1, warm.size(), warm.toString());
        assertTrue(warm.get(0).contains(SERVER_MAIN), warm.toString());
    }

    /** Tests start many servers, each on a port the OS gave: only maxmemory and the config file choose options. */
    @Test
    void anotherPortOrThreadCountRunsOneJvmAndAnotherMaxmemoryTwo(@TempDir Path directory) throws IOException {
        Path invocations = directory.resolve("invocations.log");
        Map<String, String> environment = Map.of("JAVA_HOME", countingJavaHome(directory, invocations).toString());

        assertEquals(2, javaStarts(invocations, () -> startAndStop(environment, LacewingProcess.freePort(), "--threads", "1")).size());
        List<String> otherPort = javaStarts(invocations, () -> startAndStop(environment, LacewingProcess.freePort(), "--threads", "2"));
        assertEquals(1, otherPort.size(), otherPort.toString());
        List<String> otherMaxmemory = javaStarts(invocations,
            () -> startAndStop(environment, LacewingProcess.freePort(), "--threads", "2", "--maxmemory", "100mb"));
        assertEquals(2, otherMaxmemory.size(), otherMaxmemory.toString());
        assertTrue(otherMaxmemory.get(1).contains("-Xmx"), otherMaxmemory.toString());
    }

    @Test
    void aChangedConfigFileOrIncludeIsReadAgain(@TempDir Path directory) throws IOException {
        Path invocations = directory.resolve("invocations.log");
        Map<String, String> environment = Map.of("JAVA_HOME", countingJavaHome(directory, invocations).toString());
        int port = LacewingProcess.freePort();
        Path memory = Files.writeString(directory.resolve("memory.conf"), "maxmemory 100mb\n");
        Path conf = Files.writeString(directory.resolve("lacewing.conf"), "threads 1\ninclude " + memory + "\n");

        assertEquals(2, javaStarts(invocations, () -> assertHeap(environment, port, conf, "-Xmx147m", "-Xmx162m")).size());
        assertEquals(1, javaStarts(invocations, () -> assertHeap(environment, port, conf, "-Xmx147m", "-Xmx162m")).size());
        Files.writeString(memory, "maxmemory 200mb\n");
        // 200 MiB of keyspace: 230 MiB (G1) or 260 MiB (ZGC) plus 32 MiB
        assertEquals(2, javaStarts(invocations, () -> assertHeap(environment, port, conf, "-Xmx262m", "-Xmx292m")).size());
        assertEquals(1, javaStarts(invocations, () -> assertHeap(environment, port, conf, "-Xmx262m", "-Xmx292m")).size());
    }

    @Test
    void onJdk17AFirstStartWritesAClassSharingArchiveThatLaterStartsMap(@TempDir Path directory) throws IOException {
        assumeTrue(Runtime.version().feature() <= 18, "AppCDS is used on JDK 17 and 18 only");
        Path invocations = directory.resolve("invocations.log");
        Map<String, String> environment = Map.of("JAVA_HOME", countingJavaHome(directory, invocations).toString());
        int port = LacewingProcess.freePort();

        List<String> first = javaStarts(invocations, () -> startAndStop(environment, port, "--threads", "1"));
        String server = first.get(first.size() - 1);
        Matcher dump = Pattern.compile("-XX:ArchiveClassesAtExit=(\\S+\\.jsa)").matcher(server);
        assertTrue(dump.find(), server);
        Path archive = Path.of(dump.group(1));
        assertTrue(Files.size(archive) > 0, "written at exit: " + archive);

        List<String> second = javaStarts(invocations, () -> startAndStop(environment, port, "--threads", "1"));
        assertEquals(1, second.size(), second.toString());
        assertTrue(second.get(0).contains("-XX:SharedArchiveFile=" + archive), second.toString());
    }

    private static void startAndStop(Map<String, String> environment, int port, String... args) {
        start(environment, port, args).close();
    }

    private static void assertHeap(Map<String, String> environment, int port, Path conf, String g1, String zgc) {
        try (LacewingProcess server = start(environment, port, conf.toString())) {
            String flags = server.info("server").get("lacewing_jvm_flags");
            assertTrue(flags.endsWith(" " + g1) || flags.endsWith(" " + zgc), flags);
        }
    }

    private static LacewingProcess start(Map<String, String> environment, int port, String... args) {
        List<String> command = new ArrayList<>(List.of(LacewingProcess.SERVER_SCRIPT.toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("--port", Integer.toString(port), "--save", ""));
        return LacewingProcess.startCommand(command, environment, port);
    }

    /** The java command lines {@code start} ran, one an entry. */
    private static List<String> javaStarts(Path invocations, Runnable start) throws IOException {
        long before = Files.exists(invocations) ? Files.readAllLines(invocations).size() : 0;
        start.run();
        List<String> lines = Files.readAllLines(invocations);
        return lines.subList((int) before, lines.size());
    }

    /** A JAVA_HOME whose bin/java appends its arguments to {@code invocations}, then execs this test's java. */
    private static Path countingJavaHome(Path directory, Path invocations) throws IOException {
        Path home = directory.resolve("jdk");
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Path realJava = Path.of(System.getProperty("java.home"), "bin", "java");
        Files.writeString(java, "#!/bin/sh\necho \"$*\" >> '" + invocations + "'\nexec '" + realJava + "' \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }
}
