package dev.lacewing.benchmarks.load;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * What every thread of one run shares: the options, the workload's templates and ratios, and
 * when the run started and must stop sending. Written by the main thread before the clients
 * start (handing the start task to each event loop publishes it); read-only afterwards, except
 * for the latch and the first connection error.
 */
final class LoadRun {

    final LoadOptions options;
    final CommandTemplate[] templates;
    final int[] ratios;
    final KeyPattern[] keyPatterns;
    final byte[] keyPrefix;
    final long requestsPerClient;
    final long rateIntervalNanos;
    final CountDownLatch threadsDone;
    /** The masters and their slots under --cluster-mode, else null. */
    final ClusterTopology topology;
    /** AUTH / SELECT as one RESP request batch sent by every connection first, and how many replies it gets. */
    final byte[] handshake;
    final int handshakeReplies;
    /** Counted down by each connection once its handshake is answered (or failed). */
    final CountDownLatch handshakesDone;
    long startNanos;
    long deadlineNanos = Long.MAX_VALUE;
    private volatile String connectionError;

    LoadRun(LoadOptions options, ClusterTopology topology) {
        this.options = options;
        this.topology = topology;
        List<List<String>> handshakeCommands = options.handshake();
        ByteArrayOutputStream handshakeBytes = new ByteArrayOutputStream();
        handshakeCommands.forEach(words -> handshakeBytes.writeBytes(ClusterTopology.encode(words)));
        this.handshake = handshakeBytes.toByteArray();
        this.handshakeReplies = handshakeCommands.size();
        this.handshakesDone = new CountDownLatch(
            options.totalClients() * (topology == null ? 1 : topology.nodes().size()));
        List<LoadOptions.Command> workload = options.workload();
        this.templates = new CommandTemplate[workload.size()];
        this.ratios = new int[workload.size()];
        this.keyPatterns = new KeyPattern[workload.size()];
        for (int i = 0; i < workload.size(); i++) {
            templates[i] = new CommandTemplate(workload.get(i).words());
            ratios[i] = workload.get(i).ratio();
            keyPatterns[i] = workload.get(i).keyPattern();
        }
        this.keyPrefix = options.keyPrefix.getBytes(StandardCharsets.UTF_8);
        this.requestsPerClient = options.testTimeSeconds > 0 ? Long.MAX_VALUE : options.requests;
        this.rateIntervalNanos = options.rateLimit > 0 ? 1_000_000_000L / options.rateLimit : 0;
        this.threadsDone = new CountDownLatch(options.threads);
    }

    void connectionFailed(String error) {
        if (connectionError == null) {
            connectionError = error;
        }
    }

    /** The first connection lost or refused during the run, or null. */
    String connectionError() {
        return connectionError;
    }
}
