package dev.lacewing.it.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cold reads through the transport's file reads: on io_uring the tiered storage reads offloaded
 * strings with io_uring ({@code tiered_async_read_mechanism:io_uring}, {@code tiered_file_reads}),
 * on epoll with its reader threads; either way every value comes back byte for byte, to
 * concurrent clients, across a compaction that swaps the segment file under them.
 */
class TieredFileReadsTest {

    private static final int KEYS = 300;
    private static final int CLIENTS = 4;

    static Stream<Target> targets() {
        return Servers.ENGINES.stream().flatMap(engine -> Stream.of(
            new Target(engine, "io_uring", "tiered"), new Target(engine, "epoll", "tiered")));
    }

    private static String infoValue(RespClient client, String name) {
        return TieredServers.infoValue(client, "server", name);
    }

    private static byte[] key(int index) {
        return ("key:" + index).getBytes(StandardCharsets.US_ASCII);
    }

    /** Values of 16 bytes to {@code longest}, every byte value among them, different for each seed. */
    private static byte[][] values(long seed, int longest) {
        Random random = new Random(seed);
        byte[][] values = new byte[KEYS][];
        for (int i = 0; i < KEYS; i++) {
            values[i] = new byte[16 + random.nextInt(longest - 16)];
            random.nextBytes(values[i]);
        }
        return values;
    }

    private static byte[] bulk(byte[] value) {
        byte[] head = ("$" + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] reply = new byte[head.length + value.length + 2];
        System.arraycopy(head, 0, reply, 0, head.length);
        System.arraycopy(value, 0, reply, head.length, value.length);
        reply[reply.length - 2] = '\r';
        reply[reply.length - 1] = '\n';
        return reply;
    }

    private static void store(RespClient client, byte[][] values) {
        for (int i = 0; i < KEYS; i++) {
            assertEquals("+OK\r\n", new String(client.callBytes(List.of("SET".getBytes(StandardCharsets.US_ASCII),
                key(i), values[i])), StandardCharsets.US_ASCII));
        }
    }

    /** Every client GETs every key, each in its own order, and checks the bytes. */
    private static void readConcurrently(int port, byte[][] values) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int first = c * KEYS / CLIENTS;
                done.add(clients.submit(() -> {
                    try (RespClient client = RespClient.connect(port)) {
                        for (int n = 0; n < KEYS; n++) {
                            int i = (first + n) % KEYS;
                            assertArrayEquals(bulk(values[i]), client.callBytes(
                                List.of("GET".getBytes(StandardCharsets.US_ASCII), key(i))), "key:" + i);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void coldReadsGoThroughTheTransportsFileReadsWhereItHasThem(Target target) throws Exception {
        try (LacewingServer server = TieredServers.eager(target).start();
             RespClient client = RespClient.connect(server.port())) {
            boolean ioUring = target.transport().equals("io_uring");
            assertEquals(ioUring ? "io_uring" : "threads", infoValue(client, "tiered_async_read_mechanism"));
            byte[][] values = values(1, 8 * 1024);
            store(client, values);
            assertEquals(KEYS, Long.parseLong(infoValue(client, "tiered_offloaded_values")));
            readConcurrently(server.port(), values);
            long fileReads = Long.parseLong(infoValue(client, "tiered_file_reads"));
            long asyncReads = Long.parseLong(infoValue(client, "tiered_async_reads"));
            assertTrue(asyncReads >= KEYS, "tiered_async_reads " + asyncReads);
            if (ioUring) {
                assertTrue(fileReads >= KEYS, "tiered_file_reads " + fileReads);
            } else {
                assertEquals(0, fileReads);
            }

            // Rewriting every value three times leaves each partition's file mostly dead: a later
            // store compacts it into a fresh file, which the file reads open anew.
            long diskBefore = Long.parseLong(infoValue(client, "tiered_disk_bytes"));
            byte[][] rewritten = values(2, 64 * 1024);
            long round = 0;
            for (byte[] value : rewritten) {
                round += value.length;
            }
            for (int i = 0; i < 3; i++) {
                store(client, rewritten);
            }
            assertTrue(Long.parseLong(infoValue(client, "tiered_disk_bytes")) < diskBefore + 3 * round,
                "no segment file was compacted");
            readConcurrently(server.port(), rewritten);
            if (ioUring) {
                assertTrue(Long.parseLong(infoValue(client, "tiered_file_reads")) >= fileReads + KEYS);
            }
        }
    }
}
