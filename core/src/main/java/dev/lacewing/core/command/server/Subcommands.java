package dev.lacewing.core.command.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandHandler;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.server.ClientConnection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The subcommands of a container command (CLIENT, CONFIG, COMMAND, MEMORY, MODULE), as Redis 7
 * declares them: each has its own spec (arity, flags, summary) under a full name
 * ({@code client|setname}) that the arity error, CLIENT LIST's {@code cmd=}, COMMAND INFO and INFO
 * commandstats use. The container's spec carries them ({@link #container}), so the command table
 * holds them with everything else. An unknown subcommand and a wrong argument count get Redis's
 * two distinct errors.
 *
 * <p>Thread rule: immutable once its family has registered; handlers run on the command's thread.
 */
final class Subcommands {

    private record Subcommand(CommandSpec spec, CommandHandler handler) {
    }

    private final String container;
    private final String group;
    private final Map<String, Subcommand> byName = new LinkedHashMap<>();

    Subcommands(String container, String group) {
        this.container = container;
        this.group = group;
    }

    /** Adds a keyless subcommand; {@code arity} counts the container's name, as Redis's does. */
    Subcommands add(String name, int arity, String summary, CommandHandler handler, CommandFlag... flags) {
        return add(name, arity, 0, 0, 0, KeyScope.NONE, summary, handler, flags);
    }

    /** Adds a subcommand with keys at {@code firstKey..lastKey}, counted from the container's name. */
    Subcommands add(String name, int arity, int firstKey, int lastKey, int step, KeyScope scope, String summary,
                    CommandHandler handler, CommandFlag... flags) {
        byName.put(name, new Subcommand(new CommandSpec(container + "|" + name, arity, Set.of(flags), firstKey, lastKey,
            step, scope, group, summary), handler));
        return this;
    }

    /** Adds HELP, which every container has. */
    Subcommands help(CommandHandler handler) {
        return add("help", 2, "Show helpful text about the different subcommands", handler, CommandFlag.LOADING,
            CommandFlag.STALE);
    }

    /** The container's spec with these subcommands in its details. */
    CommandSpec container(CommandSpec spec) {
        List<CommandSpec> specs = byName.values().stream().map(Subcommand::spec).toList();
        return spec.withDetails(spec.details().withSubcommands(specs));
    }

    /** Runs the subcommand named by argument 1; the container's own arity guarantees there is one. */
    void dispatch(CommandContext ctx) {
        Arguments args = ctx.arguments();
        String name = args.string(1).toLowerCase(Locale.ROOT);
        Subcommand subcommand = byName.get(name);
        if (subcommand == null) {
            ctx.reply().error(unknownSubcommand(args));
            return;
        }
        CommandSpec spec = subcommand.spec();
        if (!spec.acceptsArgumentCount(args.count())) {
            ctx.reply().error(Errors.wrongArity(spec.name()));
            return;
        }
        if (ctx.client() instanceof ClientConnection connection) {
            connection.subcommand(name);
        }
        subcommand.handler().execute(ctx);
    }

    /** processCommand's wording: the raw name as a C string (up to a NUL byte), at most 128 bytes. */
    private byte[] unknownSubcommand(Arguments args) {
        return Errors.quoting("ERR unknown subcommand '", args.array(), args.offset(1), args.length(1), 128,
            "'. Try " + container.toUpperCase(Locale.ROOT) + " HELP.");
    }
}
