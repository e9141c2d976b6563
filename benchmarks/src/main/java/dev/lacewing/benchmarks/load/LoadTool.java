package dev.lacewing.benchmarks.load;

import io.netty.channel.ChannelFuture;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/lacewing-benchmark}: a load generator with memtier_benchmark's options and report
 * (see {@link LoadOptions#USAGE}). Threads each run one event loop (epoll when it loads, else
 * NIO) driving their connections; on a terminal a progress line is redrawn every second on
 * standard error, and nothing is when the output is piped. Exit status: 0, or 1 for a bad
 * option or a connection refused or lost.
 */
public final class LoadTool {

    private LoadTool() {
    }

    public static void main(String[] args) {
        LoadOptions options;
        try {
            options = LoadOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println("Try 'lacewing-benchmark --help' for more information.");
            System.exit(1);
            return;
        }
        if (options.help) {
            System.out.print(LoadOptions.USAGE);
            return;
        }
        try {
            LoadReport report = run(options, System.out, System.err, System.console() != null);
            System.exit(report.connectionError() == null ? 0 : 1);
        } catch (IOException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Runs the load, prints the report to {@code out} (and the JSON file when asked), and returns
     * it. {@code progress}, when not null, receives memtier's progress line once a second: redrawn
     * in place on a terminal, else one line each second, so a log or a pipe sees the run advance.
     *
     * @throws IOException when a connection cannot be made, or the JSON file cannot be written
     */
    public static LoadReport run(LoadOptions options, PrintStream out, PrintStream progress, boolean terminal)
        throws IOException {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory ioHandlerFactory = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends SocketChannel> channelClass = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        String transport = epoll ? "epoll" : "nio";
        ClusterTopology topology = options.clusterMode
            ? ClusterTopology.discover(options.server, options.port, options.authenticate) : null;
        LoadRun run = new LoadRun(options, topology);
        long seed = LoadThread.baseSeed(options);
        List<LoadThread> threads = new ArrayList<>();
        try {
            for (int i = 0; i < options.threads; i++) {
                threads.add(new LoadThread(run, i, ioHandlerFactory, channelClass, seed));
            }
            connectAll(threads, options);
            handshakeAll(run, threads);
            run.startNanos = System.nanoTime();
            if (options.testTimeSeconds > 0) {
                run.deadlineNanos = run.startNanos + TimeUnit.SECONDS.toNanos(options.testTimeSeconds);
            }
            long startMillis = System.currentTimeMillis();
            threads.forEach(LoadThread::start);
            awaitWithProgress(run, threads, progress, terminal);
            long finishMillis = System.currentTimeMillis();
            threads.forEach(LoadThread::stop);
            long finishNanos = run.startNanos;
            List<CommandStats[]> stats = new ArrayList<>();
            for (LoadThread thread : threads) {
                finishNanos = Math.max(finishNanos, thread.finishNanos);
                stats.add(thread.stats);
            }
            LoadReport report = new LoadReport(options, transport, run.templates, stats, finishNanos - run.startNanos,
                startMillis, finishMillis, run.connectionError());
            report.printSummary(out);
            if (!options.hideHistogram) {
                report.printHistogram(out);
            }
            out.flush();
            if (options.jsonOutFile != null) {
                Files.writeString(Path.of(options.jsonOutFile), report.json(), StandardCharsets.UTF_8);
            }
            return report;
        } finally {
            threads.forEach(LoadThread::stop);
        }
    }

    private static void connectAll(List<LoadThread> threads, LoadOptions options) throws IOException {
        List<ChannelFuture> futures = new ArrayList<>();
        threads.forEach(thread -> futures.addAll(thread.connect()));
        for (ChannelFuture future : futures) {
            if (!future.awaitUninterruptibly().isSuccess()) {
                throw new IOException("cannot connect to " + options.server + ":" + options.port + ": "
                    + future.cause().getMessage(), future.cause());
            }
        }
    }

    private static void handshakeAll(LoadRun run, List<LoadThread> threads) throws IOException {
        threads.forEach(LoadThread::handshake);
        try {
            if (!run.handshakesDone.await(10, TimeUnit.SECONDS)) {
                throw new IOException("AUTH / SELECT not answered within 10 seconds");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during AUTH / SELECT", e);
        }
        if (run.connectionError() != null) {
            throw new IOException(run.connectionError());
        }
    }

    /** Waits for every thread to finish, printing memtier's progress line once a second. */
    private static void awaitWithProgress(LoadRun run, List<LoadThread> threads, PrintStream progress,
                                          boolean terminal) {
        LoadOptions options = run.options;
        long lastNanos = run.startNanos;
        long lastOps = 0;
        long lastLatency = 0;
        long lastBytes = 0;
        boolean drawn = false;
        while (true) {
            try {
                if (run.threadsDone.await(1, TimeUnit.SECONDS)) {
                    break;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            if (progress == null) {
                continue;
            }
            long now = System.nanoTime();
            long ops = 0;
            long latency = 0;
            long bytes = 0;
            for (LoadThread thread : threads) {
                ops += thread.publishedOps();
                latency += thread.publishedLatencyNanos();
                bytes += thread.publishedBytes();
            }
            double elapsed = (now - run.startNanos) / 1e9;
            double interval = (now - lastNanos) / 1e9;
            double percent = options.testTimeSeconds > 0 ? 100 * elapsed / options.testTimeSeconds
                : 100.0 * ops / ((double) options.requests * options.totalClients());
            progress.printf(Locale.ROOT,
                (terminal ? "\r" : "") + "[RUN #1 %3.0f%%, %3d secs] %2d threads: %11d ops, %7.0f (avg: %7.0f) ops/sec, "
                    + "%.2fMB/sec (avg: %.2fMB/sec), %5.2f (avg: %5.2f) msec latency" + (terminal ? "" : "%n"),
                Math.min(100, percent), (long) elapsed, options.threads, ops,
                (ops - lastOps) / interval, ops / elapsed,
                (bytes - lastBytes) / interval / (1 << 20), bytes / elapsed / (1 << 20),
                ops == lastOps ? 0 : (latency - lastLatency) / 1e6 / (ops - lastOps),
                ops == 0 ? 0 : latency / 1e6 / ops);
            progress.flush();
            drawn = true;
            lastNanos = now;
            lastOps = ops;
            lastLatency = latency;
            lastBytes = bytes;
        }
        if (drawn) {
            if (terminal) {
                progress.println();
            }
            progress.println();
        }
    }
}
