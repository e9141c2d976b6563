package dev.lacewing.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A server's CPU time as the load tools read it around their timed window: utime+stime from
 * {@code /proc/PID/stat}, in the kernel's clock ticks. Stateless.
 */
final class ServerCpu {

    private ServerCpu() {
    }

    /** The process's user and system time so far, in clock ticks. */
    static long ticks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields[0] is stat's third field (state): utime and stime are its 14th and 15th.
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** Seconds in {@code ticks}, by the kernel's USER_HZ, which the scripts pass from {@code getconf CLK_TCK} (100 on Linux by default). */
    static double seconds(long ticks) {
        String perSecond = System.getenv("CLK_TCK");
        return ticks / (double) (perSecond == null ? 100 : Long.parseLong(perSecond));
    }
}
