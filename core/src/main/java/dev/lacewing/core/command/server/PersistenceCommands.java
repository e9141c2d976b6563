package dev.lacewing.core.command.server;

import static dev.lacewing.api.CommandFlag.ADMIN;
import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.LOADING;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
import static dev.lacewing.api.CommandFlag.NO_ASYNC_LOADING;
import static dev.lacewing.api.CommandFlag.NO_MULTI;
import static dev.lacewing.api.CommandFlag.STALE;

import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.persistence.BackgroundSave;
import dev.lacewing.core.persistence.Snapshots;
import dev.lacewing.core.persistence.aof.AppendOnlyFile;
import dev.lacewing.core.server.CoreContext;
import dev.lacewing.core.server.ServerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * SAVE, BGSAVE and LASTSAVE (Redis's rdb.c), over the RDB file {@link Snapshots} writes. SAVE holds
 * the whole keyspace through the engine's door, as FLUSHALL does, so its file is one instant across
 * every shard; like Redis's SAVE it blocks every other command meanwhile. BGSAVE holds it only for
 * its epoch, then {@link BackgroundSave} writes the file while the server serves.
 *
 * <p>Stateless; SAVE and BGSAVE run on the thread granted the whole keyspace, LASTSAVE on the client's.
 */
public final class PersistenceCommands {

    private PersistenceCommands() {
    }

    public static void register(CommandTable.Builder<CoreContext> registry) {
        registry.registerCore(spec("save", 1, KeyScope.ALL, "Synchronously save the dataset to disk", NOSCRIPT, ADMIN,
            NO_ASYNC_LOADING, NO_MULTI), PersistenceCommands::save);
        registry.registerCore(spec("bgrewriteaof", 1, KeyScope.ALL, "Asynchronously rewrite the append-only file to "
            + "disk", NOSCRIPT, ADMIN, NO_ASYNC_LOADING), PersistenceCommands::bgrewriteaof);
        registry.registerCore(spec("bgsave", -1, KeyScope.ALL, "Asynchronously save the dataset to disk", NOSCRIPT,
            ADMIN, NO_ASYNC_LOADING), PersistenceCommands::bgsave);
        registry.registerCore(spec("lastsave", 1, KeyScope.NONE, "Get the UNIX time stamp of the last successful save "
            + "to disk", LOADING, STALE, FAST), PersistenceCommands::lastsave);
    }

    private static CommandSpec spec(String name, int arity, KeyScope scope, String summary, CommandFlag... flags) {
        return new CommandSpec(name, arity, Set.of(flags), 0, 0, 0, scope, "server", summary);
    }

    /** Every database, as the command holding the whole keyspace sees them. */
    static List<Keyspace> databases(CommandContext ctx) {
        List<Keyspace> all = new ArrayList<>(ctx.databases());
        for (int i = 0; i < ctx.databases(); i++) {
            all.add(ctx.keyspace(i));
        }
        return all;
    }

    /** SAVE: OK, or a bare ERR when the file could not be written (the log says why). */
    private static void save(CoreContext ctx) {
        ServerState state = ctx.server();
        if (state.backgroundSave().running()) {
            ctx.reply().error(BackgroundSave.IN_PROGRESS);
            return;
        }
        List<Keyspace> databases = databases(ctx);
        if (state.snapshots().save(databases)) {
            state.backgroundSave().saved(databases);
            ctx.reply().ok();
        } else {
            ctx.reply().error(Errors.SAVE_FAILED);
        }
    }

    /**
     * BGREWRITEAOF (aof.c's bgrewriteaofCommand), holding the whole keyspace for the rewrite's epoch
     * only ({@link AppendOnlyFile#rewriteInBackground}); its own thread then writes the base while
     * the server serves. During a BGSAVE it is scheduled, and starts once the save ended.
     */
    private static void bgrewriteaof(CoreContext ctx) {
        ServerState state = ctx.server();
        AppendOnlyFile aof = state.aof();
        if (aof.rewriteInProgress()) {
            ctx.reply().error("ERR Background append only file rewriting already in progress");
        } else if (aof.rewriteScheduled() || state.backgroundSave().running()) {
            aof.scheduleRewrite();
            ctx.reply().simple("Background append only file rewriting scheduled");
        } else if (aof.rewriteInBackground(databases(ctx))) {
            ctx.reply().simple("Background append only file rewriting started");
        } else {
            ctx.reply().error("ERR Can't execute an AOF background rewriting. Please check the server logs for more "
                + "information.");
        }
    }

    /** BGSAVE [SCHEDULE]: "Background saving started" once the epoch is taken. */
    private static void bgsave(CoreContext ctx) {
        int count = ctx.arguments().count();
        if (count > 2 || count == 2 && !ctx.arguments().is(1, "schedule")) {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        String reply = ctx.server().backgroundSave().request(databases(ctx), count == 2,
            ctx.insideExec());
        if (reply.startsWith("ERR ")) {
            ctx.reply().error(reply);
        } else {
            ctx.reply().simple(reply);
        }
    }

    private static void lastsave(CoreContext ctx) {
        ctx.reply().integer(ctx.server().snapshots().lastSaveSeconds());
    }
}
