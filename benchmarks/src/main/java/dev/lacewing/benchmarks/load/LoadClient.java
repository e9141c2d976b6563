package dev.lacewing.benchmarks.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * One connection (a "client" in memtier's words): keeps up to {@code pipeline} requests in
 * flight, encoding each into one pooled outbound buffer that is flushed once per read batch,
 * and times each reply against its request. Requests and replies pair up in order, so the
 * in-flight requests are a ring of send times and command indexes. Every method runs on the
 * owning {@link LoadThread}'s event loop; nothing is allocated per request.
 */
final class LoadClient extends ChannelInboundHandlerAdapter implements ReplyScanner.Listener {

    private final LoadThread thread;
    private final LoadRun run;
    private final KeySequence[] keys;
    private final RandomGenerator random;
    /** Where this connection goes; under --cluster-mode one master, whose keys alone it sends. */
    final String host;
    final int port;
    /** The master's index in the run's topology, or -1 without --cluster-mode. */
    private final int node;
    private final byte[] keyScratch;
    private int handshakeLeft;
    private final ReplyScanner scanner = new ReplyScanner();
    private final int pipeline;
    private final long[] sentAt;
    private final int[] sentCommand;
    private final Runnable wake = this::wake;
    private int head;
    private int inFlight;
    private int command;
    private int leftInBlock;
    private long sent;
    private boolean stopped;
    private boolean finished;
    private boolean wakeScheduled;
    private long nextSendAt;
    private ChannelHandlerContext ctx;
    private ByteBuf out;

    LoadClient(LoadThread thread, LoadRun run, int clientIndex, RandomGenerator random, int node, String host,
               int port) {
        this.thread = thread;
        this.run = run;
        this.random = random;
        this.node = node;
        this.host = host;
        this.port = port;
        this.keyScratch = node < 0 ? null : new byte[run.keyPrefix.length + 20];
        LoadOptions options = run.options;
        this.keys = new KeySequence[run.templates.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = KeySequence.of(run.keyPatterns[i], options.keyMinimum, options.keyMaximum, options.keyStddev,
                options.keyMedian, clientIndex, options.totalClients(), random);
        }
        this.pipeline = options.pipeline;
        this.sentAt = new long[pipeline];
        this.sentCommand = new int[pipeline];
        this.command = run.templates.length - 1;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Sends AUTH / SELECT when asked for; their replies are not timed. */
    void handshake() {
        handshakeLeft = run.handshakeReplies;
        if (handshakeLeft == 0) {
            run.handshakesDone.countDown();
        } else {
            ctx.writeAndFlush(ctx.alloc().buffer(run.handshake.length).writeBytes(run.handshake), ctx.voidPromise());
        }
    }

    /** Sends the first {@code pipeline} requests. */
    void start() {
        nextSendAt = run.startNanos;
        fill();
        flush();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            scanner.scan(in, this);
        } finally {
            in.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        flush();
        thread.publishProgress();
    }

    @Override
    public void onReply(int outcome, int bytes) {
        if (handshakeLeft > 0) {
            if (outcome == ReplyScanner.ERROR) {
                run.connectionFailed("AUTH or SELECT refused: " + scanner.lastError());
            }
            if (--handshakeLeft == 0) {
                run.handshakesDone.countDown();
            }
            return;
        }
        if (inFlight == 0) {
            throw new IllegalStateException("protocol error: a reply with no request");
        }
        long now = System.nanoTime();
        int slot = head;
        head = head + 1 == pipeline ? 0 : head + 1;
        inFlight--;
        long latency = now - sentAt[slot];
        CommandStats stats = thread.stats[sentCommand[slot]];
        stats.record(latency, outcome, bytes);
        if (outcome == ReplyScanner.ERROR) {
            stats.recordError(scanner.lastError());
        }
        thread.replyDone(latency, bytes);
        fill();
    }

    /** Sends while there is room in the pipeline, the run goes on and the rate limit allows. */
    private void fill() {
        while (inFlight < pipeline && !stopped) {
            long now = System.nanoTime();
            if (sent >= run.requestsPerClient || now >= run.deadlineNanos) {
                stopped = true;
                break;
            }
            if (run.rateIntervalNanos > 0) {
                if (now < nextSendAt) {
                    scheduleWake(nextSendAt - now);
                    break;
                }
                // Late timers may catch up by one interval, no more: no bursts after a stall.
                nextSendAt = Math.max(nextSendAt, now - run.rateIntervalNanos) + run.rateIntervalNanos;
            }
            send(now);
        }
        if (stopped && inFlight == 0) {
            finish();
        }
    }

    private void send(long now) {
        long key = nextKey();
        if (key < 0) {
            return;
        }
        CommandTemplate template = run.templates[command];
        int valueLength = template.usesData() ? thread.nextValue(key, random) : 0;
        if (out == null) {
            out = ctx.alloc().ioBuffer(Math.min(64 * 1024, pipeline * (valueLength + 64)));
        }
        int bytes = template.encode(out, run.keyPrefix, key, thread.value, valueLength);
        thread.stats[command].bytesSent += bytes;
        thread.requestSent(bytes);
        int slot = head + inFlight;
        if (slot >= pipeline) {
            slot -= pipeline;
        }
        sentAt[slot] = now;
        sentCommand[slot] = command;
        inFlight++;
        sent++;
    }

    /**
     * Picks the next command by the ratios and draws its key. Under --cluster-mode, keys of other
     * masters are drawn and passed over (the client's other connections send them), and each
     * counts as one of the client's requests, so that a client's connections together send about
     * --requests and P walks its slice once, split over the masters. Returns -1 when the client's
     * requests ran out while passing keys over.
     */
    private long nextKey() {
        while (true) {
            if (leftInBlock == 0) {
                command = command + 1 == run.templates.length ? 0 : command + 1;
                leftInBlock = run.ratios[command];
            }
            leftInBlock--;
            long key = keys[command].next();
            if (node < 0 || run.topology.ownerOf(run.keyPrefix, key, keyScratch) == node) {
                return key;
            }
            if (++sent >= run.requestsPerClient) {
                return -1;
            }
        }
    }

    private void flush() {
        if (out != null) {
            ByteBuf buffer = out;
            out = null;
            ctx.writeAndFlush(buffer, ctx.voidPromise());
        }
    }

    private void scheduleWake(long delayNanos) {
        if (!wakeScheduled) {
            wakeScheduled = true;
            ctx.executor().schedule(wake, delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void wake() {
        wakeScheduled = false;
        if (!finished) {
            fill();
            flush();
        }
    }

    private void finish() {
        if (!finished) {
            finished = true;
            flush();
            ctx.close();
            thread.clientFinished();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!finished) {
            finished = true;
            run.connectionFailed("connection closed by the server with " + inFlight + " requests in flight");
            thread.clientFinished();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!finished) {
            run.connectionFailed(String.valueOf(cause.getMessage() != null ? cause.getMessage() : cause));
            ctx.close();
        }
    }
}
