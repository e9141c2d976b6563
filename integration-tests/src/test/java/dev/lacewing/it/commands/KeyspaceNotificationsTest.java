package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Keyspace notifications through lettuce's pub/sub (RESP3 pushes), on every engine and transport,
 * each test on a dedicated server so that no other test's keys publish: the setting as CONFIG SET
 * and GET see it (Redis 7.0's parsing, normal form and error), the events of every family on the
 * keyspace and keyevent channels, events that come from no command (expiry, lazy and active, and
 * eviction), a transaction's events in command order, subscribers on every worker, nothing while
 * the setting is empty, and the "Egx" Spring Session sets at start.
 * The exact sequences of many more commands are compared with redis-server's in
 * NotificationReferenceTest.
 */
class KeyspaceNotificationsTest {

    private static final String SENTINEL = "__keyevent@0__:end";

    /** A dedicated server, a lettuce client and a command connection to it. */
    private static void withServer(Target target, Map<String, String> settings,
                                   ServerTest body) throws Exception {
        LacewingServer.Builder builder = Servers.builder(target);
        settings.forEach(builder::set);
        try (LacewingServer server = builder.start()) {
            RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(server.port())
                .withTimeout(Duration.ofSeconds(10)).build());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                body.run(client, connection.sync());
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @FunctionalInterface
    private interface ServerTest {
        void run(RedisClient client, RedisCommands<String, String> redis) throws Exception;
    }

    /** A lettuce subscriber to both notification channels of database 0, collecting "channel message". */
    private static final class Subscriber implements AutoCloseable {

        private final StatefulRedisPubSubConnection<String, String> connection;
        private final BlockingQueue<String> received = new LinkedBlockingQueue<>();

        Subscriber(RedisClient client) {
            connection = client.connectPubSub();
            connection.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String pattern, String channel, String message) {
                    received.add(channel + " " + message);
                }
            });
            connection.sync().psubscribe("__keyevent@0__:*", "__keyspace@0__:*");
        }

        /** Everything received until the sentinel {@code redis} publishes now. */
        List<String> drain(RedisCommands<String, String> redis) throws InterruptedException {
            redis.publish(SENTINEL, "end");
            List<String> events = new ArrayList<>();
            while (true) {
                String event = received.poll(10, TimeUnit.SECONDS);
                assertNotNull(event, "the sentinel did not arrive; so far " + events);
                if (event.equals(SENTINEL + " end")) {
                    return events;
                }
                events.add(event);
            }
        }

        /** The next event on {@code channel}, waiting at most 10 s, skipping others. */
        String next(String channel) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline) {
                String event = received.poll(100, TimeUnit.MILLISECONDS);
                if (event != null && event.startsWith(channel + " ")) {
                    return event.substring(channel.length() + 1);
                }
            }
            return null;
        }

        @Override
        public void close() {
            connection.close();
        }
    }

    /** Each event as Redis publishes it: the keyspace channel first, then the keyevent one. */
    private static List<String> both(String... eventAndKey) {
        List<String> events = new ArrayList<>();
        for (int i = 0; i < eventAndKey.length; i += 2) {
            events.add("__keyspace@0__:" + eventAndKey[i + 1] + " " + eventAndKey[i]);
            events.add("__keyevent@0__:" + eventAndKey[i] + " " + eventAndKey[i + 1]);
        }
        return events;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void configSetReadsBackInRedisFormAndRefusesUnknownClasses(Target target) throws Exception {
        withServer(target, Map.of(), (client, redis) -> {
            assertEquals("", redis.configGet("notify-keyspace-events").get("notify-keyspace-events"));
            String[][] cases = {{"KEA", "AKE"}, {"Egx", "gxE"}, {"A", "A"}, {"KA", "AK"}, {"n", "n"}, {"Kn", "nK"},
                {"AKEmnd", "AKEm"}, {"g$lshzxet", "A"}, {"x$g", "g$x"}, {"EK", "KE"}, {"gd", "gd"}, {"Em", "Em"},
                {"", ""}};
            for (String[] example : cases) {
                assertEquals("OK", redis.configSet("notify-keyspace-events", example[0]));
                assertEquals(example[1], redis.configGet("notify-keyspace-events").get("notify-keyspace-events"),
                    example[0]);
            }
            redis.configSet("notify-keyspace-events", "Kl");
            RedisCommandExecutionException refused = assertThrows(RedisCommandExecutionException.class,
                () -> redis.configSet("notify-keyspace-events", "gX"));
            assertEquals("ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid "
                + "event class character. Use 'Ag$lshzxeKEtmdn'.", refused.getMessage());
            assertEquals("lK", redis.configGet("notify-keyspace-events").get("notify-keyspace-events"));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theStartupSettingIsReadAndNothingIsPublishedWhileItIsEmpty(Target target) throws Exception {
        withServer(target, Map.of("notify-keyspace-events", "KEA"), (client, redis) -> {
            assertEquals("AKE", redis.configGet("notify-keyspace-events").get("notify-keyspace-events"));
            try (Subscriber subscriber = new Subscriber(client)) {
                redis.set("on", "v");
                assertEquals(both("set", "on"), subscriber.drain(redis));
                redis.configSet("notify-keyspace-events", "");
                redis.set("off", "v");
                redis.del("off", "on");
                redis.lpush("off-list", "a");
                assertEquals(List.of(), subscriber.drain(redis));
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void everyFamilyPublishesOnTheKeyspaceAndKeyeventChannels(Target target) throws Exception {
        withServer(target, Map.of("notify-keyspace-events", "KEA"), (client, redis) -> {
            try (Subscriber subscriber = new Subscriber(client)) {
                redis.set("s", "1");
                redis.incrby("s", 2);
                redis.append("s", "x");
                redis.rpush("l", "a", "b");
                redis.lpop("l");
                redis.hset("h", "f", "v");
                redis.hdel("h", "f");
                redis.sadd("st", "a");
                redis.srem("st", "a");
                redis.zadd("z", 1, "a");
                redis.zincrby("z", 1, "a");
                redis.setbit("b", 3, 1);
                redis.pfadd("hll", "a");
                redis.expire("s", 100);
                redis.persist("s");
                redis.rename("s", "s2");
                redis.restore("l2", 0, redis.dump("l"));
                redis.del("s2", "z");
                assertEquals(both("set", "s", "incrby", "s", "append", "s", "rpush", "l", "lpop", "l", "hset", "h",
                    "hdel", "h", "del", "h", "sadd", "st", "srem", "st", "del", "st", "zadd", "z", "zincr", "z",
                    "setbit", "b", "pfadd", "hll", "expire", "s", "persist", "s", "rename_from", "s", "rename_to", "s2",
                    "restore", "l2", "del", "s2", "del", "z"), subscriber.drain(redis));
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void classesAndChannelsAreChosenByTheFlags(Target target) throws Exception {
        withServer(target, Map.of(), (client, redis) -> {
            try (Subscriber subscriber = new Subscriber(client)) {
                // What Spring Session sends at start: generic and expired events, keyevent channel only.
                assertEquals("OK", redis.configSet("notify-keyspace-events", "Egx"));
                redis.set("spring", "v", SetArgs.Builder.ex(100));
                redis.lpush("spring-list", "a");
                redis.del("spring");
                assertEquals(List.of("__keyevent@0__:expire spring", "__keyevent@0__:del spring"),
                    subscriber.drain(redis));
                redis.configSet("notify-keyspace-events", "Kl");
                redis.set("kl", "v");
                redis.rpush("kl-list", "a");
                assertEquals(List.of("__keyspace@0__:kl-list rpush"), subscriber.drain(redis));
                redis.configSet("notify-keyspace-events", "KEn");
                redis.set("fresh", "v");
                redis.set("fresh", "w");
                redis.rpush("fresh-list", "a");
                assertEquals(both("new", "fresh", "new", "fresh-list"), subscriber.drain(redis));
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void keysThatExpireLazilyOrActivelyPublishExpired(Target target) throws Exception {
        withServer(target, Map.of("notify-keyspace-events", "Ex", "hz", "100"), (client, redis) -> {
            try (Subscriber subscriber = new Subscriber(client)) {
                redis.set("active", "v", SetArgs.Builder.px(20));
                assertEquals("active", subscriber.next("__keyevent@0__:expired"), "active expiry");
                redis.configSet("hz", "1");
                redis.set("lazy", "v", SetArgs.Builder.px(1));
                Thread.sleep(5);
                assertEquals(null, redis.get("lazy"));
                assertEquals("lazy", subscriber.next("__keyevent@0__:expired"), "lazy expiry");
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void keysEvictedOverMaxmemoryPublishEvicted(Target target) throws Exception {
        withServer(target, Map.of("notify-keyspace-events", "Ee", "maxmemory-policy", "allkeys-random"),
            (client, redis) -> {
                // 200 KB of keys, so that the limit 50 KB under it leaves the clients' buffers (the
                // subscriber's, the last SET's) as noise: 200 keys, or about 2,000 on a tiered
                // target, whose values are on disk and whose memory is RAM only.
                String value = "x".repeat(1000);
                int written = 0;
                while (written < 5_000 && field(redis.info("memory"), "lacewing_used_memory_keyspace") < 200_000) {
                    for (int end = written + 100; written < end; written++) {
                        redis.set("evict-" + written, value);
                    }
                }
                long used = field(redis.info("memory"), "used_memory");
                try (Subscriber subscriber = new Subscriber(client)) {
                    redis.configSet("maxmemory", Long.toString(used - 50_000));
                    redis.set("evict-last", value);
                    String evicted = subscriber.next("__keyevent@0__:evicted");
                    assertNotNull(evicted, "no evicted event");
                    assertTrue(evicted.startsWith("evict-"), evicted);
                    redis.configSet("maxmemory", "0");
                }
            });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aTransactionPublishesInCommandOrderToSubscribersOnEveryWorker(Target target) throws Exception {
        withServer(target, Map.of("notify-keyspace-events", "KEA"), (client, redis) -> {
            List<Subscriber> subscribers = new ArrayList<>();
            try {
                // Connections are spread over the two workers: four subscribers land on both.
                for (int i = 0; i < 4; i++) {
                    subscribers.add(new Subscriber(client));
                }
                redis.multi();
                redis.set("tx-a", "1");
                redis.lpush("tx-b", "x");
                redis.sadd("tx-c", "m");
                redis.del("tx-a", "tx-b");
                redis.incr("tx-a");
                redis.exec();
                redis.mset(Map.of("tx-d", "1"));
                redis.del("tx-c", "tx-d", "tx-a");
                List<String> expected = both("set", "tx-a", "lpush", "tx-b", "sadd", "tx-c", "del", "tx-a", "del", "tx-b",
                    "incrby", "tx-a", "set", "tx-d", "del", "tx-c", "del", "tx-d", "del", "tx-a");
                for (Subscriber subscriber : subscribers) {
                    assertEquals(expected, subscriber.drain(redis));
                }
            } finally {
                subscribers.forEach(Subscriber::close);
            }
        });
    }

    private static long field(String info, String name) {
        return Long.parseLong(info.lines().filter(line -> line.startsWith(name + ":")).findFirst().orElseThrow()
            .substring(name.length() + 1).strip());
    }
}
