package dev.lacewing.script.lua;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.ScriptDebugger;
import dev.lacewing.api.ScriptHost;
import dev.lacewing.api.ScriptRuntime;
import dev.lacewing.script.lua.lib.RedisRandom;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import dev.lacewing.api.ScriptFunction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaThread;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.BaseLib;
import org.luaj.vm2.lib.CoroutineLib;
import org.luaj.vm2.lib.DebugLib;
import org.luaj.vm2.lib.MathLib;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.PackageLib;
import org.luaj.vm2.lib.StringLib;
import org.luaj.vm2.lib.TableLib;
import org.luaj.vm2.lib.TwoArgFunction;
import org.luaj.vm2.lib.VarArgFunction;
import org.luaj.vm2.lib.ZeroArgFunction;

/**
 * One thread's Lua state: Redis 7.0's sandbox (script_lua.c, eval.c) on luaj 2.0.3, the scripts it
 * compiled by SHA, and the {@code redis} library.
 *
 * <p>The sandbox: only Redis's globals exist (no os, io, print, loadfile, dofile, require, module,
 * getfenv, setfenv, debug); the global table and every library table are read-only; reading a global
 * that does not exist is an error, as Redis makes it.
 *
 * <p>luaj 2.0.3 keeps the Lua call stack and the debug state on the running Lua thread, which its
 * own LuaThread holds in a static field; the plugin carries its own org.luaj.vm2.LuaThread, which
 * keeps one per Java thread, so runtimes on different threads run Lua at the same time. A script's
 * atomicity comes from the engine's key claims (ScriptRun), not from Lua. Line numbers in errors
 * need luaj's debug mode (DebugLib), which is on.
 *
 * <p>Thread rule: used only by the thread it was made for.
 */
final class LuaRuntime implements ScriptRuntime {

    static {
        LuaC.install();
    }

    /**
     * luaj's string library, loaded once: loading it sets statics every thread's scripts read (the
     * string metatable, StringLib.instance), so it is published here, by class initialisation,
     * rather than again by each thread's sandbox while other threads run scripts.
     */
    private static final LuaTable STRING = stringLibrary();
    /**
     * Held while a sandbox is built: luaj's libraries, as they load, find each other through statics
     * (PackageLib.instance), so two threads must not load them at once. Once per thread.
     */
    private static final Object SANDBOX_BUILD = new Object();

    private static LuaTable stringLibrary() {
        LuaTable standard = new LuaTable();
        standard.load(new PackageLib());
        standard.load(new StringLib());
        return standard.get("string").checktable();
    }

    /** Base functions Redis 7.0 leaves in a script's globals. */
    private static final String[] BASE = {"assert", "collectgarbage", "gcinfo", "getmetatable", "ipairs", "load",
        "loadstring", "next", "pairs", "rawequal", "rawget", "rawset", "select", "setmetatable", "tonumber",
        "tostring", "type", "unpack", "xpcall"};
    private static final String[] LIBRARIES = {"string", "table", "math", "coroutine"};

    /** Lua instructions between two {@link ScriptHost#checkpoint()} calls. */
    private static final int CHECKPOINT_INSTRUCTIONS = 100_000;
    static final String KILLED = "ERR Script killed by user with SCRIPT KILL...";
    private static final LuaValue KEYS = LuaValue.valueOf("KEYS");
    private static final LuaValue ARGV = LuaValue.valueOf("ARGV");
    private static final LuaValue NO_HOOK_EVENTS = LuaValue.valueOf("");
    private static final LuaValue LINE_HOOK_EVENTS = LuaValue.valueOf("l");
    private static final LuaValue CHECKPOINT_COUNT = LuaValue.valueOf(CHECKPOINT_INSTRUCTIONS);

    /** Ends a killed script from luaj's count hook, where a LuaError would be swallowed; pcall does not catch it. */
    private static final class Killed extends Error {
        final int line;

        Killed(int line) {
            super(KILLED, null, false, false);
            this.line = line;
        }
    }

    private final ReadonlyTable globals;
    /**
     * The names of the globals and of the library tables' entries, each mapped to itself: the key
     * object its table holds. See {@link #withSharedNames}.
     */
    private final LuaTable names;
    /** The server's math.random sequence, shared by every runtime as Redis shares its one Lua state's. */
    private final RedisRandom random;

    /** Ends a load past its time limit from luaj's count hook, where a LuaError would be swallowed. */
    private static final class LoadTimeout extends Error {
        LoadTimeout() {
            super("ERR FUNCTION LOAD timeout", null, false, false);
        }
    }
    /** debug.sethook, kept out of the sandbox, and the count hook that asks the host whether to stop. */
    private LuaValue sethook;
    /**
     * The hook debug.sethook last installed on this thread's Lua state, or null for none. The
     * checkpoint hook stays installed from run to run (it does nothing without a host, and only runs
     * run Lua here), so a run makes no debug.sethook calls; the debugger's and a library load's
     * hooks are taken off when they end. luaj keeps the instruction count across sethook calls, so
     * leaving the hook on changes nothing a script sees.
     */
    private LuaValue installedHook;
    private final LuaValue checkpoint = new ZeroArgFunction() {
        @Override
        public LuaValue call() {
            if (host != null && host.checkpoint()) {
                throw new Killed(lineOf(new LuaError("").getMessage(), chunk));
            }
            return NONE;
        }
    };
    private final Map<String, LuaFunction> compiled = new HashMap<>();
    /** The debug library, kept out of the sandbox: the debugger reads frames and locals with it. */
    private LuaTable debugLibrary;
    /** The debugging session of the run in progress (SCRIPT DEBUG), or null. */
    private LuaDebugger debugger;
    private final LuaValue debugHook = new TwoArgFunction() {
        @Override
        public LuaValue call(LuaValue event, LuaValue line) {
            debugger.hook(event);
            return NONE;
        }
    };

    /**
     * Functions (function_lua.c): library code runs with {@link #functionGlobals}, an empty read-only
     * table whose missing globals come from {@link #loadApi} while a library loads (only the
     * {@code redis} table of register_function, log and the version) and from {@link #runApi} (the
     * script globals without KEYS and ARGV) while a function runs. Made on the first function use.
     */
    private ReadonlyTable functionGlobals;
    private ReadonlyTable loadApi;
    private ReadonlyTable runApi;
    private boolean loading;
    /** The load in progress: where registrations go, what was registered, and when it must stop. */
    private Function<ScriptFunction, String> register;
    private Map<String, LuaFunction> registered;
    private List<ScriptFunction> definitions;
    private long loadDeadlineNanos;
    /** Libraries this runtime loaded, by the server's name for that version of each. */
    private final Map<String, Map<String, LuaFunction>> libraries = new HashMap<>();
    private final LuaValue loadCheckpoint = new ZeroArgFunction() {
        @Override
        public LuaValue call() {
            if (loadDeadlineNanos != 0 && System.nanoTime() - loadDeadlineNanos > 0) {
                throw new LoadTimeout();
            }
            return NONE;
        }
    };
    /** The run in progress: its host and sha, and the protocol redis.setresp chose. */
    private ScriptHost host;
    private String sha;
    private String chunk = "user_script";
    private int resp = 2;

    LuaRuntime(RedisRandom random) {
        this.random = random;
        globals = sandbox(true);
        names = namesOf(globals);
    }

    private static LuaTable namesOf(LuaTable globals) {
        LuaTable names = new LuaTable();
        LuaValue key = LuaValue.NIL;
        while (true) {
            Varargs next = globals.next(key);
            key = next.arg1();
            if (key.isnil()) {
                return names;
            }
            names.rawset(key, key);
            LuaValue value = next.arg(2);
            if (value.istable() && value != globals) {
                LuaValue inner = LuaValue.NIL;
                while (true) {
                    inner = value.next(inner).arg1();
                    if (inner.isnil()) {
                        break;
                    }
                    names.rawset(inner, inner);
                }
            }
        }
    }

    private ReadonlyTable sandbox(boolean keysAndArgv) {
        LuaTable standard = new LuaTable();
        synchronized (SANDBOX_BUILD) {
            standard.load(new BaseLib());
            standard.load(new PackageLib());
            standard.load(new TableLib());
            standard.set("string", STRING);
            standard.load(new CoroutineLib());
            standard.load(new MathLib());
            standard.load(new DebugLib());
        }
        sethook = standard.get("debug").get("sethook");
        debugLibrary = standard.get("debug").checktable();
        ReadonlyTable g = new ReadonlyTable();
        for (String name : BASE) {
            g.rawset(LuaValue.valueOf(name), standard.get(name));
        }
        for (String name : LIBRARIES) {
            ReadonlyTable library = ReadonlyTable.copyOf(standard.get(name).checktable());
            if (name.equals("math")) {
                random.install(library);
            }
            library.lock();
            g.rawset(LuaValue.valueOf(name), library);
        }
        LuaValue error = standard.get("error");
        g.rawset(LuaValue.valueOf("error"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.arg1().istable()) {
                    throw new ErrorValue(args.arg1().checktable());
                }
                return error.invoke(args);
            }
        });
        g.rawset(LuaValue.valueOf("pcall"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                LuaValue function = args.checkvalue(1);
                try {
                    return varargsOf(TRUE, function.invoke(args.subargs(2)));
                } catch (ErrorValue e) {
                    return varargsOf(FALSE, e.text());
                } catch (LuaError e) {
                    String message = e.getMessage();
                    return varargsOf(FALSE, message == null ? NIL : valueOf(message));
                }
            }
        });
        g.rawset(LuaValue.valueOf("__redis__err__handler"), new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue err) {
                return err.istable() ? err : ErrorValue.of("ERR " + err.tojstring()).value();
            }
        });
        LuaValue tostring = standard.get("tostring");
        g.rawset(LuaValue.valueOf("tostring"), new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue value) {
                return value.type() == TNUMBER ? valueOf(LuaReply.numberText(value.todouble())) : tostring.call(value);
            }
        });
        g.rawset(LuaValue.valueOf("_VERSION"), LuaValue.valueOf("Lua 5.1"));
        g.rawset(LuaValue.valueOf("_G"), g);
        g.rawset(LuaValue.valueOf("redis"), redisLibrary());
        Libraries.install(g);
        if (keysAndArgv) {
            g.rawset(KEYS, new LuaTable());
            g.rawset(ARGV, new LuaTable());
        }
        g.setmetatable(nonexistentGlobalError());
        g.lock();
        return g;
    }

    /** The metatable that makes reading a missing global an error, as Redis's globals and API tables do. */
    private static LuaTable nonexistentGlobalError() {
        LuaTable meta = new LuaTable();
        meta.set("__index", new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue table, LuaValue key) {
                throw new LuaError("Script attempted to access nonexistent global variable '" + key.tojstring() + "'");
            }
        });
        return meta;
    }

    /** Makes the function globals and the load and run APIs behind them, once. */
    private void functionSandbox() {
        if (functionGlobals != null) {
            return;
        }
        runApi = sandbox(false);
        ReadonlyTable redis = new ReadonlyTable();
        redis.rawset(LuaValue.valueOf("register_function"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                registerFunction(args);
                return NONE;
            }
        });
        LuaValue full = runApi.rawget("redis");
        for (String name : new String[] {"log", "LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING", "REDIS_VERSION",
            "REDIS_VERSION_NUM"}) {
            redis.rawset(LuaValue.valueOf(name), full.rawget(name));
        }
        redis.setmetatable(nonexistentGlobalError());
        redis.lock();
        loadApi = new ReadonlyTable();
        loadApi.rawset(LuaValue.valueOf("redis"), redis);
        loadApi.setmetatable(nonexistentGlobalError());
        loadApi.lock();
        functionGlobals = new ReadonlyTable();
        LuaTable meta = new LuaTable();
        meta.set("__index", new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue table, LuaValue key) {
                return (loading ? loadApi : runApi).get(key);
            }
        });
        functionGlobals.setmetatable(meta);
        functionGlobals.lock();
    }

    // ---- ScriptRuntime ------------------------------------------------------------------------

    @Override
    public String compile(String sha, byte[] body) {
        return compiled.containsKey(sha) ? null : load(sha, body);
    }

    /** Compiles; null, or Redis's compile error. */
    private String load(String sha, byte[] body) {
        try {
            LuaThread.setGlobals(globals);
            Prototype prototype = LuaC.compile(new ByteArrayInputStream(withoutShebang(body)), "@user_script");
            withoutTailCalls(prototype);
            withSharedNames(prototype);
            compiled.put(sha, new LuaClosure(prototype, globals));
            return null;
        } catch (LuaError e) {
            return "Error compiling script (new function): " + e.getMessage();
        } catch (IOException e) {
            return "Error compiling script (new function): " + e.getMessage();
        }
    }

    /**
     * Turns every tail call into a call followed by the return the compiler already put after it
     * (Lua 5.1 codes {@code return f(x)} as TAILCALL A B 0; RETURN A 0). luaj runs a tail call after
     * the caller's frame is gone, so an error raised in it (a failing {@code return redis.call(...)})
     * could not name the script line, which Redis's error reply does. Only the stack depth of deep
     * tail recursion changes.
     */
    private static void withoutTailCalls(Prototype prototype) {
        int[] code = prototype.code;
        for (int i = 0; i < code.length; i++) {
            if ((code[i] & Lua.MASK_OP) == Lua.OP_TAILCALL) {
                code[i] = (code[i] & Lua.MASK_NOT_OP) | Lua.OP_CALL;
            }
        }
        if (prototype.p != null) {
            for (Prototype inner : prototype.p) {
                withoutTailCalls(inner);
            }
        }
    }

    /**
     * Replaces each string constant that names a global or a library entry ({@code redis},
     * {@code call}, {@code KEYS}) by the key object the table holds. luaj 2.0.3 does not intern
     * strings and computes a string's hash on every use: a lookup by an equal but distinct string
     * hashes it, then hashes both and compares their bytes at the slot; by the table's own key it
     * hashes once and ends at the identity check. A script's constants are values no script can tell
     * apart, so only the lookups change.
     */
    private void withSharedNames(Prototype prototype) {
        LuaValue[] constants = prototype.k;
        for (int i = 0; i < constants.length; i++) {
            if (constants[i].type() == LuaValue.TSTRING) {
                LuaValue shared = names.rawget(constants[i]);
                if (!shared.isnil()) {
                    constants[i] = shared;
                }
            }
        }
        if (prototype.p != null) {
            for (Prototype inner : prototype.p) {
                withSharedNames(inner);
            }
        }
    }

    /** The body with its shebang line emptied (its newline kept, so line numbers stay those of the body). */
    private static byte[] withoutShebang(byte[] body) {
        if (body.length < 2 || body[0] != '#' || body[1] != '!') {
            return body;
        }
        int end = 0;
        while (end < body.length && body[end] != '\n') {
            end++;
        }
        return java.util.Arrays.copyOfRange(body, end, body.length);
    }

    @Override
    public void run(String sha, byte[] body, ScriptHost host, ReplyWriter reply) {
        runScript(sha, body, host, reply);
    }

    /**
     * The run under LDB: a line hook stops it where the client asks, redis.call logs while it
     * steps, and the session's last log lines end with {@code <endsession>} before the reply.
     */
    @Override
    public void debug(String sha, byte[] body, ScriptHost host, ReplyWriter reply, ScriptDebugger client) {
        debugger = new LuaDebugger(client, body, globals, debugLibrary, args -> redisCall(args, true));
        try {
            runScript(sha, body, host, reply);
        } finally {
            LuaDebugger ended = debugger;
            debugger = null;
            ended.end();
        }
    }

    private void runScript(String sha, byte[] body, ScriptHost host, ReplyWriter reply) {
        LuaThread.setGlobals(globals);
        LuaFunction function = compiled.get(sha);
        if (function == null) {
            String error = load(sha, body);
            if (error != null) {
                reply.error("ERR " + error);
                return;
            }
            function = compiled.get(sha);
        }
        globals.setUnlocked(KEYS, strings(host.arguments(), host.firstKey(), host.firstKey() + host.keyCount()));
        globals.setUnlocked(ARGV, strings(host.arguments(), host.firstKey() + host.keyCount(),
            host.arguments().count()));
        execute(function, LuaValue.NONE, sha, "user_script", host, reply);
    }

    /** Runs a script or a function and writes its one reply; errors name {@code name} and {@code chunk}. */
    private void execute(LuaFunction function, Varargs arguments, String name, String chunk, ScriptHost host,
                         ReplyWriter reply) {
        this.host = host;
        this.sha = name;
        this.chunk = chunk;
        this.resp = 2;
        try {
            LuaValue result;
            if (debugger != null) {
                sethook.call(debugHook, LINE_HOOK_EVENTS, LuaValue.valueOf(LuaDebugger.COUNT_INSTRUCTIONS));
                installedHook = debugHook;
            } else if (installedHook != checkpoint) {
                sethook.call(checkpoint, NO_HOOK_EVENTS, CHECKPOINT_COUNT);
                installedHook = checkpoint;
            }
            try {
                result = function.invoke(arguments).arg1();
            } catch (LuaDebugger.Aborted e) {
                reply.error("ERR " + e.getMessage() + where(e.line));
                return;
            } catch (Killed e) {
                reply.error(KILLED + where(e.line));
                return;
            } catch (ErrorValue e) {
                reply.error(e.value().get("err").tojstring() + where(lineOf(e.getMessage(), chunk)));
                return;
            } catch (LuaError e) {
                String message = e.getMessage();
                reply.error("ERR " + (message == null ? "nil" : message) + where(lineOf(message, chunk)));
                return;
            } catch (StackOverflowError e) {
                reply.error("ERR " + chunk + ":1: stack overflow" + where(1));
                return;
            }
            LuaReply.write(reply, result, resp);
        } finally {
            this.host = null;
            if (installedHook != checkpoint) {
                removeHook();
            }
        }
    }

    @Override
    public List<ScriptFunction> loadLibrary(byte[] code, long timeoutMillis, Function<ScriptFunction, String> register) {
        try {
            loadDeadlineNanos = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            load(code, register);
            return definitions;
        } finally {
            loadDeadlineNanos = 0;
            definitions = null;
            registered = null;
        }
    }

    /**
     * A library's load run (luaEngineCreate): compiles the code as
     * {@code @user_function} and runs it with the load API; the registered functions are left in
     * {@link #registered} and {@link #definitions}.
     */
    private void load(byte[] code, Function<ScriptFunction, String> register) {
        functionSandbox();
        this.register = register;
        this.registered = new HashMap<>();
        this.definitions = new ArrayList<>();
        LuaFunction chunk;
        LuaThread.setGlobals(functionGlobals);
        try {
            Prototype prototype = LuaC.compile(new ByteArrayInputStream(withoutShebang(code)), "@user_function");
            withoutTailCalls(prototype);
            chunk = new LuaClosure(prototype, functionGlobals);
        } catch (LuaError | IOException e) {
            throw new IllegalArgumentException("Error compiling function: " + e.getMessage());
        }
        loading = true;
        sethook.call(loadCheckpoint, LuaValue.valueOf(""), LuaValue.valueOf(CHECKPOINT_INSTRUCTIONS));
        installedHook = loadCheckpoint;
        try {
            chunk.invoke(LuaValue.NONE);
        } catch (LoadTimeout e) {
            throw new IllegalArgumentException("Error registering functions: " + e.getMessage());
        } catch (ErrorValue e) {
            throw new IllegalArgumentException("Error registering functions: " + e.value().get("err").tojstring());
        } catch (LuaError e) {
            throw new IllegalArgumentException("Error registering functions: ERR " + e.getMessage());
        } catch (StackOverflowError e) {
            throw new IllegalArgumentException("Error registering functions: ERR user_function:1: stack overflow");
        } finally {
            loading = false;
            this.register = null;
            removeHook();
        }
    }

    private void removeHook() {
        sethook.call();
        installedHook = null;
    }

    /** redis.register_function (luaRegisterFunction): the positional or the named form. */
    private void registerFunction(Varargs args) {
        if (!loading || register == null) {
            throw ErrorValue.of("ERR redis.register_function can only be called on FUNCTION LOAD command");
        }
        int count = args.narg();
        if (count < 1 || count > 2) {
            throw ErrorValue.of("ERR wrong number of arguments to redis.register_function");
        }
        String name = null;
        String description = null;
        LuaFunction callback = null;
        int flags = 0;
        if (count == 2) {
            if (!args.arg1().isstring()) {
                throw ErrorValue.of("ERR first argument to redis.register_function must be a string");
            }
            name = args.arg1().tojstring();
            if (!args.arg(2).isfunction()) {
                throw ErrorValue.of("ERR second argument to redis.register_function must be a function");
            }
            callback = (LuaFunction) args.arg(2);
        } else {
            if (!args.arg1().istable()) {
                throw ErrorValue.of("ERR calling redis.register_function with a single argument is only applicable to "
                    + "Lua table (representing named arguments).");
            }
            LuaTable table = args.arg1().checktable();
            LuaValue key = LuaValue.NIL;
            while (true) {
                Varargs next = table.next(key);
                key = next.arg1();
                if (key.isnil()) {
                    break;
                }
                LuaValue value = next.arg(2);
                if (!key.isstring()) {
                    throw ErrorValue.of("ERR named argument key given to redis.register_function is not a string");
                }
                switch (key.tojstring().toLowerCase(Locale.ROOT)) {
                    case "function_name" -> {
                        if (!value.isstring()) {
                            throw ErrorValue.of("ERR function_name argument given to redis.register_function must be a string");
                        }
                        name = value.tojstring();
                    }
                    case "description" -> {
                        if (!value.isstring()) {
                            throw ErrorValue.of("ERR description argument given to redis.register_function must be a string");
                        }
                        description = value.tojstring();
                    }
                    case "callback" -> {
                        if (!value.isfunction()) {
                            throw ErrorValue.of("ERR callback argument given to redis.register_function must be a function");
                        }
                        callback = (LuaFunction) value;
                    }
                    case "flags" -> {
                        if (!value.istable()) {
                            throw ErrorValue.of("ERR flags argument to redis.register_function must be a table "
                                + "representing function flags");
                        }
                        flags = functionFlags(value.checktable());
                    }
                    default -> throw ErrorValue.of("ERR unknown argument given to redis.register_function");
                }
            }
            if (name == null) {
                throw ErrorValue.of("ERR redis.register_function must get a function name argument");
            }
            if (callback == null) {
                throw ErrorValue.of("ERR redis.register_function must get a callback argument");
            }
        }
        ScriptFunction function = new ScriptFunction(name, description, flags);
        String refused = register.apply(function);
        if (refused != null) {
            throw ErrorValue.of("ERR " + refused);
        }
        registered.put(name, callback);
        definitions.add(function);
    }

    /** A flags table's array part (luaRegisterFunctionReadFlags): names compared ignoring case. */
    private static int functionFlags(LuaTable table) {
        int flags = 0;
        for (int i = 1; ; i++) {
            LuaValue flag = table.get(i);
            if (flag.isnil()) {
                return flags;
            }
            int bit = flag.isstring() ? indexIgnoringCase(flag.tojstring()) : -1;
            if (bit < 0) {
                throw ErrorValue.of("ERR unknown flag given");
            }
            flags |= 1 << bit;
        }
    }

    private static int indexIgnoringCase(String flag) {
        for (int i = 0; i < ScriptFunction.FLAG_NAMES.size(); i++) {
            if (ScriptFunction.FLAG_NAMES.get(i).equalsIgnoreCase(flag)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void callFunction(String library, byte[] code, String function, ScriptHost host, ReplyWriter reply) {
        Map<String, LuaFunction> functions = libraries.get(library);
        if (functions == null) {
            try {
                load(code, definition -> null);
            } catch (IllegalArgumentException e) {
                reply.error("ERR " + e.getMessage());
                return;
            } finally {
                definitions = null;
            }
            functions = registered;
            registered = null;
            libraries.put(library, functions);
        }
        LuaFunction callback = functions.get(function);
        if (callback == null) {
            reply.error("ERR Function not found");
            return;
        }
        LuaThread.setGlobals(functionGlobals);
        Arguments args = host.arguments();
        int keysEnd = host.firstKey() + host.keyCount();
        execute(callback, LuaValue.varargsOf(strings(args, host.firstKey(), keysEnd), strings(args, keysEnd, args.count())),
            function, "user_function", host, reply);
    }

    @Override
    public void flushFunctions() {
        libraries.clear();
    }

    @Override
    public void flush() {
        compiled.clear();
    }

    private String where(int line) {
        return " script: " + sha + ", on @" + chunk + ":" + line + ".";
    }

    /** The line of a message luaj prefixed with {@code <chunk>:N:}, or 1. */
    static int lineOf(String message, String chunk) {
        int start = chunk.length() + 1;
        if (message != null && message.startsWith(chunk + ":")) {
            int end = message.indexOf(':', start);
            if (end > start) {
                try {
                    return Integer.parseInt(message.substring(start, end));
                } catch (NumberFormatException e) {
                    return 1;
                }
            }
        }
        return 1;
    }

    private static LuaTable strings(Arguments args, int from, int to) {
        LuaTable table = new LuaTable(Math.max(0, to - from), 0);
        for (int i = from; i < to; i++) {
            table.rawset(i - from + 1, LuaString.valueOf(args.copy(i)));
        }
        return table;
    }

    // ---- the redis library --------------------------------------------------------------------

    private ReadonlyTable redisLibrary() {
        ReadonlyTable redis = new ReadonlyTable();
        redis.rawset(LuaValue.valueOf("call"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return redisCall(args, true);
            }
        });
        redis.rawset(LuaValue.valueOf("pcall"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return redisCall(args, false);
            }
        });
        redis.rawset(LuaValue.valueOf("error_reply"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1 || !args.arg1().isstring()) {
                    return ErrorValue.of("ERR wrong number or type of arguments").value();
                }
                return errorTable(args.arg1().tojstring());
            }
        });
        redis.rawset(LuaValue.valueOf("status_reply"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1 || !args.arg1().isstring()) {
                    return ErrorValue.of("ERR wrong number or type of arguments").value();
                }
                LuaTable table = new LuaTable();
                table.set("ok", args.arg1().tostring());
                return table;
            }
        });
        redis.rawset(LuaValue.valueOf("sha1hex"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) {
                    throw ErrorValue.of("ERR wrong number of arguments");
                }
                return valueOf(sha1Hex(bytesOf(args.arg1().tostring().checkstring())));
            }
        });
        redis.rawset(LuaValue.valueOf("log"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() < 2) {
                    throw ErrorValue.of("ERR redis.log() requires two arguments or more.");
                }
                if (!args.arg1().isnumber()) {
                    throw ErrorValue.of("ERR First argument must be a number (log level).");
                }
                int level = args.arg1().toint();
                if (level < 0 || level > 3) {
                    throw ErrorValue.of("ERR Invalid debug level.");
                }
                StringBuilder message = new StringBuilder();
                for (int i = 2; i <= args.narg(); i++) {
                    if (i > 2) {
                        message.append(' ');
                    }
                    message.append(args.arg(i).tojstring());
                }
                if (host != null) {
                    host.log(level, message.toString());
                } else {
                    System.getLogger("dev.lacewing.script").log(level == 3 ? System.Logger.Level.WARNING
                        : System.Logger.Level.INFO, message.toString());
                }
                return NONE;
            }
        });
        redis.rawset(LuaValue.valueOf("setresp"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) {
                    throw ErrorValue.of("ERR redis.setresp() requires one argument.");
                }
                int version = args.arg1().toint();
                if (version != 2 && version != 3) {
                    throw ErrorValue.of("ERR RESP version must be 2 or 3.");
                }
                resp = version;
                return NONE;
            }
        });
        redis.rawset(LuaValue.valueOf("set_repl"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) {
                    throw ErrorValue.of("ERR redis.set_repl() requires one argument.");
                }
                int flags = args.arg1().toint();
                if ((flags & ~3) != 0) {
                    throw ErrorValue.of("ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
                }
                return NONE;
            }
        });
        redis.rawset(LuaValue.valueOf("replicate_commands"), new ZeroArgFunction() {
            @Override
            public LuaValue call() {
                return TRUE;
            }
        });
        redis.rawset(LuaValue.valueOf("breakpoint"), new ZeroArgFunction() {
            @Override
            public LuaValue call() {
                if (debugger == null) {
                    return FALSE;
                }
                debugger.breakpointCalled();
                return TRUE;
            }
        });
        redis.rawset(LuaValue.valueOf("debug"), new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (debugger != null) {
                    debugger.debugCall(args);
                }
                return NONE;
            }
        });
        String[][] constants = {{"LOG_DEBUG", "0"}, {"LOG_VERBOSE", "1"}, {"LOG_NOTICE", "2"}, {"LOG_WARNING", "3"},
            {"REPL_NONE", "0"}, {"REPL_AOF", "1"}, {"REPL_SLAVE", "2"}, {"REPL_REPLICA", "2"}, {"REPL_ALL", "3"},
            {"REDIS_VERSION_NUM", String.valueOf(0x07000f)}};
        for (String[] constant : constants) {
            redis.rawset(LuaValue.valueOf(constant[0]), LuaValue.valueOf(Integer.parseInt(constant[1])));
        }
        redis.rawset(LuaValue.valueOf("REDIS_VERSION"), LuaValue.valueOf("7.0.15"));
        redis.lock();
        return redis;
    }

    /**
     * redis.call and redis.pcall (luaRedisGenericCommand): the arguments must be strings or numbers;
     * the reply comes back as a Lua value; an error reply is raised by call and returned by pcall.
     */
    private Varargs redisCall(Varargs args, boolean raise) {
        int count = args.narg();
        if (count == 0) {
            return fail("ERR Please specify at least one argument for this redis lib call", raise);
        }
        byte[][] argv = new byte[count][];
        for (int i = 0; i < count; i++) {
            LuaValue arg = args.arg(i + 1);
            if (arg.type() == LuaValue.TSTRING) {
                argv[i] = argumentBytes((LuaString) arg);
            } else if (arg.type() == LuaValue.TNUMBER) {
                argv[i] = LuaReply.numberText(arg.todouble()).getBytes(StandardCharsets.US_ASCII);
            } else {
                return fail("ERR Lua redis lib command arguments must be strings or integers", raise);
            }
        }
        boolean logged = debugger != null && debugger.stepping();
        if (logged) {
            debugger.logCommand(argv);
        }
        byte[] bytes = host.call(argv, resp, raise);
        if (logged) {
            debugger.logReply(bytes);
        }
        LuaValue reply = RespToLua.parse(bytes);
        if (raise && reply.istable() && !reply.get(ErrorValue.ERR).isnil()) {
            throw new ErrorValue((LuaTable) reply);
        }
        return reply;
    }

    private LuaValue fail(String message, boolean raise) {
        if (debugger != null && debugger.stepping()) {
            debugger.logError(message);
        }
        ErrorValue error = ErrorValue.of(message);
        if (raise) {
            throw error;
        }
        return error.value();
    }

    /** redis.error_reply's table (luaPushErrorBuff): the code taken from the message, ERR when it has none. */
    private static LuaTable errorTable(String message) {
        String text = message.startsWith("-") ? message : "-" + message;
        int space = text.indexOf(' ');
        String error = space < 0 ? "ERR " + text.substring(1) : text.substring(1, space) + " " + text.substring(space + 1);
        return ErrorValue.of(error).value();
    }

    /**
     * A command argument's bytes: the string's own array when the string is all of it (a KEYS or
     * ARGV entry, a constant of the script), which the host only reads; a copy otherwise.
     */
    private static byte[] argumentBytes(LuaString string) {
        byte[] bytes = string.m_bytes;
        return string.m_offset == 0 && string.m_length == bytes.length ? bytes : bytesOf(string);
    }

    private static byte[] bytesOf(LuaString string) {
        byte[] bytes = new byte[string.m_length];
        string.copyInto(0, bytes, 0, bytes.length);
        return bytes;
    }

    private static String sha1Hex(byte[] body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(body);
            StringBuilder hex = new StringBuilder(40);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
