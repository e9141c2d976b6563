package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.ScriptHost;
import dev.lacewing.api.ScriptFunction;
import dev.lacewing.api.ScriptRuntime;
import dev.lacewing.api.ScriptingProvider;
import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.FastThreadLocal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server's scripts (Redis's eval.c dictionary of scripts by SHA1) and the runtime each thread
 * runs them with.
 *
 * <p>Besides its body and shebang flags, each script records where it may run. A script may read or
 * write keys it does not declare in KEYS (BullMQ builds job keys from ARGV), so its declared keys
 * alone do not make it atomic. The first run of a script takes the whole keyspace and notes whether
 * it touched an undeclared key; later runs take only their declared keys, so a script whose keys
 * live on one shard runs there like any one-shard command. A later run that touches an undeclared
 * key before writing is abandoned unseen and run again over the whole keyspace
 * ({@link ScriptRun}); one that has written already cannot be made atomic and fails. Either way the
 * script takes the whole keyspace from then on.
 *
 * <p>Thread rule: the dictionary is concurrent; a runtime is used only by the thread that made it,
 * and drops its compiled scripts when it sees that SCRIPT FLUSH ran ({@link #generation}).
 */
public final class Scripts {

    /** What the scripting commands answer when no scripting plugin is installed. */
    public static final String NOT_AVAILABLE = "ERR scripting is not available: no scripting plugin (script-lua) is installed";
    public static final String NOSCRIPT = "NOSCRIPT No matching script. Please use EVAL.";

    /** A script's shebang flags, as Redis's SCRIPT_FLAG_*. */
    public static final int NO_WRITES = 1;
    public static final int ALLOW_OOM = 2;
    public static final int ALLOW_STALE = 4;
    public static final int NO_CLUSTER = 8;
    public static final int ALLOW_CROSS_SLOT = 16;
    /** The body has a shebang (Redis's SCRIPT_FLAG_EVAL_COMPAT_MODE is its absence). */
    public static final int SHEBANG = 32;

    /**
     * What a ScriptRun runs: a script or a function, with its flags and where it may run.
     * {@code wholeKeyspace} and {@code probed} are written by whichever thread ran it.
     */
    public abstract static class Program {
        final int flags;
        /** Seen touching a key outside its declared keys: runs over the whole keyspace. */
        volatile boolean wholeKeyspace;
        /** Ran once over the whole keyspace without touching an undeclared key. */
        volatile boolean probed;

        Program(int flags) {
            this.flags = flags;
        }

        public int flags() {
            return flags;
        }

        /** Whether its next run must take the whole keyspace: not yet probed, or seen leaving its keys. */
        boolean needsWholeKeyspace() {
            return wholeKeyspace || !probed;
        }

        /** Runs it on this thread's runtime, writing exactly one reply. */
        abstract void run(ScriptRuntime runtime, ScriptHost host, ReplyWriter reply);

        /** Whether it is a function (FCALL), for the BUSY and KILL errors that name FUNCTION KILL. */
        boolean function() {
            return false;
        }
    }

    /** One script (EVAL). */
    public static final class Script extends Program {
        final String sha;
        /** The SHA's 40 lower-case hex digits, for comparing an EVALSHA argument without decoding it. */
        private final byte[] shaDigits;
        final byte[] body;

        Script(String sha, byte[] body, int flags) {
            super(flags);
            this.sha = sha;
            this.shaDigits = sha.getBytes(StandardCharsets.US_ASCII);
            this.body = body;
        }

        /** Whether argument {@code index} is this script's SHA in either case (evalShaCommand lowers it). */
        boolean named(Arguments args, int index) {
            if (args.length(index) != shaDigits.length) {
                return false;
            }
            byte[] array = args.array();
            int offset = args.offset(index);
            for (int i = 0; i < shaDigits.length; i++) {
                byte digit = shaDigits[i];
                byte given = array[offset + i];
                if (given != digit && !(digit >= 'a' && given == digit - ('a' - 'A'))) {
                    return false;
                }
            }
            return true;
        }

        @Override
        void run(ScriptRuntime runtime, ScriptHost host, ReplyWriter reply) {
            runtime.run(sha, body, host, reply);
        }

        public String sha() {
            return sha;
        }

        public byte[] body() {
            return body;
        }
    }

    /**
     * What one thread keeps: its runtime (made on first use) and the flush generations its compiled
     * scripts and functions belong to; the last body it hashed, so that dispatch and the handler hash
     * one EVAL once; the last script an EVALSHA named, so that a client repeating one EVALSHA finds it
     * without decoding the SHA (dispatch and the handler each look it up); the writer and buffer its
     * scripts' calls reply into.
     */
    private static final class Local {
        ScriptRuntime runtime;
        int generation;
        int functionsGeneration;
        byte[] hashedBody = new byte[0];
        String hashedSha;
        Script named;
        /** The flush generation read before {@link #named} was looked up: a flush since makes it stale. */
        int namedGeneration;
        final CallReplies callReplies = new CallReplies();
    }

    /** A call buffer grown past this by a large reply is let go when its run ends. */
    private static final int CALL_BUFFER_KEPT = 64 * 1024;

    /**
     * The writer the commands a thread's scripts call reply into, and its buffer (made on first use),
     * kept from run to run ({@link ScriptRun}) instead of made for each. One run at a time uses them:
     * a script cannot run another, and a run ends before its thread starts the next.
     */
    static final class CallReplies {
        final RespWriter writer = new RespWriter();
        private ByteBuf buffer;

        /** The buffer, emptied and aimed at by {@link #writer}. */
        ByteBuf clear() {
            if (buffer == null) {
                buffer = Unpooled.buffer(256);
            }
            buffer.clear();
            writer.target(buffer);
            return buffer;
        }

        /** A run ended: a buffer a large reply grew is let go. */
        void runEnded() {
            if (buffer != null && buffer.capacity() > CALL_BUFFER_KEPT) {
                buffer.release();
                buffer = null;
            }
        }
    }

    /** This thread's call replies. */
    CallReplies callReplies() {
        return local.get().callReplies;
    }

    private final ScriptingProvider provider;
    private final Functions functions = new Functions();
    private final ConcurrentHashMap<String, Script> bySha = new ConcurrentHashMap<>();
    /**
     * Netty's indexed thread-local, as ThreadChanges: on a worker it is an array slot, where a JDK
     * ThreadLocal probes the thread's hash map, and a collision there (a profile of EVALSHA showed
     * them) costs a walk on every script run.
     */
    private final FastThreadLocal<Local> local = new FastThreadLocal<>() {
        @Override
        protected Local initialValue() {
            return new Local();
        }
    };
    private volatile int generation;
    /** busy-reply-threshold, in nanoseconds, as of the last CONFIG SET. */
    private volatile long busyThresholdNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(5000);
    /**
     * The runs past busy-reply-threshold, oldest first: while there is one, dispatch answers BUSY.
     * Scripts on different threads run at once, so more than one may be past it; SCRIPT KILL stops
     * the oldest.
     */
    private final java.util.concurrent.ConcurrentLinkedQueue<ScriptRun> busy =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** Set when the server closes: every running script stops at its next checkpoint, written or not. */
    private volatile boolean stopping;

    Scripts(ScriptingProvider provider) {
        this.provider = provider;
    }

    /** Scripts of a server without a scripting plugin. */
    public static Scripts none() {
        return new Scripts(null);
    }

    public static final String BUSY = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
    public static final String BUSY_FUNCTION =
        "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";

    /** What dispatch answers while a run is busy: the error names the KILL that stops it. */
    public String busyError() {
        ScriptRun run = busy.peek();
        return run != null && run.function() ? BUSY_FUNCTION : BUSY;
    }

    void busyThreshold(long millis) {
        busyThresholdNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(millis);
    }

    long busyThresholdNanos() {
        return busyThresholdNanos;
    }

    /**
     * The server is closing: every script still running ends at its next checkpoint, even one that
     * wrote, as SHUTDOWN NOSAVE ends a busy Redis; otherwise closing would wait on it forever.
     */
    void stopAll() {
        stopping = true;
    }

    boolean stopping() {
        return stopping;
    }

    /** Whether a script has run past busy-reply-threshold: every command but the ALLOW_BUSY ones is answered BUSY. */
    public boolean busy() {
        return !busy.isEmpty();
    }

    /** Whether a run past busy-reply-threshold runs on a thread that {@code worker} accepts. */
    boolean busyOn(java.util.function.Predicate<Thread> worker) {
        for (ScriptRun run : busy) {
            if (worker.test(run.thread())) {
                return true;
            }
        }
        return false;
    }

    /** The run past busy-reply-threshold, for SCRIPT KILL, or null. */
    public ScriptRun busyRun() {
        return busy.peek();
    }

    void busy(ScriptRun run) {
        busy.add(run);
    }

    void notBusy(ScriptRun run) {
        busy.remove(run);
    }

    public boolean available() {
        return provider != null;
    }

    /** The plugin's language, as a shebang names it ({@code lua}). Only when {@link #available()}. */
    public String language() {
        return provider.language();
    }

    /** This thread's runtime, flushed if SCRIPT FLUSH ran since it last ran. Only when {@link #available()}. */
    public ScriptRuntime runtime() {
        Local slot = local.get();
        int current = generation;
        int currentFunctions = functions.generation();
        if (slot.runtime == null) {
            slot.runtime = provider.newRuntime();
            slot.generation = current;
            slot.functionsGeneration = currentFunctions;
        } else {
            if (slot.generation != current) {
                slot.runtime.flush();
                slot.generation = current;
            }
            if (slot.functionsGeneration != currentFunctions) {
                slot.runtime.flushFunctions();
                slot.functionsGeneration = currentFunctions;
            }
        }
        return slot.runtime;
    }

    /** The function libraries (FUNCTION, FCALL). */
    public Functions functions() {
        return functions;
    }

    private static final String LIBRARY_NAME_RULE =
        "Library names can only contain letters, numbers, or underscores(_) and must be at least one character long";

    /**
     * Loads a library (functions.c's functionsCreateWithLibraryCtx), the one path FUNCTION LOAD,
     * FUNCTION RESTORE and an RDB file's libraries take: checks its shebang, its name and its engine
     * (none without a scripting plugin), runs its load within {@code timeoutMillis} (0: no limit)
     * and, unless {@code into} collects it for an all-or-nothing RESTORE, publishes it. Null, or the
     * error without its code.
     */
    public String createLibrary(byte[] code, boolean replace, long timeoutMillis, List<Functions.Library> into) {
        Functions.Metadata metadata;
        try {
            metadata = Functions.metadata(code);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (!Functions.validName(metadata.name())) {
            return LIBRARY_NAME_RULE;
        }
        if (!available() || !metadata.engine().equalsIgnoreCase(language())) {
            return "Engine '" + metadata.engine() + "' not found";
        }
        if (into == null && !replace && functions.library(metadata.name()) != null) {
            return "Library '" + metadata.name() + "' already exists";
        }
        Functions.Library library = functions.newLibrary(metadata.name(), code);
        try {
            runtime().loadLibrary(code, timeoutMillis, definition -> registered(library, definition));
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (library.functions().isEmpty()) {
            return "No functions registered";
        }
        if (into != null) {
            into.add(library);
            return null;
        }
        return functions.add(library, replace);
    }

    /** functionLibCreateFunction's checks on one registration. Redis 7.0.15 words a bad name as a library's. */
    private static String registered(Functions.Library library, ScriptFunction definition) {
        if (!Functions.validName(definition.name())) {
            return LIBRARY_NAME_RULE;
        }
        for (Functions.Function function : library.functions()) {
            if (function.name().equals(definition.name())) {
                return "Function already exists in the library";
            }
        }
        Functions.define(library, definition);
        return null;
    }

    public Script get(String sha) {
        return bySha.get(sha);
    }

    /** Stores a compiled script; the one stored first wins, so its run record is shared. */
    public Script add(String sha, byte[] body, int flags) {
        return bySha.computeIfAbsent(sha, s -> new Script(s, body, flags));
    }

    public boolean exists(String sha) {
        return bySha.containsKey(sha.toLowerCase(Locale.ROOT));
    }

    /** SCRIPT FLUSH: forgets every script; each thread's runtime drops its compiled ones before its next run. */
    public void flush() {
        bySha.clear();
        generation++;
    }

    public int size() {
        return bySha.size();
    }

    /** Whether a call of a known function must run over the whole keyspace: new, or seen leaving its keys. */
    public boolean needsWholeKeyspace(Program program) {
        return program.needsWholeKeyspace();
    }

    /**
     * Whether an EVAL-family request must run over the whole keyspace: its script is unknown (EVAL
     * of a new body: the probe run) or known to leave its keys. EVALSHA of an unknown SHA answers
     * NOSCRIPT, so it needs nothing.
     */
    public boolean needsWholeKeyspace(Arguments args, boolean bySha) {
        Script script = bySha ? named(args) : get(shaOf(args, 1));
        return script == null ? !bySha : script.needsWholeKeyspace();
    }

    /**
     * The script an EVALSHA names (argument 1, in either case, as Redis compares it), or null. The
     * last one this thread found is checked first, so a repeated EVALSHA neither decodes nor hashes
     * its SHA.
     */
    public Script named(Arguments args) {
        if (args.length(1) != 40) {
            return null;
        }
        Local slot = local.get();
        Script last = slot.named;
        if (last != null && slot.namedGeneration == generation && last.named(args, 1)) {
            return last;
        }
        int current = generation;
        Script script = bySha.get(args.string(1).toLowerCase(Locale.ROOT));
        if (script != null) {
            slot.named = script;
            slot.namedGeneration = current;
        }
        return script;
    }

    /** The SHA1 of argument {@code index} in hex; the last body hashed on this thread is remembered. */
    public String shaOf(Arguments args, int index) {
        Local slot = local.get();
        int offset = args.offset(index);
        int length = args.length(index);
        if (Arrays.equals(slot.hashedBody, 0, slot.hashedBody.length, args.array(), offset, offset + length)) {
            return slot.hashedSha;
        }
        slot.hashedBody = args.copy(index);
        slot.hashedSha = sha1Hex(slot.hashedBody);
        return slot.hashedSha;
    }

    public static String sha1Hex(byte[] body) {
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

    /**
     * The flags of a body's shebang ({@code #!lua flags=no-writes,allow-oom}), as Redis's
     * evalExtractShebangFlags; 0 without one. Throws with Redis's error text otherwise.
     */
    public static int shebangFlags(byte[] body) {
        if (body.length < 2 || body[0] != '#' || body[1] != '!') {
            return 0;
        }
        int end = 0;
        while (end < body.length && body[end] != '\n') {
            end++;
        }
        if (end == body.length) {
            throw new IllegalArgumentException("ERR Invalid script shebang");
        }
        String line = new String(body, 0, end, StandardCharsets.UTF_8);
        String[] parts = line.split(" ");
        if (!parts[0].equals("#!lua")) {
            throw new IllegalArgumentException("ERR Unexpected engine in script shebang: " + parts[0]);
        }
        int flags = SHEBANG;
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i];
            if (part.isEmpty()) {
                continue;
            }
            if (!part.startsWith("flags=")) {
                throw new IllegalArgumentException("ERR Unknown lua shebang option: " + part);
            }
            for (String flag : part.substring(6).split(",")) {
                flags |= switch (flag) {
                    case "" -> 0;
                    case "no-writes" -> NO_WRITES;
                    case "allow-oom" -> ALLOW_OOM;
                    case "allow-stale" -> ALLOW_STALE;
                    case "no-cluster" -> NO_CLUSTER;
                    case "allow-cross-slot-keys" -> ALLOW_CROSS_SLOT;
                    default -> throw new IllegalArgumentException("ERR Unexpected flag in script shebang: " + flag);
                };
            }
        }
        return flags;
    }
}
