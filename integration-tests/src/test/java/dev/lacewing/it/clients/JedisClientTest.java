package dev.lacewing.it.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.resps.Tuple;

/**
 * Jedis 8 as an application uses it, on every engine and transport and on redis-server 7.0:
 * transactions, WATCH, pipelines, pub/sub, and the pooled {@link RedisClient} (Jedis 8's name for
 * what was JedisPooled) from one thread and from eight. Keys sit on both shards; loops are bounded
 * in count and every wait in time.
 */
class JedisClientTest {

    private static final JedisClientConfig CONFIG = DefaultJedisClientConfig.builder()
        .socketTimeoutMillis(10_000).connectionTimeoutMillis(10_000).build();
    private static final long WAIT_SECONDS = 20;

    private static Jedis connect(ClientTarget target) {
        return new Jedis("127.0.0.1", target.port(), CONFIG);
    }

    private static RedisClient pooled(ClientTarget target, int connections) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(connections);
        pool.setMaxWait(Duration.ofSeconds(WAIT_SECONDS));
        return RedisClient.builder().hostAndPort("127.0.0.1", target.port()).clientConfig(CONFIG).poolConfig(pool)
            .build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void multiExecRepliesInQueueOrderWithRuntimeErrorsInPlaceAndDiscardDropsTheQueue(ClientTarget target) {
        String a = target.key("jedis", "multi:a", 0);
        String b = target.key("jedis", "multi:b", 1);
        try (Jedis jedis = connect(target)) {
            jedis.del(a, b);
            Transaction transaction = jedis.multi();
            Response<String> set = transaction.set(a, "1");
            Response<Long> incremented = transaction.incr(a);
            transaction.set(b, "x");
            Response<List<String>> both = transaction.mget(a, b);
            assertEquals(List.of("OK", 2L, "OK", List.of("2", "x")), transaction.exec());
            assertEquals("OK", set.get());
            assertEquals(2L, incremented.get());
            assertEquals(List.of("2", "x"), both.get());

            transaction = jedis.multi();
            transaction.set(a, "v");
            transaction.lpush(a, "x");
            transaction.get(a);
            List<Object> mixed = transaction.exec();
            assertEquals("OK", mixed.get(0));
            assertEquals("WRONGTYPE Operation against a key holding the wrong kind of value",
                assertInstanceOf(JedisDataException.class, mixed.get(1)).getMessage());
            assertEquals("v", mixed.get(2));

            transaction = jedis.multi();
            transaction.set(a, "discarded");
            assertEquals("OK", transaction.discard());
            assertEquals("v", jedis.get(a));
            jedis.del(a, b);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void watchedKeyChangedByAnotherClientMakesExecReturnNull(ClientTarget target) {
        String a = target.key("jedis", "watch:a", 0);
        String b = target.key("jedis", "watch:b", 1);
        try (Jedis jedis = connect(target); Jedis other = connect(target)) {
            jedis.del(a, b);
            jedis.set(a, "1");
            assertEquals("OK", jedis.watch(a, b));
            long seen = Long.parseLong(jedis.get(a));
            other.set(b, "changed");
            Transaction transaction = jedis.multi();
            transaction.set(a, Long.toString(seen + 1));
            assertNull(transaction.exec());
            assertEquals("1", jedis.get(a));

            jedis.watch(a);
            transaction = jedis.multi();
            transaction.incr(a);
            assertEquals(List.of(2L), transaction.exec());
            jedis.del(a, b);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void thousandPipelinedCommandsOverKeysOnEveryShardReplyInOrder(ClientTarget target) {
        String prefix = target.key("jedis", "pipeline", 0);
        int keys = 250;
        try (Jedis jedis = connect(target)) {
            Pipeline pipeline = jedis.pipelined();
            List<Response<?>> responses = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                String key = prefix + ":" + i;
                responses.add(pipeline.set(key, "v" + i));
                responses.add(pipeline.get(key));
                responses.add(pipeline.incr(key + ":n"));
                responses.add(pipeline.del(key + ":n"));
            }
            pipeline.sync();
            assertEquals(1000, responses.size());
            for (int i = 0; i < keys; i++) {
                List<Object> replies = new ArrayList<>();
                for (Response<?> response : responses.subList(4 * i, 4 * i + 4)) {
                    replies.add(response.get());
                }
                assertEquals(List.of("OK", "v" + i, 1L, 1L), replies, "key " + i);
            }
            String[] written = new String[keys];
            for (int i = 0; i < keys; i++) {
                written[i] = prefix + ":" + i;
            }
            assertEquals(keys, jedis.del(written));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void subscribeAndPsubscribeOnOneClientReceiveAnotherClientsMessagesInPublishOrder(ClientTarget target)
        throws Exception {
        String prefix = target.key("jedis", "pubsub", 0);
        String channel = prefix + ":channel";
        String pattern = prefix + ":*";
        int messages = 500;
        List<String> received = new CopyOnWriteArrayList<>();
        List<String> receivedByPattern = new CopyOnWriteArrayList<>();
        CountDownLatch subscribed = new CountDownLatch(1);
        CountDownLatch patternSubscribed = new CountDownLatch(1);
        CountDownLatch all = new CountDownLatch(2 * messages);
        JedisPubSub listener = new JedisPubSub() {
            @Override
            public void onSubscribe(String name, int subscriptions) {
                subscribed.countDown();
            }

            @Override
            public void onPSubscribe(String name, int subscriptions) {
                patternSubscribed.countDown();
            }

            @Override
            public void onMessage(String from, String message) {
                received.add(from + " " + message);
                all.countDown();
            }

            @Override
            public void onPMessage(String matched, String from, String message) {
                receivedByPattern.add(matched + " " + from + " " + message);
                all.countDown();
            }
        };
        ExecutorService subscriberThread = Executors.newSingleThreadExecutor();
        try (Jedis subscriber = connect(target); Jedis publisher = connect(target)) {
            Future<?> subscription = subscriberThread.submit(() -> subscriber.subscribe(listener, channel));
            assertTrue(subscribed.await(WAIT_SECONDS, TimeUnit.SECONDS), "subscribed");
            listener.psubscribe(pattern);
            assertTrue(patternSubscribed.await(WAIT_SECONDS, TimeUnit.SECONDS), "subscribed to the pattern");
            assertEquals(Map.of(channel, 1L), publisher.pubsubNumSub(channel));

            for (int i = 0; i < messages; i++) {
                assertEquals(2, publisher.publish(channel, "m" + i), "the channel and the pattern");
            }
            assertTrue(all.await(WAIT_SECONDS, TimeUnit.SECONDS), "every message arrives");
            List<String> expected = new ArrayList<>();
            List<String> expectedByPattern = new ArrayList<>();
            for (int i = 0; i < messages; i++) {
                expected.add(channel + " m" + i);
                expectedByPattern.add(pattern + " " + channel + " m" + i);
            }
            assertEquals(expected, received);
            assertEquals(expectedByPattern, receivedByPattern);

            listener.unsubscribe();
            listener.punsubscribe();
            subscription.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertEquals(0, listener.getSubscribedChannels());
            assertEquals(0, publisher.publish(channel, "nobody"));
        } finally {
            subscriberThread.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void pooledClientRoundTripsStringsHashesListsSetsAndSortedSets(ClientTarget target) {
        String string = target.key("jedis", "pooled:string", 0);
        String hash = target.key("jedis", "pooled:hash", 1);
        String list = target.key("jedis", "pooled:list", 0);
        String set = target.key("jedis", "pooled:set", 1);
        String otherSet = target.key("jedis", "pooled:set2", 0);
        String sortedSet = target.key("jedis", "pooled:zset", 1);
        try (RedisClient redis = pooled(target, 4)) {
            redis.del(string, hash, list, set, otherSet, sortedSet);

            assertEquals("OK", redis.set(string, "10"));
            assertEquals(15, redis.incrBy(string, 5));
            assertEquals(4, redis.append(string, "!!"));
            assertEquals("15!!", redis.get(string));
            assertEquals(Arrays.asList("15!!", null), redis.mget(string, string + ":missing"));

            assertEquals(2, redis.hset(hash, Map.of("field", "1", "other", "2")));
            assertEquals(Map.of("field", "1", "other", "2"), redis.hgetAll(hash));
            assertEquals(3, redis.hincrBy(hash, "field", 2));
            assertEquals(Arrays.asList("3", null), redis.hmget(hash, "field", "missing"));

            assertEquals(3, redis.rpush(list, "a", "b", "c"));
            assertEquals(4, redis.lpush(list, "z"));
            assertEquals(List.of("z", "a", "b", "c"), redis.lrange(list, 0, -1));
            assertEquals("c", redis.rpop(list));

            assertEquals(3, redis.sadd(set, "x", "y", "z"));
            assertEquals(2, redis.sadd(otherSet, "y", "q"));
            assertEquals(Set.of("x", "y", "z"), redis.smembers(set));
            assertEquals(Set.of("y"), redis.sinter(set, otherSet));
            assertTrue(redis.sismember(set, "x"));

            assertEquals(3, redis.zadd(sortedSet, Map.of("one", 1.0, "two", 2.0, "half", 0.5)));
            assertEquals(List.of(new Tuple("half", 0.5), new Tuple("one", 1.0), new Tuple("two", 2.0)),
                redis.zrangeWithScores(sortedSet, 0, -1));
            assertEquals(2.0, redis.zscore(sortedSet, "two"));
            assertEquals(3.5, redis.zincrby(sortedSet, 2.5, "one"));
            assertEquals(List.of("one", "two"), redis.zrevrangeByScore(sortedSet, "+inf", "1"));

            assertEquals(6, redis.del(string, hash, list, set, otherSet, sortedSet));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void pooledClientServesEightThreadsAtOnce(ClientTarget target) throws Exception {
        int threads = 8;
        int rounds = 300;
        String counter = target.key("jedis", "pool:counter", 0);
        ExecutorService workers = Executors.newFixedThreadPool(threads);
        try (RedisClient redis = pooled(target, threads)) {
            redis.del(counter);
            AtomicInteger started = new AtomicInteger();
            List<Future<String>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String own = target.key("jedis", "pool:thread" + t, t % 2);
                results.add(workers.submit(() -> {
                    started.incrementAndGet();
                    redis.del(own);
                    for (int i = 0; i < rounds; i++) {
                        redis.incr(counter);
                        redis.set(own, Integer.toString(i));
                        assertEquals(Integer.toString(i), redis.get(own));
                        redis.rpush(own + ":list", Integer.toString(i));
                    }
                    assertEquals(rounds, redis.llen(own + ":list"));
                    redis.del(own, own + ":list");
                    return own;
                }));
            }
            for (Future<String> result : results) {
                result.get(60, TimeUnit.SECONDS);
            }
            assertEquals(threads, started.get());
            assertEquals(Integer.toString(threads * rounds), redis.get(counter));
            assertTrue(redis.getPool().getCreatedCount() <= threads, "the pool opens at most its size");
            assertEquals(0, redis.getPool().getNumActive(), "every connection went back to the pool");
            redis.del(counter);
        } finally {
            workers.shutdownNow();
        }
    }
}
