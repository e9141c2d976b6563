package dev.lacewing.benchmarks.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * One load thread: a single-threaded Netty event loop, its {@code clients} connections, and what
 * they recorded (one {@link CommandStats} per workload command). Everything but the published
 * progress counters is touched only by the event loop until the run ends; the main thread then
 * reads the stats after the loop has terminated.
 */
final class LoadThread {

    /** memtier's default seed is a constant too, so that runs repeat the same keys. */
    private static final long DEFAULT_SEED = 0x6c616365L;

    final CommandStats[] stats;
    /** The value bytes: 'x', or random with --random-data, one byte changed per value sent. */
    final byte[] value;
    private final LoadRun run;
    private final MultiThreadIoEventLoopGroup group;
    private final Class<? extends SocketChannel> channelClass;
    private final List<LoadClient> clients = new ArrayList<>();
    private int mutation;
    private int activeClients;
    private long ops;
    private long latencyNanos;
    private long bytes;
    private final AtomicLong publishedOps = new AtomicLong();
    private final AtomicLong publishedLatencyNanos = new AtomicLong();
    private final AtomicLong publishedBytes = new AtomicLong();
    volatile long finishNanos;

    LoadThread(LoadRun run, int index, IoHandlerFactory ioHandlerFactory, Class<? extends SocketChannel> channelClass,
               long baseSeed) {
        this.run = run;
        this.channelClass = channelClass;
        this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("lacewing-benchmark-" + index),
            ioHandlerFactory);
        this.stats = new CommandStats[run.templates.length];
        for (int i = 0; i < stats.length; i++) {
            stats[i] = new CommandStats();
        }
        LoadOptions options = run.options;
        this.value = new byte[options.maximumDataSize()];
        if (options.randomData) {
            new SplittableRandom(baseSeed + index).nextBytes(value);
        } else {
            Arrays.fill(value, (byte) 'x');
        }
        for (int i = 0; i < options.clients; i++) {
            int clientIndex = index * options.clients + i;
            long seed = options.distinctClientSeed ? baseSeed + clientIndex : baseSeed;
            if (run.topology == null) {
                clients.add(new LoadClient(this, run, clientIndex, new SplittableRandom(seed), -1,
                    options.server, options.port));
            } else {
                // One connection per master, each drawing from the client's key sequence and
                // keeping the keys its master serves.
                List<ClusterTopology.Node> nodes = run.topology.nodes();
                for (int node = 0; node < nodes.size(); node++) {
                    clients.add(new LoadClient(this, run, clientIndex, new SplittableRandom(seed + 7919L * node), node,
                        nodes.get(node).host(), nodes.get(node).port()));
                }
            }
        }
        this.activeClients = clients.size();
    }

    static long baseSeed(LoadOptions options) {
        return options.randomize ? System.nanoTime() ^ ProcessHandle.current().pid() : DEFAULT_SEED;
    }

    /** Starts connecting every client; the futures complete on the event loop. */
    List<ChannelFuture> connect() {
        List<ChannelFuture> futures = new ArrayList<>();
        for (LoadClient client : clients) {
            futures.add(new Bootstrap().group(group).channel(channelClass)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(client)
                .connect(client.host, client.port));
        }
        return futures;
    }

    /** Sends every connection's AUTH / SELECT; each counts down {@link LoadRun#handshakesDone}. */
    void handshake() {
        group.execute(() -> clients.forEach(LoadClient::handshake));
    }

    /** Sends every client's first requests; the run's start time must be set before. */
    void start() {
        group.execute(() -> clients.forEach(LoadClient::start));
    }

    void stop() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /**
     * The length of the next value, as memtier sizes it: fixed, or with a range random (R) or
     * growing with the key index over the key range (S); with --random-data one byte of the
     * buffer changes each time, so consecutive values differ.
     */
    int nextValue(long keyIndex, RandomGenerator random) {
        LoadOptions options = run.options;
        int length;
        if (options.dataSizeMaximum == 0) {
            length = options.dataSize;
        } else if (options.dataSizePattern == 'S') {
            long span = options.keyMaximum - options.keyMinimum;
            double share = span == 0 ? 0 : (double) (keyIndex - options.keyMinimum) / span;
            length = options.dataSizeMinimum + (int) ((options.dataSizeMaximum - options.dataSizeMinimum) * share);
        } else {
            length = options.dataSizeMinimum + random.nextInt(options.dataSizeMaximum - options.dataSizeMinimum + 1);
        }
        if (options.randomData) {
            value[mutation]++;
            mutation = mutation + 1 == value.length ? 0 : mutation + 1;
        }
        return length;
    }

    void requestSent(int requestBytes) {
        bytes += requestBytes;
    }

    void replyDone(long latency, int replyBytes) {
        ops++;
        latencyNanos += latency;
        bytes += replyBytes;
    }

    /** Makes the counters visible to the progress line; once per read batch, release stores only. */
    void publishProgress() {
        publishedOps.lazySet(ops);
        publishedLatencyNanos.lazySet(latencyNanos);
        publishedBytes.lazySet(bytes);
    }

    long publishedOps() {
        return publishedOps.get();
    }

    long publishedLatencyNanos() {
        return publishedLatencyNanos.get();
    }

    long publishedBytes() {
        return publishedBytes.get();
    }

    void clientFinished() {
        if (--activeClients == 0) {
            publishProgress();
            finishNanos = System.nanoTime();
            run.threadsDone.countDown();
        }
    }
}
