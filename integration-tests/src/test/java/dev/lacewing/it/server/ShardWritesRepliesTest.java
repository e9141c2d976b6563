package dev.lacewing.it.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * shard-writes-replies: the shard a command hopped to writes its reply on the socket and hands the
 * connection back without waking its event loop. Replies must come whole and in request order
 * whether the next request arrives before, during or after that return, whether the socket takes
 * the reply at once or only part of it, and a client gone while its command is away must not
 * disturb the others. Keys are spread so that about half of each connection's commands hop.
 */
class ShardWritesRepliesTest {

    private static LacewingServer start(Target target) {
        return Servers.builder(target).set("shard-writes-replies", "yes").start();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void eachRequestSentAsSoonAsTheLastReplyArrivedGetsItsOwnReply(Target target) throws Exception {
        int clients = 6;
        int rounds = 1500;
        try (LacewingServer server = start(target)) {
            List<CompletableFuture<Void>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                running.add(CompletableFuture.runAsync(() -> {
                    try (RespClient connection = RespClient.connect(server.port())) {
                        for (int i = 0; i < rounds; i++) {
                            String key = "p1:" + client + ":" + (i % 97);
                            String value = "v" + i + "x".repeat(i % 300);
                            assertEquals("+OK\r\n", connection.call("SET", key, value), key);
                            assertEquals("$" + value.length() + "\r\n" + value + "\r\n", connection.call("GET", key), key);
                        }
                    }
                }));
            }
            CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aRequestArrivingWhileTheCommandIsAwayRunsAfterItInOrder(Target target) {
        try (LacewingServer server = start(target); RespClient connection = RespClient.connect(server.port())) {
            for (int i = 0; i < 2000; i++) {
                String first = "away:" + i % 31;
                String second = "away:" + (i * 7 + 3) % 31;
                connection.send(RespClient.encode(RespClient.toBytes("SET", first, "a" + i)));
                connection.send(RespClient.encode(RespClient.toBytes("INCR", "away:count:" + i % 13)));
                connection.send(RespClient.encode(RespClient.toBytes("SET", second, "b" + i)));
                assertEquals("+OK\r\n", connection.readReplyText(), "SET #" + i);
                assertEquals(":" + (i / 13 + 1) + "\r\n", connection.readReplyText(), "INCR #" + i);
                assertEquals("+OK\r\n", connection.readReplyText(), "second SET #" + i);
                String expected = first.equals(second) ? "b" + i : "a" + i;
                assertEquals("$" + expected.length() + "\r\n" + expected + "\r\n", connection.call("GET", first), "GET #" + i);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aPipelineOverEveryShardRepliesInOrder(Target target) {
        try (LacewingServer server = start(target); RespClient connection = RespClient.connect(server.port())) {
            ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
            int commands = 3000;
            for (int i = 0; i < commands; i++) {
                pipeline.writeBytes(RespClient.encode(RespClient.toBytes("INCR", "deep:" + i % 53)));
            }
            connection.send(pipeline.toByteArray());
            for (int i = 0; i < commands; i++) {
                assertEquals(":" + (i / 53 + 1) + "\r\n", connection.readReplyText(), "INCR #" + i);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aReplyLargerThanTheSocketTakesAtOnceArrivesWhole(Target target) throws Exception {
        String value = "0123456789abcdef".repeat(256 * 1024);
        try (LacewingServer server = start(target); RespClient connection = RespClient.connect(server.port())) {
            for (int k = 0; k < 4; k++) {
                assertEquals("+OK\r\n", connection.call("SET", "large:" + k, value));
            }
            for (int k = 0; k < 4; k++) {
                connection.send(RespClient.encode(RespClient.toBytes("GET", "large:" + k)));
                // Not reading yet: the socket's buffers fill, so the shard's write falls short.
                Thread.sleep(100);
                assertEquals("$" + value.length() + "\r\n" + value + "\r\n", connection.readReplyText(), "large:" + k);
                assertEquals("$1\r\n" + k + "\r\n", connection.call("ECHO", String.valueOf(k)));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void clientsGoneWhileTheirCommandsAreAwayLeaveTheOthersServed(Target target) {
        try (LacewingServer server = start(target); RespClient control = RespClient.connect(server.port())) {
            for (int i = 0; i < 200; i++) {
                try (RespClient gone = RespClient.connect(server.port())) {
                    gone.send(RespClient.encode(RespClient.toBytes("SET", "gone:" + i % 17, "x")));
                    gone.send(RespClient.encode(RespClient.toBytes("GET", "gone:" + (i + 5) % 17)));
                }
                assertEquals("$" + 1 + "\r\n" + (i % 10) + "\r\n", control.call("ECHO", String.valueOf(i % 10)));
                assertEquals("+OK\r\n", control.call("SET", "kept:" + i % 17, "k" + i));
                assertEquals("$" + ("k" + i).length() + "\r\nk" + i + "\r\n", control.call("GET", "kept:" + i % 17));
            }
        }
    }
}
