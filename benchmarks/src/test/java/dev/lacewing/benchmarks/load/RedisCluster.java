package dev.lacewing.benchmarks.load;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Redis Cluster of Debian's redis-server on loopback for tests: N masters, the 16384 slots split
 * evenly with CLUSTER ADDSLOTSRANGE, joined with CLUSTER MEET; started ready (cluster_state:ok on
 * every node, waited for at most 20 seconds) and stopped on close.
 */
final class RedisCluster implements AutoCloseable {

    private final List<Process> processes = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();

    static boolean available() {
        try {
            return new ProcessBuilder("redis-server", "--version").start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static RedisCluster start(Path directory, int masters) throws Exception {
        RedisCluster cluster = new RedisCluster();
        try {
            for (int i = 0; i < masters; i++) {
                int port = freePort();
                Path dir = Files.createDirectories(directory.resolve("node-" + port));
                cluster.ports.add(port);
                cluster.processes.add(new ProcessBuilder("redis-server", "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--dir", dir.toString(), "--save", "", "--appendonly", "no")
                    .redirectErrorStream(true).redirectOutput(dir.resolve("log").toFile()).start());
            }
            for (int i = 0; i < masters; i++) {
                cluster.awaitAnswer(i);
                int first = 16384 * i / masters;
                int last = 16384 * (i + 1) / masters - 1;
                try (RawConnection node = cluster.connect(i)) {
                    expect("+OK", node.call("CLUSTER", "ADDSLOTSRANGE", Integer.toString(first), Integer.toString(last)));
                    if (i > 0) {
                        expect("+OK", node.call("CLUSTER", "MEET", "127.0.0.1", Integer.toString(cluster.ports.get(0))));
                    }
                }
            }
            cluster.awaitState();
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    int port(int node) {
        return ports.get(node);
    }

    long dbsize(int node) throws IOException {
        try (RawConnection connection = connect(node)) {
            return Long.parseLong(connection.call("DBSIZE").substring(1));
        }
    }

    private RawConnection connect(int node) throws IOException {
        return new RawConnection("127.0.0.1", ports.get(node));
    }

    private void awaitAnswer(int node) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try (RawConnection connection = connect(node)) {
                if ("+PONG".equals(connection.call("PING"))) {
                    return;
                }
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("redis-server on port " + ports.get(node) + " did not start", e);
                }
            }
            Thread.sleep(50);
        }
    }

    /** Every node sees every slot served: CLUSTER INFO says cluster_state:ok. */
    private void awaitState() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (int node = 0; node < ports.size(); node++) {
            while (!clusterOk(node)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("cluster not ready within 20 s on port " + ports.get(node));
                }
                Thread.sleep(100);
            }
        }
    }

    private boolean clusterOk(int node) throws IOException {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", ports.get(node))) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(ClusterTopology.encode(List.of("CLUSTER", "INFO")));
            byte[] reply = new byte[4096];
            int read = socket.getInputStream().read(reply);
            return read > 0 && new String(reply, 0, read, java.nio.charset.StandardCharsets.US_ASCII)
                .contains("cluster_state:ok");
        }
    }

    private static void expect(String expected, String actual) {
        if (!expected.equals(actual)) {
            throw new AssertionError("expected " + expected + ", got " + actual);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (Process process : processes) {
            process.destroy();
        }
        for (Process process : processes) {
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
