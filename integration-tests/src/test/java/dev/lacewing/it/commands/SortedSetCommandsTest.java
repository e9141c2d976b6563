package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScoredValueScanCursor;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.ZAggregateArgs;
import io.lettuce.core.ZPopArgs;
import io.lettuce.core.ZStoreArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sorted-set family through lettuce on every engine and transport: both encodings, random
 * replies, ZSCAN's completeness over the large form, and multi-key commands over keys of
 * different shards (hash tags), ZUNIONSTORE's atomicity among them. Loops are bounded.
 */
class SortedSetCommandsTest {

    private static String key(Target target, String name) {
        return "zset:" + target + ":" + name;
    }

    /** A key with its own hash tag, so that keys of different tags spread over the shards. */
    private static String tagged(Target target, String tag, String name) {
        return "{" + tag + "}zset:" + target + ":" + name;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void addRangeScoreAndRankOnASmallSet(Target target) {
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> redis = connection.sync();
            String z = key(target, "small");
            assertEquals(3, redis.zadd(z, ScoredValue.just(1, "a"), ScoredValue.just(2.5, "b"), ScoredValue.just(-1, "c")));
            assertEquals(List.of("c", "a", "b"), redis.zrange(z, 0, -1));
            assertEquals(List.of(ScoredValue.just(2.5, "b"), ScoredValue.just(1, "a")), redis.zrevrangeWithScores(z, 0, 1));
            assertEquals(2.5, redis.zscore(z, "b"));
            assertNull(redis.zscore(z, "nope"));
            assertEquals(1L, redis.zrank(z, "a"));
            assertEquals(0L, redis.zrevrank(z, "b"));
            assertEquals(1L, redis.zadd(z, ZAddArgs.Builder.ch().gt(), 5, "a"));
            assertEquals(6.0, redis.zincrby(z, 1, "a"));
            assertEquals(List.of("b", "a"), redis.zrangebyscore(z, Range.create(0, 10)));
            assertEquals(2L, redis.zcount(z, Range.create(0, 10)));
            assertEquals(1L, redis.zrem(z, "c"));
            assertEquals(2L, redis.zcard(z));
            assertEquals(List.of(ScoredValue.just(2.5, "b")), redis.zpopmin(z, 1));
            assertEquals(ScoredValue.just(6, "a"), redis.zpopmax(z));
            assertEquals(0L, redis.exists(z));
            redis.set(z, "string");
            assertThrows(RedisCommandExecutionException.class, () -> redis.zadd(z, 1, "a"));
            redis.del(z);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aLargeSetAnswersRanksRangesAndScansLikeASmallOne(Target target) {
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> redis = connection.sync();
            String z = key(target, "large");
            int members = 2000;
            List<ScoredValue<String>> values = new ArrayList<>();
            for (int i = 0; i < members; i++) {
                values.add(ScoredValue.just(i % 100, String.format("m%05d", i)));
            }
            assertEquals(members, redis.zadd(z, values.toArray(ScoredValue[]::new)));
            assertEquals(members, redis.zcard(z));
            // Each score 0..99 has 20 members; m00007 is the first of score 7.
            assertEquals(7 * 20L, redis.zrank(z, "m00007"));
            assertEquals(members - 1 - 7 * 20L, redis.zrevrank(z, "m00007"));
            assertEquals(List.of("m00050", "m00150"), redis.zrangebyscore(z, Range.create(50, 50), Limit.create(0, 2)));
            assertEquals(20L, redis.zcount(z, Range.create(99, 99)));
            assertEquals(200L, redis.zremrangebyscore(z, Range.create(0, 9)));
            assertEquals(List.of("m00010"), redis.zrange(z, 0, 0));
            Set<String> scanned = new HashSet<>();
            ScanCursor cursor = ScanCursor.INITIAL;
            for (int step = 0; step < 100_000 && !cursor.isFinished(); step++) {
                ScoredValueScanCursor<String> page = redis.zscan(z, cursor);
                page.getValues().forEach(value -> scanned.add(value.getValue()));
                cursor = page;
            }
            assertEquals(members - 200, scanned.size());
            List<String> distinct = redis.zrandmember(z, 500);
            assertEquals(500, new HashSet<>(distinct).size());
            assertEquals(700, redis.zrandmember(z, -700).size());
            redis.del(z);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void setOperationsAndZmpopSpanShards(Target target) {
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> redis = connection.sync();
            String a = tagged(target, "a", "a");
            String b = tagged(target, "b", "b");
            String c = tagged(target, "c", "c");
            String destination = tagged(target, "d", "dst");
            redis.zadd(a, ScoredValue.just(1, "x"), ScoredValue.just(2, "y"));
            redis.zadd(b, ScoredValue.just(10, "y"), ScoredValue.just(20, "z"));
            redis.zadd(c, ScoredValue.just(5, "y"));
            assertEquals(3L, redis.zunionstore(destination, a, b, c));
            assertEquals(List.of(ScoredValue.just(1, "x"), ScoredValue.just(17, "y"), ScoredValue.just(20, "z")),
                redis.zrangeWithScores(destination, 0, -1));
            assertEquals(1L, redis.zinterstore(destination, ZStoreArgs.Builder.max(), a, b, c));
            assertEquals(List.of(ScoredValue.just(10, "y")), redis.zrangeWithScores(destination, 0, -1));
            assertEquals(List.of("x"), redis.zdiff(a, b));
            assertEquals(List.of(ScoredValue.just(2, "y")), redis.zinterWithScores(ZAggregateArgs.Builder.min(), a, b));
            assertEquals(1L, redis.zintercard(a, b, c));
            assertEquals(1L, redis.zdiffstore(destination, b, a));
            assertEquals("b", redis.zmpop(ZPopArgs.Builder.max(), tagged(target, "e", "none"), b)
                .getKey().substring(1, 2));
            redis.del(a, b, c, destination);
        }
    }

    /**
     * Two clients each run ZUNIONSTORE acc 5 acc inc1..inc4 (SUM) many times, the inputs on
     * different shards: each run adds 4 to every member of acc. A run that read acc, lost the
     * race and wrote back an old sum would leave less than 4 per run; readers never see the members'
     * scores apart, which a half-written result would show.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void zunionstoreAcrossShardsLosesNoUpdate(Target target) throws Exception {
        String accumulator = tagged(target, "t0", "acc");
        String[] sources = new String[5];
        sources[0] = accumulator;
        for (int i = 1; i <= 4; i++) {
            sources[i] = tagged(target, "t" + i, "inc");
        }
        int rounds = 150;
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (StatefulRedisConnection<String, String> setup = Servers.client(target).connect();
             StatefulRedisConnection<String, String> first = Servers.client(target).connect();
             StatefulRedisConnection<String, String> second = Servers.client(target).connect();
             StatefulRedisConnection<String, String> reader = Servers.client(target).connect()) {
            for (int i = 1; i <= 4; i++) {
                setup.sync().zadd(sources[i], ScoredValue.just(1, "p"), ScoredValue.just(1, "q"), ScoredValue.just(1, "r"));
            }
            setup.sync().zadd(accumulator, ScoredValue.just(0, "p"), ScoredValue.just(0, "q"), ScoredValue.just(0, "r"));
            List<Future<?>> writers = new ArrayList<>();
            for (StatefulRedisConnection<String, String> writer : List.of(first, second)) {
                writers.add(pool.submit(() -> {
                    for (int round = 0; round < rounds; round++) {
                        writer.sync().zunionstore(accumulator, sources);
                    }
                    return null;
                }));
            }
            Future<Integer> reads = pool.submit(() -> {
                int checked = 0;
                while (checked < 2000 && !(writers.get(0).isDone() && writers.get(1).isDone())) {
                    List<ScoredValue<String>> scores = reader.sync().zrangeWithScores(accumulator, 0, -1);
                    assertEquals(3, scores.size());
                    assertEquals(scores.get(0).getScore(), scores.get(2).getScore(), "a torn ZUNIONSTORE: " + scores);
                    checked++;
                }
                return checked;
            });
            for (Future<?> writer : writers) {
                writer.get(60, TimeUnit.SECONDS);
            }
            assertTrue(reads.get(60, TimeUnit.SECONDS) >= 0);
            assertEquals(2.0 * rounds * 4, setup.sync().zscore(accumulator, "q"));
            setup.sync().del(sources);
        } finally {
            pool.shutdownNow();
        }
    }
}
