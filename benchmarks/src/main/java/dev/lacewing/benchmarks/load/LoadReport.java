package dev.lacewing.benchmarks.load;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The results of a run, merged over threads: memtier_benchmark's "ALL STATS" table, its
 * latency distribution and its JSON layout (latencies in milliseconds), plus error counts.
 * Built by the main thread after the load threads have stopped; immutable.
 */
public final class LoadReport {

    private static final double NANOS_PER_MILLI = 1_000_000.0;

    private record Row(String name, String command, boolean read, CommandStats stats) {
    }

    private final LoadOptions options;
    private final String transport;
    private final List<Row> rows = new ArrayList<>();
    private final Row totals;
    private final long durationNanos;
    private final long startMillis;
    private final long finishMillis;
    private final String connectionError;

    LoadReport(LoadOptions options, String transport, CommandTemplate[] templates, List<CommandStats[]> perThread,
               long durationNanos, long startMillis, long finishMillis, String connectionError) {
        this.options = options;
        this.transport = transport;
        this.durationNanos = Math.max(1, durationNanos);
        this.startMillis = startMillis;
        this.finishMillis = finishMillis;
        this.connectionError = connectionError;
        CommandStats all = new CommandStats();
        long readHits = 0;
        long readMisses = 0;
        for (int i = 0; i < templates.length; i++) {
            CommandStats merged = new CommandStats();
            for (CommandStats[] thread : perThread) {
                merged.add(thread[i]);
            }
            all.add(merged);
            if (templates[i].isRead()) {
                readHits += merged.hits;
                readMisses += merged.misses;
            }
            rows.add(new Row(templates[i].name(), templates[i].command(), templates[i].isRead(), merged));
        }
        // As memtier's, the totals' hits and misses are those of the reads only.
        all.hits = readHits;
        all.misses = readMisses;
        this.totals = new Row("Totals", "ALL", true, all);
    }

    public long totalRequests() {
        return totals.stats.count();
    }

    public long totalErrors() {
        return totals.stats.errors;
    }

    public double opsPerSecond() {
        return perSecond(totals.stats.count());
    }

    /** The connection lost or refused during the run, or null. */
    public String connectionError() {
        return connectionError;
    }

    /** The first error reply's text, or null. */
    public String firstError() {
        return totals.stats.firstError;
    }

    private double perSecond(long count) {
        return count * 1e9 / durationNanos;
    }

    void printSummary(PrintStream out) {
        out.printf("%-10d Threads%n", options.threads);
        out.printf("%-10d Connections per thread%n", options.clients);
        if (options.testTimeSeconds > 0) {
            out.printf("%-10d Seconds%n", options.testTimeSeconds);
        } else {
            out.printf("%-10d Requests per client%n", options.requests);
        }
        out.println();
        out.println();
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-8s %12s %12s %12s %15s",
            "Type", "Ops/sec", "Hits/sec", "Misses/sec", "Avg. Latency"));
        for (double percentile : options.percentiles) {
            header.append(String.format(Locale.ROOT, " %15s", "p" + percentileLabel(percentile) + " Latency"));
        }
        header.append(String.format(Locale.ROOT, " %15s %12s %10s", "Max Latency", "KB/sec", "Errors"));
        String rule = "-".repeat(header.length());
        out.println("ALL STATS");
        out.println("=".repeat(header.length()));
        out.println(header);
        out.println(rule);
        for (Row row : rows) {
            out.println(line(row));
        }
        out.println(line(totals));
        if (totals.stats.errors > 0) {
            out.println();
            out.printf("%d error replies; the first: %s%n", totals.stats.errors, totals.stats.firstError);
        }
        if (connectionError != null) {
            out.println();
            out.println("connection error: " + connectionError);
        }
    }

    private String line(Row row) {
        CommandStats stats = row.stats;
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-8s %12.2f", row.name,
            perSecond(stats.count())));
        if (row.read) {
            line.append(String.format(Locale.ROOT, " %12.2f %12.2f", perSecond(stats.hits), perSecond(stats.misses)));
        } else {
            line.append(String.format(Locale.ROOT, " %12s %12s", "---", "---"));
        }
        line.append(String.format(Locale.ROOT, " %15.5f", mean(stats)));
        for (double percentile : options.percentiles) {
            line.append(String.format(Locale.ROOT, " %15.5f", percentileMillis(stats, percentile)));
        }
        line.append(String.format(Locale.ROOT, " %15.5f %12.2f %10d", maxMillis(stats), kilobytesPerSecond(stats),
            stats.errors));
        return line.toString();
    }

    void printHistogram(PrintStream out) {
        out.println();
        out.println();
        out.println("Request Latency Distribution");
        out.printf("%-6s %12s %12s%n", "Type", "<= msec", "Percent");
        out.println("-".repeat(72));
        boolean first = true;
        for (Row row : rows) {
            if (row.stats.count() == 0) {
                continue;
            }
            if (!first) {
                out.println("---");
            }
            first = false;
            long previous = -1;
            for (HistogramIterationValue value : row.stats.latency.percentiles(5)) {
                long nanos = value.getValueIteratedTo();
                if (nanos != previous) {
                    out.printf(Locale.ROOT, "%-6s %12.3f %12.3f%n", row.command, nanos / NANOS_PER_MILLI,
                        value.getPercentileLevelIteratedTo());
                    previous = nanos;
                }
            }
        }
    }

    /** The results in memtier_benchmark's JSON layout, with an "Errors" count per command. */
    String json() {
        StringBuilder json = new StringBuilder(4096);
        json.append("{\n\"configuration\": {\n");
        field(json, "server", quoted(options.server)).append(",\n");
        field(json, "port", Integer.toString(options.port)).append(",\n");
        field(json, "transport", quoted(transport)).append(",\n");
        field(json, "threads", Integer.toString(options.threads)).append(",\n");
        field(json, "clients", Integer.toString(options.clients)).append(",\n");
        field(json, "requests", Long.toString(options.testTimeSeconds > 0 ? 0 : options.requests)).append(",\n");
        field(json, "test_time", Integer.toString(options.testTimeSeconds)).append(",\n");
        field(json, "pipeline", Integer.toString(options.pipeline)).append(",\n");
        field(json, "rate_limiting", Integer.toString(options.rateLimit)).append(",\n");
        field(json, "ratio", quoted(options.setRatio + ":" + options.getRatio)).append(",\n");
        field(json, "data_size", Integer.toString(options.dataSize)).append(",\n");
        field(json, "data_size_range", quoted(options.dataSizeMinimum + "-" + options.dataSizeMaximum)).append(",\n");
        field(json, "data_size_pattern", quoted(String.valueOf(options.dataSizePattern))).append(",\n");
        field(json, "random_data", Boolean.toString(options.randomData)).append(",\n");
        field(json, "key_prefix", quoted(options.keyPrefix)).append(",\n");
        field(json, "key_minimum", Long.toString(options.keyMinimum)).append(",\n");
        field(json, "key_maximum", Long.toString(options.keyMaximum)).append(",\n");
        field(json, "key_pattern", quoted(options.setKeyPattern.letter() + ":" + options.getKeyPattern.letter()))
            .append(",\n");
        field(json, "key_stddev", number(options.keyStddev)).append(",\n");
        field(json, "key_median", number(options.keyMedian)).append(",\n");
        field(json, "distinct_client_seed", Boolean.toString(options.distinctClientSeed)).append(",\n");
        List<String> commands = new ArrayList<>();
        for (LoadOptions.Command command : options.commands) {
            commands.add(quoted(String.join(" ", command.words())));
        }
        field(json, "commands", "[" + String.join(", ", commands) + "]").append("\n},\n");
        json.append("\"ALL STATS\": {\n");
        for (Row row : rows) {
            stats(json, row).append(",\n");
        }
        stats(json, totals).append(",\n");
        json.append("\"Runtime\": {\n");
        field(json, "Start time", Long.toString(startMillis)).append(",\n");
        field(json, "Finish time", Long.toString(finishMillis)).append(",\n");
        field(json, "Total duration", Long.toString(durationNanos / 1_000_000)).append(",\n");
        field(json, "Time unit", quoted("MILLISECONDS")).append("\n}\n},\n");
        field(json, "Connection error", connectionError == null ? "null" : quoted(connectionError)).append("\n}\n");
        return json.toString();
    }

    private StringBuilder stats(StringBuilder json, Row row) {
        CommandStats stats = row.stats;
        json.append(quoted(row.name)).append(": {\n");
        field(json, "Count", Long.toString(stats.count())).append(",\n");
        field(json, "Ops/sec", number(perSecond(stats.count()))).append(",\n");
        field(json, "Hits/sec", number(row.read ? perSecond(stats.hits) : 0)).append(",\n");
        field(json, "Misses/sec", number(row.read ? perSecond(stats.misses) : 0)).append(",\n");
        field(json, "Average Latency", number(mean(stats))).append(",\n");
        field(json, "Min Latency", number(stats.count() == 0 ? 0 : stats.latency.getMinValue() / NANOS_PER_MILLI))
            .append(",\n");
        field(json, "Max Latency", number(maxMillis(stats))).append(",\n");
        field(json, "KB/sec", number(kilobytesPerSecond(stats))).append(",\n");
        field(json, "Errors", Long.toString(stats.errors)).append(",\n");
        if (stats.firstError != null) {
            field(json, "First error", quoted(stats.firstError)).append(",\n");
        }
        json.append("\"Percentile Latencies\": {");
        List<String> percentiles = new ArrayList<>();
        for (double percentile : options.percentiles) {
            percentiles.add(quoted(String.format(Locale.ROOT, "p%.2f", percentile)) + ": "
                + number(percentileMillis(stats, percentile)));
        }
        json.append(String.join(", ", percentiles)).append("}\n}");
        return json;
    }

    private double kilobytesPerSecond(CommandStats stats) {
        return perSecond(stats.bytesSent + stats.bytesReceived) / 1024;
    }

    private static double mean(CommandStats stats) {
        return stats.count() == 0 ? 0 : stats.latency.getMean() / NANOS_PER_MILLI;
    }

    private static double maxMillis(CommandStats stats) {
        return stats.count() == 0 ? 0 : stats.latency.getMaxValue() / NANOS_PER_MILLI;
    }

    private static double percentileMillis(CommandStats stats, double percentile) {
        return stats.count() == 0 ? 0 : stats.latency.getValueAtPercentile(percentile) / NANOS_PER_MILLI;
    }

    /** "50", "99", "99.9": a percentile as the column title shows it. */
    static String percentileLabel(double percentile) {
        return percentile == Math.rint(percentile) ? Long.toString((long) percentile)
            : String.valueOf(percentile).replaceAll("0+$", "");
    }

    private static StringBuilder field(StringBuilder json, String name, String value) {
        return json.append(quoted(name)).append(": ").append(value);
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.5f", value);
    }

    static String quoted(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
