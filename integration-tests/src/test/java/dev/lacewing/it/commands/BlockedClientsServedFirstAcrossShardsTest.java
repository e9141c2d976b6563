package dev.lacewing.it.commands;

import static dev.lacewing.it.resp.RespClient.bytes;
import static dev.lacewing.it.resp.RespClient.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.keyspace.Slots;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.KeyValue;
import io.lettuce.core.LMPopArgs;
import io.lettuce.core.LMoveArgs;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ZPopArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A blocked client is served before any later command sees what woke it, as Redis serves blocked
 * clients right after the command that pushed, also when its keys live on different shards (of the
 * shared-nothing engine; different lock stripes of the multithread one). Each round, a client blocks
 * (BLMOVE from one shard to the other, or BLPOP, BLMPOP, BZMPOP over keys of both shards), then
 * another connection sends, in one write, the push that wakes it and a pop of the same key: the
 * blocked client must get the element and the pop nothing, and a read of the BLMOVE destination in
 * the same pipeline must see it moved (redis-server 7.0.15 answers so for the same scripts). Rounds
 * are bounded in count and in time.
 */
class BlockedClientsServedFirstAcrossShardsTest {

    private static final int ROUNDS = 200;
    private static final long TIME_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(3);
    /** Rounds a run must reach within its time for the check to mean something. */
    private static final int MINIMUM_ROUNDS = 20;

    /**
     * A key on {@code shard} of the test servers' two shards; with their multithread engine's 8
     * stripes (ranges of slots too), keys of different shards are on different stripes as well.
     */
    private static byte[] keyOnShard(Target target, String name, int shard) {
        for (int i = 0; i < 1000; i++) {
            byte[] key = bytes("served-first:" + target + ":" + name + ":" + i);
            if (Slots.partitionOf(key, 0, key.length, 2) == shard) {
                return key;
            }
        }
        throw new IllegalStateException("no key on shard " + shard);
    }

    private static <T> T await(CompletionStage<T> future) throws Exception {
        return future.toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    /** INFO's blocked_clients reaches {@code count}: the waiters are blocked, in that order. */
    private static void waitUntilBlocked(RedisCommands<byte[], byte[]> sync, int count) throws InterruptedException {
        for (int attempt = 0; attempt < 1000; attempt++) {
            if (sync.info("clients").contains("blocked_clients:" + count + "\r\n")) {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("never saw " + count + " blocked clients");
    }

    /** One round's blocking command, sent by the waiter; its future gives the element it was served. */
    private interface Waiter {
        CompletionStage<String> block(RedisAsyncCommands<byte[], byte[]> waiter);
    }

    /**
     * Runs rounds of: the waiter blocks; the pusher sends, in one write, {@code push} of
     * "element-N" to {@code woken}, a pop of {@code woken} and, when given, {@code check}'s read;
     * the waiter must get the element, the pop nothing.
     */
    private static void roundsOfPushThenPop(Target target, Waiter waiting, boolean sortedSet, byte[] woken,
                                            Function<RedisAsyncCommands<byte[], byte[]>, RedisFuture<List<byte[]>>> check,
                                            byte[]... keys) throws Exception {
        try (StatefulRedisConnection<byte[], byte[]> waiter = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> pusher = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> observer = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = observer.sync();
            sync.del(keys);
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            int round = 0;
            for (; round < ROUNDS && System.nanoTime() < deadline; round++) {
                CompletionStage<String> served = waiting.block(waiter.async());
                waitUntilBlocked(sync, 1);
                String element = "element-" + round;
                RedisAsyncCommands<byte[], byte[]> pipeline = pusher.async();
                pusher.setAutoFlushCommands(false);
                RedisFuture<?> pop;
                if (sortedSet) {
                    pipeline.zadd(woken, round, bytes(element));
                    pop = pipeline.zpopmin(woken);
                } else {
                    pipeline.lpush(woken, bytes(element));
                    pop = pipeline.rpop(woken);
                }
                RedisFuture<List<byte[]>> seen = check == null ? null : check.apply(pipeline);
                pusher.flushCommands();
                pusher.setAutoFlushCommands(true);
                assertEquals(element, await(served), "round " + round + ": the blocked client gets the element");
                Object popped = await(pop);
                assertTrue(popped == null || (popped instanceof ScoredValue<?> scored && !scored.hasValue()),
                    "round " + round + ": the pop behind the push finds nothing, not " + popped);
                if (seen != null) {
                    List<String> texts = new ArrayList<>();
                    await(seen).forEach(value -> texts.add(text(value)));
                    assertEquals(List.of(element), texts, "round " + round + ": moved before the next command");
                }
                sync.del(keys);
            }
            assertTrue(round >= MINIMUM_ROUNDS, "only " + round + " rounds ran");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void blmoveToAnotherShardGetsThePushedElementBeforeAPipelinedPop(Target target) throws Exception {
        byte[] source = keyOnShard(target, "blmove:source", 0);
        byte[] destination = keyOnShard(target, "blmove:destination", 1);
        roundsOfPushThenPop(target,
            waiter -> element(waiter.blmove(source, destination, LMoveArgs.Builder.leftRight(), 5)),
            false, source, pipeline -> pipeline.lrange(destination, 0, -1), source, destination);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void brpoplpushFromAnotherShardGetsThePushedElementBeforeAPipelinedPop(Target target) throws Exception {
        byte[] source = keyOnShard(target, "brpoplpush:source", 1);
        byte[] destination = keyOnShard(target, "brpoplpush:destination", 0);
        roundsOfPushThenPop(target, waiter -> element(waiter.brpoplpush(5, source, destination)),
            false, source, pipeline -> pipeline.lrange(destination, 0, -1), source, destination);
    }

    /**
     * BLMOVE a b waits on shard 0 to move to shard 1, BLMOVE b c on shard 1 to move back to shard 0:
     * LPUSH a serves both within the push (redis-server 7.0.15: both get x, b is empty, c holds x).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aChainOfMovesAcrossShardsIsServedWithinThePush(Target target) throws Exception {
        byte[] a = keyOnShard(target, "chain:a", 0);
        byte[] b = keyOnShard(target, "chain:b", 1);
        byte[] c = keyOnShard(target, "chain:c", 0);
        try (StatefulRedisConnection<byte[], byte[]> first = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> second = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> pusher = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = pusher.sync();
            sync.del(a, b, c);
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            int round = 0;
            for (; round < ROUNDS / 4 && System.nanoTime() < deadline; round++) {
                CompletionStage<String> fromA = element(first.async().blmove(a, b, LMoveArgs.Builder.leftRight(), 5));
                waitUntilBlocked(sync, 1);
                CompletionStage<String> fromB = element(second.async().blmove(b, c, LMoveArgs.Builder.leftRight(), 5));
                waitUntilBlocked(sync, 2);
                String element = "element-" + round;
                RedisAsyncCommands<byte[], byte[]> pipeline = pusher.async();
                pusher.setAutoFlushCommands(false);
                pipeline.lpush(a, bytes(element));
                RedisFuture<List<byte[]>> inB = pipeline.lrange(b, 0, -1);
                RedisFuture<byte[]> fromC = pipeline.rpop(c);
                pusher.flushCommands();
                pusher.setAutoFlushCommands(true);
                assertEquals(element, await(fromA), "round " + round);
                assertEquals(element, await(fromB), "round " + round);
                assertEquals(List.of(), await(inB), "round " + round + ": b passed the element on");
                assertEquals(element, text(await(fromC)), "round " + round + ": c holds it");
                assertEquals(0, sync.exists(a, b, c));
            }
            assertTrue(round >= MINIMUM_ROUNDS, "only " + round + " rounds ran");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void blpopOverKeysOfBothShardsGetsThePushedElementBeforeAPipelinedPop(Target target) throws Exception {
        byte[] first = keyOnShard(target, "blpop:first", 0);
        byte[] second = keyOnShard(target, "blpop:second", 1);
        roundsOfPushThenPop(target, waiter -> popped(waiter.blpop(5, first, second)),
            false, second, null, first, second);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void blmpopOverKeysOfBothShardsGetsThePushedElementBeforeAPipelinedPop(Target target) throws Exception {
        byte[] first = keyOnShard(target, "blmpop:first", 1);
        byte[] second = keyOnShard(target, "blmpop:second", 0);
        roundsOfPushThenPop(target, waiter -> firstPopped(waiter.blmpop(5, LMPopArgs.Builder.left(), first, second)),
            false, second, null, first, second);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void bzmpopOverKeysOfBothShardsGetsTheAddedMemberBeforeAPipelinedPop(Target target) throws Exception {
        byte[] first = keyOnShard(target, "bzmpop:first", 0);
        byte[] second = keyOnShard(target, "bzmpop:second", 1);
        roundsOfPushThenPop(target, waiter -> member(waiter.bzmpop(5, ZPopArgs.Builder.min(), first, second)),
            true, second, null, first, second);
    }

    private static CompletionStage<String> element(RedisFuture<byte[]> future) {
        return future.thenApply(RespClient::text);
    }

    private static CompletionStage<String> popped(RedisFuture<KeyValue<byte[], byte[]>> future) {
        return future.thenApply(served -> served == null ? null : text(served.getValue()));
    }

    private static CompletionStage<String> firstPopped(RedisFuture<KeyValue<byte[], List<byte[]>>> future) {
        return future.thenApply(served -> served == null ? null : text(served.getValue().get(0)));
    }

    private static CompletionStage<String> member(RedisFuture<KeyValue<byte[], ScoredValue<byte[]>>> future) {
        return future.thenApply(served -> served == null ? null : text(served.getValue().getValue()));
    }
}
