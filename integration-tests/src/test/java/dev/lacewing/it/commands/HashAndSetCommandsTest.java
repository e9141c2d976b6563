package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyValue;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ValueScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.protocol.ProtocolVersion;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hash and set families through lettuce over every engine and transport, in RESP2 and RESP3
 * (HGETALL is a map, SMEMBERS a set, HRANDFIELD WITHVALUES pairs in RESP3), small and large
 * encodings alike. Keys use hash tags so that multi-key set commands span shards.
 */
class HashAndSetCommandsTest {

    private static String key(Target target, String tag, String name) {
        return "{" + tag + "}:" + target + ":" + name;
    }

    private static void inBothProtocols(Target target, BiConsumer<ProtocolVersion, RedisCommands<String, String>> body) {
        for (ProtocolVersion version : ProtocolVersion.values()) {
            RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", Servers.server(target).port()));
            client.setOptions(ClientOptions.builder().protocolVersion(version).build());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                body.accept(version, connection.sync());
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void hashCommandsInBothProtocols(Target target) {
        inBothProtocols(target, (version, sync) -> {
            String h = key(target, "h", "hash:" + version);
            assertEquals(2L, sync.hset(h, Map.of("a", "1", "b", "2")));
            assertEquals(Map.of("a", "1", "b", "2"), sync.hgetall(h));
            assertEquals(List.of(KeyValue.just("a", "1"), KeyValue.empty("z")), sync.hmget(h, "a", "z"));
            assertEquals(12L, sync.hincrby(h, "a", 11));
            assertEquals(2.5, sync.hincrbyfloat(h, "b", 0.5));
            assertEquals(3L, sync.hstrlen(h, "b"));
            assertTrue(sync.hexists(h, "a"));
            assertEquals(false, sync.hsetnx(h, "a", "x"));
            List<KeyValue<String, String>> pairs = sync.hrandfieldWithvalues(h, -4);
            assertEquals(4, pairs.size());
            pairs.forEach(pair -> assertTrue(pair.getKey().equals("a") || pair.getKey().equals("b")));
            assertEquals(2, sync.hrandfield(h, 5).size());
            assertEquals(2L, sync.hdel(h, "a", "b", "c"));
            assertEquals(0L, sync.exists(h));
            sync.set(h, "string");
            assertThrows(RedisCommandExecutionException.class, () -> sync.hget(h, "a"));
            sync.del(h);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aLargeHashScansCompletely(Target target) {
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> sync = connection.sync();
            String h = key(target, "h", "large");
            Map<String, String> fields = new HashMap<>();
            for (int i = 0; i < 2000; i++) {
                fields.put("field" + i, "value" + i);
            }
            sync.hset(h, fields);
            assertEquals(2000L, sync.hlen(h));
            Map<String, String> seen = new HashMap<>();
            ScanCursor cursor = ScanCursor.INITIAL;
            for (int calls = 0; calls < 10_000 && !cursor.isFinished(); calls++) {
                MapScanCursor<String, String> step = sync.hscan(h, cursor, ScanArgs.Builder.limit(50));
                seen.putAll(step.getMap());
                cursor = step;
            }
            assertEquals(fields, seen);
            assertEquals("value1999", sync.hget(h, "field1999"));
            // Deleting three quarters shifts entries back and shrinks the table; the rest stays found.
            String[] deleted = new String[1500];
            for (int i = 0; i < deleted.length; i++) {
                deleted[i] = "field" + i;
                fields.remove(deleted[i]);
            }
            assertEquals(1500L, sync.hdel(h, deleted));
            assertEquals(500L, sync.hlen(h));
            assertEquals(fields, sync.hgetall(h));
            for (int i = 1500; i < 2000; i += 97) {
                assertEquals("value" + i, sync.hget(h, "field" + i));
            }
            sync.del(h);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void setCommandsAcrossShardsInBothProtocols(Target target) {
        inBothProtocols(target, (version, sync) -> {
            String a = key(target, "a", "set:" + version);
            String b = key(target, "b", "set:" + version);
            String c = key(target, "c", "set:" + version);
            String dst = key(target, "d", "set:" + version);
            assertEquals(4L, sync.sadd(a, "1", "2", "3", "4"));
            assertEquals(3L, sync.sadd(b, "3", "4", "x"));
            assertEquals(Set.of("1", "2", "3", "4"), sync.smembers(a));
            assertEquals(Set.of("3", "4"), sync.sinter(a, b));
            assertEquals(2L, sync.sintercard(a, b));
            assertEquals(1L, sync.sintercard(1, a, b));
            assertEquals(Set.of("1", "2", "3", "4", "x"), sync.sunion(a, b, c));
            assertEquals(Set.of("1", "2"), sync.sdiff(a, b));
            assertEquals(2L, sync.sinterstore(dst, a, b));
            assertEquals(5L, sync.sunionstore(dst, a, b));
            assertEquals(2L, sync.sdiffstore(dst, a, b));
            assertEquals(true, sync.smove(a, c, "1"));
            assertEquals(Set.of("1"), sync.smembers(c));
            assertEquals(List.of(true, false), sync.smismember(a, "2", "1"));
            assertEquals(5, sync.srandmember(a, -5).size());
            Set<String> popped = sync.spop(a, 2);
            assertEquals(2, popped.size());
            assertEquals(1L, sync.scard(a));
            assertEquals(4L, sync.del(a, b, c, dst));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aLargeSetScansCompletely(Target target) {
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> sync = connection.sync();
            String s = key(target, "s", "large");
            String[] members = new String[1500];
            for (int i = 0; i < members.length; i++) {
                members[i] = Integer.toString(i * 7);
            }
            assertEquals(1500L, sync.sadd(s, members));
            Set<String> seen = new HashSet<>();
            ScanCursor cursor = ScanCursor.INITIAL;
            for (int calls = 0; calls < 10_000 && !cursor.isFinished(); calls++) {
                ValueScanCursor<String> step = sync.sscan(s, cursor, ScanArgs.Builder.limit(40));
                seen.addAll(step.getValues());
                cursor = step;
            }
            assertEquals(Set.of(members), seen);
            assertEquals(1L, sync.del(s));
        }
    }
}
