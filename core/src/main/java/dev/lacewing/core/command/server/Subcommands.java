package dev.lacewing.core.command.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.core.command.ContextHandler;
import dev.lacewing.core.command.Errors;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The subcommands of a container command (CLIENT, CONFIG, COMMAND, MEMORY, MODULE, OBJECT), as Redis 7
 * declares them: each has its own spec (arity, flags, summary) under a full name
 * ({@code client|setname}) that the arity error, CLIENT LIST's {@code cmd=}, COMMAND INFO and INFO
 * commandstats use. The container's spec carries them ({@link #container}), so the command table
 * holds them with everything else. An unknown subcommand and a wrong argument count get Redis's
 * two distinct errors.
 *
 * <p>The connection names its running command by the subcommand (CLIENT LIST's {@code cmd=client|info},
 * INFO's {@code cmdstat_client|info}) when it dispatches it, from the command table.
 *
 * <p>Thread rule: immutable once its family has registered; handlers run on the command's thread.
 *
 * @param <C> the context the handlers take: the api's, or core's own for a family that needs it
 */
public final class Subcommands<C extends CommandContext> {

    private record Subcommand<C extends CommandContext>(CommandSpec spec, ContextHandler<? super C> handler) {
    }

    private final String container;
    private final String group;
    private final Map<String, Subcommand<C>> byName = new LinkedHashMap<>();

    public Subcommands(String container, String group) {
        this.container = container;
        this.group = group;
    }

    /** Adds a keyless subcommand; {@code arity} counts the container's name, as Redis's does. */
    public Subcommands<C> add(String name, int arity, String summary, ContextHandler<? super C> handler,
                              CommandFlag... flags) {
        return add(name, arity, 0, 0, 0, KeyScope.NONE, summary, handler, flags);
    }

    /** Adds a subcommand with keys at {@code firstKey..lastKey}, counted from the container's name. */
    public Subcommands<C> add(String name, int arity, int firstKey, int lastKey, int step, KeyScope scope,
                              String summary, ContextHandler<? super C> handler, CommandFlag... flags) {
        byName.put(name, new Subcommand<>(new CommandSpec(container + "|" + name, arity, Set.of(flags), firstKey, lastKey,
            step, scope, group, summary), handler));
        return this;
    }

    /** Adds HELP, which every container has. */
    public Subcommands<C> help(ContextHandler<? super C> handler) {
        return add("help", 2, "Show helpful text about the different subcommands", handler, CommandFlag.LOADING,
            CommandFlag.STALE);
    }

    /** The container's spec with these subcommands in its details. */
    public CommandSpec container(CommandSpec spec) {
        List<CommandSpec> specs = byName.values().stream().map(Subcommand::spec).toList();
        return spec.withDetails(spec.details().withSubcommands(specs));
    }

    /** Runs the subcommand named by argument 1; the container's own arity guarantees there is one. */
    public void dispatch(C ctx) {
        Arguments args = ctx.arguments();
        Subcommand<C> subcommand = byName.get(args.string(1).toLowerCase(Locale.ROOT));
        if (subcommand == null) {
            ctx.reply().error(unknownSubcommand(args));
            return;
        }
        CommandSpec spec = subcommand.spec();
        if (!spec.acceptsArgumentCount(args.count())) {
            ctx.reply().error(Errors.wrongArity(spec.name()));
            return;
        }
        subcommand.handler().execute(ctx);
    }

    /** processCommand's wording: the raw name as a C string (up to a NUL byte), at most 128 bytes. */
    private byte[] unknownSubcommand(Arguments args) {
        return Errors.quoting("ERR unknown subcommand '", args.array(), args.offset(1), args.length(1), 128,
            "'. Try " + container.toUpperCase(Locale.ROOT) + " HELP.");
    }
}
