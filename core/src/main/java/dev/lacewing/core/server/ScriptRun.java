package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.BlockedCommand;
import dev.lacewing.api.Client;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.ScriptHost;
import dev.lacewing.core.acl.Acl;
import dev.lacewing.core.acl.AclUser;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.diagnostics.Redaction;
import dev.lacewing.core.diagnostics.SlowLog;
import dev.lacewing.core.keyspace.ThreadChanges;
import dev.lacewing.core.persistence.aof.AofBatch;
import dev.lacewing.core.persistence.aof.AofPropagation;
import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One run of a script (EVAL, EVALSHA and their read-only forms, Redis's evalGenericCommand and
 * scriptCall): the numkeys checks, the script's lookup or compilation, and the host its runtime
 * calls commands through. {@code redis.call} runs the command's handler on this thread, under the
 * grant the engine gave the script, with the checks Redis's scriptCall makes.
 *
 * <p>A call that reaches a key the grant does not cover ends the run by an {@link Error} the
 * runtime lets through (Lua's pcall does not catch it): before the script has written, the run is
 * abandoned unseen and the connection runs the request again over the whole keyspace; after, the
 * script fails with {@link #NOT_ATOMIC}. See {@link Scripts}.
 *
 * <p>Thread rule: made and used on the thread the engine runs the script on.
 */
public final class ScriptRun implements ScriptHost {

    public static final String NOT_ATOMIC = "ERR the script accessed a key outside its KEYS after writing, so it could "
        + "not run atomically; it runs over the whole keyspace from now on";
    static final String WRONG_RO_SCRIPT = "ERR Can not execute a script with write flag using *_ro command.";

    /** The peer Redis names for its script client (getClientPeerId of a client without a connection). */
    private static final String SCRIPT_CLIENT_PEER = "?:0";

    /** Ends a run that must be run again over the whole keyspace; nothing of it is seen. */
    private static final class Abandoned extends Error {
        Abandoned() {
            super("abandoned: run again over the whole keyspace", null, false, false);
        }
    }

    /** Ends a run that wrote and then reached past its grant. */
    private static final class NotAtomic extends Error {
        NotAtomic() {
            super(NOT_ATOMIC, null, false, false);
        }
    }

    private final CoreContext ctx;
    private final ServerState server;
    /** The view a read-only call sees: the connection's, or one made on the first such call without a connection. */
    private ReadLookups readLookups;
    private final Scripts.Program script;
    private final int firstKey;
    private final int keyCount;
    private final boolean readOnly;
    /** The engine granted the whole keyspace. */
    private final boolean wholeGranted;
    /** Keys granted besides the script's own (an EXEC's), or null. */
    private final Arguments alsoGranted;
    /** The connection, when a refused run can be run again over the whole keyspace. */
    private final ClientConnection rerunnable;
    /** This thread's writer and buffer for the replies of the commands the script calls. */
    private final Scripts.CallReplies callReplies;
    private final RespWriter callWriter;
    /** Read by SCRIPT KILL from another thread. */
    private volatile boolean wrote;
    /** Set by SCRIPT KILL from another thread. */
    private volatile boolean killed;
    private final long startNanos = System.nanoTime();
    private boolean busy;
    /** The thread running this run, set before it is made busy (so seen by any thread that sees it busy). */
    private volatile Thread thread;
    private Scripts scripts;
    private boolean leftItsKeys;
    /** MONITOR's lines of this run, or null: see {@link #monitorLines(CoreContext)}. */
    private final List<byte[]> monitorLines;
    /**
     * The commands this run ran that the slow log takes, held as MONITOR's lines are, the newest
     * slowlog-max-len of them (the older ones only counted, in {@link #slowCallsDropped}); null while none.
     */
    private ArrayDeque<SlowCall> slowCalls;
    private long slowCallsDropped;

    /**
     * A SCRIPT DEBUG YES session's run: its commands see a private copy of its KEYS
     * ({@link ScriptDebugSession}), so they reach no other key, wake no WATCH and go to no AOF.
     */
    private boolean privateCopy;
    /**
     * A SCRIPT DEBUG SYNC run's writes, each appended to the AOF as it ran: no client command ends
     * the session's run to append a batch (ClientConnection's appendPropagated). Null otherwise.
     */
    private AofBatch sessionWrites;

    /** A command a script ran, for the slow log. */
    private record SlowCall(Arguments args, boolean[] redacted, long micros) {
    }

    private ScriptRun(CoreContext ctx, Scripts.Program script, int keyCount, boolean readOnly,
                      List<byte[]> monitorLines) {
        this.ctx = ctx;
        this.monitorLines = monitorLines;
        this.server = ctx.server();
        this.script = script;
        this.firstKey = 3;
        this.keyCount = keyCount;
        this.readOnly = readOnly || (script.flags() & Scripts.NO_WRITES) != 0;
        this.callReplies = server.scripts().callReplies();
        this.callWriter = callReplies.writer;
        ClientConnection connection = ctx.connection();
        if (connection == ctx) {
            wholeGranted = connection.scope() == KeyScope.ALL;
            alsoGranted = null;
            rerunnable = connection;
        } else if (connection != null && connection.multi().running() != null) {
            Multi.Exec exec = connection.multi().running();
            wholeGranted = exec.scope() == KeyScope.ALL;
            alsoGranted = exec.arguments();
            rerunnable = null;
        } else {
            wholeGranted = true;
            alsoGranted = null;
            rerunnable = null;
        }
    }

    /** EVAL, EVALSHA, EVAL_RO, EVALSHA_RO. */
    public static void eval(CoreContext ctx, boolean bySha, boolean readOnlyCommand) {
        List<byte[]> monitorLines = monitorLines(ctx);
        eval(ctx, bySha, readOnlyCommand, monitorLines);
        feed(ctx, monitorLines);
    }

    private static void eval(CoreContext ctx, boolean bySha, boolean readOnlyCommand, List<byte[]> monitorLines) {
        ReplyWriter reply = ctx.reply();
        Scripts scripts = ctx.server().scripts();
        Arguments args = ctx.arguments();
        if (bySha && args.length(1) != 40 && scripts.available()) {
            // evalShaCommand: a SHA of the wrong length cannot match, so NOSCRIPT comes before numkeys's checks.
            reply.error(Scripts.NOSCRIPT);
            return;
        }
        long numKeys;
        try {
            numKeys = Long.parseLong(args.string(2));
        } catch (NumberFormatException e) {
            reply.error("ERR value is not an integer or out of range");
            return;
        }
        if (numKeys > args.count() - 3) {
            reply.error("ERR Number of keys can't be greater than number of args");
            return;
        }
        if (numKeys < 0) {
            reply.error("ERR Number of keys can't be negative");
            return;
        }
        if (!scripts.available()) {
            reply.error(Scripts.NOT_AVAILABLE);
            return;
        }
        Scripts.Script script = bySha ? scripts.named(args) : compiled(ctx, scripts, args);
        if (script == null) {
            if (bySha) {
                reply.error(Scripts.NOSCRIPT);
            }
            return;
        }
        start(ctx, scripts, script, (int) numKeys, readOnlyCommand, monitorLines);
    }

    /**
     * FCALL and FCALL_RO (fcallCommandGeneric): the function first, then its numkeys. A function
     * runs as a script with a shebang does: its flags decide FCALL_RO and the memory check.
     */
    public static void fcall(CoreContext ctx, boolean readOnlyCommand) {
        List<byte[]> monitorLines = monitorLines(ctx);
        fcall(ctx, readOnlyCommand, monitorLines);
        feed(ctx, monitorLines);
    }

    private static void fcall(CoreContext ctx, boolean readOnlyCommand, List<byte[]> monitorLines) {
        ReplyWriter reply = ctx.reply();
        Scripts scripts = ctx.server().scripts();
        Arguments args = ctx.arguments();
        Functions.Function function = scripts.functions().function(args.string(1));
        if (function == null) {
            reply.error("ERR Function not found");
            return;
        }
        long numKeys;
        try {
            numKeys = Long.parseLong(args.string(2));
        } catch (NumberFormatException e) {
            reply.error("ERR Bad number of keys provided");
            return;
        }
        if (numKeys > args.count() - 3) {
            reply.error("ERR Number of keys can't be greater than number of args");
            return;
        }
        if (numKeys < 0) {
            reply.error("ERR Number of keys can't be negative");
            return;
        }
        start(ctx, scripts, function, (int) numKeys, readOnlyCommand, monitorLines);
    }

    /**
     * What MONITOR shows of a script run, as Redis 7.0 shows it: the request's own line first
     * (evalCommand and fcallCommand feed it themselves, since these commands skip the usual feed,
     * so that it comes before the script's commands), then a {@code [db lua]} line for each command
     * the script ran. The lines wait for the run's end, so that a run abandoned to be run again
     * over the whole keyspace shows nothing. Null when no client monitors.
     */
    private static List<byte[]> monitorLines(CoreContext ctx) {
        ServerState server = ctx.server();
        if (!server.monitors().active()) {
            return null;
        }
        Client client = ctx.client();
        String origin = ctx.connection() != null ? ctx.connection().remoteAddress() : "?";
        Arguments args = ctx.arguments();
        List<byte[]> lines = new ArrayList<>();
        lines.add(Monitors.line(Instant.now(), client == null ? 0 : client.database(), origin, args, null));
        return lines;
    }

    private static void feed(CoreContext ctx, List<byte[]> monitorLines) {
        if (monitorLines != null) {
            Monitors monitors = ctx.server().monitors();
            for (byte[] line : monitorLines) {
                monitors.feed(line);
            }
        }
    }

    /** The checks a script's or function's flags ask for (scriptPrepareForRun), then its run. */
    private static void start(CoreContext ctx, Scripts scripts, Scripts.Program program, int numKeys,
                              boolean readOnlyCommand, List<byte[]> monitorLines) {
        ReplyWriter reply = ctx.reply();
        int flags = program.flags();
        if (readOnlyCommand && (flags & Scripts.SHEBANG) != 0 && (flags & Scripts.NO_WRITES) == 0) {
            reply.error(WRONG_RO_SCRIPT);
            return;
        }
        // scriptPrepareForRun: a script with a shebang and without no-writes is refused whole.
        String diskError = (flags & Scripts.SHEBANG) != 0 && (flags & Scripts.NO_WRITES) == 0
            ? ctx.server().diskErrorRefusal() : null;
        if (diskError != null) {
            reply.error(diskError);
            return;
        }
        if ((flags & Scripts.SHEBANG) != 0 && (flags & (Scripts.NO_WRITES | Scripts.ALLOW_OOM)) == 0
            && ctx.connection() != null && !ctx.server().engine().reclaimMemory(ctx.connection())) {
            reply.error(Errors.OOM);
            return;
        }
        new ScriptRun(ctx, program, numKeys, readOnlyCommand, monitorLines).run(scripts);
    }

    /**
     * A run for a debugging session ({@link ScriptDebugSession}): {@code ctx} gives the session's
     * request and keyspace, and the caller holds the whole keyspace for each {@link #call} (SYNC)
     * or owns the private copy {@code ctx} sees ({@code privateCopy}, YES).
     */
    static ScriptRun forDebugging(CoreContext ctx, Scripts.Program program, int keyCount, boolean readOnly,
                                  boolean privateCopy) {
        ScriptRun run = new ScriptRun(ctx, program, keyCount, readOnly, null);
        run.privateCopy = privateCopy;
        run.sessionWrites = privateCopy ? null : new AofBatch();
        return run;
    }

    /** A debugging session's run ended: its slow commands are logged. */
    void debuggingEnded() {
        logSlowCalls();
        callReplies.runEnded();
    }

    /** EVAL's script: known by its SHA, or compiled and stored now; null after replying an error. */
    private static Scripts.Script compiled(CoreContext ctx, Scripts scripts, Arguments args) {
        String sha = scripts.shaOf(args, 1);
        Scripts.Script script = scripts.get(sha);
        return script != null ? script : load(ctx.reply(), scripts, sha, args.copy(1));
    }

    /** Checks the shebang and compiles the body on this thread; the stored script, or null after replying the error. */
    public static Scripts.Script load(ReplyWriter reply, Scripts scripts, String sha, byte[] body) {
        int flags;
        try {
            flags = Scripts.shebangFlags(body);
        } catch (IllegalArgumentException e) {
            reply.error(e.getMessage());
            return null;
        }
        String error = scripts.runtime().compile(sha, body);
        if (error != null) {
            reply.error("ERR " + error);
            return null;
        }
        return scripts.add(sha, body, flags);
    }

    private void run(Scripts scripts) {
        this.scripts = scripts;
        RespWriter writer = ctx.reply();
        int mark = writer.position();
        try {
            script.run(scripts.runtime(), this, writer);
            if (wholeGranted && !leftItsKeys) {
                script.probed = true;
            }
        } catch (Abandoned e) {
            writer.truncate(mark);
            if (monitorLines != null) {
                monitorLines.clear();
            }
            slowCalls = null;
            slowCallsDropped = 0;
            rerunnable.rerunOverWholeKeyspace();
        } catch (NotAtomic e) {
            writer.truncate(mark);
            writer.error(NOT_ATOMIC);
        } finally {
            scripts.notBusy(this);
            logSlowCalls();
            callReplies.runEnded();
        }
    }

    /**
     * Redis's scriptCall runs each command through call() with CMD_CALL_SLOWLOG, so each slow one is
     * an entry of its own, from the script's client ("?:0", no name), before the EVAL's own entry.
     * They are logged when the run ends, so that a run abandoned for a rerun logs only the rerun's.
     */
    private void logSlowCalls() {
        if (slowCalls == null) {
            return;
        }
        SlowLog slowLog = server.slowLog();
        slowLog.skip(slowCallsDropped);
        for (SlowCall call : slowCalls) {
            slowLog.add(call.args(), call.redacted(), call.micros(), SCRIPT_CLIENT_PEER, "");
        }
        slowCalls = null;
        slowCallsDropped = 0;
    }

    /** The thread running this run, once it is busy. */
    Thread thread() {
        return thread;
    }

    // ---- ScriptHost ---------------------------------------------------------------------------

    @Override
    public Arguments arguments() {
        return ctx.arguments();
    }

    @Override
    public int firstKey() {
        return firstKey;
    }

    @Override
    public int keyCount() {
        return keyCount;
    }

    /** Past busy-reply-threshold, makes this run the one dispatch answers BUSY for and SCRIPT KILL stops. */
    @Override
    public boolean checkpoint() {
        if (!busy && System.nanoTime() - startNanos > scripts.busyThresholdNanos()) {
            busy = true;
            thread = Thread.currentThread();
            scripts.busy(this);
        }
        return killed || scripts.stopping();
    }

    /**
     * SCRIPT KILL or FUNCTION KILL (another thread, scriptKill): the UNKILLABLE error once the script
     * wrote, BUSY when the other KILL must stop it, null when it will stop.
     */
    public String kill(boolean functionKill) {
        if (wrote) {
            return "UNKILLABLE Sorry the script already executed write commands against the dataset. You can either "
                + "wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.";
        }
        if (functionKill != function()) {
            return functionKill ? Scripts.BUSY : Scripts.BUSY_FUNCTION;
        }
        killed = true;
        return null;
    }

    /** Whether this run is a function's (FCALL). */
    boolean function() {
        return script.function();
    }

    /**
     * The running function's name and request, and how long it has run, for FUNCTION STATS on
     * another thread while this run is busy: the request's bytes stay put until the run ends.
     */
    public String functionName() {
        return script instanceof Functions.Function function ? function.name() : null;
    }

    public Arguments request() {
        return ctx.arguments();
    }

    public long runningMillis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    @Override
    public void log(int level, String message) {
        System.Logger.Level to = switch (level) {
            case 0 -> System.Logger.Level.DEBUG;
            case 1 -> System.Logger.Level.INFO;
            case 2 -> System.Logger.Level.INFO;
            default -> System.Logger.Level.WARNING;
        };
        System.getLogger("dev.lacewing.script").log(to, message);
    }

    /**
     * Redis's scriptVerifyACL: the calling client's user must be allowed the command, its keys and
     * its channels; a refusal is logged with context "lua". Null when allowed.
     */
    private String aclRefusal(Command<CoreContext> command, Arguments request) {
        ClientConnection connection = ctx.connection();
        if (connection == null) {
            return null;
        }
        AclUser.Rules rules = connection.user().rules();
        if (rules.unrestricted()) {
            return null;
        }
        Command<CoreContext> target = command;
        if (request.count() > 1 && !command.subcommands().isEmpty()) {
            target = command.subcommand(request.string(1).toLowerCase(Locale.ROOT));
            if (target == null || !target.spec().acceptsArgumentCount(request.count())) {
                return null;
            }
        }
        Acl.Denial denial = server.acl().check(rules, target, request);
        if (denial == null) {
            return null;
        }
        connection.logDenial(denial, target, request, "lua");
        return "ERR The user executing the script " + switch (denial.reason()) {
            case COMMAND -> "can't run this command or subcommand";
            case KEY -> "can't access at least one of the keys mentioned in the command arguments";
            default -> "can't publish to the channel mentioned in the command";
        };
    }

    @Override
    public byte[] call(byte[][] argv, int protocol, boolean raiseErrors) {
        Command<CoreContext> command = argv.length == 0 ? null : server.commands().lookup(argv[0], 0, argv[0].length);
        if (command == null) {
            return error("ERR Unknown Redis command called from script");
        }
        CommandSpec spec = command.spec();
        if (!spec.acceptsArgumentCount(argv.length)) {
            return error("ERR Wrong number of args calling Redis command from script");
        }
        CommandSpec named = spec;
        if (argv.length > 1 && !command.subcommands().isEmpty()) {
            Command<CoreContext> subcommand = command.subcommand(new String(argv[1], StandardCharsets.UTF_8).toLowerCase(Locale.ROOT));
            named = subcommand != null ? subcommand.spec() : spec;
        }
        if (spec.has(CommandFlag.NOSCRIPT) || named.has(CommandFlag.NOSCRIPT)) {
            return error("ERR This Redis command is not allowed from script");
        }
        Arguments request = new ArgvArguments(argv);
        String refused = aclRefusal(command, request);
        if (refused != null) {
            return error(refused);
        }
        boolean write = spec.has(CommandFlag.WRITE) || named.has(CommandFlag.WRITE);
        if (write && readOnly) {
            return error("ERR Write commands are not allowed from read-only scripts.");
        }
        // scriptVerifyWriteCommandAllow: after a failed BGSAVE or an AOF write error a script's
        // first write gets MISCONF; once it wrote, it may go on (failing it midway would leave half
        // its effects).
        String diskError = write && !wrote ? server.diskErrorRefusal() : null;
        if (diskError != null) {
            return error(diskError);
        }
        Arguments args = request;
        if (privateCopy) {
            String outside = outsideCopy(spec, args);
            if (outside != null) {
                return error(outside);
            }
        }
        if (spec.has(CommandFlag.DENYOOM) && (script.flags() & Scripts.ALLOW_OOM) == 0 && !wrote && !privateCopy
            && ctx.connection() != null && !server.engine().reclaimMemory(ctx.connection())) {
            return error(Errors.OOM);
        }
        checkGrant(spec, args);
        ByteBuf replyBuffer = callReplies.clear();
        callWriter.protocol(protocol);
        long start = System.nanoTime();
        long errorsBefore = callWriter.errorCount();
        CallContext call = new CallContext(args, command.readOnly());
        long changesBefore = ThreadChanges.count();
        try {
            command.execute(call);
            if (!privateCopy) {
                Watch.written(spec, args, call, changesBefore);
            }
        } catch (RuntimeException e) {
            callWriter.error("ERR " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        if (write) {
            wrote = true;
        }
        boolean failed = callWriter.errorCount() != errorsBefore;
        long micros = (System.nanoTime() - start) / 1000;
        command.recordCall(micros, failed);
        server.latencyTracking().record(command.latency(), micros);
        if (monitorLines != null) {
            Client client = ctx.client();
            monitorLines.add(Monitors.line(Instant.now(), client == null ? 0 : client.database(), "lua", args,
                Redaction.of(spec.name(), args)));
        }
        // scriptCall runs each command through call(), which samples it as it samples a client's.
        server.latencyMonitor().commandRan(spec, micros);
        SlowLog slowLog = server.slowLog();
        if (slowLog.isSlow(micros) && !spec.has(CommandFlag.SKIP_SLOWLOG)) {
            if (slowCalls == null) {
                slowCalls = new ArrayDeque<>();
            }
            slowCalls.add(new SlowCall(args, Redaction.of(spec.name(), args), micros));
            if (slowCalls.size() > slowLog.maxLength()) {
                slowCalls.poll();
                slowCallsDropped++;
            }
        }
        byte[] reply = ByteBufUtil.getBytes(replyBuffer);
        // Redis 7 replicates a script's effects: each write that changed something, MULTI/EXEC around several.
        if (write && !failed && !privateCopy && (ThreadChanges.count() != changesBefore || AofPropagation.always(spec.name()))
            && server.aof().enabled()
            && ctx.connection() != null) {
            ClientConnection connection = ctx.connection();
            if (sessionWrites != null) {
                AofPropagation.add(sessionWrites, connection.database(), spec.name(), args, call.now(), () -> reply);
                server.aof().append(sessionWrites);
                sessionWrites.clear();
            } else {
                connection.propagate(command, args, reply);
            }
        }
        return reply;
    }

    private ReadLookups readLookups() {
        if (readLookups == null) {
            ClientConnection connection = ctx.connection();
            readLookups = connection != null ? connection.readLookups() : server.readLookups();
        }
        return readLookups;
    }

    private static byte[] error(String message) {
        return ("-" + message + "\r\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A call naming a key outside the script's KEYS (or reaching the whole keyspace) marks the script
     * to run over the whole keyspace from now on; one the grant does not cover ends this run.
     */
    private void checkGrant(CommandSpec spec, Arguments args) {
        KeyScope scope = spec.scope(args);
        if (scope == KeyScope.NONE) {
            return;
        }
        boolean outside = scope == KeyScope.ALL;
        boolean uncovered = outside && !wholeGranted;
        for (int i = 0, keys = spec.keyCount(args); i < keys; i++) {
            int argument = spec.keyArgument(args, i);
            byte[] array = args.array();
            int offset = args.offset(argument);
            int length = args.length(argument);
            if (!declared(array, offset, length)) {
                outside = true;
                uncovered |= !wholeGranted && !alsoGranted(array, offset, length);
            }
        }
        if (outside) {
            leftItsKeys = true;
            script.wholeKeyspace = true;
        }
        if (uncovered) {
            if (wrote || rerunnable == null) {
                throw new NotAtomic();
            }
            throw new Abandoned();
        }
    }

    /** A SCRIPT DEBUG YES run's refusal of a command reaching past the copy of its KEYS, or null. */
    private String outsideCopy(CommandSpec spec, Arguments args) {
        KeyScope scope = spec.scope(args);
        if (scope == KeyScope.NONE) {
            return null;
        }
        boolean outside = scope == KeyScope.ALL;
        for (int i = 0, keys = spec.keyCount(args); i < keys && !outside; i++) {
            int argument = spec.keyArgument(args, i);
            outside = !declared(args.array(), args.offset(argument), args.length(argument));
        }
        return outside ? ScriptDebugSession.OUTSIDE_COPY : null;
    }

    private boolean declared(byte[] array, int offset, int length) {
        return contains(ctx.arguments(), firstKey, firstKey + keyCount, array, offset, length);
    }

    private boolean alsoGranted(byte[] array, int offset, int length) {
        return alsoGranted != null && contains(alsoGranted, 1, alsoGranted.count(), array, offset, length);
    }

    private static boolean contains(Arguments keys, int from, int to, byte[] array, int offset, int length) {
        for (int i = from; i < to; i++) {
            int at = keys.offset(i);
            if (Arrays.equals(keys.array(), at, at + keys.length(i), array, offset, offset + length)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A script's command: its own arguments and a reply of its own; the rest is the script's caller's.
     * A read-only command's lookups count as keyspace hits and misses, as they do outside a script.
     */
    private final class CallContext extends DelegatingContext {
        private final Arguments arguments;
        private final boolean countsReads;

        CallContext(Arguments arguments, boolean countsReads) {
            super(ctx, server);
            this.arguments = arguments;
            this.countsReads = countsReads;
        }

        @Override
        public Arguments arguments() {
            return arguments;
        }

        @Override
        public RespWriter reply() {
            return callWriter;
        }

        @Override
        public Keyspace keyspace() {
            Keyspace keyspace = ctx.keyspace();
            // EVAL_RO's own keyspace counts already.
            return countsReads && !(keyspace instanceof ReadLookups) ? readLookups().of(keyspace) : keyspace;
        }

        /** A blocking command called from a script answers at once, as Redis's do for a client that may not block. */
        @Override
        public void block(long deadline, int[] keyArguments, int destinationArgument, BlockedCommand command) {
            if (destinationArgument >= 0) {
                callWriter.nullBulk();
            } else {
                callWriter.nullArray();
            }
        }
    }

    /** A command's arguments as the script gave them. */
    static final class ArgvArguments implements Arguments {
        private final byte[] bytes;
        private final int[] offsets;

        ArgvArguments(byte[][] argv) {
            offsets = new int[argv.length + 1];
            int total = 0;
            for (int i = 0; i < argv.length; i++) {
                offsets[i] = total;
                total += argv[i].length;
            }
            offsets[argv.length] = total;
            bytes = new byte[total];
            for (int i = 0; i < argv.length; i++) {
                System.arraycopy(argv[i], 0, bytes, offsets[i], argv[i].length);
            }
        }

        @Override
        public int count() {
            return offsets.length - 1;
        }

        @Override
        public byte[] array() {
            return bytes;
        }

        @Override
        public int offset(int index) {
            return offsets[index];
        }

        @Override
        public int length(int index) {
            return offsets[index + 1] - offsets[index];
        }
    }
}
