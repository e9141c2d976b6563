package dev.lacewing.core.command.server;

import static dev.lacewing.api.CommandFlag.ADMIN;
import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.LOADING;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
import static dev.lacewing.api.CommandFlag.PROTECTED;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.STALE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.acl.Acl;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Glob;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.config.Config;
import dev.lacewing.core.config.ConfigRewrite;
import dev.lacewing.core.config.Setting;
import dev.lacewing.core.diagnostics.MemoryStats;
import dev.lacewing.core.resp.RespWriter;
import dev.lacewing.core.server.ClientConnection;
import dev.lacewing.core.server.ClientText;
import dev.lacewing.core.server.CoreContext;
import dev.lacewing.core.server.ModuleLoader;
import dev.lacewing.core.server.ServerState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Server commands: INFO, CONFIG, COMMAND, MEMORY, DEBUG, TIME, SHUTDOWN and MODULE. */
public final class ServerCommands {

    private static final System.Logger LOG = System.getLogger(ServerCommands.class.getName());

    private ServerCommands() {
    }

    public static void register(CommandTable.Builder<CoreContext> registry) {
        registry.registerCore(spec("info", -1, "Get information and statistics about the server", LOADING, STALE),
            ServerCommands::info);
        registry.registerCore(CONFIG.container(spec("config", -2, "A container for server configuration commands")),
            ServerCommands::config);
        registry.registerCore(COMMAND.container(spec("command", -1, "Get array of Redis command details", LOADING,
            STALE)), ServerCommands::command);
        // Routed by MEMORY USAGE's key: the only subcommand with one, at the same index.
        registry.registerCore(MEMORY.container(new CommandSpec("memory", -2, Set.of(), 2, 2, 1, KeyScope.KEYS, "server",
            "A container for memory diagnostics commands")), ServerCommands::memory);
        registry.registerCore(spec("debug", -2, "A container for debugging commands", ADMIN, NOSCRIPT, LOADING, STALE,
            PROTECTED), ServerCommands::debug);
        registry.registerCore(spec("time", 1, "Return the current server time", LOADING, STALE, FAST), ServerCommands::time);
        // Over the whole keyspace: its save is one instant across every shard, as SAVE's.
        registry.registerCore(new CommandSpec("shutdown", -1, Set.of(ADMIN, NOSCRIPT, LOADING, STALE, CommandFlag.NO_MULTI,
            CommandFlag.ALLOW_BUSY), 0, 0, 0, KeyScope.ALL, "server",
            "Synchronously save the dataset to disk and then shut down the server"), ServerCommands::shutdown);
        registry.registerCore(MODULE.container(spec("module", -2, "A container for module commands")),
            ServerCommands::module);
    }

    private static CommandSpec spec(String name, int arity, String summary, CommandFlag... flags) {
        return new CommandSpec(name, arity, Set.of(flags), 0, 0, 0, KeyScope.NONE, "server", summary);
    }

    /** Whether the command came over a local connection; AOF replay, sent by no client, is the server's own. */
    private static boolean isLocal(CoreContext ctx) {
        ClientConnection connection = ctx.connection();
        return connection == null || connection.isLocal();
    }

    // ---- INFO -------------------------------------------------------------------------------

    private static final List<String> DEFAULT_SECTIONS = List.of("server", "clients", "memory", "persistence", "stats",
        "replication", "cpu", "errorstats", "keyspace");
    /** INFO ALL and EVERYTHING: the default sections with commandstats and latencystats, in Redis's order. */
    private static final List<String> ALL_SECTIONS = List.of("server", "clients", "memory", "persistence", "stats",
        "replication", "cpu", "commandstats", "errorstats", "latencystats", "keyspace");

    private static void info(CoreContext ctx) {
        Arguments args = ctx.arguments();
        Set<String> sections = new LinkedHashSet<>();
        if (args.count() == 1) {
            sections.addAll(DEFAULT_SECTIONS);
        }
        for (int i = 1; i < args.count(); i++) {
            String section = args.string(i).toLowerCase(Locale.ROOT);
            switch (section) {
                case "default" -> sections.addAll(DEFAULT_SECTIONS);
                case "all", "everything" -> sections.addAll(ALL_SECTIONS);
                default -> sections.add(section);
            }
        }
        ctx.reply().verbatim(InfoReport.render(ctx.server(), sections));
    }

    // ---- CONFIG -----------------------------------------------------------------------------

    private static final Subcommands<CoreContext> CONFIG = new Subcommands<CoreContext>("config", "server")
        .add("get", -3, "Get the values of configuration parameters", ServerCommands::configGet,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("set", -4, "Set configuration parameters to the given values", ServerCommands::configSet,
            ADMIN, NOSCRIPT, LOADING, STALE)
        .add("resetstat", 2, "Reset the stats returned by INFO", ctx -> {
            ctx.server().resetStats();
            ctx.reply().ok();
        }, ADMIN, NOSCRIPT, LOADING, STALE)
        .add("rewrite", 2, "Rewrite the configuration file with the in memory configuration",
            ServerCommands::configRewrite, ADMIN, NOSCRIPT, LOADING, STALE)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "CONFIG",
            "GET <pattern>", "    Return parameters matching the glob-like <pattern> and their values.",
            "SET <directive> <value>", "    Set the configuration <directive> to <value>.",
            "RESETSTAT", "    Reset statistics reported by the INFO command.",
            "REWRITE", "    Rewrite the configuration file."));

    /** CONFIG REWRITE: the file the server started with, rewritten as Redis does ({@link ConfigRewrite}). */
    private static void configRewrite(CoreContext ctx) {
        try {
            Acl acl = ctx.server().acl();
            ConfigRewrite.rewrite(ctx.server().settings(), acl.hasFile() ? null : acl.userLines());
            ctx.reply().ok();
        } catch (IllegalStateException e) {
            ctx.reply().error("ERR " + e.getMessage());
        }
    }

    private static void config(CoreContext ctx) {
        CONFIG.dispatch(ctx);
    }

    /**
     * CONFIG GET pattern [pattern ...]: a pattern without glob characters names one setting (or
     * alias) and is replied under the name as given, as Redis 7 does; a glob matches names and
     * aliases. Each name is replied once.
     */
    private static void configGet(CoreContext ctx) {
        Arguments args = ctx.arguments();
        Config config = ctx.server().settings();
        Map<String, String> found = new LinkedHashMap<>();
        for (int i = 2; i < args.count(); i++) {
            String pattern = args.string(i);
            if (pattern.chars().noneMatch(c -> c == '*' || c == '?' || c == '[')) {
                config.displayed(pattern).ifPresent(value -> found.putIfAbsent(pattern, value));
                continue;
            }
            byte[] glob = args.copy(i);
            for (Map.Entry<String, String> entry : config.matching(
                    name -> Glob.matches(glob, name.getBytes(StandardCharsets.US_ASCII), true))) {
                found.putIfAbsent(entry.getKey(), entry.getValue());
            }
        }
        ReplyWriter reply = ctx.reply();
        reply.map(found.size());
        found.forEach((name, value) -> {
            reply.bulk(name);
            reply.bulk(value);
        });
    }

    /**
     * CONFIG SET name value [name value ...], atomically as Redis 7 does: every name is checked
     * first (unknown, immutable or protected, given twice), then values are set, and a value that
     * fails undoes those already set.
     */
    private static void configSet(CoreContext ctx) {
        Arguments args = ctx.arguments();
        Config config = ctx.server().settings();
        if (args.count() % 2 != 0) {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        Map<String, String> requested = new LinkedHashMap<>();
        for (int i = 2; i < args.count(); i += 2) {
            String name = args.string(i).toLowerCase(Locale.ROOT);
            Optional<Setting> setting = config.setting(name);
            if (setting.isEmpty()) {
                ctx.reply().error("ERR Unknown option or number of arguments for CONFIG SET - '" + name + "'");
                return;
            }
            String refusal = config.refusal(setting.get(), isLocal(ctx));
            if (refusal != null) {
                ctx.reply().error(configSetFailed(name, refusal));
                return;
            }
            if (requested.put(setting.get().name(), args.string(i + 1)) != null) {
                ctx.reply().error(configSetFailed(name, "duplicate parameter"));
                return;
            }
        }
        Map<String, String> previous = new LinkedHashMap<>();
        for (Map.Entry<String, String> entry : requested.entrySet()) {
            try {
                String before = config.get(entry.getKey()).orElse(null);
                config.set(entry.getKey(), entry.getValue());
                previous.put(entry.getKey(), before);
            } catch (IllegalArgumentException e) {
                previous.forEach(config::restore);
                ctx.reply().error(configSetFailed(entry.getKey(), e.getMessage()));
                return;
            }
        }
        try {
            config.apply(List.copyOf(previous.keySet()));
        } catch (Config.ApplyFailure e) {
            previous.forEach(config::restore);
            try {
                config.apply(List.copyOf(previous.keySet()));
            } catch (Config.ApplyFailure ignored) {
                // As Redis's restoreBackupConfig: the values are back; what failed to apply is logged.
            }
            ctx.reply().error(configSetFailed(e.setting(), e.getMessage()));
            return;
        }
        if (previous.containsKey("maxmemory") && maxmemoryChangedLater(ctx)) {
            return;
        }
        ctx.reply().ok();
    }

    /**
     * Redis's updateMaxmemory: a limit below the memory in use evicts at once. What this thread may
     * not touch gets a task on its owner, and the OK waits for their first runs without blocking this
     * thread (true: the connection replies then). Inside EXEC the eviction starts alike and the
     * reply does not wait: only a connection's own command on its home thread can hold its reply.
     */
    private static boolean maxmemoryChangedLater(CoreContext ctx) {
        ClientConnection connection = ctx.connection();
        boolean own = connection == ctx;
        if (!ctx.server().engine().maxmemoryChanged(own ? connection::replyReady : null) || !own) {
            return false;
        }
        connection.replyWhenReady(RespWriter::ok);
        return true;
    }

    private static String configSetFailed(String name, String reason) {
        return "ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + reason;
    }

    // ---- COMMAND ----------------------------------------------------------------------------

    private static final Subcommands<CoreContext> COMMAND = new Subcommands<CoreContext>("command", "server")
        .add("count", 2, "Get total number of Redis commands", ctx -> ctx.reply().integer(ctx.server().commands().size()),
            LOADING, STALE)
        .add("info", -2, "Get array of specific Redis command details, or all when no argument is given.",
            ServerCommands::commandInfo, LOADING, STALE)
        .add("docs", -2, "Get array of specific Redis command documentation", ServerCommands::commandDocs,
            LOADING, STALE)
        .add("list", -2, "Get an array of Redis command names", ctx -> commandList(ctx, ctx.server()), LOADING, STALE)
        .add("getkeys", -4, "Extract keys given a full Redis command", ctx -> commandGetKeys(ctx, ctx.server()),
            LOADING, STALE)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "COMMAND",
            "(no subcommand)", "    Return details about all Redis commands.",
            "COUNT", "    Return the total number of commands in this Redis server.",
            "LIST", "    Return a list of all commands in this Redis server.",
            "INFO [<command-name> ...]", "    Return details about multiple Redis commands.",
            "DOCS [<command-name> ...]", "    Return documentation details about multiple Redis commands.",
            "GETKEYS <full-command>", "    Return the keys from a full Redis command."));

    private static void command(CoreContext ctx) {
        if (ctx.arguments().count() == 1) {
            allCommandInfo(ctx);
        } else {
            COMMAND.dispatch(ctx);
        }
    }

    private static void allCommandInfo(CoreContext ctx) {
        ServerState state = ctx.server();
        ctx.reply().array(state.commands().size());
        state.commands().commands().forEach(command -> CommandDescriptions.info(ctx.reply(), command));
    }

    /** COMMAND INFO [name ...]: a null bulk for a name the server does not know, as Redis 7.0 replies. */
    private static void commandInfo(CoreContext ctx) {
        Arguments args = ctx.arguments();
        if (args.count() == 2) {
            allCommandInfo(ctx);
            return;
        }
        ServerState state = ctx.server();
        ctx.reply().array(args.count() - 2);
        for (int i = 2; i < args.count(); i++) {
            Command<?> command = state.commands().lookup(args.string(i));
            if (command == null) {
                ctx.reply().nullBulk();
            } else {
                CommandDescriptions.info(ctx.reply(), command);
            }
        }
    }

    private static void commandDocs(CoreContext ctx) {
        Arguments args = ctx.arguments();
        ServerState state = ctx.server();
        List<Command<?>> selected = new ArrayList<>();
        if (args.count() == 2) {
            selected.addAll(state.commands().commands());
        }
        for (int i = 2; i < args.count(); i++) {
            Command<?> command = state.commands().lookup(args.string(i));
            if (command != null) {
                selected.add(command);
            }
        }
        ctx.reply().map(selected.size());
        selected.forEach(command -> CommandDescriptions.docs(ctx.reply(), command));
    }

    /** COMMAND LIST [FILTERBY MODULE name | ACLCAT category | PATTERN pattern]: subcommands listed after their container. */
    private static void commandList(CoreContext ctx, ServerState state) {
        Arguments args = ctx.arguments();
        List<Command<?>> all = new ArrayList<>();
        for (Command<?> command : state.commands().commands()) {
            all.add(command);
            all.addAll(command.subcommands());
        }
        List<String> names = new ArrayList<>();
        if (args.count() == 2) {
            all.forEach(command -> names.add(command.spec().name()));
        } else if (args.count() == 5 && args.is(2, "FILTERBY")) {
            String value = args.string(4);
            for (Command<?> command : all) {
                String name = command.spec().name();
                boolean keep;
                if (args.is(3, "PATTERN")) {
                    keep = Glob.matches(value.getBytes(StandardCharsets.UTF_8), name.getBytes(StandardCharsets.US_ASCII),
                        true);
                } else if (args.is(3, "MODULE")) {
                    keep = command.owner().equals(value);
                } else if (args.is(3, "ACLCAT")) {
                    keep = CommandDescriptions.aclCategories(command.spec()).contains(value.toLowerCase(Locale.ROOT));
                } else {
                    ctx.reply().error(Errors.SYNTAX);
                    return;
                }
                if (keep) {
                    names.add(name);
                }
            }
        } else {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        ctx.reply().array(names.size());
        names.forEach(ctx.reply()::bulk);
    }

    private static void commandGetKeys(CoreContext ctx, ServerState state) {
        Arguments args = ctx.arguments();
        Command<?> command = state.commands().lookup(args.string(2));
        if (command == null) {
            ctx.reply().error("ERR Invalid command specified");
            return;
        }
        CommandSpec spec = command.spec();
        int count = args.count() - 2;
        if ((spec.firstKey() <= 0 && !spec.hasMovableKeys()) || spec.scope() != KeyScope.KEYS) {
            ctx.reply().error("ERR The command has no key arguments");
            return;
        }
        if (!spec.acceptsArgumentCount(count)) {
            ctx.reply().error("ERR Invalid number of arguments specified for command");
            return;
        }
        Arguments request = new ShiftedArguments(args, 2);
        int keys = spec.keyCount(request);
        if (keys == 0) {
            ctx.reply().error("ERR Invalid arguments specified for command");
            return;
        }
        ctx.reply().array(keys);
        for (int i = 0; i < keys; i++) {
            int argument = spec.keyArgument(request, i);
            ctx.reply().bulk(request.array(), request.offset(argument), request.length(argument));
        }
    }

    /** The arguments of a request from index {@code shift} on: the command GETKEYS or ACL DRYRUN asks about. */
    record ShiftedArguments(Arguments arguments, int shift) implements Arguments {
        @Override
        public int count() {
            return arguments.count() - shift;
        }

        @Override
        public byte[] array() {
            return arguments.array();
        }

        @Override
        public int offset(int index) {
            return arguments.offset(index + shift);
        }

        @Override
        public int length(int index) {
            return arguments.length(index + shift);
        }
    }

    // ---- MEMORY, DEBUG, TIME, SHUTDOWN, MODULE -------------------------------------------

    private static final Subcommands<CoreContext> MEMORY = new Subcommands<CoreContext>("memory", "server")
        .add("usage", -3, 2, 2, 1, KeyScope.KEYS, "Estimate the memory usage of a key", ServerCommands::memoryUsage,
            READONLY)
        .add("stats", 2, "Show memory usage details", ServerCommands::memoryStats)
        .add("doctor", 2, "Outputs memory problems report", ctx -> ctx.reply().verbatim(
            MemoryStats.doctor(memoryFigures(ctx.server()), MemoryStats.Jvm.now())))
        .add("malloc-stats", 2, "Show allocator internal stats", ctx -> ctx.reply().verbatim(
            MemoryStats.mallocStats()))
        .add("purge", 2, "Ask the allocator to release memory", ServerCommands::memoryPurge)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "MEMORY",
            "DOCTOR", "    Return memory problems reports.",
            "MALLOC-STATS", "    Return internal statistics report from the memory allocator.",
            "PURGE", "    Attempt to purge dirty pages for reclamation by the allocator.",
            "STATS", "    Return information about the memory usage of the server.",
            "USAGE <key> [SAMPLES <count>]", "    Return memory in bytes used by <key> and its value."));

    /** MEMORY PURGE: OK as Redis's; what the JVM gave back goes to the log. */
    private static void memoryPurge(CoreContext ctx) {
        LOG.log(System.Logger.Level.INFO, "MEMORY PURGE: " + MemoryStats.purge().describe());
        ctx.reply().ok();
    }

    /** What MEMORY STATS and DOCTOR know of the server: INFO memory's used and peak, clients, keys, scripts. */
    private static MemoryStats.Server memoryFigures(ServerState state) {
        Map<Integer, Long> keys = new LinkedHashMap<>();
        int databases = (int) state.settings().longValue("databases");
        for (int db = 0; db < databases; db++) {
            long count = state.engine().approximateSize(db);
            if (count > 0) {
                keys.put(db, count);
            }
        }
        long used = state.usedMemory();
        return new MemoryStats.Server(used, InfoReport.peakMemory(used), state.clientBufferBytes(),
            state.clients().size(), keys, state.scripts().size());
    }

    /** MEMORY STATS: Redis 7.0's fields, in its order; ratios as doubles, each database's overheads as a map. */
    private static void memoryStats(CoreContext ctx) {
        Map<String, Object> stats = MemoryStats.stats(memoryFigures(ctx.server()), MemoryStats.Jvm.now());
        ReplyWriter reply = ctx.reply();
        reply.map(stats.size());
        stats.forEach((name, value) -> {
            reply.bulk(name);
            if (value instanceof Map<?, ?> map) {
                reply.map(map.size());
                map.forEach((field, figure) -> {
                    reply.bulk((String) field);
                    reply.integer((Long) figure);
                });
            } else if (value instanceof Double ratio) {
                reply.doubleValue(ratio);
            } else {
                reply.integer((Long) value);
            }
        });
    }

    private static void memory(CoreContext ctx) {
        MEMORY.dispatch(ctx);
    }

    /** MEMORY USAGE key [SAMPLES count]: options are checked before the key is read. */
    private static void memoryUsage(CoreContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        for (int i = 3; i < args.count(); i++) {
            if (args.is(i, "SAMPLES") && i + 1 < args.count()) {
                try {
                    Numbers.parseLong(args.array(), args.offset(i + 1), args.length(i + 1));
                } catch (Numbers.InvalidNumber e) {
                    reply.error(Errors.NOT_INTEGER);
                    return;
                }
                i++;
            } else {
                reply.error(Errors.SYNTAX);
                return;
            }
        }
        long valueMemory = ctx.keyspace().valueMemory(args.array(), args.offset(2), args.length(2));
        if (valueMemory < 0) {
            reply.nullBulk();
        } else {
            // Entry slot (key ref, value ref, expiry, hash), key array and value as stored, spare room included.
            reply.integer(20 + 16 + args.length(2) + valueMemory);
        }
    }

    private static void debug(CoreContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        if (args.is(1, "SLEEP") && args.count() == 3) {
            try {
                double seconds = Double.parseDouble(args.string(2));
                Thread.sleep((long) (seconds * 1000));
            } catch (NumberFormatException e) {
                reply.error(Errors.NOT_FLOAT);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            reply.ok();
        } else if (args.is(1, "HELP") && args.count() == 2) {
            ConnectionCommands.help(reply, "DEBUG", "SLEEP <seconds>", "    Stop the server for <seconds>.");
        } else {
            reply.error(ConnectionCommands.unknownSubcommand(args, "DEBUG"));
        }
    }

    private static void time(CoreContext ctx) {
        java.time.Instant now = java.time.Instant.now();
        ctx.reply().array(2);
        ctx.reply().bulk(Long.toString(now.getEpochSecond()));
        ctx.reply().bulk(Long.toString(now.getNano() / 1000));
    }

    /**
     * SHUTDOWN [NOSAVE | SAVE] [NOW] [FORCE] [ABORT] (shutdownCommand, prepareForShutdown): saves
     * when a save point is configured unless NOSAVE, or when SAVE; a failed save keeps the server
     * running with Redis's error unless FORCE. NOW has nothing to skip: there are no replicas to
     * wait for. ABORT finds no shutdown in progress, since one never waits here.
     */
    private static void shutdown(CoreContext ctx) {
        Arguments args = ctx.arguments();
        boolean noSave = false;
        boolean save = false;
        boolean force = false;
        boolean abort = false;
        boolean other = false;
        for (int i = 1; i < args.count(); i++) {
            if (args.is(i, "NOSAVE")) {
                noSave = true;
            } else if (args.is(i, "SAVE")) {
                save = true;
            } else if (args.is(i, "NOW")) {
                other = true;
            } else if (args.is(i, "FORCE")) {
                force = true;
            } else if (args.is(i, "ABORT")) {
                abort = true;
            } else {
                ctx.reply().error(Errors.SYNTAX);
                return;
            }
        }
        if (abort && (noSave || save || force || other) || noSave && save) {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        if (abort) {
            ctx.reply().error("ERR No shutdown in progress.");
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "User requested shutdown...");
        ctx.server().backgroundSave().cancel();
        if (!ctx.server().snapshots().saveBeforeShutdown(PersistenceCommands.databases(ctx), noSave, save, force)) {
            ctx.reply().error(Errors.SHUTDOWN_FAILED);
            return;
        }
        ctx.client().closeAfterReply();
        ctx.server().requestShutdown();
    }

    /** Redis's replies when a module cannot be loaded or unloaded; the reason goes to the log. */
    private static final String MODULE_LOAD_FAILED = "ERR Error loading the extension. Please check the server logs.";
    private static final String MODULE_UNLOAD_IMPOSSIBLE = "ERR Error unloading module: operation not possible.";
    private static final String NO_SUCH_MODULE = "ERR Error unloading module: no such module with that name";

    private static final Subcommands<CoreContext> MODULE = new Subcommands<CoreContext>("module", "server")
        .add("list", 2, "List all modules loaded by the server", ServerCommands::moduleList, ADMIN, NOSCRIPT)
        .add("load", -3, "Load a module", ctx -> moduleChange(ctx, MODULE_LOAD_FAILED, loader -> {
            String path = ctx.arguments().string(2);
            List<String> arguments = new ArrayList<>();
            for (int i = 3; i < ctx.arguments().count(); i++) {
                arguments.add(ctx.arguments().string(i));
            }
            String name = loader.load(Path.of(path), arguments);
            LOG.log(System.Logger.Level.INFO, "Module " + ClientText.quote(name) + " loaded from "
                + ClientText.quote(path));
            ctx.reply().ok();
        }), ADMIN, NOSCRIPT, CommandFlag.NO_ASYNC_LOADING, PROTECTED)
        .add("unload", 3, "Unload a module", ctx -> moduleChange(ctx, MODULE_UNLOAD_IMPOSSIBLE, loader -> {
            if (loader.unload(ctx.arguments().string(2))) {
                LOG.log(System.Logger.Level.INFO, "Module " + ClientText.quote(ctx.arguments().string(2))
                    + " unloaded");
                ctx.reply().ok();
            } else {
                ctx.reply().error(NO_SUCH_MODULE);
            }
        }), ADMIN, NOSCRIPT, CommandFlag.NO_ASYNC_LOADING, PROTECTED)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "MODULE",
            "LIST", "    Return a list of loaded modules.",
            "LOAD <path> [<arg> ...]", "    Load a module plugin jar from <path>.",
            "UNLOAD <name>", "    Unload a module."));

    private static void module(CoreContext ctx) {
        MODULE.dispatch(ctx);
    }

    private static void moduleList(CoreContext ctx) {
        ModuleLoader loader = ctx.server().moduleLoader();
        ReplyWriter reply = ctx.reply();
        List<ModuleLoader.LoadedModule> modules = loader == null ? List.of() : loader.list();
        reply.array(modules.size());
        for (ModuleLoader.LoadedModule module : modules) {
            reply.map(4);
            reply.bulk("name");
            reply.bulk(module.name());
            reply.bulk("ver");
            reply.bulk(module.version());
            reply.bulk("path");
            reply.bulk(module.path());
            reply.bulk("args");
            reply.array(module.arguments().size());
            for (String argument : module.arguments()) {
                reply.bulk(argument);
            }
        }
    }

    /** An operation that needs the OSGi module loader. */
    private interface ModuleChange {
        void apply(ModuleLoader loader) throws Exception;
    }

    /**
     * Runs MODULE LOAD or UNLOAD. Without a loader (plugin-mode jpms or classpath), or when it
     * fails, the client gets Redis's {@code failure} reply and the log gets the reason, as in Redis.
     */
    private static void moduleChange(CoreContext ctx, String failure, ModuleChange change) {
        ModuleLoader loader = ctx.server().moduleLoader();
        String operation = "MODULE " + ctx.arguments().string(1).toUpperCase(Locale.ROOT) + " "
            + ClientText.quote(ctx.arguments().string(2));
        if (loader == null) {
            LOG.log(System.Logger.Level.WARNING, operation + " refused: loading and unloading plugins at runtime "
                + "needs plugin-mode osgi, and this server runs with plugin-mode " + ctx.server().pluginMode());
            ctx.reply().error(failure);
            return;
        }
        try {
            change.apply(loader);
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, operation + " failed: " + ClientText.oneLine(e.getMessage()));
            ctx.reply().error(failure);
        }
    }
}
