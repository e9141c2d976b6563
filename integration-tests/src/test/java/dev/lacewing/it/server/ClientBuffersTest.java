package dev.lacewing.it.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a client that does not read its replies may cost: a pipeline stops running while its socket
 * is full, a closed connection's unstarted pipeline never runs, and client-output-buffer-limit
 * closes a client whose replies pile up past the socket, leaving every other client alone.
 */
class ClientBuffersTest {

    private static final int VALUE_BYTES = 100_000;
    private static final int PIPELINED_GETS = 100_000;

    /**
     * A raw client that pipelines GETs of one key from a thread of its own and reads nothing, with
     * a small receive buffer so the server's socket fills early. Bounded: PIPELINED_GETS requests.
     */
    private static final class NonReader implements AutoCloseable {
        private final Socket socket = new Socket();
        private final Thread writer;
        private final AtomicBoolean done = new AtomicBoolean();

        NonReader(int port, String key) throws IOException {
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            byte[] batch = RespClient.bytes(("*2\r\n$3\r\nGET\r\n$" + key.length() + "\r\n" + key + "\r\n").repeat(1000));
            OutputStream out = socket.getOutputStream();
            writer = new Thread(() -> {
                try {
                    for (int i = 0; i < PIPELINED_GETS / 1000 && !done.get(); i++) {
                        out.write(batch);
                    }
                } catch (IOException closed) {
                    // the server closed it, or the test did
                }
            }, "non-reader");
            writer.setDaemon(true);
            writer.start();
        }

        /** Whether the server closed it within the time: a read ends or is reset. */
        boolean closedByServer(int millis) throws IOException {
            socket.setSoTimeout(millis);
            byte[] sink = new byte[1 << 16];
            long deadline = System.nanoTime() + millis * 1_000_000L;
            try {
                while (System.nanoTime() < deadline) {
                    if (socket.getInputStream().read(sink) < 0) {
                        return true;
                    }
                }
                return false;
            } catch (java.net.SocketTimeoutException e) {
                return false;
            } catch (java.net.SocketException e) {
                return true;
            }
        }

        @Override
        public void close() throws Exception {
            done.set(true);
            socket.close();
            writer.join(10_000);
        }
    }

    private static long info(RespClient client, String field) {
        Matcher matcher = Pattern.compile(field + ":(\\d+)").matcher(client.call("INFO", "everything"));
        assertTrue(matcher.find(), field);
        return Long.parseLong(matcher.group(1));
    }

    private static void storeValue(RespClient client, String key, int bytes) {
        assertEquals("+OK\r\n", client.call("SET", key, "v".repeat(bytes)));
    }

    private static void awaitClients(RespClient client, long count) throws InterruptedException {
        for (int i = 0; i < 200 && info(client, "connected_clients") != count; i++) {
            Thread.sleep(25);
        }
        assertEquals(count, info(client, "connected_clients"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aPipelineWhoseRepliesAreNotReadStopsRunningAndNeverRunsAfterItsClientCloses(Target target)
            throws Exception {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient observer = RespClient.connect(server.port())) {
            storeValue(observer, "big", VALUE_BYTES);
            long before = info(observer, "total_commands_processed");
            try (NonReader reader = new NonReader(server.port(), "big")) {
                Thread.sleep(1000);
                long running = info(observer, "total_commands_processed") - before;
                // The socket's buffers hold a few megabytes of replies: some dozens of GETs, not 100,000.
                assertTrue(running < 2_000, "commands run for a client reading nothing: " + running);
                assertEquals("+PONG\r\n", observer.call("PING"), "other clients go on");
            }
            awaitClients(observer, 1);
            long afterClose = info(observer, "total_commands_processed");
            Thread.sleep(500);
            // Only the observer's own INFO ran in between.
            assertEquals(afterClose + 1, info(observer, "total_commands_processed"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aPausedPipelineGoesOnWhenItsClientReads(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            storeValue(client, "big", VALUE_BYTES);
            int count = 300;
            StringBuilder pipeline = new StringBuilder();
            for (int i = 0; i < count; i++) {
                pipeline.append("*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n");
            }
            pipeline.append("*1\r\n$4\r\nPING\r\n");
            client.send(pipeline.toString());
            Thread.sleep(300);
            String expected = "$" + VALUE_BYTES + "\r\n" + "v".repeat(VALUE_BYTES) + "\r\n";
            for (int i = 0; i < count; i++) {
                assertEquals(expected, client.readReplyText(), "reply " + i);
            }
            assertEquals("+PONG\r\n", client.readReplyText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aReplyPastTheHardLimitClosesOnlyThatClientAndIsLogged(Target target) throws Exception {
        try (LogCapture log = LogCapture.attach("dev.lacewing.core.server.ClientConnection");
             LacewingServer server = Servers.builder(target).set("client-output-buffer-limit", "normal 1mb 0 0")
                .start();
             RespClient observer = RespClient.connect(server.port())) {
            storeValue(observer, "huge", 20_000_000);
            try (NonReader reader = new NonReader(server.port(), "huge")) {
                assertTrue(reader.closedByServer(10_000), "closed for its output buffer");
            }
            assertEquals(1, info(observer, "client_output_buffer_limit_disconnections"));
            assertEquals("$5\r\nhello\r\n", observer.call("ECHO", "hello"), "the observer is unaffected");
            assertTrue(log.records().stream().anyMatch(r -> r.getMessage().startsWith("Client id=")
                    && r.getMessage().endsWith(" scheduled to be closed ASAP for overcoming of output buffer limits.")),
                "Redis's log line");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aClientOverTheSoftLimitForItsSecondsIsClosed(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target)
                .set("client-output-buffer-limit", "normal 0 100kb 1").start();
             RespClient observer = RespClient.connect(server.port())) {
            storeValue(observer, "huge", 20_000_000);
            try (NonReader reader = new NonReader(server.port(), "huge")) {
                assertTrue(reader.closedByServer(10_000), "closed once over the soft limit for a second");
            }
            assertEquals(1, info(observer, "client_output_buffer_limit_disconnections"));
        }
    }

    private static long heapUsedAfterFullGc() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aHugeValueSetReadAndDeletedLeavesNothingReachable(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("+PONG\r\n", client.call("PING"));
            long before = heapUsedAfterFullGc();
            int size = 100_000_000;
            storeValue(client, "huge", size);
            byte[] reply = client.callBytes(RespClient.toBytes("GET", "huge"));
            assertEquals(size + 14, reply.length);
            assertEquals(":1\r\n", client.call("DEL", "huge"));
            reply = null;
            // Neither the request's buffer, nor the value's page, nor a view of it stays reachable
            // (the compact table's decoded-entry field held the dropped page until its next lookup).
            long grown = heapUsedAfterFullGc() - before;
            assertTrue(grown < size / 4, "heap grew by " + grown + " bytes");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aBigBulkArrivingGetsABufferThatEndsWhereItEnds(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient observer = RespClient.connect(server.port());
             RespClient sender = RespClient.connect(server.port())) {
            int size = 10_000_000;
            sender.send("*3\r\n$3\r\nSET\r\n$8\r\nbig:bulk\r\n$" + size + "\r\n");
            sender.send(new byte[size - 1_000_000]);
            long totalMemory = 0;
            for (int i = 0; i < 200 && totalMemory < size - 1_000_000; i++) {
                Thread.sleep(20);
                for (String line : observer.call("CLIENT", "LIST").split("\n")) {
                    Matcher matcher = Pattern.compile(" tot-mem=(\\d+) ").matcher(line);
                    if (!line.contains("cmd=client|list") && matcher.find()) {
                        totalMemory = Long.parseLong(matcher.group(1));
                    }
                }
            }
            // Doubling from 16 KiB would have reached 16 MiB.
            assertTrue(totalMemory >= size - 1_000_000 && totalMemory < size + 100_000, "tot-mem " + totalMemory);
            // used_memory counts client buffers, as Redis's mem_clients_normal.
            assertTrue(info(observer, "mem_clients_normal") >= size - 1_000_000, "mem_clients_normal");
            sender.send(new byte[1_000_000]);
            sender.send("\r\n");
            assertEquals("+OK\r\n", sender.readReplyText());
            assertEquals(":" + size + "\r\n", observer.call("STRLEN", "big:bulk"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aTransactionQueueingWithoutEndCountsInMemoryAndIsRefusedOverMaxmemory(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).set("maxmemory", "4mb").start();
             RespClient client = RespClient.connect(server.port());
             RespClient observer = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("MULTI"));
            String value = "q".repeat(VALUE_BYTES);
            int queued = 0;
            String reply = client.call("SET", "queued:0", value);
            while (reply.equals("+QUEUED\r\n") && queued < 200) {
                queued++;
                if (queued == 10) {
                    String list = observer.call("CLIENT", "LIST");
                    Matcher matcher = Pattern.compile(" flags=x .* multi=10 .* multi-mem=(\\d+) ").matcher(list);
                    assertTrue(matcher.find() && Long.parseLong(matcher.group(1)) >= 10L * VALUE_BYTES, list);
                }
                reply = client.call("SET", "queued:" + queued, value);
            }
            // 4 MB of maxmemory holds about 40 queued values of 100 KB; Redis refuses the next with OOM.
            assertEquals("-OOM command not allowed when used memory > 'maxmemory'.\r\n", reply, "after " + queued);
            assertTrue(queued >= 30 && queued <= 45, "queued " + queued);
            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", client.call("EXEC"));
            assertEquals("+PONG\r\n", client.call("PING"));
            assertTrue(info(observer, "mem_clients_normal") < 1_000_000, "the queue's memory went back");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void clientListShowsTheRepliesWaitingForTheSocket(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient observer = RespClient.connect(server.port())) {
            storeValue(observer, "huge", 20_000_000);
            try (NonReader reader = new NonReader(server.port(), "huge")) {
                long omem = 0;
                for (int i = 0; i < 100 && omem == 0; i++) {
                    Thread.sleep(50);
                    for (String line : observer.call("CLIENT", "LIST").split("\n")) {
                        Matcher matcher = Pattern.compile(" omem=(\\d+) tot-mem=(\\d+) ").matcher(line);
                        if (line.contains("cmd=get") && matcher.find()) {
                            omem = Long.parseLong(matcher.group(1));
                            assertTrue(Long.parseLong(matcher.group(2)) > omem, line);
                        }
                    }
                }
                // The kernel takes a few megabytes of the 20 MB reply; the rest waits.
                assertTrue(omem > 1_000_000, "omem " + omem);
            }
        }
    }
}
