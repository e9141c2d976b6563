package dev.lacewing.script.lua;

import dev.lacewing.api.ScriptDebugger;
import dev.lacewing.script.lua.lib.CNumberFormat;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.compiler.LuaC;

/**
 * One debugging session of a script (Redis 7.0's LDB, eval.c): the source split into lines, the
 * breakpoints, the step flag, the log lines waiting to be sent, and the REPL that runs the client's
 * debugger commands each time the script stops. Lines, values and replies are worded as LDB words
 * them, so redis-cli's {@code --ldb} shows the same transcript.
 *
 * <p>luaj calls {@link #hook} for each new line and every {@link #COUNT_INSTRUCTIONS} instructions;
 * luaj swallows a LuaError thrown from a hook, so ending the script from one (abort, a protocol
 * error) throws {@link Aborted}, which the runtime answers as a script error.
 *
 * <p>Thread rule: used only by the thread running the script, for one run.
 */
final class LuaDebugger {

    /** LDB_BREAKPOINTS_MAX. */
    private static final int MAX_BREAKPOINTS = 64;
    /** LDB_MAX_LEN_DEFAULT: replies and values logged are cut past this many bytes. */
    private static final int DEFAULT_MAXLEN = 256;
    /** LDB_MAX_VALUES_DEPTH: LUA_MINSTACK / 2. */
    private static final int MAX_VALUE_DEPTH = 10;
    /** Lua instructions between two count events, as Redis sets its hook in a debugging session. */
    static final int COUNT_INSTRUCTIONS = 100_000;
    /** A script running this long without stopping is stopped ("timeout reached, infinite loop?"). */
    private static final long TIMEOUT_NANOS = 5_000_000_000L;
    private static final String SCRIPT_SOURCE = "user_script";
    /** The errors scriptCall itself raises (ScriptRun's checks), which LDB logs without a reply. */
    private static final List<String> SCRIPT_CALL_REFUSALS = List.of("ERR Unknown Redis command called from script",
        "ERR Wrong number of args calling Redis command from script", "ERR This Redis command is not allowed from script",
        "ERR The user executing the script", "ERR Write commands are not allowed from read-only scripts");

    /** Ends the script from the hook with {@code message}, which the runtime replies as Redis's error. */
    static final class Aborted extends Error {
        final int line;

        Aborted(String message, int line) {
            super(message, null, false, false);
            this.line = line;
        }
    }

    private static final String[] HELP = {
        "Redis Lua debugger help:",
        "[h]elp               Show this help.",
        "[s]tep               Run current line and stop again.",
        "[n]ext               Alias for step.",
        "[c]ontinue           Run till next breakpoint.",
        "[l]ist               List source code around current line.",
        "[l]ist [line]        List source code around [line].",
        "                     line = 0 means: current position.",
        "[l]ist [line] [ctx]  In this form [ctx] specifies how many lines",
        "                     to show before/after [line].",
        "[w]hole              List all source code. Alias for 'list 1 1000000'.",
        "[p]rint              Show all the local variables.",
        "[p]rint <var>        Show the value of the specified variable.",
        "                     Can also show global vars KEYS and ARGV.",
        "[b]reak              Show all breakpoints.",
        "[b]reak <line>       Add a breakpoint to the specified line.",
        "[b]reak -<line>      Remove breakpoint from the specified line.",
        "[b]reak 0            Remove all breakpoints.",
        "[t]race              Show a backtrace.",
        "[e]val <code>        Execute some Lua code (in a different callframe).",
        "[r]edis <cmd>        Execute a Redis command.",
        "[m]axlen [len]       Trim logged Redis replies and Lua var dumps to len.",
        "                     Specifying zero as <len> means unlimited.",
        "[a]bort              Stop the execution of the script. In sync",
        "                     mode dataset changes will be retained.",
        "",
        "Debugger functions you can call from Lua scripts:",
        "redis.debug()        Produce logs in the debugger console.",
        "redis.breakpoint()   Stop execution like if there was a breakpoint in the",
        "                     next line of code."};

    private final ScriptDebugger client;
    private final String[] source;
    private final LuaTable globals;
    private final LuaValue getinfo;
    private final LuaValue getlocal;
    /** redis.call with the step flag set, so that the command and its reply are logged. */
    private final Function<Varargs, Varargs> redisCall;
    private final List<String> logs = new ArrayList<>();
    private final List<Integer> breakpoints = new ArrayList<>();
    private boolean step = true;
    private boolean luaBreakpoint;
    private int currentLine = -1;
    private int maxlen = DEFAULT_MAXLEN;
    private boolean maxlenHintSent;
    private long startNanos = System.nanoTime();

    LuaDebugger(ScriptDebugger client, byte[] body, LuaTable globals, LuaTable debugLibrary,
                Function<Varargs, Varargs> redisCall) {
        this.client = client;
        this.source = lines(body);
        this.globals = globals;
        this.getinfo = debugLibrary.get("getinfo");
        this.getlocal = debugLibrary.get("getlocal");
        this.redisCall = redisCall;
    }

    /** The body without its trailing newlines, split at each newline (ldbStartSession). */
    private static String[] lines(byte[] body) {
        int length = body.length;
        while (length > 0 && (body[length - 1] == '\n' || body[length - 1] == '\r')) {
            length--;
        }
        return new String(body, 0, length, StandardCharsets.ISO_8859_1).split("\n", -1);
    }

    /** Whether redis.call logs the command and its reply (ldbIsEnabled: the session is stepping). */
    boolean stepping() {
        return step;
    }

    int currentLine() {
        return currentLine;
    }

    /** redis.breakpoint(): stop at the next line. */
    void breakpointCalled() {
        luaBreakpoint = true;
    }

    void log(String line) {
        logs.add(line);
    }

    /** ldbLogWithMaxLen: cut past maxlen, with the hint the first time. */
    void logWithMaxLen(String line) {
        boolean trimmed = false;
        if (maxlen != 0 && line.length() > maxlen) {
            line = line.substring(0, maxlen) + " ...";
            trimmed = true;
        }
        log(line);
        if (trimmed && !maxlenHintSent) {
            maxlenHintSent = true;
            log("<hint> The above reply was trimmed. Use 'maxlen 0' to disable trimming.");
        }
    }

    /** redis.call's command line: at most ten words, then how many more (luaRedisGenericCommand). */
    void logCommand(byte[][] argv) {
        StringBuilder line = new StringBuilder("<redis>");
        for (int i = 0; i < argv.length; i++) {
            if (i == 10) {
                line.append(" ... (").append(argv.length - i - 1).append(" more)");
                break;
            }
            line.append(' ').append(new String(argv[i], StandardCharsets.ISO_8859_1));
        }
        log(line.toString());
    }

    /**
     * What redis.call logs of a reply: an error first as luaPushErrorBuff logs it, then the reply
     * (ldbLogRedisReply). The refusals of scriptCall itself (unknown command, arity...) are logged
     * as their bare text, without a reply, as Redis raises them before any command ran.
     */
    void logReply(byte[] reply) {
        if (reply.length > 0 && reply[0] == '-') {
            String error = new String(reply, 1, Math.max(0, reply.length - 3), StandardCharsets.ISO_8859_1);
            if (error.startsWith("ERR ") && SCRIPT_CALL_REFUSALS.stream().anyMatch(error::startsWith)) {
                logError(error);
                return;
            }
            log("<error> -" + error);
        }
        logRespReply(reply);
    }

    /** An error raised by redis.call before it ran anything, as luaPushError logs it: without its ERR code. */
    void logError(String error) {
        log("<error> " + (error.startsWith("ERR ") ? error.substring(4) : error));
    }

    private void logRespReply(byte[] reply) {
        StringBuilder line = new StringBuilder("<reply> ");
        RespText.append(line, reply);
        logWithMaxLen(line.toString());
    }

    /** Sends the logs waiting, as one array (ldbSendLogs). */
    void sendLogs() {
        client.send(new ArrayList<>(logs));
        logs.clear();
    }

    /** The session's last lines: what is left of the log, then {@code <endsession>} (ldbEndSession). */
    void end() {
        log("<endsession>");
        sendLogs();
    }

    // ---- the hook -----------------------------------------------------------------------------

    /** luaLdbLineHook: {@code event} is "line" or "count". */
    void hook(LuaValue event) {
        Varargs info = getinfo.invoke(LuaValue.varargsOf(LuaValue.valueOf(2), LuaValue.valueOf("Sl")));
        LuaValue frame = info.arg1();
        if (!frame.istable()) {
            return;
        }
        currentLine = frame.get("currentline").toint();
        if (!frame.get("short_src").tojstring().contains(SCRIPT_SOURCE)) {
            return;
        }
        boolean breakpoint = breakpoints.contains(currentLine) || luaBreakpoint;
        boolean timeout = false;
        if (event.tojstring().equals("count") && !step && !breakpoint) {
            if (System.nanoTime() - startNanos < TIMEOUT_NANOS) {
                return;
            }
            timeout = true;
            step = true;
        }
        if (!step && !breakpoint) {
            return;
        }
        String reason = breakpoint ? (luaBreakpoint ? "redis.breakpoint() called" : "break point")
            : timeout ? "timeout reached, infinite loop?" : "step over";
        step = false;
        luaBreakpoint = false;
        log("* Stopped at " + currentLine + ", stop reason = " + reason);
        logSourceLine(currentLine);
        sendLogs();
        if (!repl() && timeout) {
            throw new Aborted("timeout during Lua debugging with client closing connection", currentLine);
        }
        startNanos = System.nanoTime();
    }

    /**
     * ldbRepl: runs the client's commands until one goes back to the script (step, next, continue).
     * False when the client has gone: the script then runs to its end without stopping.
     */
    private boolean repl() {
        while (true) {
            byte[][] argv;
            try {
                argv = client.read();
            } catch (IllegalArgumentException e) {
                throw new Aborted(e.getMessage(), currentLine);
            }
            if (argv == null) {
                step = false;
                breakpoints.clear();
                return false;
            }
            String[] words = new String[argv.length];
            for (int i = 0; i < argv.length; i++) {
                words[i] = new String(argv[i], StandardCharsets.ISO_8859_1);
            }
            switch (words[0].toLowerCase(Locale.ROOT)) {
                case "h", "help" -> {
                    for (String line : HELP) {
                        log(line);
                    }
                }
                case "s", "step", "n", "next" -> {
                    step = true;
                    return true;
                }
                case "c", "continue" -> {
                    return true;
                }
                case "t", "trace" -> trace();
                case "m", "maxlen" -> maxlen(words);
                case "b", "break" -> breakCommand(words);
                case "e", "eval" -> eval(words);
                case "a", "abort" -> throw new Aborted("script aborted for user request", currentLine);
                case "p", "print" -> {
                    if (words.length == 2) {
                        print(words[1]);
                    } else {
                        printAll();
                    }
                }
                case "l", "list" -> {
                    int around = currentLine;
                    int context = 5;
                    if (words.length > 1) {
                        int line = atoi(words[1]);
                        if (line > 0) {
                            around = line;
                        }
                    }
                    if (words.length > 2) {
                        context = atoi(words[2]);
                    }
                    list(around, context);
                }
                case "w", "whole" -> list(1, 1_000_000);
                default -> {
                    if (words.length > 1 && (words[0].equalsIgnoreCase("r") || words[0].equalsIgnoreCase("redis"))) {
                        redis(argv);
                    } else {
                        log("<error> Unknown Redis Lua debugger command or wrong number of arguments.");
                    }
                }
            }
            sendLogs();
        }
    }

    // ---- the commands -------------------------------------------------------------------------

    private String sourceLine(int line) {
        return line < 1 || line > source.length ? "<out of range source code line>" : source[line - 1];
    }

    /** ldbLogSourceLine: the current line marked "->", a breakpoint "#". */
    private void logSourceLine(int line) {
        boolean current = line == currentLine;
        boolean breakpoint = breakpoints.contains(line);
        String prefix = current && breakpoint ? "->#" : current ? "-> " : breakpoint ? "  #" : "   ";
        log(prefix + String.format("%-3d", line) + " " + sourceLine(line));
    }

    private void list(int around, int context) {
        for (int line = 1; line <= source.length; line++) {
            if (around == 0 || Math.abs(around - line) <= context) {
                logSourceLine(line);
            }
        }
    }

    private void maxlen(String[] words) {
        if (words.length == 2) {
            int value = atoi(words[1]);
            maxlenHintSent = true;
            if (value != 0 && value <= 60) {
                value = 60;
            }
            maxlen = value;
        }
        log(maxlen != 0 ? "<value> replies are truncated at " + maxlen + " bytes." : "<value> replies are unlimited.");
    }

    /** ldbBreak: list, add ({@code 5}), remove ({@code -5}) or clear ({@code 0}). */
    private void breakCommand(String[] words) {
        if (words.length == 1) {
            if (breakpoints.isEmpty()) {
                log("No breakpoints set. Use 'b <line>' to add one.");
            } else {
                log(breakpoints.size() + " breakpoints set:");
                for (int line : breakpoints) {
                    logSourceLine(line);
                }
            }
            return;
        }
        for (int i = 1; i < words.length; i++) {
            Long parsed = strictLong(words[i]);
            if (parsed == null) {
                log("Invalid argument:'" + words[i] + "'");
            } else if (parsed == 0) {
                breakpoints.clear();
                log("All breakpoints removed.");
            } else if (parsed > 0) {
                if (breakpoints.size() == MAX_BREAKPOINTS) {
                    log("Too many breakpoints set.");
                } else if (parsed <= source.length && !breakpoints.contains(parsed.intValue())) {
                    breakpoints.add(parsed.intValue());
                    list(parsed.intValue(), 1);
                } else {
                    log("Wrong line number.");
                }
            } else if (breakpoints.remove(Integer.valueOf((int) -parsed))) {
                log("Breakpoint removed.");
            } else {
                log("No breakpoint in the specified line.");
            }
        }
    }

    /** ldbEval: the words as an expression ({@code return ...}), else as a statement, in a frame of its own. */
    private void eval(String[] words) {
        String code = String.join(" ", java.util.Arrays.copyOfRange(words, 1, words.length));
        LuaValue function;
        try {
            function = compile("return " + code);
        } catch (LuaError | IOException e) {
            try {
                function = compile(code);
            } catch (LuaError | IOException again) {
                // luaj puts the running script's position in front of a compile error raised inside it.
                log("<error> " + again.getMessage().replaceFirst("^" + SCRIPT_SOURCE + ":\\d+: (?=ldb_eval)", ""));
                return;
            }
        }
        LuaValue result;
        try {
            result = function.call();
        } catch (LuaError e) {
            log("<error> " + e.getMessage());
            return;
        }
        logWithMaxLen("<retval> " + value(result));
    }

    private LuaValue compile(String code) throws IOException {
        Prototype prototype = LuaC.compile(new ByteArrayInputStream(code.getBytes(StandardCharsets.ISO_8859_1)),
            "@ldb_eval");
        return new LuaClosure(prototype, globals);
    }

    /** ldbRedis: redis.call with the step flag on, so the command and its reply are logged; errors are not raised. */
    private void redis(byte[][] argv) {
        LuaValue[] args = new LuaValue[argv.length - 1];
        for (int i = 1; i < argv.length; i++) {
            args[i - 1] = LuaString.valueOf(argv[i]);
        }
        step = true;
        try {
            redisCall.apply(LuaValue.varargsOf(args));
        } catch (LuaError e) {
            // As lua_pcall: the error is in the logged reply already.
        } finally {
            step = false;
        }
    }

    /** ldbPrint: the innermost local of that name, else the KEYS or ARGV global. */
    private void print(String name) {
        for (int level = 2; ; level++) {
            if (!getinfo.call(LuaValue.valueOf(level)).istable()) {
                break;
            }
            for (int index = 1; ; index++) {
                Varargs local = getlocal.invoke(LuaValue.varargsOf(LuaValue.valueOf(level), LuaValue.valueOf(index)));
                if (local.arg1().isnil()) {
                    break;
                }
                if (local.arg1().tojstring().equals(name)) {
                    logWithMaxLen("<value> " + value(local.arg(2)));
                    return;
                }
            }
        }
        if (name.equals("ARGV") || name.equals("KEYS")) {
            logWithMaxLen("<value> " + value(globals.rawget(name)));
        } else {
            log("No such variable.");
        }
    }

    /** ldbPrintAll: the current frame's locals. */
    private void printAll() {
        int shown = 0;
        for (int index = 1; ; index++) {
            Varargs local = getlocal.invoke(LuaValue.varargsOf(LuaValue.valueOf(2), LuaValue.valueOf(index)));
            if (local.arg1().isnil()) {
                break;
            }
            String name = local.arg1().tojstring();
            if (!name.contains("(*temporary)")) {
                logWithMaxLen("<value> " + name + " = " + value(local.arg(2)));
                shown++;
            }
        }
        if (shown == 0) {
            log("No local variables in the current context.");
        }
    }

    /** ldbTrace: the script's frames, innermost first. */
    private void trace() {
        int level = 2;
        for (; ; level++) {
            LuaValue frame = getinfo.call(LuaValue.valueOf(level), LuaValue.valueOf("Snl"));
            if (!frame.istable()) {
                break;
            }
            if (frame.get("short_src").tojstring().contains(SCRIPT_SOURCE)) {
                LuaValue name = frame.get("name");
                // luaj names a frame it cannot name "?"; C Lua leaves it NULL, which LDB shows as "top level".
                String shown = name.isnil() || name.tojstring().equals("?") ? "top level" : name.tojstring();
                log((level == 2 ? "In" : "From") + " " + shown + ":");
                logSourceLine(frame.get("currentline").toint());
            }
        }
        if (level == 2) {
            log("<error> Can't retrieve Lua stack.");
        }
    }

    // ---- values -------------------------------------------------------------------------------

    /** redis.debug(): its arguments on one line (luaRedisDebugCommand). */
    void debugCall(Varargs args) {
        StringBuilder line = new StringBuilder("<debug> line ").append(currentLine).append(": ");
        for (int i = 1; i <= args.narg(); i++) {
            if (i > 1) {
                line.append(", ");
            }
            appendValue(line, args.arg(i), 0);
        }
        log(line.toString());
    }

    /** ldbCatStackValue. */
    static String value(LuaValue value) {
        StringBuilder text = new StringBuilder();
        appendValue(text, value, 0);
        return text.toString();
    }

    private static void appendValue(StringBuilder out, LuaValue value, int level) {
        if (level == MAX_VALUE_DEPTH) {
            out.append("<max recursion level reached! Nested table?>");
            return;
        }
        switch (value.type()) {
            case LuaValue.TSTRING -> RespText.repr(out, LuaReply.bytes(value.checkstring()));
            case LuaValue.TBOOLEAN -> out.append(value.toboolean() ? "true" : "false");
            case LuaValue.TNUMBER -> out.append(CNumberFormat.formatG(value.todouble(), 6));
            case LuaValue.TNIL -> out.append("nil");
            case LuaValue.TTABLE -> {
                StringBuilder array = new StringBuilder();
                StringBuilder map = new StringBuilder();
                boolean isArray = true;
                int expected = 1;
                LuaValue key = LuaValue.NIL;
                while (true) {
                    Varargs next = value.next(key);
                    key = next.arg1();
                    if (key.isnil()) {
                        break;
                    }
                    if (isArray && (key.type() != LuaValue.TNUMBER || key.todouble() != expected)) {
                        isArray = false;
                    }
                    appendValue(array, next.arg(2), level + 1);
                    array.append("; ");
                    map.append('[');
                    appendValue(map, key, level + 1);
                    map.append("]=");
                    appendValue(map, next.arg(2), level + 1);
                    map.append("; ");
                    expected++;
                }
                StringBuilder chosen = isArray ? array : map;
                if (chosen.length() > 0) {
                    chosen.setLength(chosen.length() - 2);
                }
                out.append('{').append(chosen).append('}');
            }
            default -> out.append('"').append(value.typename()).append("@0x")
                .append(Integer.toHexString(System.identityHashCode(value))).append('"');
        }
    }

    /** C's atoi: leading blanks, a sign, digits; 0 when none. */
    private static int atoi(String text) {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < text.length() && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
            negative = text.charAt(i) == '-';
            i++;
        }
        long value = 0;
        while (i < text.length() && Character.isDigit(text.charAt(i)) && value < Integer.MAX_VALUE) {
            value = value * 10 + (text.charAt(i) - '0');
            i++;
        }
        return (int) (negative ? -value : Math.min(value, Integer.MAX_VALUE));
    }

    /** string2l: the whole text an integer, or null. */
    private static Long strictLong(String text) {
        if (text.isEmpty() || text.length() > 20 || (text.length() > 1 && text.charAt(0) == '0')) {
            return null;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
