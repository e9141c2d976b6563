package dev.lacewing.core.command.scripting;

import static dev.lacewing.api.CommandFlag.ALLOW_BUSY;
import static dev.lacewing.api.CommandFlag.DENYOOM;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
import static dev.lacewing.api.CommandFlag.NO_MANDATORY_KEYS;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.SKIP_MONITOR;
import static dev.lacewing.api.CommandFlag.STALE;
import static dev.lacewing.api.CommandFlag.WRITE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.ScriptFunction;
import dev.lacewing.core.command.Glob;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.command.server.ConnectionCommands;
import dev.lacewing.core.command.server.Subcommands;
import dev.lacewing.core.persistence.rdb.Crc64;
import dev.lacewing.core.persistence.rdb.DumpPayload;
import dev.lacewing.core.persistence.rdb.RdbFileWriter;
import dev.lacewing.core.persistence.rdb.RdbFormatException;
import dev.lacewing.core.persistence.rdb.RdbInput;
import dev.lacewing.core.persistence.rdb.RdbOutput;
import dev.lacewing.core.server.Functions;
import dev.lacewing.core.server.CoreContext;
import dev.lacewing.core.server.ScriptRun;
import dev.lacewing.core.server.Scripts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * FCALL, FCALL_RO and FUNCTION (Redis 7.0's functions.c). Libraries live in {@link Functions}; their
 * code runs on the scripting plugin's runtime, and a function call runs as a script does
 * ({@link ScriptRun}): over its numkeys-counted keys, or over the whole keyspace while it is new or
 * after it reached past its keys.
 */
public final class FunctionCommands {

    private static final String GROUP = "scripting";
    private static final int FOOTER_BYTES = 10;

    private FunctionCommands() {
    }

    public static void register(CommandTable.Builder<CoreContext> registry, Scripts scripts) {
        registry.registerCore(fcall("fcall", "Invoke a function", scripts), ctx -> ScriptRun.fcall(ctx, false));
        registry.registerCore(fcall("fcall_ro", "Invoke a read-only function", scripts), ctx -> ScriptRun.fcall(ctx, true));
        registry.registerCore(FUNCTION.container(new CommandSpec("function", -2, Set.of(), 0, 0, 0, KeyScope.NONE, GROUP,
            "A container for function commands")), FUNCTION::dispatch);
    }

    private static CommandSpec fcall(String name, String summary, Scripts scripts) {
        Set<CommandFlag> flags = EnumSet.of(NOSCRIPT, SKIP_MONITOR, STALE, NO_MANDATORY_KEYS);
        if (name.endsWith("_ro")) {
            flags.add(READONLY);
        }
        return CommandSpec.countedKeys(name, -3, flags, 2, GROUP, summary).withWholeKeyspaceWhen(args -> {
            Functions.Function function = scripts.functions().function(args.string(1));
            return function != null && scripts.needsWholeKeyspace(function);
        });
    }

    private static final Subcommands<CoreContext> FUNCTION = new Subcommands<CoreContext>("function", GROUP)
        .add("load", -3, "Create a function with the given arguments (name, code, description)",
            FunctionCommands::load, NOSCRIPT, WRITE, DENYOOM)
        .add("list", -2, "List information about all the functions", FunctionCommands::list, NOSCRIPT)
        .add("delete", 3, "Delete a function by name", FunctionCommands::delete, NOSCRIPT, WRITE)
        .add("flush", -2, "Deleting all functions", FunctionCommands::flush, NOSCRIPT, WRITE)
        .add("dump", 2, "Dump all functions into a serialized binary payload", FunctionCommands::dump, NOSCRIPT)
        .add("restore", -3, "Restore all the functions on the given payload", FunctionCommands::restore,
            NOSCRIPT, WRITE, DENYOOM)
        .add("stats", 2, "Return information about the function currently running (name, description, duration)",
            FunctionCommands::stats, NOSCRIPT, ALLOW_BUSY)
        .add("kill", 2, "Kill the function currently in execution.", FunctionCommands::kill, NOSCRIPT, ALLOW_BUSY)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "FUNCTION",
            "LOAD [REPLACE] <FUNCTION CODE>",
            "    Create a new library with the given library name and code.",
            "DELETE <LIBRARY NAME>",
            "    Delete the given library.",
            "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
            "    Return general information on all the libraries:",
            "    * Library name",
            "    * The engine used to run the Library",
            "    * Library description",
            "    * Functions list",
            "    * Library code (if WITHCODE is given)",
            "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
            "STATS",
            "    Return information about the current function running:",
            "    * Function name",
            "    * Command used to run the function",
            "    * Duration in MS that the function is running",
            "    If no function is running, return nil",
            "    In addition, returns a list of available engines.",
            "KILL",
            "    Kill the current running function.",
            "FLUSH [ASYNC|SYNC]",
            "    Delete all the libraries.",
            "    When called without the optional mode argument, the behavior is determined by the",
            "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
            "    * ASYNC: Asynchronously flush the libraries.",
            "    * SYNC: Synchronously flush the libraries.",
            "DUMP",
            "    Return a serialized payload representing the current libraries, can be restored using FUNCTION "
                + "RESTORE command",
            "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
            "    Restore the libraries represented by the given payload, it is possible to give a restore policy to",
            "    control how to handle existing libraries (default APPEND):",
            "    * FLUSH: delete all existing libraries.",
            "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
            "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old",
            "      libraries with the new libraries (notice that even on this option there is a chance of failure",
            "      in case of functions name collision with another library)."));

    private static Scripts scripts(CoreContext ctx) {
        return ctx.server().scripts();
    }

    /** FUNCTION LOAD [REPLACE] code (functionLoadCommand). */
    private static void load(CoreContext ctx) {
        Arguments args = ctx.arguments();
        boolean replace = false;
        int at = 2;
        for (; at < args.count() - 1; at++) {
            if (!args.is(at, "replace")) {
                ctx.reply().error("ERR Unknown option given: " + args.string(at));
                return;
            }
            replace = true;
        }
        Scripts scripts = scripts(ctx);
        if (!scripts.available()) {
            ctx.reply().error(Scripts.NOT_AVAILABLE);
            return;
        }
        String error = scripts.createLibrary(args.copy(at), replace, Functions.LOAD_TIMEOUT_MILLIS, null);
        if (error != null) {
            ctx.reply().error("ERR " + error);
        } else {
            ctx.server().engine().changedWithoutKey();
            ctx.reply().bulk(Functions.metadata(args.copy(at)).name());
        }
    }

    /** FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE] (functionListCommand). */
    private static void list(CoreContext ctx) {
        Arguments args = ctx.arguments();
        boolean withCode = false;
        byte[] pattern = null;
        for (int i = 2; i < args.count(); i++) {
            if (!withCode && args.is(i, "withcode")) {
                withCode = true;
                continue;
            }
            if (pattern == null && args.is(i, "libraryname")) {
                if (i >= args.count() - 1) {
                    ctx.reply().error("ERR library name argument was not given");
                    return;
                }
                pattern = args.copy(++i);
                continue;
            }
            ctx.reply().error("ERR Unknown argument " + args.string(i));
            return;
        }
        List<Functions.Library> libraries = new ArrayList<>();
        for (Functions.Library library : scripts(ctx).functions().libraries()) {
            if (pattern == null || Glob.matches(pattern, library.name().getBytes(StandardCharsets.UTF_8), true)) {
                libraries.add(library);
            }
        }
        ReplyWriter reply = ctx.reply();
        reply.array(libraries.size());
        for (Functions.Library library : libraries) {
            reply.map(withCode ? 4 : 3);
            reply.bulk("library_name");
            reply.bulk(library.name());
            reply.bulk("engine");
            reply.bulk(Functions.ENGINE);
            reply.bulk("functions");
            reply.array(library.functions().size());
            for (Functions.Function function : library.functions()) {
                reply.map(3);
                reply.bulk("name");
                reply.bulk(function.name());
                reply.bulk("description");
                if (function.description() == null) {
                    reply.nullBulk();
                } else {
                    reply.bulk(function.description());
                }
                reply.bulk("flags");
                List<String> flags = new ArrayList<>();
                for (int bit = 0; bit < ScriptFunction.FLAG_NAMES.size(); bit++) {
                    if ((function.flags() & 1 << bit) != 0) {
                        flags.add(ScriptFunction.FLAG_NAMES.get(bit));
                    }
                }
                reply.set(flags.size());
                for (String flag : flags) {
                    reply.simple(flag);
                }
            }
            if (withCode) {
                reply.bulk("library_code");
                reply.bulk(library.code());
            }
        }
    }

    private static void delete(CoreContext ctx) {
        if (scripts(ctx).functions().delete(ctx.arguments().string(2))) {
            ctx.server().engine().changedWithoutKey();
            ctx.reply().ok();
        } else {
            ctx.reply().error("ERR Library not found");
        }
    }

    private static void flush(CoreContext ctx) {
        Arguments args = ctx.arguments();
        if (args.count() > 3 || (args.count() == 3 && !args.is(2, "sync") && !args.is(2, "async"))) {
            ctx.reply().error("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
            return;
        }
        scripts(ctx).functions().flush();
        ctx.server().engine().changedWithoutKey();
        ctx.reply().ok();
    }

    /**
     * FUNCTION DUMP (functionDumpCommand): each library as RDB_OPCODE_FUNCTION2 and its code as an
     * RDB string (LZF-compressed where that pays, as rdbcompression yes), then DUMP's footer.
     */
    private static void dump(CoreContext ctx) {
        RdbOutput out = new RdbOutput(true);
        for (Functions.Library library : scripts(ctx).functions().libraries()) {
            out.writeByte(RdbFileWriter.OPCODE_FUNCTION2);
            out.writeString(library.code());
        }
        out.writeLittleEndian(DumpPayload.RDB_VERSION, 2);
        byte[] body = out.toByteArray();
        out.writeLittleEndian(Crc64.update(0, body, 0, body.length), 8);
        ctx.reply().bulk(out.toByteArray());
    }

    /** FUNCTION RESTORE payload [FLUSH|APPEND|REPLACE] (functionRestoreCommand). */
    private static void restore(CoreContext ctx) {
        Arguments args = ctx.arguments();
        if (args.count() > 4) {
            ctx.reply().error("ERR unknown subcommand or wrong number of arguments for '" + args.string(1)
                + "'. Try FUNCTION HELP.");
            return;
        }
        boolean flush = false;
        boolean replace = false;
        if (args.count() == 4) {
            if (args.is(3, "flush")) {
                flush = true;
            } else if (args.is(3, "replace")) {
                replace = true;
            } else if (!args.is(3, "append")) {
                ctx.reply().error("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
                return;
            }
        }
        byte[] array = args.array();
        int payload = args.offset(2);
        int length = args.length(2);
        if (!DumpPayload.verify(array, payload, length)) {
            ctx.reply().error("ERR DUMP payload version or checksum are wrong");
            return;
        }
        Scripts scripts = scripts(ctx);
        if (!scripts.available()) {
            ctx.reply().error(Scripts.NOT_AVAILABLE);
            return;
        }
        List<Functions.Library> libraries = new ArrayList<>();
        RdbInput in = new RdbInput(array, payload, length - FOOTER_BYTES);
        try {
            while (in.remaining() > 0) {
                if (in.readByte() != RdbFileWriter.OPCODE_FUNCTION2) {
                    ctx.reply().error("ERR given type is not a function");
                    return;
                }
                String error = scripts.createLibrary(in.readString(), false, 0, libraries);
                if (error != null) {
                    ctx.reply().error("ERR " + error);
                    return;
                }
            }
        } catch (RdbFormatException e) {
            ctx.reply().error("ERR Failed loading library from payload");
            return;
        }
        String error = scripts.functions().restore(libraries, replace, flush);
        if (error != null) {
            ctx.reply().error("ERR " + error);
        } else {
            ctx.server().engine().changedWithoutKey();
            ctx.reply().ok();
        }
    }

    /** FUNCTION STATS: the function running past busy-reply-threshold, if any, and the engine's counts. */
    private static void stats(CoreContext ctx) {
        Scripts scripts = scripts(ctx);
        ReplyWriter reply = ctx.reply();
        reply.map(2);
        reply.bulk("running_script");
        ScriptRun running = scripts.busyRun();
        String name = running == null ? null : running.functionName();
        if (name == null) {
            reply.nullBulk();
        } else {
            reply.map(3);
            reply.bulk("name");
            reply.bulk(name);
            reply.bulk("command");
            Arguments request = running.request();
            reply.array(request.count());
            for (int i = 0; i < request.count(); i++) {
                reply.bulk(request.array(), request.offset(i), request.length(i));
            }
            reply.bulk("duration_ms");
            reply.integer(running.runningMillis());
        }
        reply.bulk("engines");
        reply.map(1);
        reply.bulk(Functions.ENGINE);
        reply.map(2);
        reply.bulk("libraries_count");
        reply.integer(scripts.functions().libraries().size());
        reply.bulk("functions_count");
        reply.integer(scripts.functions().functionCount());
    }

    private static void kill(CoreContext ctx) {
        ScriptRun running = scripts(ctx).busyRun();
        if (running == null) {
            ctx.reply().error("NOTBUSY No scripts in execution right now.");
            return;
        }
        String refused = running.kill(true);
        if (refused != null) {
            ctx.reply().error(refused);
        } else {
            ctx.reply().ok();
        }
    }
}
