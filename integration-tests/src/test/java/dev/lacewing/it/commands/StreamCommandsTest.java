package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.Consumer;
import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XPendingArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lettuce.core.models.stream.PendingMessage;
import io.lettuce.core.models.stream.PendingMessages;
import io.lettuce.core.protocol.ProtocolVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The stream family through lettuce over every engine and transport, in RESP2 and RESP3: adding,
 * ranges, trimming, deleting, XREAD and its blocking form (woken by XADD from another connection in
 * the order clients blocked, across shards, timing out), consumer groups (delivery, pending entries,
 * history, acknowledgement, blocked XREADGROUP served in turn or told its group is gone), and the type as the generic commands see
 * it (TYPE, OBJECT ENCODING, MEMORY USAGE, COPY, RENAME). Replies byte for byte against Redis are
 * StreamReferenceTest's.
 */
class StreamCommandsTest {

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

    private static Map<String, String> fields(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }

    private static List<String> ids(List<StreamMessage<String, String>> messages) {
        return messages.stream().map(StreamMessage::getId).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void addRangeTrimAndDeleteInBothProtocols(Target target) {
        inBothProtocols(target, (version, sync) -> {
            String s = key(target, "s", "stream:" + version);
            assertEquals("1-1", sync.xadd(s, new XAddArgs().id("1-1"), fields("a", "1", "b", "2")));
            assertEquals("1-2", sync.xadd(s, new XAddArgs().id("1-*"), fields("a", "3", "b", "4")));
            assertEquals("2-0", sync.xadd(s, new XAddArgs().id("2"), fields("c", "5")));
            String auto = sync.xadd(s, fields("a", "6"));
            assertTrue(Long.parseLong(auto.substring(0, auto.indexOf('-'))) > 2, auto);
            assertEquals(4, sync.xlen(s));
            List<StreamMessage<String, String>> all = sync.xrange(s, Range.create("-", "+"));
            assertEquals(List.of("1-1", "1-2", "2-0", auto), ids(all));
            assertEquals(fields("a", "1", "b", "2"), all.get(0).getBody());
            assertEquals(fields("c", "5"), all.get(2).getBody());
            assertEquals(List.of(auto, "2-0"), ids(sync.xrevrange(s, Range.create("-", "+"),
                Limit.from(2))));
            assertEquals(List.of("1-2"), ids(sync.xrange(s, Range.create("(1-1", "(2-0"))));
            RedisCommandExecutionException tooSmall = assertThrows(RedisCommandExecutionException.class,
                () -> sync.xadd(s, new XAddArgs().id("1-1"), fields("a", "1")));
            assertEquals("ERR The ID specified in XADD is equal or smaller than the target stream top item",
                tooSmall.getMessage());
            assertEquals(1, sync.xdel(s, "1-2", "9-9"));
            assertEquals(2, sync.xtrim(s, XTrimArgs.Builder.maxlen(1)));
            assertEquals(List.of(auto), ids(sync.xrange(s, Range.create("-", "+"))));
            assertEquals(1, sync.xdel(s, auto));
            assertEquals(0, sync.xlen(s));
            assertEquals(1, sync.exists(s), "a stream stays a key when empty");
            assertNull(sync.xadd(key(target, "s", "none:" + version), XAddArgs.Builder.nomkstream().id("1-1"),
                fields("a", "1")));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void xreadReadsAfterTheGivenIdsFromStreamsOnDifferentShards(Target target) {
        inBothProtocols(target, (version, sync) -> {
            String a = key(target, "a", "read:" + version);
            String b = key(target, "b", "read:" + version);
            sync.xadd(a, new XAddArgs().id("1-1"), fields("f", "1"));
            sync.xadd(a, new XAddArgs().id("2-1"), fields("f", "2"));
            sync.xadd(b, new XAddArgs().id("5-1"), fields("g", "1"));
            List<StreamMessage<String, String>> read = sync.xread(StreamOffset.from(a, "1-1"), StreamOffset.from(b, "0"));
            assertEquals(List.of("2-1", "5-1"), ids(read));
            assertEquals(List.of(a, b), read.stream().map(StreamMessage::getStream).toList());
            assertEquals(List.of(), sync.xread(StreamOffset.latest(a), StreamOffset.latest(b)));
            assertEquals(List.of("1-1"), ids(sync.xread(XReadArgs.Builder.count(1), StreamOffset.from(a, "0"))));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void blockedXreadsAreServedByXaddInTheOrderTheyBlocked(Target target) throws Exception {
        String s = key(target, "w", "blocked");
        String other = key(target, "o", "blocked");
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", Servers.server(target).port()));
        try (StatefulRedisConnection<String, String> writer = client.connect()) {
            writer.sync().xadd(s, new XAddArgs().id("1-1"), fields("old", "1"));
            List<RedisFuture<List<StreamMessage<String, String>>>> waits = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                StatefulRedisConnection<String, String> connection = client.connect();
                connections.add(connection);
                // Each waits on a key of another shard as well, which never gets anything.
                waits.add(connection.async().xread(XReadArgs.Builder.block(5000), StreamOffset.latest(other),
                    StreamOffset.latest(s)));
                waitUntilBlocked(writer.sync(), i + 1);
            }
            assertEquals("2-1", writer.sync().xadd(s, new XAddArgs().id("2-1"), fields("new", "2")));
            for (int i = 0; i < 3; i++) {
                List<StreamMessage<String, String>> served = waits.get(i).get(5, TimeUnit.SECONDS);
                assertEquals(List.of("2-1"), ids(served), "client " + i);
                assertEquals(s, served.get(0).getStream());
            }
            waitUntilBlocked(writer.sync(), 0);
            long start = System.nanoTime();
            assertEquals(List.of(), writer.sync().xread(XReadArgs.Builder.block(100), StreamOffset.latest(s)));
            assertTrue(System.nanoTime() - start >= 90_000_000L, "a blocked XREAD times out after BLOCK ms");
        } finally {
            connections.forEach(StatefulRedisConnection::close);
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    /** INFO's blocked_clients reaches {@code count}. */
    private static void waitUntilBlocked(RedisCommands<String, String> sync, int count) throws InterruptedException {
        for (int attempt = 0; attempt < 400; attempt++) {
            if (sync.info("clients").contains("blocked_clients:" + count + "\r\n")) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("never saw " + count + " blocked clients");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aConsumerGroupDeliversPendsAndAcknowledgesInBothProtocols(Target target) {
        inBothProtocols(target, (version, sync) -> {
            String s = key(target, "cg", "group:" + version);
            assertEquals("OK", sync.xgroupCreate(StreamOffset.from(s, "$"), "workers", XGroupCreateArgs.Builder.mkstream()));
            sync.xadd(s, new XAddArgs().id("1-1"), fields("job", "a"));
            sync.xadd(s, new XAddArgs().id("2-1"), fields("job", "b"));
            sync.xadd(s, new XAddArgs().id("3-1"), fields("job", "c"));
            Consumer<String> alice = Consumer.from("workers", "alice");
            Consumer<String> bob = Consumer.from("workers", "bob");
            assertEquals(List.of("1-1", "2-1"), ids(sync.xreadgroup(alice, XReadArgs.Builder.count(2),
                StreamOffset.lastConsumed(s))));
            assertEquals(List.of("3-1"), ids(sync.xreadgroup(bob, StreamOffset.lastConsumed(s))));
            assertEquals(List.of(), sync.xreadgroup(bob, StreamOffset.lastConsumed(s)));
            PendingMessages summary = sync.xpending(s, "workers");
            assertEquals(3, summary.getCount());
            assertEquals(Map.of("alice", 2L, "bob", 1L), summary.getConsumerMessageCount());
            List<PendingMessage> alicePending = sync.xpending(s, alice, Range.create("-", "+"), Limit.from(10));
            assertEquals(List.of("1-1", "2-1"), alicePending.stream().map(PendingMessage::getId).toList());
            assertEquals(1, alicePending.get(0).getRedeliveryCount());
            // Reading its history delivers again.
            assertEquals(List.of("1-1", "2-1"), ids(sync.xreadgroup(alice, StreamOffset.from(s, "0"))));
            assertEquals(2, sync.xpending(s, alice, Range.create("-", "+"), Limit.from(10)).get(0).getRedeliveryCount());
            assertEquals(List.of(), sync.xpending(s, XPendingArgs.Builder.xpending("workers", Range.create("-", "+"),
                Limit.from(10)).idle(60_000)));
            assertEquals(2, sync.xack(s, "workers", "1-1", "3-1", "9-9"));
            assertEquals(1, sync.xpending(s, "workers").getCount());
            assertEquals(1, sync.xgroupDelconsumer(s, alice));
            assertEquals(0, sync.xpending(s, "workers").getCount());
            assertEquals(true, sync.xgroupDestroy(s, "workers"));
            RedisCommandExecutionException noGroup = assertThrows(RedisCommandExecutionException.class,
                () -> sync.xreadgroup(alice, StreamOffset.lastConsumed(s)));
            assertTrue(noGroup.getMessage().startsWith("NOGROUP"), noGroup.getMessage());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void idleEntriesAreClaimedAndXinfoShowsGroupsAndConsumers(Target target) {
        inBothProtocols(target, (version, sync) -> {
            String s = key(target, "cl", "claim:" + version);
            sync.xgroupCreate(StreamOffset.from(s, "$"), "g", XGroupCreateArgs.Builder.mkstream());
            sync.xadd(s, new XAddArgs().id("1-1"), fields("f", "1"));
            sync.xadd(s, new XAddArgs().id("2-1"), fields("f", "2"));
            Consumer<String> alice = Consumer.from("g", "alice");
            Consumer<String> bob = Consumer.from("g", "bob");
            assertEquals(2, sync.xreadgroup(alice, StreamOffset.lastConsumed(s)).size());
            assertEquals(List.of(), sync.xclaim(s, bob, 3_600_000, "1-1"), "not idle for an hour");
            List<StreamMessage<String, String>> claimed = sync.xclaim(s, bob, XClaimArgs.Builder.minIdleTime(0), "1-1");
            assertEquals(List.of("1-1"), ids(claimed));
            assertEquals(fields("f", "1"), claimed.get(0).getBody());
            ClaimedMessages<String, String> auto = sync.xautoclaim(s,
                XAutoClaimArgs.Builder.xautoclaim(Consumer.from("g", "carol"), 0, "0"));
            assertEquals("0-0", auto.getId());
            assertEquals(List.of("1-1", "2-1"), ids(auto.getMessages()));
            List<Object> groups = sync.xinfoGroups(s);
            assertEquals(1, groups.size());
            String group = groups.get(0).toString();
            assertTrue(group.contains("consumers, 3") && group.contains("pending, 2") && group.contains("lag, 0"), group);
            List<Object> consumers = sync.xinfoConsumers(s, "g");
            assertEquals(3, consumers.size());
            assertTrue(consumers.get(2).toString().startsWith("[name, carol, pending, 2, idle, "), consumers.toString());
            String full = sync.xinfoStream(s).toString();
            assertTrue(full.contains("groups, 1"), full);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void blockedXreadgroupsGetNewEntriesInTurnAndNogroupOnceTheGroupIsGone(Target target) throws Exception {
        String s = key(target, "bg", "blocked");
        String other = key(target, "bo", "blocked");
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", Servers.server(target).port()));
        try (StatefulRedisConnection<String, String> writer = client.connect()) {
            RedisCommands<String, String> sync = writer.sync();
            sync.xgroupCreate(StreamOffset.from(s, "$"), "g", XGroupCreateArgs.Builder.mkstream());
            sync.xgroupCreate(StreamOffset.from(other, "$"), "g", XGroupCreateArgs.Builder.mkstream());
            List<RedisFuture<List<StreamMessage<String, String>>>> waits = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                StatefulRedisConnection<String, String> connection = client.connect();
                connections.add(connection);
                waits.add(connection.async().xreadgroup(Consumer.from("g", "c" + i), XReadArgs.Builder.block(5000),
                    StreamOffset.lastConsumed(other), StreamOffset.lastConsumed(s)));
                waitUntilBlocked(sync, i + 1);
            }
            sync.xadd(s, new XAddArgs().id("1-1"), fields("f", "1"));
            assertEquals(List.of("1-1"), ids(waits.get(0).get(5, TimeUnit.SECONDS)));
            waitUntilBlocked(sync, 1);
            sync.xadd(s, new XAddArgs().id("2-1"), fields("f", "2"));
            assertEquals(List.of("2-1"), ids(waits.get(1).get(5, TimeUnit.SECONDS)));
            assertEquals(Map.of("c0", 1L, "c1", 1L), sync.xpending(s, "g").getConsumerMessageCount());

            StatefulRedisConnection<String, String> last = client.connect();
            connections.add(last);
            RedisFuture<List<StreamMessage<String, String>>> orphan = last.async().xreadgroup(Consumer.from("g", "c2"),
                XReadArgs.Builder.block(5000), StreamOffset.lastConsumed(s));
            waitUntilBlocked(sync, 1);
            assertEquals(true, sync.xgroupDestroy(s, "g"));
            sync.xadd(s, new XAddArgs().id("3-1"), fields("f", "3"));
            ExecutionException gone = assertThrows(ExecutionException.class, () -> orphan.get(5, TimeUnit.SECONDS));
            assertEquals("NOGROUP the consumer group this client was blocked on no longer exists",
                gone.getCause().getMessage());
        } finally {
            connections.forEach(StatefulRedisConnection::close);
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theStreamTypeAsGenericCommandsSeeIt(Target target) {
        inBothProtocols(target, (version, sync) -> {
            String s = key(target, "g", "type:" + version);
            String copy = key(target, "g", "copy:" + version);
            String renamed = key(target, "g", "renamed:" + version);
            sync.xadd(s, new XAddArgs().id("1-1"), fields("f", "v"));
            assertEquals("stream", sync.type(s));
            assertEquals("stream", sync.objectEncoding(s));
            long small = sync.memoryUsage(s);
            for (int i = 2; i <= 500; i++) {
                sync.xadd(s, new XAddArgs().id(i + "-1"), fields("f", "value-" + i));
            }
            long large = sync.memoryUsage(s);
            assertTrue(small > 0 && large > small + 500 * 8, small + " then " + large);
            assertEquals(true, sync.copy(s, copy));
            sync.xadd(copy, new XAddArgs().id("501-1"), fields("f", "only in the copy"));
            assertEquals(500, sync.xlen(s));
            assertEquals(501, sync.xlen(copy));
            assertEquals("OK", sync.rename(s, renamed));
            assertEquals(500, sync.xlen(renamed));
            KeyScanArgs streams = KeyScanArgs.Builder.type("stream").match(renamed).limit(100_000);
            assertEquals(List.of(renamed), sync.scan(streams).getKeys());
            RedisCommandExecutionException notDumped = assertThrows(RedisCommandExecutionException.class,
                () -> sync.dump(renamed));
            assertEquals("ERR DUMP of a stream is not supported yet", notDumped.getMessage());
            sync.set(s, "a string");
            RedisCommandExecutionException wrongType = assertThrows(RedisCommandExecutionException.class,
                () -> sync.xadd(s, fields("f", "v")));
            assertTrue(wrongType.getMessage().startsWith("WRONGTYPE"), wrongType.getMessage());
            assertEquals(3, sync.del(s, copy, renamed));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void xreadAndXinfoAreMapsInResp3(Target target) {
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            String s = key(target, "r", "resp3");
            client.call("HELLO", "3");
            assertEquals("$3\r\n1-1\r\n", client.call("XADD", s, "1-1", "f", "v"));
            String key = "$" + s.length() + "\r\n" + s + "\r\n";
            String entries = "*1\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n";
            assertEquals("%1\r\n" + key + entries, client.call("XREAD", "STREAMS", s, "0"));
            assertEquals("_\r\n", client.call("XREAD", "STREAMS", s, "$"));
            String info = client.call("XINFO", "STREAM", s);
            assertTrue(info.startsWith("%10\r\n$6\r\nlength\r\n:1\r\n"), info);
            client.call("HELLO", "2");
            assertEquals("*1\r\n*2\r\n" + key + entries, client.call("XREAD", "STREAMS", s, "0"));
            assertEquals("*-1\r\n", client.call("XREAD", "STREAMS", s, "$"));
        }
    }
}
