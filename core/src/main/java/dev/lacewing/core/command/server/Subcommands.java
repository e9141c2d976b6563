package dev.lacewing.core.command.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandHandler;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.server.ClientConnection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The subcommands of a container command (CLIENT, CONFIG, COMMAND, MEMORY, MODULE), as Redis 7
 * declares them: each has its own arity and a full name ({@code client|setname}) that the arity
 * error and CLIENT LIST's {@code cmd=} use. An unknown subcommand and a wrong argument count get
 * Redis's two distinct errors.
 *
 * <p>Thread rule: immutable once its family has registered; handlers run on the command's thread.
 */
final class Subcommands {

    private record Subcommand(String fullName, int arity, CommandHandler handler) {
    }

    private final String container;
    private final Map<String, Subcommand> byName = new LinkedHashMap<>();

    Subcommands(String container) {
        this.container = container;
    }

    /** Adds a subcommand; {@code arity} counts the container's name, as Redis's does. */
    Subcommands add(String name, int arity, CommandHandler handler) {
        byName.put(name, new Subcommand(container + "|" + name, arity, handler));
        return this;
    }

    /** Runs the subcommand named by argument 1; the container's own arity guarantees there is one. */
    void dispatch(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Subcommand subcommand = byName.get(args.string(1).toLowerCase(Locale.ROOT));
        if (subcommand == null) {
            ctx.reply().error(unknownSubcommand(args.string(1)));
            return;
        }
        int count = args.count();
        int arity = subcommand.arity();
        if (arity >= 0 ? count != arity : count < -arity) {
            ctx.reply().error(Errors.wrongArity(subcommand.fullName()));
            return;
        }
        if (ctx.client() instanceof ClientConnection connection) {
            connection.subcommand(subcommand.fullName());
        }
        subcommand.handler().execute(ctx);
    }

    /** processCommand's wording: the name as a C string (up to a NUL byte), at most 128 characters. */
    private String unknownSubcommand(String name) {
        int nul = name.indexOf('\0');
        String shown = nul >= 0 ? name.substring(0, nul) : name;
        if (shown.length() > 128) {
            shown = shown.substring(0, 128);
        }
        return "ERR unknown subcommand '" + shown + "'. Try " + container.toUpperCase(Locale.ROOT) + " HELP.";
    }
}
