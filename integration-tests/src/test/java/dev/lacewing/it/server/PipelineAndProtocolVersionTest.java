package dev.lacewing.it.server;

import static dev.lacewing.it.resp.RespClient.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Pipelining through lettuce's async API, and both protocol versions, on every engine and transport. */
class PipelineAndProtocolVersionTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aThousandPipelinedCommandsReplyInOrder(Target target) throws Exception {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisAsyncCommands<byte[], byte[]> async = connection.async();
            connection.setAutoFlushCommands(false);
            List<RedisFuture<?>> sets = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                sets.add(async.set(bytes("pipeline:" + target + ":" + i), bytes("value-" + i)));
            }
            List<RedisFuture<byte[]>> gets = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                gets.add(async.get(bytes("pipeline:" + target + ":" + i)));
            }
            RedisFuture<Long> deleted = async.del(bytes("pipeline:" + target + ":0"), bytes("pipeline:" + target + ":1"));
            connection.flushCommands();
            connection.setAutoFlushCommands(true);
            LettuceFutures.awaitAll(Duration.ofSeconds(20), sets.toArray(new RedisFuture[0]));
            LettuceFutures.awaitAll(Duration.ofSeconds(20), gets.toArray(new RedisFuture[0]));
            for (int i = 0; i < 1000; i++) {
                assertArrayEquals(bytes("value-" + i), gets.get(i).get(), "GET #" + i);
            }
            assertEquals(2L, deleted.get());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void speaksResp3AfterHello3AndResp2WhenAsked(Target target) {
        int port = Servers.server(target).port();
        for (ProtocolVersion version : ProtocolVersion.values()) {
            RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
            client.setOptions(ClientOptions.builder().protocolVersion(version).build());
            try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
                RedisCommands<byte[], byte[]> sync = connection.sync();
                byte[] key = bytes("proto:" + version + ":" + target);
                assertEquals("OK", sync.set(key, bytes("v")));
                assertArrayEquals(bytes("v"), sync.get(key));
                assertEquals(null, sync.get(bytes("proto:missing")));
                assertEquals(1L, sync.del(key));
                String expected = version == ProtocolVersion.RESP3 ? "3" : "2";
                Map<String, Object> hello = helloFields(sync.clientList());
                assertEquals(expected, hello.get("resp"));
            } finally {
                client.shutdown();
            }
        }
    }

    /** The fields of the first CLIENT LIST line of this connection. */
    private static Map<String, Object> helloFields(String clientList) {
        Map<String, Object> fields = new java.util.HashMap<>();
        String line = clientList.lines().filter(l -> l.contains("cmd=client")).findFirst().orElseThrow();
        for (String pair : line.split(" ")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                fields.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return fields;
    }
}
