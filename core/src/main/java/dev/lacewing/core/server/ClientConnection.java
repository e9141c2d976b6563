package dev.lacewing.core.server;

import dev.lacewing.api.ValueView;
import dev.lacewing.api.Arguments;
import dev.lacewing.api.BlockedCommand;
import dev.lacewing.api.Client;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.core.acl.Acl;
import dev.lacewing.core.acl.AclLog;
import dev.lacewing.core.acl.AclUser;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.KeySplit;
import dev.lacewing.core.config.OutputBufferLimits;
import dev.lacewing.core.diagnostics.Redaction;
import dev.lacewing.core.diagnostics.SlowLog;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.ThreadChanges;
import dev.lacewing.core.pubsub.ChannelName;
import dev.lacewing.core.pubsub.SubscriptionKind;
import dev.lacewing.core.pubsub.Subscriptions;
import dev.lacewing.core.resp.RequestDecoder;
import dev.lacewing.core.persistence.aof.AofBatch;
import dev.lacewing.core.persistence.aof.AofDeletions;
import dev.lacewing.core.persistence.aof.AofPropagation;
import dev.lacewing.core.persistence.aof.AppendOnlyFile;
import dev.lacewing.core.resp.RespWriter;
import dev.lacewing.core.tracking.Tracking;
import dev.lacewing.core.tracking.TrackingMode;
import dev.lacewing.transport.spi.SocketWrite;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * One client connection: decodes its requests, runs them in order, and writes their replies
 * with one flush per read batch. It is also the {@link Invocation} it hands the engine (a
 * connection runs one command at a time) and the {@link CommandContext} the command sees.
 *
 * <p>Thread rule: owned by its event loop (its home worker). While the engine runs a command
 * on another thread ({@link Wait#AWAY}), the connection touches neither the request bytes nor
 * the outbound buffer; bytes that arrive meanwhile wait in {@link #deferredInput}. The engine's
 * hand-over and {@link #completed()}'s hop back order the accesses; in between, that thread may
 * go on with the pipeline's next buffered requests ({@link #advance()}).
 *
 * <p>Replies are bounded twice over. A pipeline stops running while the socket is full (the channel
 * is not writable: what Netty holds past the socket is over its high water mark) and goes on when it
 * drains ({@link #channelWritabilityChanged}); requests that arrive meanwhile wait in the decoder, under
 * client-query-buffer-limit. What a single command or a flush still leaves buffered past the socket
 * counts against client-output-buffer-limit ({@link #checkOutputLimits}), and a client over it is
 * closed, as Redis closes it.
 *
 * <p>A blocked command ({@link #block}) keeps the connection waiting the same way ({@link Wait#BLOCKED}): its
 * later requests wait unread, in order, until a reply for it arrives ({@link #deliver}, written by
 * whichever thread served it into a buffer of its own), its timeout fires, CLIENT UNBLOCK ends it or
 * the client goes. The connection's own buffers stay the home thread's throughout.
 *
 * <p>With shard-writes-replies, the thread a command hopped to may also send its reply and hand the
 * connection back without waking the home thread ({@link #replyFromHere}); {@link #hop} orders that
 * return against the home thread's events ({@link #reclaim}).
 */
public final class ClientConnection extends ChannelDuplexHandler implements Client, CoreContext, Invocation {

    private static final System.Logger LOG = System.getLogger(ClientConnection.class.getName());

    private final ServerState server;
    private final int homeWorker;
    /** SCRIPT DEBUG's mode for this connection's next EVAL (Redis's CLIENT_LUA_DEBUG flags). Home thread only. */
    private ScriptDebugSession.Mode scriptDebug = ScriptDebugSession.Mode.NO;
    /**
     * The debugging session that owns this connection from its EVAL on: every byte read goes to it,
     * and it closes the connection when the script ends. Set and read on the home thread.
     */
    private ScriptDebugSession debugSession;
    private final long id;
    private final long createdMillis = System.currentTimeMillis();
    /** Reused by every command of this connection: it runs one command at a time. */
    private final ValueView valueView = new ValueView();
    private final RequestDecoder decoder = new RequestDecoder();
    private final RespWriter writer = new RespWriter();
    private final ArrayDeque<ByteBuf> deferredInput = new ArrayDeque<>();
    /** Pub/sub deliveries queued on this connection's worker and not yet run. */
    private final java.util.concurrent.atomic.AtomicInteger queuedDeliveries;
    /*
     * The AOF: what the running command propagates, where in the file this connection's last
     * write ends, how much of that is known written (and forced under appendfsync always), and
     * whether a flush waits for it. Replies never leave before their writes are in the file.
     */
    private final AofBatch aofBatch = new AofBatch();
    private long aofOffset;
    private long aofCommitted;
    private boolean awaitingAof;
    /** {@link #aofCommitted}, made once: a flush that waits for the AOF allocates nothing. */
    private final LongConsumer aofCommitDone = this::aofCommitted;
    /** Where the running command's reply starts in {@code out}, for the few whose AOF form is read from it. */
    private int replyStart;
    /** {@link #ownReply}, made once: propagating a write allocates nothing more than its AOF bytes. */
    private final Supplier<byte[]> ownReply = this::ownReply;
    private long deferredBytes;
    private boolean readPaused;
    /** Whether the transport is delivering a read batch (channelRead until channelReadComplete). Home thread only. */
    private boolean reading;

    private Channel channel;
    private ByteBuf out;
    /**
     * The last flushed reply buffer, with a reference of this connection's own: once the transport
     * has written it and let go of its reference, the next replies reuse it instead of taking a
     * buffer from the allocator. Home thread only.
     */
    private ByteBuf flushed;
    private Command<CoreContext> current;
    /** The table entry the running command's counters go to: {@link #current}, or its subcommand. */
    private Command<CoreContext> counted;
    private long commandMillis;

    /**
     * Why the connection runs none of its input now: one reason at a time, each entered from
     * {@link Wait#NONE} and left back to it ({@link #waitFor}, {@link #endWait}). Input that arrives
     * meanwhile waits in {@link #deferredInput}. Set on the home thread; read racily by {@link #busy}.
     */
    private enum Wait {
        /** Input runs. */
        NONE,
        /**
         * The command was handed to another thread, which owns the decoder and {@code out} until it
         * returns ({@link #resume}, or {@link #reclaim} of a reply that thread wrote itself).
         */
        AWAY,
        /** A blocked command waits for its reply, its timeout or CLIENT UNBLOCK ({@link #endBlock}). */
        BLOCKED,
        /** The request waits for CLIENT PAUSE to end ({@link #retryPostponed}). */
        POSTPONED,
        /** A command that found cold keys waits for their reads ({@link #rerunCold}). */
        COLD_READS,
        /** The command's reply waits for work on other threads ({@link #writeLateReply}). */
        LATE_REPLY
    }

    private Wait waitingFor = Wait.NONE;
    /**
     * Whether the request the decoder holds has run and awaits consume(): false only when the
     * engine hands back a request {@link #advance()} took but could not run on its shard.
     */
    private boolean executed;
    private boolean closing;
    private volatile boolean closed;
    /** Set by {@link #killByClient} on the killing thread, before the close it posts here. */
    private volatile boolean killed;
    /** Whether the pipeline stopped because the socket is full; it goes on when it drains. */
    private boolean outputPaused;
    /** When the output buffer went over the soft limit and stayed over it; 0 while it is not. */
    private long softLimitReachedMillis;
    /** What this connection's buffers added to {@link ServerState#clientBufferBytes()}. */
    private long accountedBufferBytes;
    /** The blocked command, from the moment it blocks (on whatever thread ran it) until it ends. */
    private volatile BlockedClient blockedClient;
    /** A reply for the blocked command that arrived before the home thread took the block in. */
    private ByteBuf earlyReply;
    /**
     * Its channels and patterns; null until it first subscribes or unsubscribes. Changed on the home
     * thread only; volatile for CLIENT LIST on other threads.
     */
    private volatile Subscriptions subscriptions;
    /** Whether a flush of pushed messages is queued on the event loop. */
    private boolean pushFlushQueued;
    private final Runnable flushPushesTask = this::flushPushes;
    /** {@link #resume}, made once: a hop's return allocates nothing. */
    private final Runnable resumeTask = this::resume;
    /** The engine's object for this connection ({@link #engineState}), e.g. its task for a hop. Home thread only. */
    private Object engineState;
    /** Whether a message was pushed straight to the channel (while a command was away), not yet flushed. */
    private boolean pushedAside;
    /**
     * Where in {@code out} the replies of the command handed to another thread begin: the bytes
     * before it are earlier replies still waiting to be flushed (0: none). Set on the home thread at
     * the hand-over, read there while the command is away.
     */
    private int handOverMark;
    /**
     * Messages pushed while a command was away and earlier replies waited in {@code out}: they must
     * not overtake those replies, so they wait here and go into {@code out} at {@link #handOverMark}
     * when the command returns. Home thread only; null when none.
     */
    private ByteBuf heldPushes;

    /** shard-writes-replies: a write on this connection's socket from another thread; null when off or not possible. */
    private final SocketWrite socketWrite;
    /*
     * Where a handed-over command stands, for a reply written by the thread that ran it: HOP_HOME
     * (nothing away, or nothing that may return directly), HOP_AWAY (set by the home thread at the
     * hand-over), HOP_WRITING (the running thread is writing the reply on the socket), HOP_RETURNED
     * (it wrote everything and the connection is the home thread's again, though waiting is still
     * set: the home thread's next event takes it back), HOP_HANDED_BACK (the home thread saw input or
     * a close meanwhile, or the write fell short: the return goes through resume, as without the
     * setting). Only AWAY -> WRITING (running thread) and AWAY -> HANDED_BACK (home thread) race,
     * by compare-and-set; while WRITING the home thread waits, so it never closes the socket under
     * that write. The volatile store of RETURNED publishes the decoder and out to the home thread.
     */
    private static final int HOP_HOME = 0;
    private static final int HOP_AWAY = 1;
    private static final int HOP_WRITING = 2;
    private static final int HOP_RETURNED = 3;
    private static final int HOP_HANDED_BACK = 4;
    private static final AtomicIntegerFieldUpdater<ClientConnection> HOP =
        AtomicIntegerFieldUpdater.newUpdater(ClientConnection.class, "hop");
    private volatile int hop;

    /** CLIENT TRACKING's options while tracking is on, else null; replaced on the home thread. */
    private volatile TrackingMode tracking;
    /** Whether the redirect client was gone when an invalidation was sent (Redis's TRACKING_BROKEN_REDIR). */
    private volatile boolean trackingRedirectBroken;
    /**
     * CLIENT CACHING YES or NO was given: it applies to the next command, and lasts through CLIENT
     * commands and a transaction (Redis clears it in resetClient otherwise). Home thread, and the
     * thread running the command after the hand-over.
     */
    private boolean cachingGiven;
    /**
     * CLIENT NO-EVICT: shown as flag e. Lacewing does not evict clients (Redis's maxmemory-clients),
     * so it changes nothing else.
     */
    private volatile boolean noEvict;
    /**
     * CLIENT REPLY OFF, and SKIP's for the next command: a command dispatched while either holds is
     * {@link #muted}, its reply written to {@link #discarded} and dropped (pushes still go out, as
     * Redis lets them). Home thread.
     */
    private boolean replyOff;
    private boolean skipNextReply;
    private boolean muted;
    private ByteBuf discarded;
    /** Set while a postponed request is dispatched again, which must not count for CLIENT CACHING twice. */
    private boolean retryingPostponed;
    /** Whether the previous command was CLIENT, which keeps {@link #cachingGiven}. */
    private boolean lastWasClient;
    /**
     * Invalidations the running command made for this client itself: they go after its reply, as
     * Redis's tracking_pending_keys. Added by the threads running its parts, written by the one
     * finishing its reply.
     */
    private final Queue<byte[]> ownInvalidations = new ConcurrentLinkedQueue<>();
    /**
     * The keys this client's commands wrote since its replies last went out, for BCAST clients: sent
     * at the end of the pass, before the replies (Redis's beforeSleep). Added by the threads running
     * its commands, taken by the home thread.
     */
    private final Queue<byte[]> passWrites = new ConcurrentLinkedQueue<>();

    private volatile int database;
    private volatile String name = "";
    private volatile boolean authenticated;
    /** The ACL user it runs as: the default user until AUTH or HELLO AUTH names another. */
    private volatile AclUser user;
    private volatile long lastInteractionMillis = createdMillis;
    /**
     * Replies are flushed once per read batch, and also whenever this much is waiting, as Redis
     * writes at most 64 KiB per event before going on: a client streaming a mass insert sees
     * replies while it sends.
     */
    private static final int REPLY_FLUSH_BYTES = 64 * 1024;

    /** A flushed reply buffer larger than this goes back to the allocator instead of being reused. */
    private static final int REUSED_REPLY_BUFFER_BYTES = 16 * 1024;

    /** Input that may pile up while a command is away before reading pauses. */
    private static final int DEFERRED_INPUT_PAUSE_BYTES = 256 * 1024;

    private volatile String lastCommand = "NULL";

    /** Whether the running command is read-only: its lookups count as keyspace hits and misses. */
    private boolean countsReads;
    private final ReadLookups readLookups;

    /** Whether it is in MONITOR mode: it gets a line for every command, and may not touch keys. */
    private volatile boolean monitoring;

    /** MULTI's queue and WATCH's keys. */
    private final Multi multi = new Multi(this);
    /**
     * Where the current command runs, fixed when it is dispatched: a script's scope can change while
     * it waits (another run finds it leaving its keys), and what it may touch is what was granted.
     */
    private KeyScope granted = KeyScope.NONE;
    /** The current script run was abandoned for reaching past its keys: run it again over the whole keyspace. */
    private boolean rerunWhole;
    /**
     * Cold reads (docs/architecture.md, "Storage plugins"): a read-only command whose keys' values
     * the storage must first read from disk runs nothing; {@link #coldKeys} starts the reads, the
     * command's thread sets {@code coldWait} and returns, and the home thread then waits
     * ({@link Wait#COLD_READS}: input is deferred, out is this thread's) until every read landed, and
     * reruns the request through the engine once ({@link #rerunCold}), reading synchronously
     * whatever is cold again. {@code coldPending} counts the reads outstanding plus one for the
     * command's return home; whoever takes it to 0 posts the rerun to the home thread.
     */
    /**
     * A reply that waits for work on other threads ({@link #replyWhenReady}: CONFIG SET maxmemory's
     * first eviction runs): the command leaves {@code lateReply}, the home thread then waits
     * ({@link Wait#LATE_REPLY}: input is deferred, out is this thread's, the replies before it gone)
     * until {@link #replyReady} posts it back, and writes it then. Home thread only.
     */
    private Consumer<RespWriter> lateReply;
    private boolean coldWait;
    private boolean coldRerun;
    private final AtomicInteger coldPending = new AtomicInteger();
    private final Runnable coldLanded = () -> {
        if (coldPending.decrementAndGet() == 0) {
            channel.eventLoop().execute(this::rerunCold);
        }
    };

    ClientConnection(ServerState server, int homeWorker) {
        this(server, homeWorker, null);
    }

    /** {@code socketWrite}: the direct write shard-writes-replies uses, or null. */
    ClientConnection(ServerState server, int homeWorker, SocketWrite socketWrite) {
        this.server = server;
        this.homeWorker = homeWorker;
        this.socketWrite = socketWrite;
        this.id = server.nextClientId();
        this.user = server.acl().defaultUser();
        this.authenticated = !server.acl().defaultNeedsAuth();
        writer.errorStats(server.errorStats());
        this.readLookups = server.readLookups();
        this.queuedDeliveries = server.pubSub().queuedDeliveries(homeWorker);
    }

    // ---- channel events -------------------------------------------------------------------

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        server.connectionsReceived.increment();
        if (server.clients().size() >= server.settings().longValue("maxclients")) {
            server.rejectedConnections.increment();
            rejectWith("ERR max number of clients reached");
            return;
        }
        if (protectedModeRefuses()) {
            server.rejectedConnections.increment();
            rejectWith("DENIED Lacewing is running in protected mode because protected mode is enabled and no "
                + "password is set for the default user. In this mode connections are only accepted from the "
                + "loopback interface. To accept connections from other hosts, set a password with requirepass, "
                + "or disable protected mode with CONFIG SET protected-mode no from the loopback interface.");
            return;
        }
        server.clients().put(id, this);
        ctx.fireChannelActive();
    }

    private boolean protectedModeRefuses() {
        if (!server.settings().flag("protected-mode") || !server.acl().defaultUser().rules().nopass()) {
            return false;
        }
        return channel.remoteAddress() instanceof InetSocketAddress address
            && !address.getAddress().isLoopbackAddress();
    }

    private void rejectWith(String error) {
        ByteBuf buffer = channel.alloc().buffer();
        writer.target(buffer);
        writer.error(error);
        closed = true;
        channel.writeAndFlush(buffer).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        server.netInputBytes.add(in.readableBytes());
        server.readsProcessed.increment();
        // Per read, as Redis's readQueryFromClient sets lastinteraction, not per request: a volatile
        // write, whose fence cost a pipeline of 30 as much as one of its lookups.
        lastInteractionMillis = System.currentTimeMillis();
        if (debugSession != null) {
            try {
                debugSession.input(in);
            } finally {
                in.release();
            }
            return;
        }
        reclaim();
        if (waiting() || closing || closed) {
            if (closing || closed) {
                in.release();
            } else {
                deferredBytes += in.readableBytes();
                deferredInput.add(heapCopy(in));
                if (deferredBytes >= DEFERRED_INPUT_PAUSE_BYTES && !readPaused) {
                    // Reading stays on while a command is away (turning it off and on for every
                    // hop costs two syscalls, or a cancelled and resubmitted io_uring read), until
                    // this much has piled up: then the socket's own buffer holds the rest.
                    readPaused = true;
                    channel.config().setAutoRead(false);
                }
            }
            return;
        }
        try {
            decoder.append(in);
        } finally {
            in.release();
        }
        if (queuedDeliveries.get() > 0) {
            // Messages published before these requests arrived are queued on this thread: they
            // go out first, as in Redis (PubSub#queuedDeliveries), so the requests wait behind them.
            channel.eventLoop().execute(this::processInput);
            return;
        }
        reading = true;
        processInput();
    }

    /**
     * The transport's read batch ended: the replies of every request it brought, and before them the
     * BCAST invalidations of their writes, go out at once, as Redis writes a pass's replies in
     * beforeSleep; a pipeline the transport reads in several buffers is still one pass.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (reading) {
            reading = false;
            if (!waiting()) {
                flush();
                accountBuffers();
            }
        }
        ctx.fireChannelReadComplete();
    }

    /**
     * A copy of input that has to wait, and the transport's buffer released: that buffer may be one
     * of a fixed set (io_uring's receive buffer ring), which would run dry if connections held
     * theirs while their commands are away or blocked.
     */
    private ByteBuf heapCopy(ByteBuf in) {
        try {
            return channel.alloc().heapBuffer(in.readableBytes()).writeBytes(in);
        } finally {
            in.release();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        reclaim();
        closed = true;
        if (debugSession != null) {
            debugSession.clientGone();
        }
        accountBuffers();
        server.clients().remove(id);
        stopMonitoring();
        multi.unwatch();
        server.tracking().passEnded(this);
        if (tracking != null) {
            server.tracking().disable(this);
        }
        if (subscribed()) {
            server.pubSub().unsubscribeAll(this);
        }
        releaseDeferred();
        BlockedClient client = blockedClient;
        if (client != null && client.claim()) {
            client.cleanUp();
        }
        if (earlyReply != null) {
            earlyReply.release();
            earlyReply = null;
        }
        if (outIsOwn()) {
            releaseOut();
        }
        if (heldPushes != null) {
            heldPushes.release();
            heldPushes = null;
        }
        releaseFlushed();
    }

    /**
     * The client closed its side (or the read failed). With shard-writes-replies the transport only
     * reports it (half closure allowed) and the connection closes through its pipeline, past
     * {@link #close}; without it the transport closes the connection itself, as Redis does at EOF.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event == ChannelInputShutdownEvent.INSTANCE) {
            // From the pipeline's tail, so that it passes close() below.
            ctx.channel().close();
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    /**
     * Every close of a connection with shard-writes-replies passes here first (the transport's own,
     * at the end of input or a read error, is turned into {@link #userEventTriggered}), so no direct
     * reply is being written as the socket closes and its file descriptor is reused.
     */
    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        reclaim();
        ctx.close(promise);
    }

    /**
     * Home thread, on an event while a command is away: takes back a connection whose reply the
     * running thread wrote (RETURNED), or makes the return go through {@link #resume} (AWAY), waiting
     * out a reply being written (WRITING: one non-blocking write).
     */
    private void reclaim() {
        if (waitingFor != Wait.AWAY || socketWrite == null) {
            return;
        }
        for (;;) {
            int state = hop;
            if (state == HOP_AWAY) {
                if (HOP.compareAndSet(this, HOP_AWAY, HOP_HANDED_BACK)) {
                    return;
                }
            } else if (state == HOP_WRITING) {
                Thread.onSpinWait();
            } else {
                if (state == HOP_RETURNED) {
                    hop = HOP_HOME;
                    endWait(Wait.AWAY);
                }
                return;
            }
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.log(System.Logger.Level.DEBUG, "client " + id + " closed after an I/O error", cause);
        ctx.channel().close();
    }

    // ---- request processing ---------------------------------------------------------------

    /**
     * Runs every complete request buffered, then flushes their replies at once (within a read
     * batch, at its end: {@link #channelReadComplete}). The query buffer limit is checked once the
     * complete requests have run, on what Redis's query buffer would hold
     * ({@link RequestDecoder#queryBufferBytes()}). A protocol error is logged at verbose
     * (System.Logger DEBUG), as Redis does, so that bad clients cannot fill the log at notice.
     */
    private void processInput() {
        decoder.maxBulkLength(server.protoMaxBulkLength());
        decoder.queryBufferLimit(server.clientQueryBufferLimit());
        outputPaused = false;
        while (!waiting() && !closing && !closed && debugSession == null) {
            if (!channel.isWritable()) {
                // The client is not reading its replies: run nothing more until the socket drains,
                // so that the replies of a pipeline it never reads are never made. A closed channel
                // is not writable either, which stops a pipeline whose client has gone. Meanwhile
                // the unrun requests are what Redis's query buffer holds for a client it cannot
                // serve yet, and the limit bounds them.
                outputPaused = true;
                if (decoder.bufferedBytes() > server.clientQueryBufferLimit()) {
                    closeForQueryBufferLimit(decoder.queryBufferOffset(), decoder.bufferedBytes());
                    return;
                }
                break;
            }
            // Per request: an AUTH lifts the limits for the requests behind it in the same read.
            decoder.authenticationRequired(authRequired());
            RequestDecoder.Result result = decoder.decode();
            if (result == RequestDecoder.Result.INCOMPLETE) {
                if (decoder.queryBufferBytes() > server.clientQueryBufferLimit()) {
                    closeForQueryBufferLimit(decoder.queryBufferOffset(), decoder.queryBufferBytes());
                    return;
                }
                decoder.trim();
                break;
            }
            if (result == RequestDecoder.Result.ERROR) {
                LOG.log(System.Logger.Level.DEBUG, () -> "Protocol error (" + decoder.errorSummary()
                    + ") from client: id=" + id + " addr=" + remoteAddress() + ". Query buffer during protocol error: "
                    + ClientText.sample(decoder.array(), decoder.queryBufferOffset(), decoder.queryBufferBytes()));
                writer.target(out());
                writer.error("ERR " + decoder.error());
                server.errorReplies.increment();
                closing = true;
                break;
            }
            if (out != null && out.readableBytes() >= REPLY_FLUSH_BYTES) {
                // A long pipeline whose commands keep hopping to other shards may never reach the
                // end of a read batch (input keeps arriving while it waits): send what is ready.
                flush();
            }
            dispatch();
            if (!waiting()) {
                decoder.consume();
            }
        }
        if (!waiting() && !reading) {
            // While a command is away its reply is being written into `out`: flush on resume.
            // Within a read batch, at its end (channelReadComplete).
            flush();
            accountBuffers();
        }
        if (debugSession != null && decoder.hasBufferedBytes()) {
            // What came behind the EVAL is the session's: its first debugger commands.
            debugSession.input(Unpooled.wrappedBuffer(decoder.array(), decoder.queryBufferOffset(), decoder.bufferedBytes()));
            decoder.consumeAll();
        }
    }

    /**
     * Brings this connection's share of the clients' buffer bytes up to date: on the home thread,
     * while no command is away (the buffers are then this thread's), and at close.
     */
    private void accountBuffers() {
        long bytes = closed ? 0 : decoder.capacity() + pendingOutputBytes() + deferredBytes + multi.queuedBytes();
        if (bytes != accountedBufferBytes) {
            server.clientBuffers.add(bytes - accountedBufferBytes);
            accountedBufferBytes = bytes;
        }
    }

    private void closeForQueryBufferLimit(int offset, int bytes) {
        LOG.log(System.Logger.Level.WARNING, "Closing client that reached max query buffer length: id="
            + id + " addr=" + remoteAddress() + " qbuf=" + bytes + " (qbuf initial bytes: "
            + ClientText.quote(decoder.array(), offset, Math.min(64, bytes)) + ")");
        closing = true;
        channel.close();
    }

    /** The socket drained below the low water mark: a pipeline paused for it goes on. */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        reclaim();
        if (outputPaused && channel.isWritable() && !waiting() && !closing && !closed) {
            outputPaused = false;
            processInput();
        } else if (!waiting()) {
            accountBuffers();
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void dispatch() {
        muted = replyOff || skipNextReply;
        skipNextReply = false;
        writer.target(muted ? discardedReplies() : out());
        Arguments args = decoder;
        Command<CoreContext> command = server.commands().lookup(args.array(), args.offset(0), args.length(0));
        noteForCaching(command);
        if (command == null) {
            rejectUnknownCommand(args);
            return;
        }
        CommandSpec spec = command.spec();
        if (!spec.acceptsArgumentCount(args.count())) {
            reject(command, Errors.wrongArity(spec.name()));
            return;
        }
        if (args.count() >= 2 && command.container() && !subcommandAccepted(command, args)) {
            return;
        }
        Command<CoreContext> guarded = command.protectedEntry(args);
        if (guarded != null && !server.settings().allowsProtectedCommand(spec.name(), isLocal())) {
            reject(guarded, Errors.protectedCommandNotAllowed(spec.name()));
            return;
        }
        if (authRequired() && !spec.has(CommandFlag.NO_AUTH)) {
            reject(command, Errors.NOAUTH);
            return;
        }
        AclUser.Rules rules = user.rules();
        if (!rules.unrestricted() && !permitted(rules, command, args)) {
            return;
        }
        if (monitoring && (spec.has(CommandFlag.WRITE) || spec.has(CommandFlag.READONLY)
            || spec.has(CommandFlag.MAY_REPLICATE))) {
            // Redis flags a monitor as a replica, and refuses a replica the keyspace.
            reject(command, Errors.REPLICA_KEYSPACE);
            return;
        }
        if (inSubscribedContext() && !Subscriptions.allowedWhileSubscribed(spec.name())) {
            Command<CoreContext> named = subcommandNamed(command, args);
            if (named != null) {
                reject(named, Subscriptions.notAllowedWhileSubscribed(named.spec().name()));
                return;
            }
        }
        if (server.scripts().busy() && !allowedWhileBusy(command, args)) {
            reject(command, server.scripts().busyError());
            return;
        }
        long pausedUntil = server.pausedUntil(spec, spec.name().equals("exec") && multi.active() && multi.queuedWrites());
        if (pausedUntil != 0) {
            postpone(pausedUntil);
            return;
        }
        if (multi.active() && multi.dispatch(command, args, writer)) {
            return;
        }
        if (scriptDebug != ScriptDebugSession.Mode.NO && ScriptDebugSession.debugs(spec)) {
            if (spec.name().startsWith("evalsha")) {
                reject(command, ScriptDebugSession.EVALSHA_REFUSED);
            } else {
                debugSession = ScriptDebugSession.start(this, args, scriptDebug);
            }
            return;
        }
        begin(command);
        execute(spec.scope(args));
        if (!waiting() && blockedClient != null) {
            decoder.consume();
            enterBlocked();
        }
    }

    /** Clears CLIENT CACHING's choice unless the previous command was CLIENT or a transaction is open. */
    private void noteForCaching(Command<CoreContext> command) {
        if (retryingPostponed) {
            retryingPostponed = false;
            return;
        }
        if (cachingGiven && !lastWasClient && !multi.active()) {
            cachingGiven = false;
        }
        lastWasClient = command != null && command.spec().name().equals("client");
    }

    /** Hands the current command to the engine, or runs it here when it names no keys; again over the whole keyspace when a script asks. */
    private void execute(KeyScope scope) {
        granted = scope;
        if (scope == KeyScope.NONE || (scope == KeyScope.KEYS && keyCount() == 0)) {
            run();
        } else {
            handOver(this);
        }
        while (!waiting() && rerunWhole) {
            rerunWhole = false;
            granted = KeyScope.ALL;
            handOver(this);
        }
        if (!waiting() && coldWait) {
            awaitCold();
        }
        if (!waiting() && lateReply != null) {
            awaitLateReply();
        }
    }

    /** Called by a script run on the thread running it ({@link ScriptRun}): nothing of it was written. */
    void rerunOverWholeKeyspace() {
        rerunWhole = true;
    }

    @Override
    public KeyScope scope() {
        return granted;
    }

    /** Redis's CMD_ALLOW_BUSY, on the command or the subcommand named (SCRIPT KILL). */
    private static boolean allowedWhileBusy(Command<CoreContext> command, Arguments args) {
        if (command.spec().has(CommandFlag.ALLOW_BUSY)) {
            return true;
        }
        Command<CoreContext> named = subcommandNamed(command, args);
        return named != null && named.spec().has(CommandFlag.ALLOW_BUSY);
    }

    /** RESP2 while subscribed: Redis allows only the (un)subscribe commands, PING, QUIT and RESET. */
    private boolean inSubscribedContext() {
        return writer.protocol() == 2 && subscribed();
    }

    /**
     * The subcommand a container's request names when it takes that many arguments, as Redis's
     * lookup finds it (errors then name {@code client|info}), or the command itself when it is no
     * container; null when the subcommand is unknown or takes another argument count: its handler
     * then replies that error, which Redis gives before this check.
     */
    private static Command<CoreContext> subcommandNamed(Command<CoreContext> command, Arguments args) {
        if (args.count() < 2 || !command.container()) {
            return command;
        }
        Command<CoreContext> subcommand = command.subcommand(args.string(1).toLowerCase(java.util.Locale.ROOT));
        return subcommand != null && subcommand.spec().acceptsArgumentCount(args.count()) ? subcommand : null;
    }

    /**
     * Redis's authRequired: the connection has not authenticated and a password is set. A client
     * that connected while requirepass was set is served once it is cleared, as in Redis.
     */
    private boolean authRequired() {
        return !authenticated && server.passwordRequired();
    }

    /**
     * Redis's ACL check in processCommand: a request the user may not run is refused with NOPERM
     * and logged in ACL LOG (in MULTI it also makes EXEC abort).
     */
    private boolean permitted(AclUser.Rules rules, Command<CoreContext> command, Arguments args) {
        Command<CoreContext> target = subcommandNamed(command, args);
        if (target == null) {
            return true;
        }
        Acl.Denial denial = server.acl().check(rules, target, args);
        if (denial == null) {
            return true;
        }
        lastCommand = target.spec().name();
        logDenial(denial, target, args, multi.active() ? "multi" : "toplevel");
        reject(target, switch (denial.reason()) {
            case COMMAND -> "NOPERM this user has no permissions to run the '" + target.spec().name() + "' command";
            case KEY -> "NOPERM this user has no permissions to access one of the keys used as arguments";
            default -> "NOPERM this user has no permissions to access one of the channels used as arguments";
        });
        return false;
    }

    /** Adds an ACL LOG entry for a denial of this client's request (Redis's addACLLogEntry). */
    void logDenial(Acl.Denial denial, Command<CoreContext> target, Arguments args, String context) {
        String object = denial.reason() == AclLog.Reason.COMMAND ? target.spec().name() : args.string(denial.position());
        server.acl().log().add(denial.reason(), context, object, user.name(), describe());
    }

    /**
     * The NOPERM error EXEC gives a queued command the user may no longer run (its rules changed
     * since it was queued), logged; null when it may run.
     */
    String deniedAtExec(Command<CoreContext> command, Arguments args) {
        AclUser.Rules rules = user.rules();
        Command<CoreContext> target = rules.unrestricted() ? null : subcommandNamed(command, args);
        Acl.Denial denial = target == null ? null : server.acl().check(rules, target, args);
        if (denial == null) {
            return null;
        }
        logDenial(denial, target, args, "multi");
        return "NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC call. "
            + "This command is no longer allowed for the following reason: " + switch (denial.reason()) {
                case COMMAND -> "no permission to execute the command or subcommand";
                case KEY -> "no permission to touch the specified keys";
                default -> "no permission to access one of the channels used as arguments";
            };
    }

    private void begin(Command<CoreContext> command) {
        coldRerun = false;
        markReply();
        current = command;
        countsReads = command.readOnly();
        counted = command.container() ? runningSubcommand(command) : command;
        lastCommand = counted.spec().name();
        commandMillis = System.currentTimeMillis();
    }

    private void reject(Command<CoreContext> command, String error) {
        multi.flagError();
        if (command != null) {
            command.recordRejected();
        }
        writer.error(command != null && command.spec().name().equals("exec") ? multi.abortedBy(error) : error);
        server.errorReplies.increment();
    }

    /**
     * processCommand's commandCheckExistence and commandCheckArity for a container's request: an
     * unknown subcommand or a wrong argument count is refused before anything else is checked, so
     * inside MULTI it is not queued and makes EXEC abort, as in Redis. False after the refusal.
     */
    private boolean subcommandAccepted(Command<CoreContext> container, Arguments args) {
        Command<CoreContext> subcommand = container.subcommand(args.string(1).toLowerCase(java.util.Locale.ROOT));
        if (subcommand == null) {
            writer.error(Errors.quoting("ERR unknown subcommand '", args.array(), args.offset(1), args.length(1), 128,
                "'. Try " + args.string(0).toUpperCase(java.util.Locale.ROOT) + " HELP."));
            server.errorReplies.increment();
            multi.flagError();
            return false;
        }
        if (!subcommand.spec().acceptsArgumentCount(args.count())) {
            reject(subcommand, Errors.wrongArity(subcommand.spec().name()));
            return false;
        }
        return true;
    }

    /**
     * Redis's processCommand wording, byte for byte: the name and each argument are quoted as C
     * strings (up to a NUL byte), the name up to 128 bytes, the arguments while less than 128
     * bytes of them were written, each cut to what remains of those 128.
     */
    private void rejectUnknownCommand(Arguments args) {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        message.writeBytes("ERR unknown command '".getBytes(StandardCharsets.US_ASCII));
        writeCString(message, args, 0, 128);
        message.writeBytes("', with args beginning with: ".getBytes(StandardCharsets.US_ASCII));
        int quoted = 0;
        for (int i = 1; i < args.count() && quoted < 128; i++) {
            int before = message.size();
            message.write('\'');
            writeCString(message, args, i, 128 - quoted);
            message.write('\'');
            message.write(' ');
            quoted += message.size() - before;
        }
        writer.error(message.toByteArray());
        server.errorReplies.increment();
        multi.flagError();
    }

    private static void writeCString(ByteArrayOutputStream out, Arguments args, int index, int limit) {
        byte[] array = args.array();
        int offset = args.offset(index);
        int length = Math.min(args.length(index), limit);
        for (int i = 0; i < length && array[offset + i] != 0; i++) {
            out.write(array[offset + i]);
        }
    }

    /**
     * Runs the current command where the engine put it. First, as Redis's processCommand, memory
     * is reclaimed ({@link dev.lacewing.api.StorageEngine#reclaimMemory}); a command flagged
     * DENYOOM is refused when it stays over maxmemory, and counts as rejected.
     */
    @Override
    public void run() {
        if (countsReads && !coldRerun && !server.alwaysResident() && coldKeys()) {
            coldWait = true;
            return;
        }
        if (!server.engine().reclaimMemory(this) && current.spec().has(CommandFlag.DENYOOM)) {
            reject(counted, Errors.OOM);
            executed = true;
            return;
        }
        // processCommand's writeCommandsDeniedByDiskError: writes, and PING, after a failed BGSAVE
        // or while the AOF cannot be written.
        String refusal = server.diskErrorRefusal();
        if (refusal != null && (current.spec().has(CommandFlag.WRITE) || current.spec().name().equals("ping"))) {
            reject(counted, refusal);
            executed = true;
            return;
        }
        long start = System.nanoTime();
        long errorsBefore = writer.errorCount();
        long changesBefore = ThreadChanges.count();
        boolean propagating = server.aof().enabled();
        if (propagating) {
            AofDeletions.running(aofBatch);
        }
        boolean tracked = server.tracking().active();
        if (tracked) {
            Tracking.running(this);
        }
        try {
            current.execute(this);
            if (blockedClient == null) {
                Watch.written(current.spec(), decoder, this, changesBefore);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "command " + current.spec().name() + " failed", e);
            writer.error("ERR " + e.getClass().getSimpleName() + ": " + e.getMessage());
        } finally {
            if (propagating) {
                AofDeletions.running(null);
            }
            if (tracked) {
                Tracking.running(null);
            }
        }
        boolean changed = ThreadChanges.count() != changesBefore;
        if (rerunWhole) {
            executed = true;
            return;
        }
        writeOwnInvalidations();
        boolean failed = writer.errorCount() != errorsBefore;
        if (failed) {
            server.errorReplies.increment();
        }
        commandRan(counted, decoder, (System.nanoTime() - start) / 1000, failed, changed);
        appendPropagated();
        server.commandsProcessed.increment();
        executed = true;
        BlockedClient.serveReadyKeys(server);
    }

    /**
     * Whether some key of the read-only command about to run is cold: the storage then reads each
     * such value on a thread of its own ({@link Database#resident}), and {@link #coldLanded} hears
     * each read land. Runs where the command runs, holding its keys.
     */
    private boolean coldKeys() {
        int keys = keyCount();
        if (keys == 0) {
            return false;
        }
        coldPending.set(1);
        boolean cold = false;
        for (int i = 0; i < keys; i++) {
            cold |= coldKey(i);
        }
        return cold;
    }

    /**
     * A part of a split read ({@link SplitRequest}): whether some of its keys (indexes into the
     * request's keys) are cold, their reads started. Parts run at once on several threads; the
     * count was set when the request split ({@link #split}).
     */
    boolean coldPart(int[] keys) {
        if (!countsReads || coldRerun || server.alwaysResident()) {
            return false;
        }
        boolean cold = false;
        for (int key : keys) {
            cold |= coldKey(key);
        }
        return cold;
    }

    private boolean coldKey(int key) {
        Arguments args = decoder;
        int argument = keyArgument(key);
        coldPending.incrementAndGet();
        if (selectedDatabase().resident(args.array(), args.offset(argument), args.length(argument), coldLanded)) {
            coldPending.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Core's view of the selected database: blocked keys and residency live there, not in the api. */
    private Database selectedDatabase() {
        return server.engine().keyspace(database);
    }

    /** A split read found cold keys in some part and wrote nothing: the connection waits for them as {@link #run()} would. */
    void splitCold() {
        coldWait = true;
    }

    /**
     * On the home thread, once a command that found cold keys returned: replies before it go out,
     * input waits, and the command's own count is taken off {@link #coldPending} (the rerun may
     * follow at once, posted).
     */
    private void awaitCold() {
        coldWait = false;
        waitFor(Wait.COLD_READS);
        flush();
        coldLanded.run();
    }

    /**
     * The running command, a keyless one on the home thread, replies later: {@code reply} writes its
     * reply once {@link #replyReady} has been run, from any thread, once. Meanwhile this thread goes
     * on serving other connections, and this one's later requests wait.
     */
    public void replyWhenReady(Consumer<RespWriter> reply) {
        lateReply = reply;
    }

    /** What ends a {@link #replyWhenReady} wait; from any thread. */
    public void replyReady() {
        channel.eventLoop().execute(this::writeLateReply);
    }

    /** On the home thread, once the command that replies later returned: the replies before it go out, input waits. */
    private void awaitLateReply() {
        waitFor(Wait.LATE_REPLY);
        flush();
    }

    /**
     * Whether out is this thread's though the connection waits: blocked, postponed, awaiting cold
     * reads or a late reply; else a command away on another thread writes into it.
     */
    private boolean outIsOwn() {
        return waitingFor != Wait.AWAY;
    }

    /** Whether the connection runs none of its input now ({@link Wait}). */
    private boolean waiting() {
        return waitingFor != Wait.NONE;
    }

    /** The connection stops running its input for {@code reason}; it ran it until now. */
    private void waitFor(Wait reason) {
        assert waitingFor == Wait.NONE : waitingFor + " then " + reason;
        waitingFor = reason;
    }

    /** The wait for {@code reason}, the one the connection is in, ends. */
    private void endWait(Wait reason) {
        assert waitingFor == reason : waitingFor + " ended as " + reason;
        waitingFor = Wait.NONE;
    }

    /** On the home thread: the late reply is written and the input behind it goes on. */
    private void writeLateReply() {
        Consumer<RespWriter> reply = lateReply;
        lateReply = null;
        endWait(Wait.LATE_REPLY);
        if (closed) {
            releaseOut();
            releaseDeferred();
            return;
        }
        writer.target(muted ? discardedReplies() : out());
        reply.accept(writer);
        decoder.consume();
        continueInput();
    }

    /** On the home thread: every cold read landed; the request runs again, reading what is cold again synchronously. */
    private void rerunCold() {
        endWait(Wait.COLD_READS);
        if (closed) {
            releaseOut();
            releaseDeferred();
            return;
        }
        coldRerun = true;
        writer.target(muted ? discardedReplies() : out());
        markReply();
        execute(granted);
        if (!waiting()) {
            decoder.consume();
            continueInput();
        }
    }

    /**
     * Runs on the shard thread the engine took this connection's command to, while the connection
     * waits: the decoder and {@code out} are this thread's until {@link #completed()}, and the
     * engine's hand-over ordered the home thread's writes before. Only what dispatch would hand
     * the engine as it stands is taken; everything else (errors, keyless and whole-keyspace
     * commands, anything touching connection state, anything inside MULTI, which dispatch queues)
     * waits for the home thread, as do bytes that arrive meanwhile, and a batch stops once 64 KiB of
     * replies wait to be flushed.
     */
    @Override
    public boolean advance() {
        if (blockedClient != null || closing || out == null || out.readableBytes() >= REPLY_FLUSH_BYTES
            || !channel.isWritable() || inSubscribedContext() || multi.active() || rerunWhole || coldWait || muted
            || replyOff || skipNextReply) {
            return false;
        }
        decoder.consume();
        executed = false;
        if (decoder.decode() != RequestDecoder.Result.COMPLETE) {
            return false;
        }
        Arguments args = decoder;
        Command<CoreContext> command = server.commands().lookup(args.array(), args.offset(0), args.length(0));
        if (command == null) {
            return false;
        }
        CommandSpec spec = command.spec();
        if (!spec.acceptsArgumentCount(args.count()) || spec.scope(args) != KeyScope.KEYS
            || (authRequired() && !spec.has(CommandFlag.NO_AUTH)) || keyCount(spec) == 0
            || !user.rules().unrestricted()) {
            return false;
        }
        noteForCaching(command);
        begin(command);
        granted = KeyScope.KEYS;
        return true;
    }

    @Override
    public Split split() {
        coldPending.set(1);
        return current.keySplit() == KeySplit.GATHER ? GatherRequest.of(this, current, decoder)
            : SplitRequest.of(this, current, decoder);
    }

    /** A split command's reply is written ({@link SplitRequest#join}): counts it as {@link #run()} would. */
    void splitRan(long micros, boolean failed, boolean changed) {
        if (failed) {
            server.errorReplies.increment();
        }
        commandRan(counted, decoder, micros, failed, changed);
        appendPropagated();
        server.commandsProcessed.increment();
        executed = true;
        writeOwnInvalidations();
    }

    RespWriter writer() {
        return writer;
    }

    public Multi multi() {
        return multi;
    }

    /** EXEC inside MULTI: runs where the engine grants every key of the transaction ({@link Multi.Exec}). */
    void runExec(Command<CoreContext> command, Multi.Exec exec) {
        begin(command);
        if (exec.scope() == KeyScope.NONE) {
            exec.run();
        } else {
            handOver(exec);
        }
    }

    /**
     * Gives the engine a command to run here or on the thread owning its keys; when it went there,
     * the connection waits for it ({@link Wait#AWAY}).
     */
    private void handOver(Invocation invocation) {
        handOverMark = out == null ? 0 : out.writerIndex();
        if (socketWrite == null) {
            if (!server.engine().execute(invocation)) {
                waitFor(Wait.AWAY);
            }
            return;
        }
        HOP.lazySet(this, HOP_AWAY);
        if (server.engine().execute(invocation)) {
            HOP.lazySet(this, HOP_HOME);
        } else {
            waitFor(Wait.AWAY);
        }
    }

    /** A command refused inside MULTI by the transaction's own rules (Redis's rejectCommand). */
    void rejectQueued(Command<CoreContext> command, String error) {
        reject(command, error);
    }

    /** One queued command ran inside EXEC: counts it as {@link #run()} would. */
    void queuedRan(Command<CoreContext> command, Arguments args, long micros, boolean failed, boolean changed) {
        commandRan(command, args, micros, failed, changed);
        if (failed) {
            server.errorReplies.increment();
        }
        server.commandsProcessed.increment();
    }

    /** EXEC's reply is written: counts it, and serves the clients its commands made ready. */
    void execRan(Command<CoreContext> command, long micros, boolean failed) {
        writeOwnInvalidations();
        commandRan(command, decoder, micros, failed, false);
        appendPropagated();
        server.commandsProcessed.increment();
        executed = true;
        BlockedClient.serveReadyKeys(server);
    }

    /**
     * Every command that ran, on whichever thread ran it, as Redis's call() accounts it: its table
     * entry's counters, the slow log, the latency monitor and the monitors, each of the last three
     * costing one comparison unless the command was slow or a client monitors. A blocked command is logged only once it
     * ran to its reply; admin commands are not shown to monitors, as in Redis. A write goes to the
     * AOF only when it {@code changed} something, as call() propagates only when server.dirty moved.
     */
    private void commandRan(Command<CoreContext> command, Arguments args, long micros, boolean failed, boolean changed) {
        command.recordCall(micros, failed);
        server.latencyTracking().record(command.latency(), micros);
        // Cheapest tests first: the name lookup costs a string hash, and most commands are reads or PUBLISH.
        if (!failed && command.spec().has(CommandFlag.WRITE) && server.aof().enabled()
            && (changed || AofPropagation.always(command.spec().name()))) {
            propagate(command, args);
        }
        SlowLog slowLog = server.slowLog();
        if (slowLog.isSlow(micros) && blockedClient == null && !command.spec().has(CommandFlag.SKIP_SLOWLOG)) {
            slowLog.add(args, redacted(args), micros, remoteAddress(), name);
        }
        if (blockedClient == null) {
            server.latencyMonitor().commandRan(command.spec(), micros);
        }
        Monitors monitors = server.monitors();
        if (monitors.active() && !command.spec().has(CommandFlag.ADMIN)
            && !command.spec().has(CommandFlag.SKIP_MONITOR)) {
            monitors.feed(database, remoteAddress(), args, redacted(args));
        }
    }

    /** Where the next command's reply starts: before each command, queued ones included. */
    void markReply() {
        replyStart = out == null ? 0 : out.writerIndex();
    }

    /**
     * Adds what a write command that ran for this connection propagates (a script's commands
     * included) to the batch {@link #appendPropagated} appends once the client's command is done.
     */
    private void propagate(Command<CoreContext> command, Arguments args) {
        // The command's own clock, so a relative expiry becomes the absolute time the keyspace stored.
        AofPropagation.add(aofBatch, database, command.spec().name(), args, commandMillis, ownReply);
    }

    /** The reply of the command that just ran, for the few whose AOF form is read from it ({@link #propagate}). */
    private byte[] ownReply() {
        return out == null ? new byte[0] : ByteBufUtil.getBytes(out, replyStart, out.writerIndex() - replyStart);
    }

    /** What the running command propagates so far, for the keys it deletes on the way ({@link AofDeletions}). */
    AofBatch aofBatch() {
        return aofBatch;
    }

    /** A script's write: its reply is its own. */
    void propagate(Command<CoreContext> command, Arguments args, byte[] reply) {
        AofPropagation.add(aofBatch, database, command.spec().name(), args, commandMillis, () -> reply);
    }

    /** The client's command is done: what it propagated goes into the AOF, under the keys it holds. */
    private void appendPropagated() {
        if (!aofBatch.isEmpty()) {
            long end = server.aof().append(aofBatch);
            aofBatch.clear();
            if (end > aofOffset) {
                aofOffset = end;
            }
        }
    }

    /** A blocked command served elsewhere was appended up to {@code offset}; home thread. */
    private void appendedElsewhere(long offset) {
        if (offset > aofOffset) {
            aofOffset = offset;
        }
    }

    private static boolean[] redacted(Arguments args) {
        return Redaction.of(args.string(0).toLowerCase(java.util.Locale.ROOT), args);
    }

    /** MONITOR: false when it already monitors (Redis then replies nothing). Home thread. */
    public boolean startMonitoring() {
        if (monitoring) {
            return false;
        }
        monitoring = true;
        server.monitors().add(this);
        return true;
    }

    /** RESET, or the client went. */
    public void stopMonitoring() {
        if (monitoring) {
            monitoring = false;
            server.monitors().remove(this);
        }
    }

    public boolean monitoring() {
        return monitoring;
    }

    @Override
    public void completed() {
        if (socketWrite == null || !replyFromHere()) {
            channel.eventLoop().execute(resumeTask);
        }
    }

    /**
     * shard-writes-replies, on the thread that ran the command: when nothing else needs the home
     * thread (no request left in the decoder, nothing queued in the transport, no pushes, AOF, block
     * or cold read to follow up), writes the replies on the socket and hands the connection back by
     * {@link #hop} alone, saving the home thread's wake-up. False: the return goes through
     * {@link #resume}, which sends whatever is left.
     */
    private boolean replyFromHere() {
        if (hop != HOP_AWAY || rerunWhole || coldWait || blockedClient != null || closing || closed
            || subscriptions != null || tracking != null || server.aof().enabled()
            || out == null || !out.isReadable() || !out.hasMemoryAddress()
            || transportPendingBytes() != 0 || !channel.isWritable()) {
            return false;
        }
        // A hop's last advance() consumed its request already (executed false, nothing left), or
        // took one it could not run (executed false, the request still buffered).
        if (executed) {
            decoder.consume();
            executed = false;
        }
        if (decoder.hasBufferedBytes() || !HOP.compareAndSet(this, HOP_AWAY, HOP_WRITING)) {
            return false;
        }
        int length = out.readableBytes();
        int written;
        try {
            written = socketWrite.write(out.memoryAddress() + out.readerIndex(), length);
        } catch (IOException e) {
            // The home thread's flush meets the same error and closes the connection.
            written = 0;
        }
        if (written > 0) {
            out.skipBytes(written);
            server.netOutputBytes.add(written);
        }
        if (written < length) {
            hop = HOP_HANDED_BACK;
            return false;
        }
        server.writesProcessed.increment();
        if (out.capacity() > REUSED_REPLY_BUFFER_BYTES) {
            out.release();
            out = null;
        } else {
            out.clear();
        }
        hop = HOP_RETURNED;
        return true;
    }

    private void resume() {
        endWait(Wait.AWAY);
        if (socketWrite != null) {
            hop = HOP_HOME;
        }
        placeHeldPushes();
        if (rerunWhole && !closed) {
            rerunWhole = false;
            execute(KeyScope.ALL);
            if (waiting()) {
                return;
            }
        }
        if (coldWait) {
            awaitCold();
            return;
        }
        if (executed) {
            decoder.consume();
        }
        if (closed) {
            releaseOut();
            releaseDeferred();
            return;
        }
        if (blockedClient != null) {
            enterBlocked();
            return;
        }
        continueInput();
    }

    /** Takes in the input that waited while a command was away or blocked, and processes it. */
    private void continueInput() {
        if (readPaused) {
            readPaused = false;
            channel.config().setAutoRead(true);
        }
        deferredBytes = 0;
        while (!deferredInput.isEmpty()) {
            ByteBuf in = deferredInput.poll();
            try {
                decoder.append(in);
            } finally {
                in.release();
            }
        }
        processInput();
    }

    // ---- blocking ---------------------------------------------------------------------------

    /** See {@link CommandContext#block}: runs in the command's body, on the thread the engine chose. */
    @Override
    public void block(long deadline, int[] keyArguments, int destinationArgument, BlockedCommand command) {
        BlockedClient client = new BlockedClient(this, current, decoder, database, keyArguments,
            destinationArgument, command, deadline);
        client.register(selectedDatabase());
        // Published before it is counted: a client INFO counts as blocked is one CLIENT UNBLOCK finds.
        blockedClient = client;
        server.blockedClients.increment();
    }

    /**
     * On the home thread, once the command that blocked has returned: the earlier replies of the
     * pipeline go out, the timeout is armed, and a reply that already came ends the block at once.
     */
    private void enterBlocked() {
        waitFor(Wait.BLOCKED);
        BlockedClient client = blockedClient;
        if (client.deadline > 0) {
            armTimeout(client, Math.max(0, client.deadline - System.currentTimeMillis()));
        }
        flush();
        if (earlyReply != null) {
            ByteBuf reply = earlyReply;
            earlyReply = null;
            endBlock(reply);
        }
    }

    private void armTimeout(BlockedClient client, long delayMillis) {
        client.timer = channel.eventLoop().schedule(() -> timedOut(client), delayMillis, TimeUnit.MILLISECONDS);
    }

    /** The deadline passed: a null array, as Redis replies. */
    private void timedOut(BlockedClient client) {
        if (client != blockedClient || closed) {
            return;
        }
        if (client.claim()) {
            client.cleanUp();
            writer.target(out());
            writer.nullArray();
            endBlock(null);
        }
    }

    /** Hands the blocked command's reply to the home thread; from any thread. */
    void deliver(BlockedClient client, ByteBuf reply, long aofEnd) {
        channel.eventLoop().execute(() -> {
            appendedElsewhere(aofEnd);
            if (closed || client != blockedClient) {
                reply.release();
            } else if (waitingFor != Wait.BLOCKED) {
                earlyReply = reply;
            } else {
                endBlock(reply);
            }
        });
    }

    /** Ends the block on the home thread: the reply goes out after the earlier ones, then the pipeline goes on. */
    private void endBlock(ByteBuf reply) {
        BlockedClient client = blockedClient;
        if (client.timer != null) {
            client.timer.cancel(false);
        }
        blockedClient = null;
        endWait(Wait.BLOCKED);
        if (reply != null) {
            out().writeBytes(reply);
            reply.release();
        }
        continueInput();
    }

    /**
     * CLIENT UNBLOCK: ends a blocked command as its timeout would, or with the UNBLOCKED error.
     * False when the client is not blocked (or is being served right now). From any thread.
     */
    public boolean unblock(boolean withError) {
        BlockedClient client = blockedClient;
        if (client == null || !client.claim()) {
            return false;
        }
        channel.eventLoop().execute(() -> {
            client.cleanUp();
            ByteBuf reply = allocate();
            RespWriter replyWriter = new RespWriter();
            replyWriter.target(reply);
            replyWriter.protocol(protocol());
            if (withError) {
                replyWriter.error(Errors.UNBLOCKED);
            } else {
                replyWriter.nullArray();
            }
            deliver(client, reply, 0);
        });
        return true;
    }

    public void onHomeThread(Runnable task) {
        channel.eventLoop().execute(task);
    }

    /**
     * Queues a task on the home thread behind those already queued, in the same order as
     * {@link #onHomeThread}, without waking that thread: it runs at its next pass, which the
     * caller must bring about ({@link #homeThread()}'s {@code execute}) unless something else does.
     * Falls back to {@link #onHomeThread} where the loop cannot queue lazily.
     */
    public void onHomeThreadLazily(Runnable task) {
        if (channel.eventLoop() instanceof SingleThreadEventExecutor loop) {
            loop.lazyExecute(task);
        } else {
            channel.eventLoop().execute(task);
        }
    }

    /** SCRIPT DEBUG YES, SYNC or NO: how this connection's next EVAL runs. */
    void scriptDebug(ScriptDebugSession.Mode mode) {
        scriptDebug = mode;
    }

    /** Whether replies wait to be sent (SCRIPT DEBUG must come outside a pipeline). Home thread only. */
    boolean hasPendingReplies() {
        return pendingOutputBytes() > 0;
    }

    Channel channel() {
        return channel;
    }

    /** The event loop this connection lives on. */
    public EventExecutor homeThread() {
        return channel.eventLoop();
    }

    public boolean inHomeThread() {
        return channel.eventLoop().inEventLoop();
    }

    // ---- pub/sub ----------------------------------------------------------------------------

    /** Its subscriptions, created on first use. Home thread only. */
    public Subscriptions subscriptions() {
        Subscriptions current = subscriptions;
        if (current == null) {
            current = new Subscriptions();
            subscriptions = current;
        }
        return current;
    }

    /** Whether {@link #killByClient} was called: it may no longer join a channel. From any thread. */
    public boolean killed() {
        return killed;
    }

    /** Whether it is subscribed to anything (Redis's CLIENT_PUBSUB flag). */
    public boolean subscribed() {
        Subscriptions current = subscriptions;
        return current != null && current.active();
    }

    /**
     * Writes a published message (encoded as a RESP2 array; a push in RESP3) after what is already
     * written, on the home thread. It pauses nothing and is never held back by a full socket: it
     * counts against the pubsub class of client-output-buffer-limit instead, checked when the queued
     * flush sends it. While a command is away its reply buffer is not this thread's, so the message
     * goes to the channel on its own, or, when earlier replies still wait in that buffer, waits for
     * the command to return and goes in behind them ({@link #placeHeldPushes}).
     */
    public void push(byte[] message) {
        pushBytes(message, true);
    }

    /**
     * Writes a MONITOR line as it is, as {@link #push} writes a message: it counts against the
     * normal class of client-output-buffer-limit (a monitor is a normal client in Redis).
     */
    void pushLine(byte[] line) {
        if (monitoring) {
            pushBytes(line, false);
        }
    }

    private void pushBytes(byte[] message, boolean aggregate) {
        if (closing || closed) {
            return;
        }
        // While a command is away, out is the thread running it's: the message goes to the channel
        // on its own, unless earlier replies still wait in out, which it must not overtake. A
        // blocked or postponed connection's out is this thread's, and may still hold replies that
        // wait for their AOF entry to be written: the message goes in behind them.
        boolean own = outIsOwn();
        boolean held = !own && handOverMark > 0;
        ByteBuf target;
        if (own) {
            target = out();
        } else if (held) {
            target = heldPushes == null ? heldPushes = channel.alloc().ioBuffer(message.length) : heldPushes;
        } else {
            target = channel.alloc().ioBuffer(message.length);
        }
        if (aggregate) {
            target.writeByte(writer.protocol() == 3 ? '>' : '*');
            target.writeBytes(message, 1, message.length - 1);
        } else {
            target.writeBytes(message);
        }
        if (!own && !held) {
            server.netOutputBytes.add(message.length);
            channel.write(target, channel.voidPromise());
            pushedAside = true;
        }
        if (!pushFlushQueued) {
            // Queued behind the deliveries already waiting on this loop: one flush sends them all.
            pushFlushQueued = true;
            channel.eventLoop().execute(flushPushesTask);
        }
    }

    /**
     * When the away command has returned: the messages held meanwhile go into {@code out} after the
     * replies that waited before the hand-over and before those the command wrote, where they would
     * be had the command run here. A copy, only when a message came while earlier replies waited.
     */
    private void placeHeldPushes() {
        if (heldPushes == null) {
            return;
        }
        ByteBuf pushes = heldPushes;
        heldPushes = null;
        ByteBuf replies = out;
        int later = replies.writerIndex() - handOverMark;
        out = channel.alloc().ioBuffer(replies.readableBytes() + pushes.readableBytes())
            .writeBytes(replies, replies.readerIndex(), handOverMark - replies.readerIndex())
            .writeBytes(pushes)
            .writeBytes(replies, handOverMark, later);
        if (replyStart >= handOverMark) {
            replyStart += pushes.readableBytes();
        }
        replies.release();
        pushes.release();
    }

    private void flushPushes() {
        pushFlushQueued = false;
        if (closed) {
            return;
        }
        if (pushedAside) {
            pushedAside = false;
            channel.flush();
        }
        if (outIsOwn()) {
            flush();
            accountBuffers();
        }
    }

    // ---- client-side caching ------------------------------------------------------------------

    public TrackingMode tracking() {
        return tracking;
    }

    /** Set by {@link dev.lacewing.core.tracking.Tracking} on the home thread. */
    public void tracking(TrackingMode mode) {
        tracking = mode;
    }

    public boolean trackingRedirectBroken() {
        return trackingRedirectBroken;
    }

    public void trackingRedirectBroken(boolean broken) {
        trackingRedirectBroken = broken;
    }

    /** CLIENT NO-EVICT ON or OFF. */
    public void noEvict(boolean on) {
        noEvict = on;
    }

    public boolean cachingGiven() {
        return cachingGiven;
    }

    /** CLIENT CACHING YES or NO, for the next command; cleared when tracking stops. */
    public void cachingGiven(boolean given) {
        cachingGiven = given;
    }

    /**
     * Sends this client a tracking message, made by {@code message} for it as it then is (null: none
     * it can take), from any thread: after the running command's reply when {@code writer}, the
     * client whose command made it, is this one; at once on the home thread; else in a task there.
     */
    public void pushTracking(Function<ClientConnection, byte[]> message, ClientConnection writer) {
        if (this == writer) {
            byte[] bytes = message.apply(this);
            if (bytes != null) {
                ownInvalidations.add(bytes);
            }
        } else if (inHomeThread()) {
            pushMade(message);
        } else {
            // Counted as a published message is (PubSub#queuedDeliveries): requests this client
            // sends after the writer saw its replies run after it.
            queuedDeliveries.incrementAndGet();
            onHomeThread(() -> {
                try {
                    pushMade(message);
                } finally {
                    queuedDeliveries.decrementAndGet();
                }
            });
        }
    }

    private void pushMade(Function<ClientConnection, byte[]> message) {
        byte[] bytes = message.apply(this);
        if (bytes != null) {
            push(bytes);
        }
    }

    /** See {@link #passWrites}. */
    public Queue<byte[]> passWrites() {
        return passWrites;
    }

    /** By the thread finishing a command's reply: the invalidations it made for this client follow it. */
    private void writeOwnInvalidations() {
        if (ownInvalidations.isEmpty()) {
            return;
        }
        byte[] message;
        while ((message = ownInvalidations.poll()) != null) {
            out().writeBytes(message);
        }
    }

    // ---- CLIENT PAUSE ----------------------------------------------------------------------------

    /**
     * The request waits for the pause to end (Redis's blockPostponeClient): the replies before it go
     * out, and it is dispatched again at CLIENT UNPAUSE or when the pause's time is up, whichever
     * comes first (again postponed if the pause was extended).
     */
    private void postpone(long untilMillis) {
        flush();
        waitFor(Wait.POSTPONED);
        if (!server.postpone(this)) {
            channel.eventLoop().execute(this::retryPostponed);
            return;
        }
        channel.eventLoop().schedule(this::retryPostponed, Math.max(0, untilMillis - System.currentTimeMillis()) + 1,
            TimeUnit.MILLISECONDS);
    }

    /** On the home thread: the postponed request is dispatched again, and the input behind it goes on. */
    void retryPostponed() {
        if (waitingFor != Wait.POSTPONED || closed) {
            return;
        }
        endWait(Wait.POSTPONED);
        retryingPostponed = true;
        dispatch();
        if (!waiting()) {
            decoder.consume();
            continueInput();
        }
    }

    // ---- CLIENT REPLY ----------------------------------------------------------------------------

    /**
     * CLIENT REPLY ON, OFF or SKIP, run on the home thread (a keyless command): ON answers OK, now
     * that replies go out again; OFF and SKIP answer nothing, SKIP only while replies are on.
     */
    public void replyMode(String mode) {
        switch (mode) {
            case "on" -> {
                replyOff = false;
                skipNextReply = false;
                muted = false;
                writer.target(out());
                writer.ok();
            }
            case "off" -> replyOff = true;
            case "skip" -> skipNextReply = !replyOff;
            default -> throw new IllegalArgumentException(mode);
        }
    }

    /** Where a muted command's reply goes: emptied for each one; unpooled, so nothing need release it. */
    private ByteBuf discardedReplies() {
        if (discarded == null) {
            discarded = Unpooled.buffer(64);
        }
        return discarded.clear();
    }

    ByteBuf allocate() {
        return channel.alloc().ioBuffer(64);
    }

    boolean isClosed() {
        return closed;
    }

    private ByteBuf out() {
        if (out == null) {
            out = reusableFlushed();
            if (out == null) {
                out = channel.alloc().ioBuffer(512);
            }
        }
        return out;
    }

    /**
     * The last flushed buffer, emptied, when the transport is done with it: epoll writes during the
     * flush itself, io_uring when the send completes, which at pipeline 1 is before the client's
     * next request arrives. Saves an allocation and a release per reply.
     */
    private ByteBuf reusableFlushed() {
        ByteBuf buffer = flushed;
        if (buffer == null) {
            return null;
        }
        flushed = null;
        if (buffer.refCnt() != 1) {
            buffer.release();
            return null;
        }
        return buffer.clear();
    }

    private void flush() {
        flush(true);
    }

    /** The AOF committed up to {@code committed}: the replies that waited for it leave. Home thread. */
    private void aofCommitted(long committed) {
        awaitingAof = false;
        aofCommitted = Math.max(aofCommitted, committed);
        if (outIsOwn()) {
            flush(false);
        }
    }

    /**
     * Sends what {@code out} holds once the AOF holds every write it may show. {@code replies}:
     * whether {@code out} may hold replies produced since the last look at the AOF, whose reads
     * may show other connections' writes not yet on disk ({@link AppendOnlyFile#replyBarrier});
     * false when the AOF releases replies it already waited for, so a steady stream of others'
     * writes cannot hold them again and again.
     */
    private void flush(boolean replies) {
        if (closed) {
            return;
        }
        // A cold read cuts the pass: the replies before it leave now, the pass's invalidations after
        // the rest of its replies, as when the pass is not cut.
        if (!passWrites.isEmpty() && waitingFor != Wait.COLD_READS && waitingFor != Wait.LATE_REPLY) {
            server.tracking().passEnded(this);
            writeOwnInvalidations();
        }
        AppendOnlyFile aof = server.aof();
        if (replies && out != null && out.isReadable() && aof.enabled()) {
            aofOffset = Math.max(aofOffset, aof.replyBarrier());
        }
        if (aofOffset > aofCommitted && aof.enabled()) {
            if (!awaitingAof) {
                awaitingAof = true;
                // By the time the file is committed the connection may have gone on to a command
                // that is away on another thread, writing into out: that command's return flushes.
                // A blocked or postponed connection's out is its own thread's.
                aof.afterCommit(aofOffset, channel.eventLoop(), aofCommitDone);
            }
            return;
        }
        if (out != null && out.isReadable()) {
            server.netOutputBytes.add(out.readableBytes());
            server.writesProcessed.increment();
            ByteBuf buffer = out;
            out = null;
            if (closing) {
                channel.writeAndFlush(buffer).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            if (buffer.capacity() <= REUSED_REPLY_BUFFER_BYTES) {
                releaseFlushed();
                flushed = buffer.retain();
            }
            channel.writeAndFlush(buffer, channel.voidPromise());
            checkOutputLimits();
        } else if (closing) {
            channel.close();
        }
    }

    /**
     * Redis's checkClientOutputBufferLimits after a flush: what the socket did not take is held
     * against its class's limits: pubsub while it is subscribed to anything, normal otherwise. Over the hard limit, or over the soft one for longer than
     * its seconds, the client is closed and logged as Redis logs it.
     */
    private void checkOutputLimits() {
        if (closing || closed) {
            return;
        }
        OutputBufferLimits.Limit limit = subscribed()
            ? server.outputBufferLimits().pubsub() : server.outputBufferLimits().normal();
        if (limit.hardBytes() == 0 && limit.softBytes() == 0) {
            return;
        }
        long pending = pendingOutputBytes();
        boolean overHard = limit.hardBytes() > 0 && pending >= limit.hardBytes();
        boolean overSoft = limit.softBytes() > 0 && pending >= limit.softBytes();
        if (overSoft && !overHard) {
            long now = System.currentTimeMillis();
            if (softLimitReachedMillis == 0) {
                softLimitReachedMillis = now;
                // Redis looks again only when more output is added; here a client over the soft
                // limit has its pipeline paused and may add none, so its time is looked at too.
                channel.eventLoop().schedule(this::checkOutputLimits, limit.softSeconds() * 1000 + 1,
                    TimeUnit.MILLISECONDS);
            } else {
                overHard = now - softLimitReachedMillis > limit.softSeconds() * 1000;
            }
        } else if (!overSoft) {
            softLimitReachedMillis = 0;
        }
        if (overHard) {
            LOG.log(System.Logger.Level.WARNING, "Client " + describe()
                + " scheduled to be closed ASAP for overcoming of output buffer limits.");
            server.outputLimitDisconnections.increment();
            closing = true;
            channel.close();
        }
    }

    /** Reply bytes made and not yet taken by the socket: Redis's omem. Home thread only. */
    private long pendingOutputBytes() {
        long pending = transportPendingBytes();
        return out == null ? pending : pending + out.readableBytes();
    }

    /** What the transport holds that the socket has not taken; from any thread (Netty keeps it volatile). */
    private long transportPendingBytes() {
        ChannelOutboundBuffer buffered = channel.unsafe().outboundBuffer();
        return buffered == null ? 0 : buffered.totalPendingWriteBytes();
    }

    private void releaseOut() {
        if (out != null) {
            out.release();
            out = null;
        }
    }

    private void releaseFlushed() {
        if (flushed != null) {
            flushed.release();
            flushed = null;
        }
    }

    private void releaseDeferred() {
        while (!deferredInput.isEmpty()) {
            deferredInput.poll().release();
        }
    }

    // ---- Invocation -------------------------------------------------------------------------

    @Override
    public CommandSpec spec() {
        return current.spec();
    }

    @Override
    public Arguments arguments() {
        return decoder;
    }

    @Override
    public int homeWorker() {
        return homeWorker;
    }

    @Override
    public Object engineState() {
        return engineState;
    }

    @Override
    public void engineState(Object state) {
        engineState = state;
    }

    @Override
    public int keyCount() {
        return keyCount(current.spec());
    }

    private int keyCount(CommandSpec spec) {
        return spec.keyCount(decoder);
    }

    @Override
    public int keyArgument(int i) {
        return current.spec().keyArgument(decoder, i);
    }

    // ---- CommandContext -------------------------------------------------------------------

    @Override
    public RespWriter reply() {
        return writer;
    }

    /** The database, seen through {@link ReadLookups} while a read-only command runs. */
    @Override
    public Keyspace keyspace() {
        Keyspace keyspace = server.engine().keyspace(database);
        return countsReads ? readLookups.of(keyspace) : keyspace;
    }

    /**
     * This connection's read view, for what runs its current command on another thread (a script's
     * calls, a gathered EXEC's reads): that runs one command at a time while the connection waits,
     * so one view serves it, retargeted by each lookup's {@link ReadLookups#of}.
     */
    ReadLookups readLookups() {
        return readLookups;
    }

    /** What a command queued in MULTI sees when EXEC runs it: as {@link #keyspace()} for that command. */
    Keyspace keyspaceFor(Command<CoreContext> command) {
        Keyspace keyspace = server.engine().keyspace(database);
        return command.readOnly() ? readLookups.of(keyspace) : keyspace;
    }

    @Override
    public Keyspace keyspace(int index) {
        return server.engine().keyspace(index);
    }

    @Override
    public int databases() {
        return (int) server.settings().longValue("databases");
    }

    @Override
    public void swapDatabases(int first, int second) {
        server.engine().swapDatabases(first, second);
    }

    @Override
    public long now() {
        return commandMillis;
    }

    @Override
    public ValueView valueView() {
        return valueView;
    }

    @Override
    public Client client() {
        return this;
    }

    @Override
    public ClientConnection connection() {
        return this;
    }

    @Override
    public ServerState server() {
        return server;
    }

    // ---- Client -----------------------------------------------------------------------------

    @Override
    public long id() {
        return id;
    }

    @Override
    public int database() {
        return database;
    }

    @Override
    public void selectDatabase(int index) {
        database = index;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void setName(String name) {
        this.name = name;
    }

    @Override
    public int protocol() {
        return writer.protocol();
    }

    @Override
    public void setProtocol(int protocol) {
        writer.protocol(protocol);
    }

    @Override
    public boolean authenticated() {
        return authenticated;
    }

    @Override
    public void setAuthenticated(boolean authenticated) {
        this.authenticated = authenticated;
    }

    /**
     * The running container command as its subcommand ({@code info} of CLIENT), as Redis 7 names it:
     * CLIENT LIST / INFO's {@code cmd=client|info}, and INFO commandstats' {@code cmdstat_client|info};
     * the container itself when the request names none it accepts (its handler replies the error).
     */
    private Command<CoreContext> runningSubcommand(Command<CoreContext> container) {
        Command<CoreContext> named = subcommandNamed(container, decoder);
        return named != null ? named : container;
    }

    public AclUser user() {
        return user;
    }

    /** AUTH and HELLO AUTH: runs as this user from now on, authenticated. */
    public void authenticateAs(AclUser newUser) {
        this.user = newUser;
        this.authenticated = true;
    }

    /** RESET: back to the default user, authenticated only when it needs no password (clientSetDefaultAuth). */
    public void resetUser() {
        this.user = server.acl().defaultUser();
        this.authenticated = !server.acl().defaultNeedsAuth();
    }

    /**
     * Its user was removed (ACL DELUSER, ACL LOAD): as Redis, it runs as the default user,
     * unauthenticated, and is closed; after this reply when it ran the command itself.
     */
    void loseUser(boolean ranTheCommand) {
        this.user = server.acl().defaultUser();
        this.authenticated = false;
        if (ranTheCommand) {
            closeAfterReply();
        } else {
            kill();
        }
    }

    /**
     * Its user lost channel permissions (ACL SETUSER): closes it when one of its subscriptions is no
     * longer allowed, as Redis's ACLKillPubsubClientsIfNeeded. Runs on its home thread.
     */
    public void closeIfSubscriptionsRefused() {
        channel.eventLoop().execute(() -> {
            Subscriptions current = subscriptions;
            if (current == null || closing) {
                return;
            }
            for (SubscriptionKind kind : SubscriptionKind.values()) {
                for (ChannelName name : current.names(kind)) {
                    if (!Acl.channelAllowed(user, name.bytes(), kind == SubscriptionKind.PATTERN)) {
                        closing = true;
                        channel.close();
                        return;
                    }
                }
            }
        });
    }

    /**
     * QUIT, and the other commands after whose reply the connection closes, run on its home thread:
     * it leaves its channels here, before the reply can reach the client, so that a PUBLISH any
     * client sends after reading that reply no longer counts it, as Redis frees such a client before
     * it reads the next command (freeClientsInAsyncFreeQueue in beforeSleep).
     */
    @Override
    public void closeAfterReply() {
        closing = true;
        if (subscribed()) {
            server.pubSub().unsubscribeAll(this);
        }
    }

    /** Milliseconds since the client's last read (Redis's lastinteraction). */
    long idleMillis(long now) {
        return now - lastInteractionMillis;
    }

    /** Whether a command of this client is running on another thread; such a client is never idle-closed. */
    boolean busy() {
        return waiting() && hop != HOP_RETURNED;
    }

    /**
     * CLIENT KILL: as {@link #kill}, and it leaves its channels at once, on the killer's thread, so
     * that a PUBLISH the killer sends next no longer counts it, as Redis's freeClient unsubscribes
     * before the reply. Each killed subscriber costs a pass over every channel and pattern
     * ({@link dev.lacewing.core.pubsub.PubSub#withdraw}); the timeout and the server's close do
     * without it.
     */
    public void killByClient() {
        killed = true;
        if (subscribed()) {
            server.pubSub().withdraw(this);
        }
        kill();
    }

    /** Closes the connection from another thread (the timeout, the server's close); it runs on its home thread. */
    public void kill() {
        channel.eventLoop().execute(() -> {
            closing = true;
            channel.close();
        });
    }

    public String remoteAddress() {
        return channel == null ? "?" : addressText(channel.remoteAddress());
    }

    /**
     * Redis's islocalClient: connected from 127.0.0.1 or ::1 exactly (not the rest of 127.0.0.0/8),
     * or not over TCP at all.
     */
    public boolean isLocal() {
        if (!(channel.remoteAddress() instanceof InetSocketAddress inet)) {
            return true;
        }
        InetAddress address = inet.getAddress();
        return address.isLoopbackAddress()
            && (address instanceof Inet6Address || address.getHostAddress().equals("127.0.0.1"));
    }

    private boolean overInternet() {
        return channel == null || channel.localAddress() instanceof InetSocketAddress;
    }

    public String localAddress() {
        return channel == null ? "?" : addressText(channel.localAddress());
    }

    /** Redis's genClientAddrString: host:port, or for a Unix socket client the socket's path and :0. */
    private String addressText(java.net.SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            String host = inet.getAddress().getHostAddress();
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        return server.settings().value("unixsocket") + ":0";
    }

    /**
     * Redis's flags in its order: P (subscribed), x (inside MULTI), b (blocked), t (tracking), R (its
     * redirect client gone), B (tracking in BCAST mode), U (over the Unix socket), e (CLIENT NO-EVICT); N for
     * none.
     */
    private String flags() {
        TrackingMode mode = tracking;
        String flags = (subscribed() ? "P" : "") + (multi.active() ? "x" : "") + (blockedClient != null ? "b" : "")
            + (mode != null ? "t" : "") + (mode != null && trackingRedirectBroken ? "R" : "")
            + (mode != null && mode.broadcast() ? "B" : "") + (overInternet() ? "" : "U") + (noEvict ? "e" : "");
        return flags.isEmpty() ? "N" : flags;
    }

    private int subscriptionCount(SubscriptionKind kind) {
        Subscriptions current = subscriptions;
        return current == null ? 0 : current.count(kind);
    }

    /** The line CLIENT LIST and CLIENT INFO print for this client. */
    public String describe() {
        long now = System.currentTimeMillis();
        long omem = channel == null ? 0 : channel.eventLoop().inEventLoop() ? pendingOutputBytes() : transportPendingBytes();
        return "id=" + id + " addr=" + remoteAddress() + " laddr=" + localAddress() + " fd=-1 name=" + name
            + " age=" + (now - createdMillis) / 1000 + " idle=" + (now - lastInteractionMillis) / 1000
            + " flags=" + flags() + " db=" + database + " sub=" + subscriptionCount(SubscriptionKind.CHANNEL)
            + " psub=" + subscriptionCount(SubscriptionKind.PATTERN) + " ssub=" + subscriptionCount(SubscriptionKind.SHARD)
            + " multi=" + (multi.active() ? multi.queuedCount() : -1) + " qbuf=" + decoder.bufferedBytes()
            + " qbuf-free=" + (decoder.capacity() - decoder.bufferedBytes()) + " argv-mem=0 multi-mem=" + multi.queuedBytes() + " rbs=0 rbp=0 obl=0 oll=0"
            + " omem=" + omem + " tot-mem=" + (decoder.capacity() + omem + deferredBytes + multi.queuedBytes()) + " events=r cmd="
            + lastCommand + " user=" + user.name() + " redir=" + (tracking != null ? tracking.redirect() : -1) + " resp=" + writer.protocol()
            + " worker=" + homeWorker;
    }
}
