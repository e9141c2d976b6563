package dev.lacewing.core.command.scripting;

import static dev.lacewing.api.CommandFlag.ALLOW_BUSY;
import static dev.lacewing.api.CommandFlag.LOADING;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
import static dev.lacewing.api.CommandFlag.NO_MANDATORY_KEYS;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.SKIP_MONITOR;
import static dev.lacewing.api.CommandFlag.STALE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.command.server.ConnectionCommands;
import dev.lacewing.core.command.server.Subcommands;
import dev.lacewing.core.server.CoreContext;
import dev.lacewing.core.server.ScriptDebugSession;
import dev.lacewing.core.server.ScriptRun;
import dev.lacewing.core.server.Scripts;
import java.util.EnumSet;
import java.util.Set;

/**
 * EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT (Redis's eval.c). The language itself is a plugin
 * ({@link dev.lacewing.api.ScriptingProvider}); without one these commands are still listed and
 * answer {@link Scripts#NOT_AVAILABLE}. A script's keys are its numkeys-counted KEYS; a script not yet
 * seen, or seen reaching past its KEYS, runs over the whole keyspace ({@link Scripts}).
 */
public final class ScriptingCommands {

    private static final String GROUP = "scripting";

    private ScriptingCommands() {
    }

    /** Registers the family; {@code scripts} answers, for dispatch, which requests need the whole keyspace. */
    public static void register(CommandTable.Builder<CoreContext> registry, Scripts scripts) {
        registry.registerCore(eval("eval", false, "Execute a Lua script server side", scripts),
            ctx -> ScriptRun.eval(ctx, false, false));
        registry.registerCore(eval("evalsha", true, "Execute a Lua script server side", scripts),
            ctx -> ScriptRun.eval(ctx, true, false));
        registry.registerCore(eval("eval_ro", false, "Execute a read-only Lua script server side", scripts),
            ctx -> ScriptRun.eval(ctx, false, true));
        registry.registerCore(eval("evalsha_ro", true, "Execute a read-only Lua script server side", scripts),
            ctx -> ScriptRun.eval(ctx, true, true));
        registry.registerCore(SCRIPT.container(new CommandSpec("script", -2, Set.of(), 0, 0, 0, KeyScope.NONE, GROUP,
            "A container for Lua scripts management commands")), SCRIPT::dispatch);
    }

    private static CommandSpec eval(String name, boolean bySha, String summary, Scripts scripts) {
        Set<CommandFlag> flags = EnumSet.of(NOSCRIPT, STALE, SKIP_MONITOR, NO_MANDATORY_KEYS);
        if (name.endsWith("_ro")) {
            flags.add(READONLY);
        }
        return CommandSpec.countedKeys(name, -3, flags, 2, GROUP, summary)
            .withWholeKeyspaceWhen(args -> scripts.available() && scripts.needsWholeKeyspace(args, bySha));
    }

    private static final Subcommands<CoreContext> SCRIPT = new Subcommands<CoreContext>("script", GROUP)
        .add("debug", 3, "Set the debug mode for executed scripts.", ScriptDebugSession::configure, NOSCRIPT)
        .add("load", 3, "Load the specified Lua script into the script cache.", ScriptingCommands::load, NOSCRIPT, STALE)
        .add("exists", -3, "Check existence of scripts in the script cache.", ScriptingCommands::exists, NOSCRIPT)
        .add("flush", -2, "Remove all the scripts from the script cache.", ScriptingCommands::flush, NOSCRIPT)
        .add("kill", 2, "Kill the script currently in execution.", ScriptingCommands::kill, NOSCRIPT, ALLOW_BUSY)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "SCRIPT",
            "DEBUG (YES|SYNC|NO)",
            "    Set the debug mode for subsequent scripts executed.",
            "EXISTS <sha1> [<sha1> ...]",
            "    Return information about the existence of the scripts in the script cache.",
            "FLUSH [ASYNC|SYNC]",
            "    Flush the Lua scripts cache. Very dangerous on replicas.",
            "    When called without the optional mode argument, the behavior is determined by the",
            "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
            "    * ASYNC: Asynchronously flush the scripts cache.",
            "    * SYNC: Synchronously flush the scripts cache.",
            "KILL",
            "    Kill the currently executing Lua script.",
            "LOAD <script>",
            "    Load a script into the scripts cache without executing it."));

    private static Scripts scripts(CoreContext ctx) {
        return ctx.server().scripts();
    }

    private static void load(CoreContext ctx) {
        Scripts scripts = scripts(ctx);
        if (!scripts.available()) {
            ctx.reply().error(Scripts.NOT_AVAILABLE);
            return;
        }
        byte[] body = ctx.arguments().copy(2);
        String sha = Scripts.sha1Hex(body);
        if (scripts.get(sha) != null || ScriptRun.load(ctx.reply(), scripts, sha, body) != null) {
            ctx.reply().bulk(sha);
        }
    }

    private static void exists(CoreContext ctx) {
        Scripts scripts = scripts(ctx);
        Arguments args = ctx.arguments();
        ctx.reply().array(args.count() - 2);
        for (int i = 2; i < args.count(); i++) {
            ctx.reply().integer(scripts.exists(args.string(i)) ? 1 : 0);
        }
    }

    private static void flush(CoreContext ctx) {
        Arguments args = ctx.arguments();
        if (args.count() > 3 || (args.count() == 3 && !args.is(2, "sync") && !args.is(2, "async"))) {
            ctx.reply().error("ERR SCRIPT FLUSH only support SYNC|ASYNC option");
            return;
        }
        scripts(ctx).flush();
        ctx.reply().ok();
    }

    /**
     * SCRIPT KILL: stops the script running past busy-reply-threshold unless it wrote. It is read on
     * this connection's thread, so a script running on that same thread cannot be reached: its
     * thread reads nothing until the script ends.
     */
    private static void kill(CoreContext ctx) {
        ScriptRun running = scripts(ctx).busyRun();
        if (running == null) {
            ctx.reply().error("NOTBUSY No scripts in execution right now.");
            return;
        }
        String refused = running.kill(false);
        if (refused != null) {
            ctx.reply().error(refused);
        } else {
            ctx.reply().ok();
        }
    }
}
