package dev.lacewing.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JvmOptionsTest {

    private static final long GIB = 1L << 30;

    /** Product flags as OpenJDK 17.0.15 has them: ZGC, but not the generational one; native heap trimming. */
    private static final JvmOptions.Jvm JDK_17 = JvmOptions.Jvm.of(Map.of("UseZGC", "false", "UseG1GC", "true",
        "G1PeriodicGCInterval", "0", "TrimNativeHeapInterval", "0", "ZUncommitDelay", "300", "MaxInlineLevel", "15",
        "InlineSmallCode", "2500", "PerfDataSamplingInterval", "50"), 24 * GIB);
    /** An older 17 update, before native heap trimming was backported. */
    private static final JvmOptions.Jvm JDK_17_EARLY = JvmOptions.Jvm.of(Map.of("UseZGC", "false", "UseG1GC", "true",
        "G1PeriodicGCInterval", "0"), 24 * GIB);
    private static final List<String> G1_FOOTPRINT = List.of("-XX:MinHeapFreeRatio=5", "-XX:MaxHeapFreeRatio=10",
        "-XX:G1HeapRegionSize=1m", "-XX:MarkStackSize=256k", "-XX:G1PeriodicGCInterval=20000");
    /** JDK 21 and 22: generational ZGC behind -XX:+ZGenerational. */
    private static final JvmOptions.Jvm JDK_21 = JvmOptions.Jvm.of(Map.of("UseZGC", "false",
        "ZGenerational", "false", "ZYoungCompactionLimit", "25.000000"), 24 * GIB);
    /** JDK 23: generational by default, the flag deprecated. */
    private static final JvmOptions.Jvm JDK_23 = JvmOptions.Jvm.of(Map.of("UseZGC", "false",
        "ZGenerational", "true", "ZYoungCompactionLimit", "25.000000"), 24 * GIB);
    /** JDK 25: ZGenerational gone, compact object headers a product flag. */
    private static final JvmOptions.Jvm JDK_25 = JvmOptions.Jvm.of(Map.of("UseZGC", "false",
        "ZYoungCompactionLimit", "25.000000", "UseCompactObjectHeaders", "false", "ZUncommitDelay", "300", "ZCollectionInterval", "0",
        "TrimNativeHeapInterval", "0", "SoftMaxHeapSize", "0", "MaxInlineLevel", "15",
        "InlineSmallCode", "2500", "AOTCacheOutput", ""), 24 * GIB);

    @Test
    void jdk17GetsG1WithAPauseTargetAFootprintThatFollowsTheDataAndHalfTheMemoryWithoutMaxmemory() {
        List<String> expected = new ArrayList<>(List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=10"));
        expected.addAll(G1_FOOTPRINT);
        expected.add("-XX:TrimNativeHeapInterval=10000");
        expected.add("-XX:PerfDataSamplingInterval=1000");
        expected.add("-XX:MaxRAMPercentage=50");
        assertEquals(expected, JvmOptions.choose(JDK_17, 0, List.of()));
    }

    @Test
    void g1AsksForTransparentHugePagesWhereTheKernelGivesThemOnRequest() {
        Map<String, String> flags = Map.of("UseZGC", "false", "UseG1GC", "true", "UseTransparentHugePages", "false");
        JvmOptions.Jvm madvise = JvmOptions.Jvm.of(flags, 24 * GIB, true);
        assertTrue(JvmOptions.choose(madvise, 0, List.of()).contains("-XX:+UseTransparentHugePages"));
        assertTrue(JvmOptions.choose(madvise, 1 * GIB, List.of()).contains("-XX:+UseTransparentHugePages"));
        // Not where the kernel's mode is always or never, nor under a small maxmemory, nor over the user's choice.
        assertFalse(JvmOptions.choose(JvmOptions.Jvm.of(flags, 24 * GIB, false), 0, List.of())
            .contains("-XX:+UseTransparentHugePages"));
        assertFalse(JvmOptions.choose(madvise, 100L << 20, List.of()).contains("-XX:+UseTransparentHugePages"));
        assertFalse(JvmOptions.choose(madvise, 0, List.of("-XX:-UseTransparentHugePages"))
            .contains("-XX:+UseTransparentHugePages"));
        // ZGC's heap is shared memory, which this mode does not cover.
        assertFalse(JvmOptions.choose(madvise, 0, List.of("-XX:+UseZGC")).contains("-XX:+UseTransparentHugePages"));
    }

    @Test
    void theKernelsHugePageModeIsReadFromItsFile(@TempDir Path dir) throws IOException {
        Path mode = dir.resolve("enabled");
        Files.writeString(mode, "always [madvise] never\n");
        assertTrue(JvmOptions.Jvm.hugePagesOnRequest(mode));
        Files.writeString(mode, "[always] madvise never\n");
        assertFalse(JvmOptions.Jvm.hugePagesOnRequest(mode));
        assertFalse(JvmOptions.Jvm.hugePagesOnRequest(dir.resolve("absent")));
    }

    @Test
    void nativeHeapTrimmingOnlyWhereTheJvmHasIt() {
        List<String> expected = new ArrayList<>(List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=10"));
        expected.addAll(G1_FOOTPRINT);
        expected.add("-XX:MaxRAMPercentage=50");
        assertEquals(expected, JvmOptions.choose(JDK_17_EARLY, 0, List.of()));
    }

    @Test
    void theUsersFootprintSettingsWinAndTheirG1GetsTheRest() {
        List<String> chosen = JvmOptions.choose(JDK_17, 0, List.of("-XX:+UseG1GC", "-XX:MaxHeapFreeRatio=30"));
        assertEquals(List.of("-XX:MinHeapFreeRatio=5", "-XX:G1HeapRegionSize=1m", "-XX:MarkStackSize=256k",
            "-XX:G1PeriodicGCInterval=20000",
            "-XX:TrimNativeHeapInterval=10000", "-XX:PerfDataSamplingInterval=1000", "-XX:MaxRAMPercentage=50"), chosen);
        assertEquals(List.of("-XX:TrimNativeHeapInterval=10000", "-XX:PerfDataSamplingInterval=1000",
            "-XX:MaxRAMPercentage=50"), JvmOptions.choose(JDK_17, 0, List.of("-XX:+UseParallelGC")));
        assertTrue(JvmOptions.choose(JDK_17, 0, List.of("-XX:PerfDataSamplingInterval=50")).stream()
            .noneMatch(o -> o.equals("-XX:PerfDataSamplingInterval=1000")), "the user's sampling interval wins");
    }

    @Test
    void c2InlinesLessUnderASmallMaxmemorySoThatItsArenasStaySmallUnlessTheUserSetsEitherLimit() {
        long small = 100L << 20;
        List<String> chosen = JvmOptions.choose(JDK_17, small, List.of());
        assertTrue(chosen.contains("-XX:MaxInlineLevel=9") && chosen.contains("-XX:InlineSmallCode=1000"), chosen.toString());
        for (long other : new long[] {0, GIB}) {
            List<String> left = JvmOptions.choose(JDK_17, other, List.of());
            assertTrue(left.stream().noneMatch(o -> o.contains("Inline")), left.toString());
        }
        List<String> userLevel = JvmOptions.choose(JDK_17, small, List.of("-XX:MaxInlineLevel=15"));
        assertTrue(userLevel.stream().noneMatch(o -> o.startsWith("-XX:MaxInlineLevel")), userLevel.toString());
        assertTrue(userLevel.contains("-XX:InlineSmallCode=1000"), userLevel.toString());
        // A JVM without C2 (a client VM) has neither flag, and an unknown flag stops the JVM.
        assertTrue(JvmOptions.choose(JDK_17_EARLY, small, List.of()).stream().noneMatch(o -> o.contains("Inline")));
    }

    @Test
    void jdk21And22SwitchZgcToItsGenerationalMode() {
        assertEquals(List.of("-XX:+UseZGC", "-XX:+ZGenerational", "-XX:InitialHeapSize=32m", "-XX:MaxRAMPercentage=50"),
            JvmOptions.choose(JDK_21, 0, List.of()));
    }

    @Test
    void jdk23AndLaterGetZgcAloneWhereItIsGenerationalByDefault() {
        assertEquals(List.of("-XX:+UseZGC", "-XX:InitialHeapSize=32m", "-XX:MaxRAMPercentage=50"),
            JvmOptions.choose(JDK_23, 0, List.of()));
    }

    @Test
    void jdk25AddsCompactObjectHeaders() {
        assertEquals(List.of("-XX:+UseZGC", "-XX:ZCollectionInterval=20", "-XX:ZUncommitDelay=5", "-XX:SoftMaxHeapSize=384m",
            "-XX:InitialHeapSize=32m", "-XX:TrimNativeHeapInterval=10000",
            "-XX:+UseCompactObjectHeaders", "-XX:MaxRAMPercentage=50"),
            JvmOptions.choose(JDK_25, 0, List.of()));
    }

    @Test
    void zgcPacesItsCollectionsByASoftHeapBelowTheMaximum() {
        // maxmemory 1 GiB: ZGC's maximum 1.3 GiB + 32 MiB, its soft heap G1's 1.15 GiB + 32 MiB
        List<String> bounded = JvmOptions.choose(JDK_25, GIB, List.of());
        assertTrue(bounded.contains("-XX:SoftMaxHeapSize=1210m") && bounded.contains("-Xmx1364m"), bounded.toString());
        // Without maxmemory a fixed soft heap, where half the memory leaves it below the maximum.
        assertTrue(JvmOptions.choose(JDK_25, 0, List.of()).contains("-XX:SoftMaxHeapSize=384m"));
        JvmOptions.Jvm smallContainer = JvmOptions.Jvm.of(Map.of("UseZGC", "false", "ZYoungCompactionLimit", "25.000000",
            "SoftMaxHeapSize", "0"), GIB);
        assertTrue(JvmOptions.choose(smallContainer, 0, List.of()).stream().noneMatch(o -> o.startsWith("-XX:SoftMaxHeapSize")));
        // A heap the user sizes may be below any figure chosen here, and the JVM refuses a soft heap above it.
        assertTrue(JvmOptions.choose(JDK_25, 0, List.of("-Xmx256m")).stream().noneMatch(o -> o.startsWith("-XX:SoftMaxHeapSize")));
        List<String> userSoft = JvmOptions.choose(JDK_25, GIB, List.of("-XX:SoftMaxHeapSize=2g"));
        assertTrue(userSoft.stream().noneMatch(o -> o.startsWith("-XX:SoftMaxHeapSize")), userSoft.toString());
        // G1 has the flag too, but it is a ZGC setting.
        assertTrue(JvmOptions.choose(JDK_25, GIB, List.of("-XX:+UseG1GC")).stream().noneMatch(o -> o.startsWith("-XX:SoftMax")));
    }

    @Test
    void zgcStartsWithASmallHeapUnlessTheUserSizesTheHeap() {
        assertTrue(JvmOptions.choose(JDK_25, 100L << 20, List.of()).contains("-XX:InitialHeapSize=32m"));
        assertTrue(JvmOptions.choose(JDK_25, 0, List.of("-XX:+UseZGC")).contains("-XX:InitialHeapSize=32m"));
        // ZGC commits its initial heap at start; G1 only reserves it, and keeps the JVM's default.
        assertTrue(JvmOptions.choose(JDK_17, 0, List.of()).stream().noneMatch(o -> o.startsWith("-XX:InitialHeapSize")));
        assertTrue(JvmOptions.choose(JDK_25, 0, List.of("-XX:+UseG1GC")).stream().noneMatch(o -> o.startsWith("-XX:InitialHeapSize")));
        // A heap the user sizes may be below 32 MiB, and the JVM refuses an initial heap above its maximum.
        for (String user : List.of("-Xmx16m", "-Xms8m", "-XX:InitialHeapSize=1g", "-XX:MinHeapSize=64m",
                "-XX:InitialRAMPercentage=5", "-XX:MaxRAMPercentage=80")) {
            List<String> chosen = JvmOptions.choose(JDK_25, 0, List.of(user));
            assertTrue(chosen.stream().noneMatch(o -> o.startsWith("-XX:InitialHeapSize")), user + ": " + chosen);
        }
    }

    @Test
    void maxmemorySizesTheHeapWithTheCollectorsHeadroom() {
        // 1 GiB keyspace: 1.15 GiB + 32 MiB under G1, 1.3 GiB + 32 MiB under ZGC
        assertEquals("-Xmx1210m", last(JvmOptions.choose(JDK_17, GIB, List.of())));
        assertEquals("-Xmx1364m", last(JvmOptions.choose(JDK_25, GIB, List.of())));
        assertEquals(JvmOptions.FIXED_HEADROOM_MIB + 1, JvmOptions.heapMib(1, false));
    }

    @Test
    void theUsersCollectorAndHeapReplaceTheLaunchersChoice() {
        List<String> g1 = JvmOptions.choose(JDK_25, GIB, List.of("-XX:+UseG1GC", "-Xmx4g"));
        assertEquals("-XX:+UseCompactObjectHeaders", last(g1));
        assertTrue(g1.stream().noneMatch(o -> o.startsWith("-Xmx") || o.startsWith("-XX:+Use") && o.endsWith("GC")), g1.toString());
        assertEquals(List.of("-XX:TrimNativeHeapInterval=10000", "-XX:+UseCompactObjectHeaders"),
            JvmOptions.choose(JDK_25, 0, List.of("-XX:+UseParallelGC", "-XX:MaxRAMPercentage=80")));
    }

    private static String last(List<String> options) {
        return options.get(options.size() - 1);
    }

    @Test
    void nettyLeakDetectionIsOffUnlessTheUserSetsALevelInEitherSpelling() {
        assertEquals(List.of(JvmOptions.LEAK_DETECTION_OFF), JvmOptions.nettyProperties(List.of("-Xmx4g")));
        assertEquals(List.of(), JvmOptions.nettyProperties(List.of("-Dio.netty.leakDetection.level=paranoid")));
        assertEquals(List.of(), JvmOptions.nettyProperties(List.of("-Dio.netty.leakDetectionLevel=simple")));
    }

    @Test
    void maxmemoryComesFromTheConfFileThenTheLastFlagInRedisMemorySyntax(@TempDir Path directory) throws IOException {
        Path conf = Files.writeString(directory.resolve("lacewing.conf"), "port 7000\nmaxmemory 100mb\n");
        assertEquals(100L << 20, JvmOptions.maxmemory(new String[] {conf.toString()}));
        assertEquals(2_000_000_000L, JvmOptions.maxmemory(new String[] {conf.toString(), "--maxmemory", "2g"}));
        assertEquals(0, JvmOptions.maxmemory(new String[] {"--port", "7000"}));
    }

    @Test
    void argumentsTheServerWillRefuseLeaveTheHeapToTheDefault() {
        assertEquals(0, JvmOptions.maxmemory(new String[] {"/no/such/lacewing.conf"}));
        assertEquals(0, JvmOptions.maxmemory(new String[] {"--maxmemory", "lots"}));
    }

    @Test
    void everyConfigFileReadIsReportedIncludesAndMissingOnesToo(@TempDir Path directory) throws IOException {
        Path inner = Files.writeString(directory.resolve("inner.conf"), "maxmemory 10mb\n");
        Path outer = Files.writeString(directory.resolve("outer.conf"), "include " + inner + "\nport 7000\n");
        List<Path> read = new ArrayList<>();
        assertEquals(10L << 20, JvmOptions.maxmemory(new String[] {outer.toString(), "--port", "7001"}, read::add));
        assertEquals(List.of(outer, inner), read);
        read.clear();
        Path missing = directory.resolve("missing.conf");
        assertEquals(0, JvmOptions.maxmemory(new String[] {missing.toString()}, read::add));
        assertEquals(List.of(missing), read);
    }

    @Test
    void theUnsafeMemoryAccessOptionOnlyForALauncherThatHasIt() {
        assertEquals(List.of(), JvmOptions.launcherOptions(17));
        assertEquals(List.of(), JvmOptions.launcherOptions(22));
        assertEquals(List.of("--sun-misc-unsafe-memory-access=allow"), JvmOptions.launcherOptions(23));
        assertEquals(List.of("--sun-misc-unsafe-memory-access=allow"), JvmOptions.launcherOptions(25));
    }

    @Test
    void aClassArchiveIsAskedForOnJdk17And18AndAnAotCacheWhereTheJvmWritesOneUnlessTheUserChoseSharing() {
        assertEquals(Optional.of("class-data-sharing dynamic"), JvmOptions.classDataSharing(JDK_17, 17, List.of()));
        assertEquals(Optional.of("class-data-sharing dynamic"), JvmOptions.classDataSharing(JDK_17, 18, List.of("-Xmx1g")));
        assertEquals(Optional.empty(), JvmOptions.classDataSharing(JDK_21, 21, List.of()));
        // JDK 24 has the AOT cache, but not AOTCacheOutput, which writes one at exit.
        JvmOptions.Jvm jdk24 = JvmOptions.Jvm.of(Map.of("AOTCache", "", "AOTMode", ""), 24 * GIB);
        assertEquals(Optional.empty(), JvmOptions.classDataSharing(jdk24, 24, List.of()));
        assertEquals(Optional.of("class-data-sharing aot"), JvmOptions.classDataSharing(JDK_25, 25, List.of()));
        for (String user : List.of("-Xshare:off", "-XX:SharedArchiveFile=a.jsa", "-XX:AOTCache=a.aot", "-XX:AOTMode=off",
                "-XX:AOTConfiguration=a.conf")) {
            assertEquals(Optional.empty(), JvmOptions.classDataSharing(JDK_25, 25, List.of(user)), user);
        }
        assertEquals(Optional.empty(), JvmOptions.classDataSharing(JDK_17, 17, List.of("-Xshare:off")));
    }
}
