package dev.lacewing.launcher;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.OperatingSystemMXBean;
import dev.lacewing.core.config.ConfigSource;
import dev.lacewing.core.config.Setting;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The JVM options bin/lacewing-server starts the server with: the collector, compact object
 * headers and the heap size. The script runs {@link #main} first, with the same {@code java}
 * and the server's own arguments, and passes what it prints (one option a line) before
 * {@code LACEWING_JAVA_OPTS}. Probing the JVM that will run the server, instead of guessing from
 * its version string, is what keeps an unknown option (which stops a JVM) off the command line:
 * a flag is used only if this JVM has it as a product flag. HotSpot hides locked (experimental,
 * diagnostic) flags from the management interface, so an experimental flag is never chosen.
 *
 * <p>The choices, and why:
 * <ul>
 * <li>Collector: generational ZGC where the JVM has it (JDK 21+; a flag only generational ZGC has,
 *     {@code ZYoungCompactionLimit}, tells), with {@code -XX:+ZGenerational} where that is not yet
 *     the default (21-22). Its pauses do not grow with the heap or the live set, which the
 *     million-key keyspace makes large. Otherwise (JDK 17) G1 with a pause target of
 *     {@value #G1_PAUSE_TARGET_MS} ms: 17's ZGC is not generational, so it marks the whole
 *     keyspace on every cycle and needs much more headroom to avoid allocation stalls.</li>
 * <li>{@code -XX:+UseCompactObjectHeaders} where it is a product flag (JDK 25+): 8 bytes less per
 *     object. On JDK 24 it is experimental and left to the user.</li>
 * <li>{@code -XX:+UseTransparentHugePages} under G1 where the kernel gives huge pages on request
 *     (its mode is madvise, Debian's default): a GET or SET over a million keys reads an index slot
 *     and an entry at random places of a heap of hundreds of megabytes, and with 4 KiB pages each
 *     read also misses the TLB; 2 MiB pages cut the server's CPU per GET at pipeline 30 by about a
 *     tenth (docs/benchmarks.md). Not under a maxmemory of up to 256 MiB, where the process's memory
 *     against the bound matters more than a lookup's speed and a huge page is a visible share of the heap.</li>
 * <li>Heap: with {@code maxmemory} set, the keyspace (its pages are on-heap {@code byte[]}) is
 *     bounded by it: used_memory, the live entries, their index and the clients' buffers, is
 *     held to maxmemory, and the pages hold at most 16/15 of the live entries plus a few pages per
 *     table.
 *     The heap is that times {@value #G1_HEADROOM} (G1) or {@value #ZGC_HEADROOM} (ZGC, which keeps
 *     allocating while it collects and stalls allocations when it runs out) plus
 *     {@value #FIXED_HEADROOM_MIB} MiB for what is neither (the command tables, scripts, the
 *     request path's garbage): what makes the process's RSS stay within 1.5 times maxmemory
 *     over an idle server's. Without maxmemory (0, Redis's "no limit"), half of the physical or
 *     container memory ({@code -XX:MaxRAMPercentage=50}) instead of the JVM's quarter: a datastore
 *     is expected to use the machine, and the other half stays for Netty's direct buffers, the
 *     JVM itself and the operating system.</li>
 * <li>Footprint: the process's memory follows the keyspace, not its peak. Redis's RSS stays
 *     within a few percent of its used_memory because jemalloc returns what is freed; a JVM keeps
 *     what its heap grew to. Under G1: after a full GC or a concurrent cycle's remark the heap is
 *     sized to keep {@value #MIN_FREE_PERCENT}-{@value #MAX_FREE_PERCENT}% free (G1's 40-70%
 *     made a million-member sorted set cost 1.4x Redis's memory, not 0.7x); regions of
 *     {@value #G1_REGION_MIB} MiB, so the heap grows and shrinks in small steps (G1 picks 8 MiB
 *     regions for a 12 GiB heap; with 2 MiB the heap kept after a full GC still varied by a
 *     region or two for the same live data, as much as a small data set's index); a global mark
 *     stack of {@value #G1_MARK_STACK} entries (2 MiB), not 4M (32 MiB, resident once a load has
 *     run a concurrent cycle): the keyspace's pages hold no references, so marking pushes little,
 *     and G1 doubles the stack and restarts the cycle where it overflows; and after {@value #IDLE_GC_SECONDS} s without a collection a
 *     concurrent cycle, which hands the unused heap back while the server is idle. Under ZGC, a
 *     collection at least every {@value #IDLE_GC_SECONDS} s (an idle ZGC never collects, so what a
 *     burst left stayed committed), unused heap back after {@value #ZGC_UNCOMMIT_SECONDS} s instead of 300, and a soft
 *     heap size ({@link #zgcSoftMaxMib}) that paces its collections by the data, not by the
 *     maximum: without it, half the machine's memory let a burst's garbage reach 1.9 GB
 *     between collections; and an initial heap of {@value #ZGC_INITIAL_HEAP_MIB} MiB, as ZGC
 *     commits the whole initial heap before the server starts (a 64th of the memory by default:
 *     half a second of a small machine's start). With either, where
 *     the JVM has it, glibc's native heap is trimmed every {@value #TRIM_SECONDS} s: the JIT
 *     compilers' arenas free tens of megabytes that malloc would otherwise keep. Under a small maxmemory
 *     (up to 256 MiB, where its arenas are a visible part of the bound) C2 inlines less
 *     ({@value #C2_MAX_INLINE_LEVEL} levels deep, an already compiled callee only below
 *     {@value #C2_INLINE_SMALL_CODE} bytes of machine code), which bounds its arenas during warm-up
 *     at no measured cost to a SET. Under write
 *     load G1 still grows the heap for its young generation as its pause and time goals need;
 *     these settings decide what is kept afterwards.</li>
 * <li>Idle cost: where the JVM samples its jvmstat counters on a timer (JDK 17-24), once every
 *     {@value #PERF_DATA_SAMPLING_MILLIS} ms instead of every 50 ms, which woke an idle server 20
 *     times a second; jstat and jps keep working.</li>
 * <li>Netty's buffer leak detection off ({@value #LEAK_DETECTION_OFF}). Its default level samples
 *     one buffer in 128 and records a stack trace for it when it is allocated and released; with
 *     two buffers per request at pipeline 1 (the read and the replies), that was about 1.5% of the
 *     server's CPU (docs/benchmarks.md, "CPU per request at pipeline 1"). A server started in-process
 *     (the tests, an embedding application) keeps Netty's default.</li>
 * </ul>
 * An option of the same kind in {@code LACEWING_JAVA_OPTS} (a {@code -XX:+Use...GC}, a heap size,
 * a {@code -Dio.netty.leakDetection...} level) replaces the launcher's choice. Runs once per start,
 * on the launching thread; holds no state.
 */
public final class JvmOptions {

    /** Printed for bin/lacewing-server, which turns them into the archive options (see {@link #classDataSharing}). */
    static final String DYNAMIC_ARCHIVE_LINE = "class-data-sharing dynamic";
    static final String AOT_CACHE_LINE = "class-data-sharing aot";

    static final int G1_PAUSE_TARGET_MS = 10;
    /*
     * Both are 0.1 less than while the compact pages could hold 8/7 of the live bytes (1.25 and 1.4):
     * under an eviction load at maxmemory 100mb each collector touches its whole maximum, which put
     * the peak RSS from 20 MiB under to 12 MiB over 1.5x maxmemory plus the idle RSS. The pages are
     * now within 16/15 (106 MiB for 99 MiB of used_memory in that load) and G1 ran no full
     * collection at 1.15x + 32 MiB. ZGC keeps more over G1's figure, its soft heap, because it goes
     * on allocating while it collects and stalls allocations when it runs out.
     */
    static final double G1_HEADROOM = 1.15;
    static final double ZGC_HEADROOM = 1.3;
    static final long FIXED_HEADROOM_MIB = 32;
    static final int DEFAULT_RAM_PERCENTAGE = 50;
    static final int MIN_FREE_PERCENT = 5;
    static final int MAX_FREE_PERCENT = 10;
    static final int G1_REGION_MIB = 1;
    static final String G1_MARK_STACK = "256k";
    /*
     * G1 looks for the idle interval once per interval, so its cycle comes at most twice this after
     * the last collection; ZGC collects at least this often and uncommits what stayed unused this
     * long. A burst's memory goes back within about 40 s (docs/limits.md).
     */
    static final int IDLE_GC_SECONDS = 20;
    /*
     * ZGC spreads its uncommit over about this delay's length again: with 20 s a burst's 1.3 GB was
     * still 690 MB at 70 s; with 5 it was back at its level before within 60 s (docs/benchmarks.md).
     */
    static final int ZGC_UNCOMMIT_SECONDS = 5;
    /*
     * ZGC's soft heap ceiling without maxmemory: the soak's live set (about 150 MB: a 64 MiB APPEND
     * string, clients' buffers) fits with room for a few seconds of its garbage; measured, a 60 s
     * soak peaked at 515 MiB RSS with it and at 1,972 MiB without (docs/benchmarks.md).
     */
    static final long ZGC_SOFT_MAX_MIB = 384;
    static final int TRIM_SECONDS = 10;
    /*
     * HotSpot's periodic task thread samples the jvmstat counters every 50 ms (JDK 17-24; 25 dropped
     * the sampler): 20 wake-ups a second, about 0.6 ms of CPU a second on an idle server, more than
     * half of an idle redis-server's whole cost. Once a second keeps jstat and jps working; a
     * sampled counter (the timestamp jstat prints) is then up to a second old (docs/benchmarks.md,
     * "Idle cost"). -XX:-UsePerfData would also stop the wake-ups but disables jstat and jps.
     */
    static final int PERF_DATA_SAMPLING_MILLIS = 1000;
    /*
     * ZGC's heap at start, in MiB (the JVM's default is a 64th of the memory, 378 MiB here). ZGC
     * commits its initial heap before main (fallocate on its memfd, which allocates and zeroes the
     * pages): 378 MiB cost 0.5-0.7 s of a 2-core VM's start, `java -version` 0.9-1.2 s against
     * 0.2-0.4 s with this. Start-up grows the heap to about 40 MiB, committed as it is used; the
     * minimum heap ZGC uncommits down to is unchanged. At most the heap maxmemory gives (33 MiB
     * and up).
     */
    static final long ZGC_INITIAL_HEAP_MIB = 32;
    /*
     * C2's inlining limits (defaults 15 and 2500 bytes since JDK 14). Each C2 compilation holds its
     * graph in malloc'd arenas, which grow with what it inlines: during warm-up under an eviction
     * load they took 20-25 MB (NMT's Compiler and Arena Chunk) while G1 was touching its whole heap,
     * and were the peak's excess over 1.5x maxmemory. With these the arenas stayed at 2-5 MB: on
     * JDK 17 at 100mb the peak's median fell from 243 to 231 MiB, and a warm SET costs the same
     * CPU; on Temurin 25 ZGC's heap dominates and the peak moved less than the runs' spread
     * (docs/benchmarks.md, "RSS under maxmemory").
     */
    static final int C2_MAX_INLINE_LEVEL = 9;
    /**
     * The largest maxmemory C2's limits are set for: only a SET's cost was measured with them, so
     * they stay where the arenas matter (at 500mb the eviction peak was 90-95 MiB under the bound
     * with C2's defaults), and every other workload keeps C2's own inlining.
     */
    static final long C2_LIMITS_UP_TO = 256L << 20;
    static final int C2_INLINE_SMALL_CODE = 1000;
    static final String TRANSPARENT_HUGE_PAGES = "UseTransparentHugePages";
    static final String LEAK_DETECTION_OFF = "-Dio.netty.leakDetection.level=disabled";
    static final String UNSAFE_ALLOWED = "--sun-misc-unsafe-memory-access=allow";
    /** Starts an output line that names a config file read rather than an option. */
    static final String CONFIG_FILE_LINE = "config-file ";

    private static final long MIB = 1024 * 1024;

    private JvmOptions() {
    }

    /**
     * What the probed JVM offers: its product flags by name (value as the JVM prints it) and its
     * physical or container memory.
     */
    record Jvm(Function<String, Optional<String>> productFlag, long physicalMemory, boolean hugePagesOnRequest) {

        /** The kernel's transparent huge page mode; "[madvise]" marks the one in force. */
        private static final Path HUGE_PAGE_MODE = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

        boolean has(String flag) {
            return productFlag.apply(flag).isPresent();
        }

        /** The JVM this code runs in, through HotSpot's diagnostic bean. */
        static Jvm current() {
            HotSpotDiagnosticMXBean diagnostic = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            OperatingSystemMXBean system = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
            return new Jvm(name -> {
                try {
                    return Optional.of(diagnostic.getVMOption(name).getValue());
                } catch (IllegalArgumentException absentOrLocked) {
                    return Optional.empty();
                }
            }, system.getTotalMemorySize(), hugePagesOnRequest(HUGE_PAGE_MODE));
        }

        /**
         * Whether the kernel gives transparent huge pages to memory that asks for them (madvise)
         * and only to it: under "always" the heap has them without asking, under "never" asking
         * only makes the JVM warn. False where the file cannot be read (not Linux).
         */
        static boolean hugePagesOnRequest(Path mode) {
            try {
                return Files.readString(mode).contains("[madvise]");
            } catch (IOException | RuntimeException unreadable) {
                return false;
            }
        }

        /** A JVM with exactly these flags, for tests; its kernel gives no huge pages on request. */
        static Jvm of(Map<String, String> flags, long physicalMemory) {
            return of(flags, physicalMemory, false);
        }

        static Jvm of(Map<String, String> flags, long physicalMemory, boolean hugePagesOnRequest) {
            return new Jvm(name -> Optional.ofNullable(flags.get(name)), physicalMemory, hugePagesOnRequest);
        }
    }

    /**
     * The options to start the server with.
     *
     * @param jvm what the JVM offers
     * @param maxmemory the {@code maxmemory} setting in bytes, 0 for none
     * @param userOptions {@code LACEWING_JAVA_OPTS}, which come after these and win
     */
    static List<String> choose(Jvm jvm, long maxmemory, List<String> userOptions) {
        List<String> options = new ArrayList<>();
        boolean userCollector = userOptions.stream().anyMatch(o -> o.startsWith("-XX:+Use") && o.endsWith("GC"));
        boolean zgc;
        if (userCollector) {
            zgc = userOptions.contains("-XX:+UseZGC");
        } else if (jvm.has("UseZGC") && jvm.has("ZYoungCompactionLimit")) {
            zgc = true;
            options.add("-XX:+UseZGC");
            if (jvm.productFlag().apply("ZGenerational").filter("false"::equals).isPresent()) {
                options.add("-XX:+ZGenerational");
            }
        } else {
            zgc = false;
            options.add("-XX:+UseG1GC");
            options.add("-XX:MaxGCPauseMillis=" + G1_PAUSE_TARGET_MS);
        }
        boolean g1 = userCollector ? userOptions.contains("-XX:+UseG1GC") : !zgc;
        List<String> footprint = new ArrayList<>();
        if (g1) {
            footprint.add("-XX:MinHeapFreeRatio=" + MIN_FREE_PERCENT);
            footprint.add("-XX:MaxHeapFreeRatio=" + MAX_FREE_PERCENT);
            footprint.add("-XX:G1HeapRegionSize=" + G1_REGION_MIB + "m");
            footprint.add("-XX:MarkStackSize=" + G1_MARK_STACK);
            if (jvm.has("G1PeriodicGCInterval")) {
                footprint.add("-XX:G1PeriodicGCInterval=" + IDLE_GC_SECONDS * 1000);
            }
        } else if (zgc) {
            if (jvm.has("ZCollectionInterval")) {
                footprint.add("-XX:ZCollectionInterval=" + IDLE_GC_SECONDS);
            }
            if (jvm.has("ZUncommitDelay")) {
                footprint.add("-XX:ZUncommitDelay=" + ZGC_UNCOMMIT_SECONDS);
            }
            if (jvm.has("SoftMaxHeapSize") && !userHeap(userOptions)) {
                zgcSoftMaxMib(maxmemory, jvm.physicalMemory()).ifPresent(mib -> footprint.add("-XX:SoftMaxHeapSize=" + mib + "m"));
            }
            if (!userHeap(userOptions) && userOptions.stream().noneMatch(o -> o.startsWith("-Xms")
                    || o.startsWith("-XX:MinHeapSize=") || o.startsWith("-XX:InitialRAMPercentage="))) {
                footprint.add("-XX:InitialHeapSize=" + ZGC_INITIAL_HEAP_MIB + "m");
            }
        }
        if (jvm.has("TrimNativeHeapInterval")) {
            footprint.add("-XX:TrimNativeHeapInterval=" + TRIM_SECONDS * 1000);
        }
        if (jvm.has("PerfDataSamplingInterval")) {
            footprint.add("-XX:PerfDataSamplingInterval=" + PERF_DATA_SAMPLING_MILLIS);
        }
        if (maxmemory > 0 && maxmemory <= C2_LIMITS_UP_TO && jvm.has("MaxInlineLevel") && jvm.has("InlineSmallCode")) {
            footprint.add("-XX:MaxInlineLevel=" + C2_MAX_INLINE_LEVEL);
            footprint.add("-XX:InlineSmallCode=" + C2_INLINE_SMALL_CODE);
        }
        for (String option : footprint) {
            String name = option.substring(0, option.indexOf('=') + 1);
            if (userOptions.stream().noneMatch(o -> o.startsWith(name))) {
                options.add(option);
            }
        }
        if (g1 && jvm.hugePagesOnRequest() && jvm.has(TRANSPARENT_HUGE_PAGES)
                && !(maxmemory > 0 && maxmemory <= C2_LIMITS_UP_TO)
                && userOptions.stream().noneMatch(o -> o.endsWith("UseTransparentHugePages"))) {
            options.add("-XX:+" + TRANSPARENT_HUGE_PAGES);
        }
        if (jvm.has("UseCompactObjectHeaders")) {
            options.add("-XX:+UseCompactObjectHeaders");
        }
        if (!userHeap(userOptions)) {
            if (maxmemory > 0) {
                options.add("-Xmx" + heapMib(maxmemory, zgc) + "m");
            } else {
                options.add("-XX:MaxRAMPercentage=" + DEFAULT_RAM_PERCENTAGE);
            }
        }
        return options;
    }

    /**
     * The system properties for Netty: leak detection off unless the user set a level, in either
     * spelling Netty reads ({@code io.netty.leakDetection.level}, the older {@code io.netty.leakDetectionLevel}).
     */
    static List<String> nettyProperties(List<String> userOptions) {
        if (userOptions.stream().anyMatch(o -> o.startsWith("-Dio.netty.leakDetection"))) {
            return List.of();
        }
        return List.of(LEAK_DETECTION_OFF);
    }

    private static boolean userHeap(List<String> userOptions) {
        return userOptions.stream().anyMatch(o -> o.startsWith("-Xmx") || o.startsWith("-XX:MaxHeapSize=")
            || o.startsWith("-XX:MaxRAMPercentage=") || o.startsWith("-XX:MaxRAM="));
    }

    /**
     * The heap ZGC aims to stay within, in MiB: with maxmemory, the heap G1 gets for it (the rest
     * of ZGC's larger maximum is the reserve that keeps allocations from stalling during a
     * collection); without, {@value #ZGC_SOFT_MAX_MIB} MiB where that is at most half the
     * maximum (half the machine's memory). ZGC paces every collection by this figure (its warm-up
     * cycles at 10, 20 and 30% of it, its allocation-rate rule's time until it is reached), so with
     * the 12 GiB a maxmemory of 0 gives on a 24 GiB machine it let a burst's garbage reach 1.9 GB
     * between collections. It is soft: a live set above it grows the heap as far as the maximum,
     * at the cost of collections that follow the writes closely. Empty where it would not be
     * below the maximum, which the JVM refuses to start with.
     */
    static Optional<Long> zgcSoftMaxMib(long maxmemory, long physicalMemory) {
        if (maxmemory > 0) {
            return Optional.of(heapMib(maxmemory, false));
        }
        long ceilingMib = physicalMemory / 100 * DEFAULT_RAM_PERCENTAGE / MIB;
        return ceilingMib >= 2 * ZGC_SOFT_MAX_MIB ? Optional.of(ZGC_SOFT_MAX_MIB) : Optional.empty();
    }

    /** The heap for a keyspace bounded by {@code maxmemory} bytes, in MiB, rounded up. */
    static long heapMib(long maxmemory, boolean zgc) {
        double headroom = zgc ? ZGC_HEADROOM : G1_HEADROOM;
        long keyspaceMib = (long) Math.ceil(maxmemory * headroom / MIB);
        return keyspaceMib + FIXED_HEADROOM_MIB;
    }

    /**
     * The last {@code maxmemory} of the server's arguments (a conf file, then --name value), in
     * bytes; 0 when there is none or the arguments do not parse: the server itself then reports
     * the error, with its own wording, when it starts. {@code fileRead} is told each config file
     * opened (the file and its includes).
     */
    static long maxmemory(String[] serverArgs, Consumer<Path> fileRead) {
        long maxmemory = 0;
        try {
            for (ConfigSource.Entry entry : ConfigSource.fromCommandLine(serverArgs, fileRead)) {
                if (entry.name().equals("maxmemory")) {
                    maxmemory = Setting.parseMemory(entry.value());
                }
            }
        } catch (Exception unreadable) {
            return 0;
        }
        return maxmemory;
    }

    static long maxmemory(String[] serverArgs) {
        return maxmemory(serverArgs, file -> { });
    }

    /**
     * Launcher options for this JVM: {@code --sun-misc-unsafe-memory-access=allow} (Felix uses
     * sun.misc.Unsafe, which JDK 23+ warns about) only where the launcher has the option, JDK 23
     * (JEP 471) and later: an option the launcher does not know stops it.
     */
    static List<String> launcherOptions(int featureVersion) {
        return featureVersion >= 23 ? List.of(UNSAFE_ALLOWED) : List.of();
    }

    /**
     * The line that asks bin/lacewing-server for an archive of the server's classes, where that
     * shortens the start, or none:
     * <ul>
     * <li>JDK 17 and 18: {@value #DYNAMIC_ARCHIVE_LINE}, a dynamic AppCDS archive written at the
     *     first run's exit (-XX:ArchiveClassesAtExit) and mapped by later runs
     *     (-XX:SharedArchiveFile); measured on a loaded 2-core machine, the first PING came 40%
     *     sooner. JDK 19-24 are left out: JDK 25 rejects the dynamic archive of a module-path
     *     application (the main module's property "not specified during dump time").</li>
     * <li>Where the JVM has {@code AOTCacheOutput} (JDK 25+, JEP 514): {@value #AOT_CACHE_LINE}, an
     *     AOT cache (JEP 483) written at the first run's exit and used by later runs
     *     (-XX:AOTCache); it takes the module path. Under ZGC it holds the classes, loaded and
     *     linked, but neither the module graph nor AOT-linked classes, which need archived heap
     *     objects, and JDK 25's ZGC cannot map them: measured, 20% less CPU to the first PING
     *     (1.25 against 1.55 s on a loaded 2-core machine).</li>
     * </ul>
     * Not when LACEWING_JAVA_OPTS chooses class sharing itself.
     */
    static Optional<String> classDataSharing(Jvm jvm, int featureVersion, List<String> userOptions) {
        boolean userChose = userOptions.stream().anyMatch(option -> option.startsWith("-Xshare")
            || option.contains("SharedArchiveFile") || option.contains("ArchiveClassesAtExit")
            || option.contains("AOTCache") || option.contains("AOTMode") || option.contains("AOTConfiguration"));
        if (userChose) {
            return Optional.empty();
        }
        if (featureVersion <= 18) {
            return Optional.of(DYNAMIC_ARCHIVE_LINE);
        }
        return jvm.has("AOTCacheOutput") ? Optional.of(AOT_CACHE_LINE) : Optional.empty();
    }

    /**
     * Prints the options for a server started with {@code args}, one a line, then
     * {@value #CONFIG_FILE_LINE} and each config file read, named as the arguments and the include
     * directives name it (relative to the working directory or absolute): bin/lacewing-server
     * keeps the options in a cache that stays valid while those files, the java binary, the
     * environment and the arguments read here (the config file's name and {@code --maxmemory}) do
     * not change, so that a later start runs one JVM. An argument this starts reading must join
     * the script's key (its {@code options_arguments}).
     */
    public static void main(String[] args) {
        String user = System.getenv().getOrDefault("LACEWING_JAVA_OPTS", "").strip();
        List<String> userOptions = user.isEmpty() ? List.of() : Arrays.asList(user.split("\\s+"));
        Set<Path> configFiles = new LinkedHashSet<>();
        long maxmemory = maxmemory(args, configFiles::add);
        // First, so that the heap size stays the last of the flags INFO reports.
        Jvm jvm = Jvm.current();
        classDataSharing(jvm, Runtime.version().feature(), userOptions).ifPresent(System.out::println);
        for (String option : choose(jvm, maxmemory, userOptions)) {
            System.out.println(option);
        }
        for (String property : nettyProperties(userOptions)) {
            System.out.println(property);
        }
        for (String option : launcherOptions(Runtime.version().feature())) {
            System.out.println(option);
        }
        for (Path file : configFiles) {
            System.out.println(CONFIG_FILE_LINE + file);
        }
    }
}
