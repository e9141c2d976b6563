package dev.lacewing.it.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Input that arrives while a connection's command is blocked waits, in order, and runs once the
 * block ends, for many connections of one event loop at once: together they hold more waiting
 * input (about 4.2 MiB) than io_uring's receive buffer ring has (32 buffers of 16 KiB per event
 * loop), so the connections must not keep the ring's buffers while they wait. And more connections
 * than the ring has buffers, sending at once, are all served: where the kernel finds the ring empty,
 * Netty receives into a buffer of its own for that read.
 */
class WaitingInputTest {

    private static final int CLIENTS = 24;
    private static final int SETS_PER_CLIENT = 180;
    private static final int VALUE_BYTES = 1024;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void pipelinesBehindBlockedCommandsRunInOrderOnceTheyAreServed(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).threads(1).start();
             RespClient control = RespClient.connect(server.port())) {
            List<RespClient> clients = new ArrayList<>();
            try {
                for (int i = 0; i < CLIENTS; i++) {
                    RespClient client = RespClient.connect(server.port());
                    clients.add(client);
                    client.send(RespClient.encode(RespClient.toBytes("BLPOP", "waiting:list:" + i, "0")));
                }
                awaitBlocked(control, CLIENTS);
                String value = "v".repeat(VALUE_BYTES);
                for (int i = 0; i < CLIENTS; i++) {
                    clients.get(i).send(pipelineOfSets(i, value));
                }
                for (int i = 0; i < CLIENTS; i++) {
                    assertEquals(":1\r\n", control.call("RPUSH", "waiting:list:" + i, "pushed"));
                }
                for (int i = 0; i < CLIENTS; i++) {
                    RespClient client = clients.get(i);
                    String list = "waiting:list:" + i;
                    assertEquals("*2\r\n$" + list.length() + "\r\n" + list + "\r\n$6\r\npushed\r\n",
                        client.readReplyText(), "client " + i);
                    for (int j = 0; j < SETS_PER_CLIENT; j++) {
                        assertEquals("+OK\r\n", client.readReplyText(), "client " + i + " SET #" + j);
                    }
                    assertEquals("$" + VALUE_BYTES + "\r\n" + value + "\r\n",
                        client.call("GET", "waiting:" + i + ":" + (SETS_PER_CLIENT - 1)));
                }
            } finally {
                clients.forEach(RespClient::close);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void moreConnectionsSendingAtOnceThanTheReceiveRingHoldsAreAllServed(Target target) throws Exception {
        int connections = 96;
        int increments = 200;
        try (LacewingServer server = Servers.builder(target).threads(1).start()) {
            List<RespClient> clients = new ArrayList<>();
            try {
                for (int i = 0; i < connections; i++) {
                    clients.add(RespClient.connect(server.port()));
                }
                for (int i = 0; i < connections; i++) {
                    ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
                    for (int j = 0; j < increments; j++) {
                        pipeline.writeBytes(RespClient.encode(RespClient.toBytes("INCR", "burst:" + i)));
                    }
                    clients.get(i).send(pipeline.toByteArray());
                }
                for (int i = 0; i < connections; i++) {
                    RespClient client = clients.get(i);
                    for (int j = 1; j <= increments; j++) {
                        assertEquals(":" + j + "\r\n", client.readReplyText(), "connection " + i + " INCR #" + j);
                    }
                }
            } finally {
                clients.forEach(RespClient::close);
            }
        }
    }

    /** SETS_PER_CLIENT SETs of client {@code i}'s keys, as one block of bytes (about 180 KiB). */
    private static byte[] pipelineOfSets(int i, String value) {
        ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
        for (int j = 0; j < SETS_PER_CLIENT; j++) {
            pipeline.writeBytes(RespClient.encode(RespClient.toBytes("SET", "waiting:" + i + ":" + j, value)));
        }
        return pipeline.toByteArray();
    }

    /** Waits, at most 10 s, until INFO clients counts that many blocked clients. */
    private static void awaitBlocked(RespClient control, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        int blocked = -1;
        while (System.nanoTime() < deadline) {
            String info = control.call("INFO", "clients");
            for (String line : info.split("\r\n")) {
                if (line.startsWith("blocked_clients:")) {
                    blocked = Integer.parseInt(line.substring("blocked_clients:".length()).strip());
                }
            }
            if (blocked >= expected) {
                return;
            }
            Thread.sleep(20);
        }
        assertTrue(blocked >= expected, "blocked clients: " + blocked);
    }
}
