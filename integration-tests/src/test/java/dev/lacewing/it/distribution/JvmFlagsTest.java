package dev.lacewing.it.distribution;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The JVM options bin/lacewing-server chooses (collector, compact headers, heap from maxmemory),
 * as the running server reports them in INFO server and its start-up line.
 */
@Tag("distribution")
class JvmFlagsTest {

    @Test
    void theServerReportsTheCollectorItWasGivenAndHalfTheMemoryWithoutMaxmemory() {
        try (LacewingProcess server = LacewingProcess.start(Map.of(), List.of("--threads", "1"))) {
            Map<String, String> info = server.info("server");
            String flags = info.get("lacewing_jvm_flags");
            String collector = info.get("lacewing_gc");
            assertAll(
                () -> assertTrue(flags.contains("-XX:MaxRAMPercentage=50"), flags),
                () -> assertTrue(collector.startsWith("ZGC") ? flags.contains("-XX:+UseZGC")
                    : collector.startsWith("G1") && flags.contains("-XX:+UseG1GC -XX:MaxGCPauseMillis=10")
                        && flags.contains("-XX:MaxHeapFreeRatio=10"),
                    flags + " / " + collector),
                () -> {
                    String line = "flags " + flags + ", collector " + collector;
                    String log = server.awaitLog(line);
                    assertTrue(log.contains(line), log);
                },
                () -> assertEquals(LacewingProcess.jvmArguments(server.pid()).stream()
                    .filter(argument -> argument.startsWith("-X")).toList(), List.of(flags.split(" "))));
        }
    }

    @Test
    void g1AsksForTransparentHugePagesWhereTheKernelGivesThemOnRequest() throws Exception {
        Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        assumeTrue(Files.isReadable(mode) && Files.readString(mode).contains("[madvise]"),
            "the kernel does not give huge pages on request");
        try (LacewingProcess server = LacewingProcess.start(Map.of(), List.of("--threads", "1"))) {
            Map<String, String> info = server.info("server");
            String flags = info.get("lacewing_jvm_flags");
            assertEquals(info.get("lacewing_gc").startsWith("G1"), flags.contains("-XX:+UseTransparentHugePages"), flags);
        }
        try (LacewingProcess small = LacewingProcess.start(Map.of(), List.of("--threads", "1", "--maxmemory", "100mb"))) {
            String flags = small.info("server").get("lacewing_jvm_flags");
            assertFalse(flags.contains("UseTransparentHugePages"), flags);
        }
    }

    @Test
    void temurin25RunsGenerationalZgcWithCompactHeaders() {
        assumeTrue(Files.isExecutable(LacewingProcess.TEMURIN_25.resolve("bin/java")),
            "Temurin 25 is not installed at " + LacewingProcess.TEMURIN_25);
        try (LacewingProcess server = LacewingProcess.start(
            Map.of("JAVA_HOME", LacewingProcess.TEMURIN_25.toString()), List.of("--threads", "1"))) {
            Map<String, String> info = server.info("server");
            String flags = info.get("lacewing_jvm_flags");
            // JDK 25 also gets its AOT cache (written at the first run's exit, used after), with the
            // JVM's own AOT and CDS logging off: the archive's path depends on where the build is.
            String withoutCache = flags.replaceAll("^-XX:AOTCache(Output)?=\\S+ -Xlog:aot\\*=off -Xlog:cds\\*=off ", "");
            assertEquals("-XX:+UseZGC -XX:ZCollectionInterval=20 -XX:ZUncommitDelay=5 -XX:SoftMaxHeapSize=384m"
                + " -XX:InitialHeapSize=32m -XX:TrimNativeHeapInterval=10000"
                + " -XX:+UseCompactObjectHeaders -XX:MaxRAMPercentage=50",
                withoutCache, flags);
            assertTrue(info.get("lacewing_gc").contains("ZGC Minor"), info.get("lacewing_gc"));
        }
    }

    @Test
    void maxmemorySizesTheHeapAndLacewingJavaOptsOverridesIt() {
        LacewingProcess server;
        try {
            server = LacewingProcess.start(Map.of(), List.of("--threads", "1", "--maxmemory", "100mb"));
        } catch (LacewingProcess.StartFailure e) {
            assumeFalse(e.getMessage().contains("Bad directive"), "this build has no maxmemory setting yet");
            throw e;
        }
        try (server) {
            String flags = server.info("server").get("lacewing_jvm_flags");
            // 100 MiB of keyspace: 115 MiB (G1) or 130 MiB (ZGC) plus 32 MiB for everything else
            assertTrue(flags.endsWith(" -Xmx147m") || flags.endsWith(" -Xmx162m"), flags);
        }
        try (LacewingProcess user = LacewingProcess.start(Map.of("LACEWING_JAVA_OPTS", "-Xmx300m"),
            List.of("--threads", "1", "--maxmemory", "100mb"))) {
            String flags = user.info("server").get("lacewing_jvm_flags");
            assertTrue(flags.endsWith(" -Xmx300m"), flags);
            assertFalse(flags.contains("-Xmx147m") || flags.contains("-Xmx162m"), flags);
        }
    }
}
