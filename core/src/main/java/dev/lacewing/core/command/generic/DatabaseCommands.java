package dev.lacewing.core.command.generic;

import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.LOADING;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.STALE;
import static dev.lacewing.api.CommandFlag.WRITE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import java.util.Set;

/**
 * Commands on whole databases (Redis's db.c): SELECT, SWAPDB, DBSIZE, FLUSHDB and FLUSHALL.
 * SELECT only changes the connection's database and touches no data; the others run with the
 * whole keyspace granted.
 *
 * <p>FLUSHDB and FLUSHALL accept ASYNC and SYNC and always empty the tables at once: dropping
 * the tables' arrays is already constant time here, and the GC reclaims the entries.
 *
 * <p>Stateless.
 */
final class DatabaseCommands {

    /** Returned by the integer parsers once they have replied with an error; valid values fit an int. */
    static final long REFUSED = Long.MIN_VALUE;

    private DatabaseCommands() {
    }

    static void register(CommandRegistry registry) {
        registry.register(spec("select", 2, KeyScope.NONE, "connection",
            "Change the selected database for the current connection", LOADING, STALE, FAST),
            DatabaseCommands::select);
        registry.register(spec("swapdb", 3, KeyScope.ALL, "server", "Swaps two Redis databases", WRITE, FAST),
            DatabaseCommands::swapdb);
        registry.register(spec("dbsize", 1, KeyScope.ALL, "server",
            "Return the number of keys in the selected database", READONLY, FAST), DatabaseCommands::dbsize);
        registry.register(spec("flushdb", -1, KeyScope.ALL, "server", "Remove all keys from the current database",
            WRITE), DatabaseCommands::flushdb);
        registry.register(spec("flushall", -1, KeyScope.ALL, "server", "Remove all keys from all databases",
            WRITE), DatabaseCommands::flushall);
    }

    private static CommandSpec spec(String name, int arity, KeyScope scope, String group, String summary,
                                    CommandFlag... flags) {
        return new CommandSpec(name, arity, Set.of(flags), 0, 0, 0, scope, group, summary);
    }

    private static void select(CommandContext ctx) {
        long index = databaseIndexOrReply(ctx, 1);
        if (index != REFUSED) {
            ctx.client().selectDatabase((int) index);
            ctx.reply().ok();
        }
    }

    /** SWAPDB (swapdbCommand): each index must be an int, then both must name a database. */
    private static void swapdb(CommandContext ctx) {
        long first = intOrReply(ctx, 1, Errors.INVALID_FIRST_DB_INDEX);
        if (first == REFUSED) {
            return;
        }
        long second = intOrReply(ctx, 2, Errors.INVALID_SECOND_DB_INDEX);
        if (second == REFUSED) {
            return;
        }
        if (!isDatabase(ctx, first) || !isDatabase(ctx, second)) {
            ctx.reply().error(Errors.DB_INDEX_OUT_OF_RANGE);
            return;
        }
        ctx.swapDatabases((int) first, (int) second);
        ctx.reply().ok();
    }

    /** DBSIZE counts keys whose time has passed but that are not yet deleted, as Redis's does. */
    private static void dbsize(CommandContext ctx) {
        ctx.reply().integer(ctx.keyspace().size());
    }

    private static void flushdb(CommandContext ctx) {
        if (flushModeOrReply(ctx)) {
            ctx.keyspace().clear();
            ctx.reply().ok();
        }
    }

    private static void flushall(CommandContext ctx) {
        if (flushModeOrReply(ctx)) {
            ctx.flushAll();
            ctx.reply().ok();
        }
    }

    /** FLUSHDB and FLUSHALL take nothing, ASYNC or SYNC (getFlushCommandFlags); replies the syntax error otherwise. */
    private static boolean flushModeOrReply(CommandContext ctx) {
        Arguments args = ctx.arguments();
        if (args.count() == 1 || (args.count() == 2 && (args.is(1, "ASYNC") || args.is(1, "SYNC")))) {
            return true;
        }
        ctx.reply().error(Errors.SYNTAX);
        return false;
    }

    /**
     * Argument {@code index} as a database index, the way SELECT, MOVE and COPY read it: an int
     * (getIntFromObjectOrReply), then a database that exists. Replies the error and returns
     * {@link #REFUSED} otherwise.
     */
    static long databaseIndexOrReply(CommandContext ctx, int index) {
        long value = intOrReply(ctx, index, null);
        if (value != REFUSED && !isDatabase(ctx, value)) {
            ctx.reply().error(Errors.DB_INDEX_OUT_OF_RANGE);
            return REFUSED;
        }
        return value;
    }

    private static boolean isDatabase(CommandContext ctx, long index) {
        return index >= 0 && index < ctx.databases();
    }

    /**
     * Argument {@code index} as an int (getIntFromObjectOrReply): replies {@code message}, or
     * Redis's default errors when it is null, and returns {@link #REFUSED} when it is not one.
     */
    private static long intOrReply(CommandContext ctx, int index, String message) {
        Arguments args = ctx.arguments();
        long value;
        try {
            value = Numbers.parseLong(args.array(), args.offset(index), args.length(index));
        } catch (InvalidNumber e) {
            ctx.reply().error(message != null ? message : Errors.NOT_INTEGER);
            return REFUSED;
        }
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            ctx.reply().error(message != null ? message : Errors.valueOutOfRange(Integer.MIN_VALUE, Integer.MAX_VALUE));
            return REFUSED;
        }
        return value;
    }
}
