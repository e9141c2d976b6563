package dev.lacewing.core.diagnostics;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The texts of LATENCY DOCTOR and LATENCY GRAPH, worded and drawn as Redis 7.0's latency.c
 * (createLatencyReport, latencyCommandGenSparkeline) and sparkline.c draw them, over the events
 * Lacewing records: "command" and "fast-command".
 *
 * <p>Thread rule: stateless; reads the monitor through its locked accessors.
 */
public final class LatencyReport {

    /** LATENCY_GRAPH_COLS, and sparklineRender's rows. */
    private static final int GRAPH_COLUMNS = 80;
    private static final int GRAPH_ROWS = 4;
    /** sparkline.c's charset_fill, and label_margin_top. */
    private static final String FILL = "_o#";
    private static final int LABEL_MARGIN_TOP = 1;

    private LatencyReport() {
    }

    /**
     * LATENCY DOCTOR: each event's spikes (average, mean deviation, period, worst), then the advice
     * its events call for; {@code slowlogSlowerThan} in microseconds (negative: slow log off).
     */
    public static String doctor(LatencyMonitor monitor, long slowlogSlowerThan, long nowSeconds) {
        List<LatencyMonitor.Latest> events = monitor.latest();
        long threshold = monitor.thresholdMillis();
        if (events.isEmpty() && threshold == 0) {
            return "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis instance. You may use "
                + "\"CONFIG SET latency-monitor-threshold <milliseconds>.\" in order to enable it. If we weren't in a "
                + "deep space mission I'd suggest to take a look at https://redis.io/topics/latency-monitor.\n";
        }
        StringBuilder report = new StringBuilder();
        boolean slowlogEnable = false;
        boolean slowlogTuning = false;
        boolean slowCommands = false;
        boolean scheduler = false;
        int number = 0;
        for (LatencyMonitor.Latest event : events) {
            number++;
            if (number == 1) {
                report.append("Dave, I have observed latency spikes in this Redis instance. You don't mind talking "
                    + "about it, do you Dave?\n\n");
            }
            List<LatencyMonitor.Sample> samples = monitor.history(event.event());
            long sum = 0;
            long oldest = Long.MAX_VALUE;
            for (LatencyMonitor.Sample sample : samples) {
                sum += sample.millis();
                oldest = Math.min(oldest, sample.unixSeconds());
            }
            long average = samples.isEmpty() ? 0 : sum / samples.size();
            long deviation = 0;
            for (LatencyMonitor.Sample sample : samples) {
                deviation += Math.abs(average - sample.millis());
            }
            deviation = samples.isEmpty() ? 0 : deviation / samples.size();
            long period = samples.isEmpty() ? 0 : Math.max(1, nowSeconds - oldest);
            report.append(String.format(Locale.ROOT, "%d. %s: %d latency spikes (average %dms, mean deviation %dms, "
                + "period %.2f sec). Worst all time event %dms.", number, event.event(), samples.size(), average,
                deviation, samples.isEmpty() ? Double.NaN : (double) period / samples.size(), event.maxMillis()));
            if (event.event().equals("command")) {
                if (slowlogSlowerThan < 0) {
                    slowlogEnable = true;
                } else if (slowlogSlowerThan / 1000 > threshold) {
                    slowlogTuning = true;
                }
                slowCommands = true;
            } else if (event.event().equals("fast-command")) {
                scheduler = true;
            }
            report.append('\n');
        }
        if (number == 0) {
            return report.append("Dave, no latency spike was observed during the lifetime of this Redis instance, not "
                + "in the slightest bit. I honestly think you ought to sit down calmly, take a stress pill, and think "
                + "things over.\n").toString();
        }
        if (!slowCommands && !scheduler) {
            return report.append("\nWhile there are latency events logged, I'm not able to suggest any easy fix. Please "
                + "use the Redis community to get some help, providing this report in your help request.\n").toString();
        }
        report.append("\nI have a few advices for you:\n\n");
        if (slowlogEnable) {
            report.append("- There are latency issues with potentially slow commands you are using. Try to enable the "
                + "Slow Log Redis feature using the command 'CONFIG SET slowlog-log-slower-than ").append(threshold * 1000)
                .append("'. If the Slow log is disabled Redis is not able to log slow commands execution for you.\n");
        }
        if (slowlogTuning) {
            report.append("- Your current Slow Log configuration only logs events that are slower than your configured "
                + "latency monitor threshold. Please use 'CONFIG SET slowlog-log-slower-than ").append(threshold * 1000)
                .append("'.\n");
        }
        if (slowCommands) {
            report.append("- Check your Slow Log to understand what are the commands you are running which are too slow "
                + "to execute. Please check https://redis.io/commands/slowlog for more information.\n");
        }
        if (scheduler) {
            report.append("- The system is slow to execute Redis code paths not containing system calls. This usually "
                + "means the system does not provide Redis CPU time to run for long periods. You should try to:\n"
                + "  1) Lower the system load.\n"
                + "  2) Use a computer / VM just for Redis if you are running other software in the same system.\n"
                + "  3) Check if you have a \"noisy neighbour\" problem.\n"
                + "  4) Check with 'redis-cli --intrinsic-latency 100' what is the intrinsic latency in your system.\n"
                + "  5) Check if the problem is allocator-related by recompiling Redis with MALLOC=libc, if you are "
                + "using Jemalloc. However this may create fragmentation problems.\n");
        }
        if (slowCommands) {
            report.append("- Deleting, expiring or evicting (because of maxmemory policy) large objects is a blocking "
                + "operation. If you have very large objects that are often deleted, expired, or evicted, try to "
                + "fragment those objects into multiple smaller objects.\n");
        }
        return report.toString();
    }

    /**
     * LATENCY GRAPH event: a header with the samples' high and low and the all-time high, a rule, and
     * the samples as a filled four-row sparkline labelled with how long ago each was, 80 columns a
     * block; null for an event with no samples.
     */
    public static String graph(LatencyMonitor monitor, String event, long nowSeconds) {
        List<LatencyMonitor.Sample> samples = monitor.history(event);
        LatencyMonitor.Latest latest = monitor.latest().stream().filter(each -> each.event().equals(event))
            .findFirst().orElse(null);
        if (samples.isEmpty() || latest == null) {
            return null;
        }
        long[] values = new long[samples.size()];
        String[] labels = new String[samples.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = samples.get(i).millis();
            labels[i] = ago(nowSeconds - samples.get(i).unixSeconds());
        }
        long high = Arrays.stream(values).max().orElse(0);
        long low = Arrays.stream(values).min().orElse(0);
        return event + " - high " + high + " ms, low " + low + " ms (all time high " + latest.maxMillis() + " ms)\n"
            + "-".repeat(GRAPH_COLUMNS) + "\n" + sparkline(values, labels);
    }

    /** sparklineRender(seq, 80 columns, 4 rows, SPARKLINE_FILL): blocks of 80 samples, a blank line between. */
    static String sparkline(long[] values, String[] labels) {
        long high = Arrays.stream(values).max().orElse(0);
        long low = Arrays.stream(values).min().orElse(0);
        StringBuilder graph = new StringBuilder();
        for (int from = 0; from < values.length; from += GRAPH_COLUMNS) {
            if (from != 0) {
                graph.append('\n');
            }
            renderRange(graph, values, labels, low, high, from, Math.min(GRAPH_COLUMNS, values.length - from));
        }
        return graph.toString();
    }

    /** The label: seconds, minutes, hours or days ago. */
    private static String ago(long elapsed) {
        if (elapsed < 60) {
            return elapsed + "s";
        }
        if (elapsed < 3600) {
            return elapsed / 60 + "m";
        }
        return elapsed < 3600 * 24 ? elapsed / 3600 + "h" : elapsed / (3600 * 24) + "d";
    }

    /** sparklineRenderRange with SPARKLINE_FILL: the bars' rows, a blank row, then the labels downwards. */
    private static void renderRange(StringBuilder output, long[] values, String[] labels, long min, long max,
                                    int offset, int length) {
        double range = max - min == 0 ? 1 : max - min;
        int steps = FILL.length() * GRAPH_ROWS;
        char[] chars = new char[length];
        for (int row = 0; ; row++) {
            boolean more = false;
            Arrays.fill(chars, ' ');
            for (int j = 0; j < length; j++) {
                int step = (int) ((values[j + offset] - min) * steps / range);
                step = Math.max(0, Math.min(steps - 1, step));
                if (row < GRAPH_ROWS) {
                    int index = step - (GRAPH_ROWS - row - 1) * FILL.length();
                    more = true;
                    if (index >= 0 && index < FILL.length()) {
                        chars[j] = FILL.charAt(index);
                    } else if (index >= FILL.length()) {
                        chars[j] = '|';
                    }
                } else {
                    if (row - GRAPH_ROWS < LABEL_MARGIN_TOP) {
                        more = true;
                        break;
                    }
                    String label = labels[j + offset];
                    int labelChar = row - GRAPH_ROWS - LABEL_MARGIN_TOP;
                    if (label.length() > labelChar) {
                        more = true;
                        chars[j] = label.charAt(labelChar);
                    }
                }
            }
            if (!more) {
                return;
            }
            output.append(chars).append('\n');
        }
    }
}
