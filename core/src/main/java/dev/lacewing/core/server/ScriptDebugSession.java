package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ScriptDebugger;
import dev.lacewing.api.ScriptHost;
import dev.lacewing.api.ScriptRuntime;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One script debugging session (Redis's LDB: eval.c's ldbStartSession, ldbRepl's input and
 * ldbEndSession). After SCRIPT DEBUG YES or SYNC, a connection's next EVAL or EVAL_RO comes here:
 * the session owns the connection from then on. The script runs on a thread of the session's own,
 * which sends the debugger's log lines as arrays of status replies and reads the client's debugger
 * commands (RESP arrays of bulk strings, parsed as ldbReplParseCommand parses them); at the end it
 * sends {@code <endsession>}, the script's reply, and closes the connection, as Redis does.
 *
 * <p>The two modes. Redis's SYNC blocks the whole server while the client thinks; here no event
 * loop waits on a person: each command the script runs holds the whole keyspace while it runs
 * (a {@link KeyspaceTask} from the connection's worker) and keeps its changes, but other clients'
 * commands run between two of them, so a script under SYNC is not atomic. Redis's YES forks and
 * throws the child's dataset away; Lacewing cannot fork, so YES copies the script's KEYS (DUMP,
 * under one whole-keyspace hold) into a private keyspace the session owns, runs the script against
 * that copy and drops it: the dataset is untouched, but a command naming any other key, or the whole
 * keyspace, fails with {@link #OUTSIDE_COPY}. Neither mode replicates or wakes WATCH from the copy.
 *
 * <p>Thread rule: {@link #input} and {@link #clientGone} run on the connection's home thread; the
 * rest on the session's thread. The input buffer is guarded by this object's monitor.
 */
public final class ScriptDebugSession implements ScriptDebugger {

    /** SCRIPT DEBUG's modes. */
    enum Mode { NO, YES, SYNC }

    static final String EVALSHA_REFUSED = "ERR Please use EVAL instead of EVALSHA for debugging";
    static final String OUTSIDE_COPY = "ERR SCRIPT DEBUG YES runs the script on a copy of its KEYS: it cannot "
        + "reach other keys; use SCRIPT DEBUG SYNC";

    private static final System.Logger LOG = System.getLogger(ScriptDebugSession.class.getName());
    /** ldbRepl's limit on a command waiting to be complete. */
    private static final int MAX_INPUT = 1 << 20;
    private static final int MAX_WORDS = 1024;
    private static final int MAX_WORD = 1024;

    private final ClientConnection connection;
    private final ServerState server;
    private final Channel channel;
    private final byte[][] request;
    private final boolean sync;
    private final int protocol;
    private final int database;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private boolean overflow;
    private boolean gone;

    private ScriptDebugSession(ClientConnection connection, Arguments args, Mode mode) {
        this.connection = connection;
        this.server = connection.server();
        this.channel = connection.channel();
        this.sync = mode == Mode.SYNC;
        this.protocol = connection.protocol();
        this.database = connection.database();
        request = new byte[args.count()][];
        for (int i = 0; i < request.length; i++) {
            request[i] = args.copy(i);
        }
    }

    /**
     * SCRIPT DEBUG YES|SYNC|NO: how the connection's next EVAL runs. Refused behind replies not yet
     * sent, and so inside EXEC, as Redis refuses it in a pipeline.
     */
    public static void configure(CoreContext ctx) {
        ClientConnection connection = ctx.connection();
        if (connection != ctx || connection.hasPendingReplies()) {
            ctx.reply().error("ERR SCRIPT DEBUG must be called outside a pipeline");
            return;
        }
        Arguments args = ctx.arguments();
        Mode mode;
        if (args.is(2, "no")) {
            mode = Mode.NO;
        } else if (args.is(2, "yes")) {
            mode = Mode.YES;
        } else if (args.is(2, "sync")) {
            mode = Mode.SYNC;
        } else {
            ctx.reply().error("ERR Use SCRIPT DEBUG YES/SYNC/NO");
            return;
        }
        connection.scriptDebug(mode);
        ctx.reply().ok();
    }

    /** Whether a command runs under the debugger when SCRIPT DEBUG is on: the EVAL family. */
    static boolean debugs(CommandSpec spec) {
        return spec.name().startsWith("eval");
    }

    /** Starts the session of {@code args} (an EVAL) on a thread of its own; the connection's input is its own from now on. */
    static ScriptDebugSession start(ClientConnection connection, Arguments args, Mode mode) {
        ScriptDebugSession session = new ScriptDebugSession(connection, args, mode);
        Thread thread = new Thread(session::run, "lacewing-script-debug-" + connection.id());
        thread.setDaemon(true);
        thread.start();
        return session;
    }

    // ---- input, from the connection's thread --------------------------------------------------

    void input(ByteBuf in) {
        synchronized (this) {
            if (pending.size() + in.readableBytes() > MAX_INPUT + MAX_WORD) {
                overflow = true;
            } else {
                byte[] bytes = new byte[in.readableBytes()];
                in.readBytes(bytes);
                pending.writeBytes(bytes);
            }
            notifyAll();
        }
    }

    synchronized void clientGone() {
        gone = true;
        notifyAll();
    }

    // ---- ScriptDebugger, on the session's thread ----------------------------------------------

    /** ldbSendLogs: one array of status replies, newlines made spaces. */
    @Override
    public void send(List<String> lines) {
        StringBuilder out = new StringBuilder();
        out.append('*').append(lines.size()).append("\r\n");
        for (String line : lines) {
            out.append('+').append(line.replace('\r', ' ').replace('\n', ' ')).append("\r\n");
        }
        channel.writeAndFlush(Unpooled.wrappedBuffer(out.toString().getBytes(StandardCharsets.ISO_8859_1)));
    }

    /**
     * ldbRepl's read: the next complete command; what came with it in the same buffer is dropped,
     * as Redis drops it. Null once the client has gone or the server closes.
     */
    @Override
    public synchronized byte[][] read() {
        while (true) {
            byte[] buffered = pending.toByteArray();
            byte[][] command = parse(buffered);
            if (command != null) {
                pending.reset();
                return command;
            }
            if (overflow || buffered.length > MAX_INPUT) {
                pending.reset();
                overflow = false;
                throw new IllegalArgumentException("max client buffer reached");
            }
            if (gone || server.scripts().stopping()) {
                return null;
            }
            try {
                wait(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /**
     * ldbReplParseCommand: {@code *<count>} then that many {@code $<len>} words, forgiving as
     * Redis's parser is (anything before the first '*' is skipped). Null when more must be read;
     * throws "protocol error" for what can never be a command.
     */
    static byte[][] parse(byte[] in) {
        int star = indexOf(in, 0, (byte) '*');
        if (in.length == 0) {
            return null;
        }
        if (star < 0) {
            throw new IllegalArgumentException("protocol error");
        }
        int end = crlf(in, star);
        if (end < 0) {
            return null;
        }
        int count = atoi(in, star + 1, end);
        if (count <= 0 || count > MAX_WORDS) {
            throw new IllegalArgumentException("protocol error");
        }
        byte[][] words = new byte[count][];
        int at = end + 2;
        for (int i = 0; i < count; i++) {
            if (at >= in.length) {
                return null;
            }
            if (in[at] != '$') {
                throw new IllegalArgumentException("protocol error");
            }
            end = crlf(in, at);
            if (end < 0) {
                return null;
            }
            int length = atoi(in, at + 1, end);
            if (length <= 0 || length > MAX_WORD) {
                throw new IllegalArgumentException("protocol error");
            }
            at = end + 2;
            if (at + length + 2 > in.length) {
                return null;
            }
            words[i] = java.util.Arrays.copyOfRange(in, at, at + length);
            at += length;
            if (in[at] != '\r' || in[at + 1] != '\n') {
                throw new IllegalArgumentException("protocol error");
            }
            at += 2;
        }
        return words;
    }

    private static int indexOf(byte[] in, int from, byte wanted) {
        for (int i = from; i < in.length; i++) {
            if (in[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static int crlf(byte[] in, int from) {
        for (int i = from; i + 1 < in.length; i++) {
            if (in[i] == '\r' && in[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** C's atoi over in[from, to): a sign and digits, 0 when none. */
    private static int atoi(byte[] in, int from, int to) {
        int i = from;
        boolean negative = i < to && in[i] == '-';
        if (i < to && (in[i] == '-' || in[i] == '+')) {
            i++;
        }
        long value = 0;
        while (i < to && in[i] >= '0' && in[i] <= '9' && value <= Integer.MAX_VALUE) {
            value = value * 10 + (in[i++] - '0');
        }
        value = Math.min(value, Integer.MAX_VALUE);
        return (int) (negative ? -value : value);
    }

    // ---- the run ------------------------------------------------------------------------------

    private void run() {
        LOG.log(System.Logger.Level.WARNING, sync ? "Redis synchronous debugging eval session started"
            : "Lua debugging session started (on a private copy of the script's keys)");
        ByteBuf reply = Unpooled.buffer(256);
        RespWriter writer = new RespWriter();
        writer.target(reply);
        writer.protocol(protocol);
        try {
            evaluate(writer);
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.WARNING, "script debugging session failed", e);
            reply.clear();
            writer.error("ERR " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        LOG.log(System.Logger.Level.WARNING, sync ? "Redis synchronous debugging eval session ended"
            : "Lua debugging session ended");
        channel.writeAndFlush(reply).addListener(ChannelFutureListener.CLOSE);
    }

    /** evalGenericCommand's checks, then the run under the debugger; exactly one reply. */
    private void evaluate(RespWriter reply) {
        Scripts scripts = server.scripts();
        String refused = refusal(scripts);
        if (refused != null) {
            send(List.of("<endsession>"));
            reply.error(refused);
            return;
        }
        int keyCount = Integer.parseInt(new String(request[2], StandardCharsets.US_ASCII));
        byte[] body = request[1];
        String sha = Scripts.sha1Hex(body);
        int flags = Scripts.shebangFlags(body);
        ScriptRuntime runtime = scripts.runtime();
        String compileError = runtime.compile(sha, body);
        if (compileError != null) {
            send(List.of("<endsession>"));
            reply.error("ERR " + compileError);
            return;
        }
        // A YES session leaves nothing behind, not even the script, as Redis's forked child does.
        Scripts.Script script = sync ? scripts.add(sha, body, flags) : new Scripts.Script(sha, body, flags);
        boolean readOnlyCommand = new String(request[0], StandardCharsets.US_ASCII).equalsIgnoreCase("eval_ro");
        if (readOnlyCommand && (flags & Scripts.SHEBANG) != 0 && (flags & Scripts.NO_WRITES) == 0) {
            send(List.of("<endsession>"));
            reply.error(ScriptRun.WRONG_RO_SCRIPT);
            return;
        }
        IntFunction<Keyspace> databases = sync ? server.engine()::keyspace : copyOfKeys(keyCount)::database;
        SessionContext context = new SessionContext(new ScriptRun.ArgvArguments(request), reply, databases);
        ScriptRun run = ScriptRun.forDebugging(context, script, keyCount, readOnlyCommand, !sync);
        try {
            runtime.debug(sha, body, host(run, keyCount, context), reply, this);
        } finally {
            run.debuggingEnded();
        }
    }

    /** EVAL's argument errors (or the lack of a scripting plugin), worded as evalGenericCommand's; null when none. */
    private String refusal(Scripts scripts) {
        long keyCount;
        try {
            keyCount = Long.parseLong(new String(request[2], StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return "ERR value is not an integer or out of range";
        }
        if (keyCount > request.length - 3) {
            return "ERR Number of keys can't be greater than number of args";
        }
        if (keyCount < 0) {
            return "ERR Number of keys can't be negative";
        }
        if (!scripts.available()) {
            return Scripts.NOT_AVAILABLE;
        }
        try {
            Scripts.shebangFlags(request[1]);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        return null;
    }

    /** What the runtime calls: SYNC runs each command holding the whole keyspace; YES runs it on the copy, here. */
    private ScriptHost host(ScriptRun run, int keyCount, SessionContext context) {
        return new ScriptHost() {
            @Override
            public Arguments arguments() {
                return run.arguments();
            }

            @Override
            public int firstKey() {
                return 3;
            }

            @Override
            public int keyCount() {
                return keyCount;
            }

            @Override
            public byte[] call(byte[][] argv, int protocol, boolean raiseErrors) {
                context.now = System.currentTimeMillis();
                if (!sync) {
                    return run.call(argv, protocol, raiseErrors);
                }
                return KeyspaceTask.runFrom(server.engine(), channel.eventLoop(), connection.homeWorker(),
                    () -> run.call(argv, protocol, raiseErrors));
            }

            /** The debugger stops a script that runs too long itself ("timeout reached"); SCRIPT KILL does not reach it. */
            @Override
            public boolean checkpoint() {
                return false;
            }

            @Override
            public void log(int level, String message) {
                run.log(level, message);
            }
        };
    }

    /**
     * YES: the script's KEYS, dumped with their time to live while the whole keyspace is held, then
     * restored into a keyspace only this session sees.
     */
    private PartitionedKeyspace copyOfKeys(int keyCount) {
        PartitionedKeyspace copies = new PartitionedKeyspace(1, (int) server.settings().longValue("databases"));
        List<byte[][]> restores = KeyspaceTask.runFrom(server.engine(), channel.eventLoop(), connection.homeWorker(),
            () -> {
                List<byte[][]> found = new ArrayList<>();
                for (int i = 3; i < 3 + keyCount; i++) {
                    byte[] key = request[i];
                    byte[] dump = execute(server.engine()::keyspace, "dump".getBytes(StandardCharsets.US_ASCII), key);
                    if (dump[0] != '$' || dump[1] == '-') {
                        continue;
                    }
                    byte[] ttl = execute(server.engine()::keyspace, "pttl".getBytes(StandardCharsets.US_ASCII), key);
                    long millis = Long.parseLong(new String(ttl, 1, ttl.length - 3, StandardCharsets.US_ASCII));
                    found.add(new byte[][] {"restore".getBytes(StandardCharsets.US_ASCII), key,
                        String.valueOf(Math.max(0, millis)).getBytes(StandardCharsets.US_ASCII), bulk(dump),
                        "replace".getBytes(StandardCharsets.US_ASCII)});
                }
                return found;
            });
        for (byte[][] restore : restores) {
            execute(copies::database, restore);
        }
        return copies;
    }

    private static byte[] bulk(byte[] reply) {
        int end = 1;
        while (reply[end] != '\r') {
            end++;
        }
        int length = Integer.parseInt(new String(reply, 1, end - 1, StandardCharsets.US_ASCII));
        return java.util.Arrays.copyOfRange(reply, end + 2, end + 2 + length);
    }

    /** Runs one command's handler against {@code keyspace}; its RESP2 reply. */
    private byte[] execute(IntFunction<Keyspace> databases, byte[]... argv) {
        Command<CoreContext> command = server.commands().lookup(argv[0], 0, argv[0].length);
        ByteBuf buffer = Unpooled.buffer(256);
        try {
            RespWriter writer = new RespWriter();
            writer.target(buffer);
            writer.protocol(2);
            command.execute(new SessionContext(new ScriptRun.ArgvArguments(argv), writer, databases));
            return ByteBufUtil.getBytes(buffer);
        } finally {
            buffer.release();
        }
    }

    /** The connection as the session's commands see it: the session's request, reply and databases, the time now. */
    private final class SessionContext extends DelegatingContext {
        private final Arguments arguments;
        private final RespWriter reply;
        private final IntFunction<Keyspace> databases;
        /** The command's clock, set by the session before each command (published by the hand-over to the worker). */
        long now = System.currentTimeMillis();

        SessionContext(Arguments arguments, RespWriter reply, IntFunction<Keyspace> databases) {
            super(connection);
            this.arguments = arguments;
            this.reply = reply;
            this.databases = databases;
        }

        @Override
        public Arguments arguments() {
            return arguments;
        }

        @Override
        public RespWriter reply() {
            return reply;
        }

        @Override
        public Keyspace keyspace() {
            return databases.apply(connection.database());
        }

        @Override
        public Keyspace keyspace(int index) {
            return databases.apply(index);
        }

        @Override
        public long now() {
            return now;
        }
    }
}
