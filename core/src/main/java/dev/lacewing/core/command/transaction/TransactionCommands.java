package dev.lacewing.core.command.transaction;

import static dev.lacewing.api.CommandFlag.ALLOW_BUSY;
import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.LOADING;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
import static dev.lacewing.api.CommandFlag.SKIP_SLOWLOG;
import static dev.lacewing.api.CommandFlag.STALE;

import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.server.CoreContext;
import dev.lacewing.core.server.Multi;
import java.util.Set;

/**
 * MULTI, EXEC, DISCARD, WATCH, UNWATCH (Redis's multi.c). The transaction's state and EXEC's run live with the
 * connection ({@link Multi}); inside MULTI, dispatch queues commands and hands EXEC to the engine,
 * so EXEC's handler here only answers EXEC without MULTI.
 */
public final class TransactionCommands {

    private static final String GROUP = "transactions";

    private TransactionCommands() {
    }

    public static void register(CommandTable.Builder<CoreContext> registry) {
        registry.registerCore(spec("multi", "Start a transaction block", FAST, ALLOW_BUSY),
            ctx -> Multi.of(ctx).multi(ctx.reply()));
        registry.registerCore(spec("exec", "Execute all commands issued after MULTI", SKIP_SLOWLOG),
            ctx -> Multi.of(ctx).execWithoutMulti(ctx.reply()));
        registry.registerCore(spec("discard", "Discard all commands issued after MULTI", FAST, ALLOW_BUSY),
            ctx -> Multi.of(ctx).discard(ctx.reply()));
        Set<CommandFlag> watchFlags = Set.of(NOSCRIPT, LOADING, STALE, FAST, ALLOW_BUSY);
        registry.registerCore(new CommandSpec("watch", -2, watchFlags, 1, -1, 1, KeyScope.KEYS, GROUP,
            "Watch the given keys to determine execution of the MULTI/EXEC block"), ctx -> Multi.of(ctx).watch(ctx));
        registry.registerCore(spec("unwatch", "Forget about all watched keys", FAST, ALLOW_BUSY), ctx -> {
            Multi.of(ctx).unwatch();
            ctx.reply().ok();
        });
    }

    private static CommandSpec spec(String name, String summary, CommandFlag... flags) {
        Set<CommandFlag> all = new java.util.HashSet<>(Set.of(NOSCRIPT, LOADING, STALE));
        all.addAll(Set.of(flags));
        return new CommandSpec(name, 1, all, 0, 0, 0, KeyScope.NONE, GROUP, summary);
    }
}
