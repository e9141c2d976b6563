package dev.lacewing.it.storage;

import static dev.lacewing.it.storage.TieredServers.bulk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cold reads on the tiered storage: a read-only command whose value is on disk runs nothing until a
 * reader thread of the storage has read it, then runs again; the worker serves other connections
 * meanwhile, and the waiting connection's replies stay in request order. The storage's test hook
 * ({@code lacewing.tiered.read-delay-ms}, read when the server starts) makes every read of an
 * offloaded value slow, whichever thread makes it.
 */
class TieredColdReadTest {

    static Stream<Target> engines() {
        return TieredServers.engines();
    }

    private static LacewingServer start(Target target, int threads, long readDelayMillis) {
        return TieredServers.startWithReadDelay(TieredServers.eager(target).threads(threads), readDelayMillis);
    }

    private static long infoField(RespClient client, String name) {
        return TieredServers.infoField(client, "server", name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void aSlowColdReadDelaysNoOtherConnectionOfTheSameLoop(Target target) throws Exception {
        String cold = "cold-value-".repeat(10);
        try (LacewingServer server = start(target, 1, 3000);
             RespClient waiting = RespClient.connect(server.port());
             RespClient other = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", waiting.call("SET", "cold", cold));
            assertEquals("+OK\r\n", waiting.call("SET", "hot", "short"));
            assertEquals(1, infoField(waiting, "tiered_offloaded_values"));
            waiting.send(RespClient.encode(RespClient.toBytes("GET", "cold")));
            waiting.send(RespClient.encode(RespClient.toBytes("GET", "hot")));
            waiting.send(RespClient.encode(RespClient.toBytes("PING")));
            long start = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                assertEquals("+PONG\r\n", other.call("PING"));
            }
            assertEquals(bulk("short"), other.call("GET", "hot"));
            long millis = (System.nanoTime() - start) / 1_000_000;
            // The cold read sleeps 3 s: served on the worker, these would wait for it.
            assertTrue(millis < 2000, "another connection of the loop waited " + millis + " ms");
            assertFalse(waiting.available(0), "the cold GET answered before its read landed");
            assertEquals(bulk(cold), waiting.readReplyText());
            assertEquals(bulk("short"), waiting.readReplyText());
            assertEquals("+PONG\r\n", waiting.readReplyText());
            assertEquals(1, infoField(other, "tiered_async_reads"));
            assertEquals(1, infoField(other, "tiered_reads"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void aMultiKeyReadOverColdKeysOfEveryShardWaitsForThemInOrder(Target target) throws Exception {
        int keys = 24;
        try (LacewingServer server = start(target, 2, 20);
             RespClient client = RespClient.connect(server.port())) {
            List<String> mget = new ArrayList<>(List.of("MGET"));
            StringBuilder values = new StringBuilder("*" + (keys + 1) + "\r\n");
            for (int i = 0; i < keys; i++) {
                String value = "value-" + i + "-".repeat(20);
                assertEquals("+OK\r\n", client.call("SET", "key:" + i, value));
                mget.add("key:" + i);
                values.append(bulk(value));
            }
            mget.add("missing");
            values.append("$-1\r\n");
            assertEquals(keys, infoField(client, "tiered_offloaded_values"));
            client.send(RespClient.encode(RespClient.toBytes(mget.toArray(String[]::new))));
            client.send(RespClient.encode(RespClient.toBytes("SET", "key:0", "new")));
            client.send(RespClient.encode(RespClient.toBytes("GET", "key:0")));
            assertEquals(values.toString(), client.readReplyText());
            assertEquals("+OK\r\n", client.readReplyText());
            assertEquals(bulk("new"), client.readReplyText());
            // Every value came from a reader thread; the rerun read none on the worker.
            assertEquals(keys, infoField(client, "tiered_async_reads"));
            assertEquals(keys, infoField(client, "tiered_reads"));
        }
    }
}
