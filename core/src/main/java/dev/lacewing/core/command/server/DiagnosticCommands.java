package dev.lacewing.core.command.server;

import static dev.lacewing.api.CommandFlag.ADMIN;
import static dev.lacewing.api.CommandFlag.LOADING;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
import static dev.lacewing.api.CommandFlag.STALE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.diagnostics.SlowLog;
import dev.lacewing.core.server.ClientConnection;
import dev.lacewing.core.server.ServerState;
import java.util.List;
import java.util.Set;

/**
 * The server's diagnostics, as Redis 7.0 has them: SLOWLOG GET, LEN, RESET and HELP over the
 * server's {@link SlowLog} (slowlog.c), and MONITOR.
 */
public final class DiagnosticCommands {

    /** SLOWLOG GET's count without an argument. */
    private static final long DEFAULT_COUNT = 10;

    private DiagnosticCommands() {
    }

    private static final Subcommands SLOWLOG = new Subcommands("slowlog", "server")
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

    public static void register(CommandRegistry registry) {
        registry.register(SLOWLOG.container(new CommandSpec("slowlog", -2, Set.of(), 0, 0, 0,
            KeyScope.NONE, "server", "A container for slow log commands")), SLOWLOG::dispatch);
        registry.register(new CommandSpec("monitor", 1, Set.of(ADMIN, NOSCRIPT, LOADING, STALE), 0, 0, 0,
            KeyScope.NONE, "server", "Listen for all requests received by the server in real time"),
            DiagnosticCommands::monitor);
    }

    /**
     * MONITOR: from now on the client gets a line for every command that runs (see Monitors). Inside
     * EXEC, where a client may not block, Redis refuses it; a client that already monitors gets no
     * reply at all.
     */
    private static void monitor(CommandContext ctx) {
        if (!(ctx instanceof ClientConnection connection)) {
            ctx.reply().error("ERR MONITOR isn't allowed for DENY BLOCKING client");
            return;
        }
        if (connection.startMonitoring()) {
            ctx.reply().ok();
        }
    }

    private static SlowLog slowLog(CommandContext ctx) {
        return ((ServerState) ctx.server()).slowLog();
    }

    /** SLOWLOG GET [count]: the newest entries first; -1 for all of them. */
    private static void get(CommandContext ctx) {
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
