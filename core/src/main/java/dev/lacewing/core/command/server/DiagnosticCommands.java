package dev.lacewing.core.command.server;

import static dev.lacewing.api.CommandFlag.ADMIN;
import static dev.lacewing.api.CommandFlag.LOADING;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
import static dev.lacewing.api.CommandFlag.STALE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.diagnostics.LatencyMonitor;
import dev.lacewing.core.diagnostics.LatencyReport;
import dev.lacewing.core.diagnostics.LatencyTracking;
import dev.lacewing.core.diagnostics.SlowLog;
import dev.lacewing.core.server.ClientConnection;
import dev.lacewing.core.server.CoreContext;
import dev.lacewing.core.server.ServerState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * The server's diagnostics, as Redis 7.0 has them: SLOWLOG GET, LEN, RESET and HELP over the
 * server's {@link SlowLog} (slowlog.c), LATENCY LATEST, HISTORY, RESET, DOCTOR, GRAPH and HELP over
 * its {@link LatencyMonitor} (latency.c), LATENCY HISTOGRAM over the commands' latency-tracking
 * histograms, and MONITOR.
 */
public final class DiagnosticCommands {

    /** SLOWLOG GET's count without an argument. */
    private static final long DEFAULT_COUNT = 10;

    private DiagnosticCommands() {
    }

    private static final Subcommands<CoreContext> SLOWLOG = new Subcommands<CoreContext>("slowlog", "server")
        .add("get", -2, "Get the slow log's entries", DiagnosticCommands::get, ADMIN, LOADING, STALE)
        .add("len", 2, "Get the slow log's length", ctx -> ctx.reply().integer(slowLog(ctx).length()),
            ADMIN, LOADING, STALE)
        .add("reset", 2, "Clear all entries from the slow log", ctx -> {
            slowLog(ctx).reset();
            ctx.reply().ok();
        }, ADMIN, LOADING, STALE)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "SLOWLOG",
            "GET [<count>]",
            "    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
            "    Entries are made of:",
            "    id, timestamp, time in microseconds, arguments array, client IP and port,",
            "    client name",
            "LEN",
            "    Return the length of the slowlog.",
            "RESET",
            "    Reset the slowlog."));

    private static final Subcommands<CoreContext> LATENCY = new Subcommands<CoreContext>("latency", "server")
        .add("latest", 2, "Return the latest latency samples for all events.", DiagnosticCommands::latencyLatest,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("history", 3, "Return timestamp-latency samples for the event.", DiagnosticCommands::latencyHistory,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("reset", -2, "Reset latency data for one or more events.", DiagnosticCommands::latencyReset,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("doctor", 2, "Return a human readable latency analysis report.", ctx -> ctx.reply().verbatim(
            LatencyReport.doctor(latency(ctx), ctx.server().settings().longValue(
                "slowlog-log-slower-than"), System.currentTimeMillis() / 1000)), ADMIN, NOSCRIPT, LOADING, STALE)
        .add("graph", 3, "Return a latency graph for the event.", DiagnosticCommands::latencyGraph,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("histogram", -2, "Return the cumulative distribution of latencies of a subset of commands or all.",
            DiagnosticCommands::latencyHistogram, ADMIN, NOSCRIPT, LOADING, STALE)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "LATENCY",
            "DOCTOR",
            "    Return a human readable latency analysis report.",
            "GRAPH <event>",
            "    Return an ASCII latency graph for the <event> class.",
            "HISTORY <event>",
            "    Return time-latency samples for the <event> class.",
            "LATEST",
            "    Return the latest latency samples for all events.",
            "RESET [<event> ...]",
            "    Reset latency data of one or more <event> classes.",
            "    (default: reset all data for all event classes)",
            "HISTOGRAM [COMMAND ...]",
            "    Return a cumulative distribution of latencies in the format of a histogram for the specified command names.",
            "    If no commands are specified then all histograms are replied."));

    public static void register(CommandTable.Builder<CoreContext> registry) {
        registry.registerCore(LATENCY.container(new CommandSpec("latency", -2, Set.of(), 0, 0, 0, KeyScope.NONE, "server",
            "A container for latency diagnostics commands")), LATENCY::dispatch);
        registry.registerCore(SLOWLOG.container(new CommandSpec("slowlog", -2, Set.of(), 0, 0, 0,
            KeyScope.NONE, "server", "A container for slow log commands")), SLOWLOG::dispatch);
        registry.registerCore(new CommandSpec("monitor", 1, Set.of(ADMIN, NOSCRIPT, LOADING, STALE), 0, 0, 0,
            KeyScope.NONE, "server", "Listen for all requests received by the server in real time"),
            DiagnosticCommands::monitor);
    }

    private static LatencyMonitor latency(CoreContext ctx) {
        return ctx.server().latencyMonitor();
    }

    /** LATENCY LATEST: per event, its name, the latest sample's time and latency, and the highest ever. */
    private static void latencyLatest(CoreContext ctx) {
        List<LatencyMonitor.Latest> latest = latency(ctx).latest();
        ReplyWriter reply = ctx.reply();
        reply.array(latest.size());
        for (LatencyMonitor.Latest event : latest) {
            reply.array(4);
            reply.bulk(event.event());
            reply.integer(event.sample().unixSeconds());
            reply.integer(event.sample().millis());
            reply.integer(event.maxMillis());
        }
    }

    /** LATENCY HISTORY event: its samples, oldest first, each as time and latency. */
    private static void latencyHistory(CoreContext ctx) {
        List<LatencyMonitor.Sample> samples = latency(ctx).history(ctx.arguments().string(2));
        ReplyWriter reply = ctx.reply();
        reply.array(samples.size());
        for (LatencyMonitor.Sample sample : samples) {
            reply.array(2);
            reply.integer(sample.unixSeconds());
            reply.integer(sample.millis());
        }
    }

    /** LATENCY GRAPH event: the event's samples as an ASCII sparkline; an error for an event without samples. */
    private static void latencyGraph(CoreContext ctx) {
        String event = ctx.arguments().string(2);
        String graph = LatencyReport.graph(latency(ctx), event, System.currentTimeMillis() / 1000);
        if (graph == null) {
            ctx.reply().error("ERR No samples available for event '" + event + "'");
        } else {
            ctx.reply().verbatim(graph);
        }
    }

    /** LATENCY RESET [event ...]: how many events it forgot. */
    private static void latencyReset(CoreContext ctx) {
        Arguments args = ctx.arguments();
        List<String> named = new java.util.ArrayList<>();
        for (int i = 2; i < args.count(); i++) {
            named.add(args.string(i));
        }
        ctx.reply().integer(latency(ctx).reset(named));
    }

    /**
     * LATENCY HISTOGRAM [command ...]: per command with recorded calls, by its full name, a map of
     * {@code calls} and {@code histogram_usec} (bucket's microseconds to calls up to it). A named
     * container brings its subcommands; unknown names are skipped, as Redis does.
     */
    private static void latencyHistogram(CoreContext ctx) {
        Arguments args = ctx.arguments();
        ServerState state = ctx.server();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        if (args.count() == 2) {
            state.commands().commands().forEach(command -> addHistograms(command, histograms));
        } else {
            for (int i = 2; i < args.count(); i++) {
                Command<?> command = state.commands().lookup(args.string(i));
                if (command != null) {
                    addHistograms(command, histograms);
                }
            }
        }
        ReplyWriter reply = ctx.reply();
        reply.map(histograms.size());
        histograms.forEach((name, histogram) -> {
            reply.bulk(name);
            reply.map(2);
            reply.bulk("calls");
            reply.integer(histogram.getTotalCount());
            reply.bulk("histogram_usec");
            List<LatencyTracking.Bucket> buckets = LatencyTracking.buckets(histogram);
            reply.map(buckets.size());
            for (LatencyTracking.Bucket bucket : buckets) {
                reply.integer(bucket.micros());
                reply.integer(bucket.calls());
            }
        });
    }

    /** The command's histogram and its subcommands', those with calls recorded. */
    private static void addHistograms(Command<?> command, Map<String, Histogram> histograms) {
        Histogram histogram = command.latency().snapshot();
        if (histogram.getTotalCount() > 0) {
            histograms.put(command.spec().name(), histogram);
        }
        for (Command<?> subcommand : command.subcommands()) {
            addHistograms(subcommand, histograms);
        }
    }

    /**
     * MONITOR: from now on the client gets a line for every command that runs (see Monitors). Inside
     * EXEC, where a client may not block, Redis refuses it; a client that already monitors gets no
     * reply at all.
     */
    private static void monitor(CoreContext ctx) {
        ClientConnection connection = ctx.connection();
        if (connection != ctx) {
            ctx.reply().error("ERR MONITOR isn't allowed for DENY BLOCKING client");
            return;
        }
        if (connection.startMonitoring()) {
            ctx.reply().ok();
        }
    }

    private static SlowLog slowLog(CoreContext ctx) {
        return ctx.server().slowLog();
    }

    /** SLOWLOG GET [count]: the newest entries first; -1 for all of them. */
    private static void get(CoreContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        if (args.count() > 3) {
            reply.error(ConnectionCommands.unknownSubcommand(args, "SLOWLOG"));
            return;
        }
        long count = DEFAULT_COUNT;
        if (args.count() == 3) {
            try {
                count = Numbers.parseLong(args.array(), args.offset(2), args.length(2));
            } catch (Numbers.InvalidNumber e) {
                count = Long.MIN_VALUE;
            }
            if (count < -1) {
                reply.error("ERR count should be greater than or equal to -1");
                return;
            }
        }
        List<SlowLog.Entry> entries = slowLog(ctx).newest(count);
        reply.array(entries.size());
        for (SlowLog.Entry entry : entries) {
            reply.array(6);
            reply.integer(entry.id());
            reply.integer(entry.unixSeconds());
            reply.integer(entry.micros());
            reply.array(entry.arguments().size());
            for (byte[] argument : entry.arguments()) {
                reply.bulk(argument);
            }
            reply.bulk(entry.peer());
            reply.bulk(entry.clientName());
        }
    }
}
