package dev.lacewing.it.commands;

import static dev.lacewing.it.resp.RespClient.bytes;
import static dev.lacewing.it.resp.RespClient.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.SortArgs;
import io.lettuce.core.UnblockType;
import io.lettuce.core.ZPopArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BZPOPMIN, BZPOPMAX, BZMPOP and SORT through lettuce over real sockets, on every engine and
 * transport: wake-up by ZADD, ZINCRBY and a cross-shard ZUNIONSTORE from another connection, blocking
 * order, timeouts with decimals, CLIENT UNBLOCK, a client waiting on keys of several shards served
 * once; SORT's BY/GET patterns and STORE over keys of other shards (untagged weight and hash keys
 * spread over the shards) (the whole-keyspace grant), a
 * SORT ... STORE waking a BLPOP on its destination.
 */
class BlockingSortedSetAndSortTest {

    private static List<String> texts(List<byte[]> values) {
        List<String> texts = new ArrayList<>();
        values.forEach(value -> texts.add(text(value)));
        return texts;
    }

    /** Keys with distinct hash tags, so that with two shards some pairs live on different shards. */
    private static String name(Target target, String test, String tag) {
        return "{" + tag + "}bz:" + target + ":" + test;
    }

    private static byte[] key(Target target, String test, String tag) {
        return bytes(name(target, test, tag));
    }

    private static <T> T await(RedisFuture<T> future) throws Exception {
        return future.get(5, TimeUnit.SECONDS);
    }

    /** INFO's blocked_clients reaches {@code count}: the clients are blocked, in that order. */
    private static void waitUntilBlocked(RedisCommands<byte[], byte[]> sync, int count) throws InterruptedException {
        for (int attempt = 0; attempt < 200; attempt++) {
            if (new String(sync.info("clients")).contains("blocked_clients:" + count + "\r\n")) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("never saw " + count + " blocked clients");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aZaddFromAnotherConnectionServesBlockedClientsInTheOrderTheyBlocked(Target target) throws Exception {
        byte[] k = key(target, "order", "a");
        List<StatefulRedisConnection<byte[], byte[]>> connections = new ArrayList<>();
        try (StatefulRedisConnection<byte[], byte[]> adder = Servers.connect(target)) {
            List<RedisFuture<KeyValue<byte[], ScoredValue<byte[]>>>> waits = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target);
                connections.add(connection);
                waits.add(i == 2 ? connection.async().bzpopmax(5, k) : connection.async().bzpopmin(5, k));
                waitUntilBlocked(adder.sync(), i + 1);
            }
            assertEquals(4, adder.sync().zadd(k, ScoredValue.just(1, bytes("a")), ScoredValue.just(2, bytes("b")),
                ScoredValue.just(3, bytes("c")), ScoredValue.just(4, bytes("d"))));
            String[] expected = {"a", "b", "d"};
            for (int i = 0; i < 3; i++) {
                KeyValue<byte[], ScoredValue<byte[]>> served = await(waits.get(i));
                assertEquals(expected[i], text(served.getValue().getValue()), "client " + i);
                assertEquals(name(target, "order", "a"), text(served.getKey()));
            }
            assertEquals(List.of("c"), texts(adder.sync().zrange(k, 0, -1)), "the rest stays");
            adder.sync().del(k);
        } finally {
            connections.forEach(StatefulRedisConnection::close);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void zincrbyAndACrossShardZunionstoreWakeWaiters(Target target) throws Exception {
        byte[] k = key(target, "wake", "a");
        byte[] source1 = key(target, "wake", "b");
        byte[] source2 = key(target, "wake", "c");
        try (StatefulRedisConnection<byte[], byte[]> waiter = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> other = Servers.connect(target)) {
            RedisFuture<KeyValue<byte[], ScoredValue<byte[]>>> first = waiter.async().bzpopmin(5, k);
            waitUntilBlocked(other.sync(), 1);
            assertEquals(2.5, other.sync().zincrby(k, 2.5, bytes("m")));
            assertEquals(ScoredValue.just(2.5, bytes("m")).getScore(), await(first).getValue().getScore());
            RedisFuture<KeyValue<byte[], List<ScoredValue<byte[]>>>> second =
                waiter.async().bzmpop(5.5, 10, ZPopArgs.Builder.max(), k);
            waitUntilBlocked(other.sync(), 1);
            other.sync().zadd(source1, 1, bytes("x"));
            other.sync().zadd(source2, 2, bytes("y"));
            assertEquals(2, other.sync().zunionstore(k, source1, source2));
            List<ScoredValue<byte[]>> popped = await(second).getValue();
            assertEquals(List.of("y", "x"), popped.stream().map(v -> text(v.getValue())).toList());
            assertEquals(0, other.sync().exists(k));
            other.sync().del(source1, source2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aClientWaitingOnKeysOfSeveralShardsIsServedOnce(Target target) throws Exception {
        byte[] a = key(target, "shards", "a");
        byte[] b = key(target, "shards", "b");
        byte[] c = key(target, "shards", "c");
        try (StatefulRedisConnection<byte[], byte[]> waiter = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> adder = Servers.connect(target)) {
            RedisFuture<KeyValue<byte[], ScoredValue<byte[]>>> served = waiter.async().bzpopmax(5, a, b, c);
            waitUntilBlocked(adder.sync(), 1);
            RedisAsyncCommands<byte[], byte[]> adds = adder.async();
            RedisFuture<Long> toC = adds.zadd(c, 1, bytes("from-c"));
            RedisFuture<Long> toB = adds.zadd(b, 1, bytes("from-b"));
            await(toC);
            await(toB);
            KeyValue<byte[], ScoredValue<byte[]>> result = await(served);
            assertEquals(1, adder.sync().zcard(b) + adder.sync().zcard(c),
                "exactly one member was taken, by " + text(result.getKey()));
            assertTrue(text(result.getValue().getValue()).startsWith("from-"));
            adder.sync().del(a, b, c);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void timeoutsWithDecimalsAndClientUnblockReplyNull(Target target) throws Exception {
        try (StatefulRedisConnection<byte[], byte[]> blocked = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> other = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = blocked.sync();
            long start = System.nanoTime();
            assertNull(sync.bzpopmin(0.2, key(target, "timeout", "a"), key(target, "timeout", "b")));
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(elapsedMillis >= 190 && elapsedMillis < 2000, "waited " + elapsedMillis + " ms");
            assertTrue(!sync.bzmpop(0.001, ZPopArgs.Builder.min(), key(target, "timeout", "a")).hasValue(),
                "a millisecond is a millisecond, not for ever");
            assertThrows(Exception.class, () -> sync.bzpopmax(-1, key(target, "timeout", "a")));
            long id = sync.clientId();
            RedisFuture<KeyValue<byte[], ScoredValue<byte[]>>> waiting =
                blocked.async().bzpopmax(0, key(target, "timeout", "a"));
            waitUntilBlocked(other.sync(), 1);
            assertEquals(1, other.sync().clientUnblock(id, UnblockType.TIMEOUT));
            assertNull(await(waiting));
            RedisFuture<KeyValue<byte[], List<ScoredValue<byte[]>>>> erring =
                blocked.async().bzmpop(0.0, 1, ZPopArgs.Builder.min(), key(target, "timeout", "b"));
            waitUntilBlocked(other.sync(), 1);
            assertEquals(1, other.sync().clientUnblock(id, UnblockType.ERROR));
            Exception error = assertThrows(Exception.class, () -> await(erring));
            assertTrue(String.valueOf(error.getMessage()).contains("UNBLOCKED client unblocked via CLIENT UNBLOCK"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void sortReadsPatternsAndStoresOnOtherShards(Target target) throws Exception {
        String prefix = "sort:" + target + ":";
        byte[] list = bytes("{l}" + prefix + "ids");
        byte[] destination = bytes("{d}" + prefix + "out");
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> waiter = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            sync.rpush(list, bytes("1"), bytes("2"), bytes("3"));
            for (int i = 1; i <= 3; i++) {
                sync.set(bytes(prefix + "weight_" + i), bytes(Integer.toString(10 - i)));
                sync.hset(bytes(prefix + "obj_" + i), bytes("name"), bytes("n" + i));
            }
            SortArgs byWeight = SortArgs.Builder.by(prefix + "weight_*").get("#")
                .get(prefix + "obj_*->name");
            assertEquals(List.of("3", "n3", "2", "n2", "1", "n1"), texts(sync.sort(list, byWeight)));
            assertEquals(List.of("1", "n1"), texts(sync.sortReadOnly(list, SortArgs.Builder
                .by(prefix + "weight_*").desc().limit(0, 1).get("#").get(prefix + "obj_*->name"))));
            RedisFuture<KeyValue<byte[], byte[]>> popped = waiter.async().blpop(5, destination);
            waitUntilBlocked(sync, 1);
            assertEquals(6, sync.sortStore(list, byWeight, destination));
            assertEquals("3", text(await(popped).getValue()), "the stored list woke the BLPOP on it");
            assertEquals(Arrays.asList("n3", "2", "n2", "1", "n1"), texts(sync.lrange(destination, 0, -1)));
            assertEquals(0, sync.sortStore(bytes("{x}" + prefix + "none"), SortArgs.Builder.alpha(), destination));
            assertEquals(0, sync.exists(destination), "an empty result deletes the destination");
        }
    }
}
