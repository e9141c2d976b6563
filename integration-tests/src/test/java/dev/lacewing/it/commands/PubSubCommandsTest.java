package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pub/sub over real sockets: Redis 7.0's confirmations, messages and PUBSUB replies (checked
 * against redis-server 7.0.15), RESP2's subscribed context, RESP3 pushes among replies, delivery
 * across workers in publish order, lettuce's pub/sub API, and the pubsub output buffer limit.
 */
class PubSubCommandsTest {

    private static final String NOT_ALLOWED = "only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are "
        + "allowed in this context";

    private static int port(Target target) {
        return Servers.server(target).port();
    }

    private static String confirmation(String type, String name, int count) {
        return "*3\r\n$" + type.length() + "\r\n" + type + "\r\n$" + name.length() + "\r\n" + name + "\r\n:" + count
            + "\r\n";
    }

    private static String message(char type, String channel, String payload) {
        return type + "3\r\n$7\r\nmessage\r\n$" + channel.length() + "\r\n" + channel + "\r\n$" + payload.length()
            + "\r\n" + payload + "\r\n";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void subscribedResp2ClientsRunOnlyTheSubscribeCommandsPingQuitAndReset(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            client.send("*4\r\n$9\r\nsubscribe\r\n$3\r\nrs1\r\n$3\r\nrs2\r\n$3\r\nrs1\r\n");
            assertEquals(confirmation("subscribe", "rs1", 1), client.readReplyText());
            assertEquals(confirmation("subscribe", "rs2", 2), client.readReplyText());
            assertEquals(confirmation("subscribe", "rs1", 2), client.readReplyText());
            assertEquals("-ERR Can't execute 'get': " + NOT_ALLOWED + "\r\n", client.call("GET", "x"));
            assertEquals("-ERR Can't execute 'client|info': " + NOT_ALLOWED + "\r\n", client.call("CLIENT", "INFO"));
            assertEquals("-ERR wrong number of arguments for 'get' command\r\n", client.call("GET"));
            assertEquals("-ERR unknown subcommand 'FOO'. Try CLIENT HELP.\r\n", client.call("CLIENT", "FOO"));
            assertEquals("*2\r\n$4\r\npong\r\n$0\r\n\r\n", client.call("PING"));
            assertEquals("*2\r\n$4\r\npong\r\n$2\r\nhi\r\n", client.call("PING", "hi"));
            assertEquals(confirmation("psubscribe", "r*", 3), client.call("PSUBSCRIBE", "r*"));
            assertEquals(confirmation("ssubscribe", "rs3", 1), client.call("SSUBSCRIBE", "rs3"));
            client.send("*1\r\n$11\r\nunsubscribe\r\n");
            String first = client.readReplyText();
            String second = client.readReplyText();
            assertTrue(first.equals(confirmation("unsubscribe", "rs1", 2)) && second.equals(
                confirmation("unsubscribe", "rs2", 1)), first + second);
            assertEquals("*3\r\n$11\r\nunsubscribe\r\n$-1\r\n:1\r\n", client.call("UNSUBSCRIBE"));
            assertEquals(confirmation("punsubscribe", "r*", 0), client.call("PUNSUBSCRIBE"));
            assertEquals("-ERR Can't execute 'get': " + NOT_ALLOWED + "\r\n", client.call("GET", "x"),
                "still subscribed to a shard channel");
            assertEquals(confirmation("sunsubscribe", "rs3", 0), client.call("SUNSUBSCRIBE", "rs3"));
            assertEquals("+PONG\r\n", client.call("PING"));
            assertEquals("$-1\r\n", client.call("GET", "pubsub-absent"));
        }
    }

    /**
     * A pipeline of PING and SET, read at once by a RESP3 client subscribed to its own keyspace
     * notifications: each SET's push comes after the PONG before it, as Redis writes one ordered
     * output per client. Under shared-nothing the SETs of keys of other shards run away from the
     * connection while the PONG still waits to be flushed, and the push must not overtake it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aPushNeverOvertakesAReplyWrittenBeforeIt(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).set("notify-keyspace-events", "K$").start();
             RespClient client = RespClient.connect(server.port())) {
            client.call("HELLO", "3");
            assertEquals(">3\r\n$10\r\npsubscribe\r\n$16\r\n__keyspace@0__:*\r\n:1\r\n",
                client.call("PSUBSCRIBE", "__keyspace@0__:*"));
            StringBuilder pipeline = new StringBuilder();
            StringBuilder expected = new StringBuilder();
            int pairs = 32;
            for (int i = 0; i < pairs; i++) {
                String channel = "__keyspace@0__:order:" + i;
                pipeline.append(RespClient.text(RespClient.encode(RespClient.toBytes("PING"))))
                    .append(RespClient.text(RespClient.encode(RespClient.toBytes("SET", "order:" + i, "v"))));
                expected.append("+PONG\r\n>4\r\n$8\r\npmessage\r\n$16\r\n__keyspace@0__:*\r\n$")
                    .append(channel.length()).append("\r\n").append(channel).append("\r\n$3\r\nset\r\n+OK\r\n");
            }
            client.send(pipeline.toString());
            StringBuilder received = new StringBuilder();
            for (int i = 0; i < pairs * 3; i++) {
                received.append(client.readReplyText());
            }
            assertEquals(expected.toString(), received.toString());
        }
    }

    /**
     * Under appendfsync always a reply waits for its AOF entry to be written; a message pushed
     * meanwhile to a client that is blocked (BLPOP) or postponed (CLIENT PAUSE) behind that reply
     * comes after it, as in Redis's one output buffer. A large value keeps the entry unwritten
     * while the message is published; a few rounds, each checked.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aPushNeverOvertakesRepliesHeldForTheAof(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).set("dir", Servers.freshDirectory().toString())
                 .set("appendonly", "yes").set("appendfsync", "always").set("save", "").start();
             RespClient subscriber = RespClient.connect(server.port());
             RespClient other = RespClient.connect(server.port())) {
            subscriber.call("HELLO", "3");
            subscriber.call("SUBSCRIBE", "held");
            String message = ">3\r\n$7\r\nmessage\r\n$4\r\nheld\r\n$2\r\nhi\r\n";
            String value = "v".repeat(16 << 20);
            for (int round = 0; round < 3; round++) {
                subscriber.send(RespClient.encode(RespClient.toBytes("SET", "held:big", value)));
                subscriber.send(RespClient.encode(RespClient.toBytes("BLPOP", "held:list", "0")));
                awaitInfo(other, "blocked_clients:1");
                assertEquals(":1\r\n", other.call("PUBLISH", "held", "hi"));
                assertEquals(":1\r\n", other.call("LPUSH", "held:list", "x"));
                assertEquals("+OK\r\n", subscriber.readReplyText(), "round " + round);
                assertEquals(message, subscriber.readReplyText(), "round " + round);
                assertEquals("*2\r\n$9\r\nheld:list\r\n$1\r\nx\r\n", subscriber.readReplyText());

                subscriber.send(RespClient.encode(RespClient.toBytes("SET", "held:big", value)));
                subscriber.send(RespClient.encode(RespClient.toBytes("CLIENT", "PAUSE", "10000", "WRITE")));
                subscriber.send(RespClient.encode(RespClient.toBytes("SET", "held:after", "1")));
                awaitClientList(other, "cmd=client|pause");
                assertEquals(":1\r\n", other.call("PUBLISH", "held", "hi"));
                assertEquals("+OK\r\n", other.call("CLIENT", "UNPAUSE"));
                assertEquals("+OK\r\n", subscriber.readReplyText(), "round " + round);
                assertEquals("+OK\r\n", subscriber.readReplyText(), "round " + round);
                assertEquals(message, subscriber.readReplyText(), "round " + round);
                assertEquals("+OK\r\n", subscriber.readReplyText());
            }
        }
    }

    /** Polls CLIENT LIST until it shows {@code field}, bounded. */
    private static void awaitClientList(RespClient client, String field) throws InterruptedException {
        for (int i = 0; i < 5000 && !client.call("CLIENT", "LIST").contains(field); i++) {
            Thread.sleep(1);
        }
        assertTrue(client.call("CLIENT", "LIST").contains(field), field);
    }

    /** Polls INFO until it shows {@code field}, bounded. */
    private static void awaitInfo(RespClient client, String field) throws InterruptedException {
        for (int i = 0; i < 5000 && !client.call("INFO", "everything").contains(field); i++) {
            Thread.sleep(1);
        }
        assertTrue(client.call("INFO", "everything").contains(field), field);
    }

    /**
     * A pipelined MULTI over keys of every shard, by a RESP3 client subscribed to its keyspace
     * notifications: the transaction's pushes come after MULTI's +OK and the +QUEUED replies, then
     * EXEC's reply (Redis 7.0 writes them inside EXEC's array, where the client lifts them out).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aTransactionsPushesComeAfterTheRepliesBeforeItsExec(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).set("notify-keyspace-events", "K$").start();
             RespClient client = RespClient.connect(server.port())) {
            client.call("HELLO", "3");
            client.call("PSUBSCRIBE", "__keyspace@0__:*");
            int keys = 8;
            StringBuilder pipeline = new StringBuilder(RespClient.text(RespClient.encode(RespClient.toBytes("MULTI"))));
            List<String> expected = new ArrayList<>(List.of("+OK"));
            for (int i = 0; i < keys; i++) {
                pipeline.append(RespClient.text(RespClient.encode(RespClient.toBytes("SET", "multi:" + i, "v"))));
                expected.add("+QUEUED");
            }
            pipeline.append(RespClient.text(RespClient.encode(RespClient.toBytes("EXEC"))));
            for (int i = 0; i < keys; i++) {
                expected.add("set __keyspace@0__:multi:" + i);
            }
            expected.add("*" + keys + "\r\n" + "+OK\r\n".repeat(keys));
            expected.replaceAll(String::strip);
            client.send(pipeline.toString());
            List<String> received = new ArrayList<>();
            while (received.size() < expected.size()) {
                List<byte[]> lifted = new ArrayList<>();
                String reply = RespClient.text(client.readReplyLiftingPushes(lifted));
                lifted.forEach(push -> received.add(notification(RespClient.text(push))));
                received.add(reply.startsWith(">") ? notification(reply) : reply.strip());
            }
            assertEquals(expected, received);
        }
    }

    /** A pmessage push of a keyspace notification, as "event channel". */
    private static String notification(String push) {
        List<?> elements = (List<?>) RespClient.parse(push);
        return elements.get(3) + " " + elements.get(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void resetAndDisconnectionLeaveEveryChannel(Target target) throws Exception {
        try (RespClient subscriber = RespClient.connect(port(target));
             RespClient observer = RespClient.connect(port(target))) {
            assertEquals(confirmation("subscribe", "reset-a", 1), subscriber.call("SUBSCRIBE", "reset-a"));
            assertEquals(confirmation("psubscribe", "reset-p*", 2), subscriber.call("PSUBSCRIBE", "reset-p*"));
            assertEquals("*2\r\n$7\r\nreset-a\r\n:1\r\n", observer.call("PUBSUB", "NUMSUB", "reset-a"));
            assertEquals("+RESET\r\n", subscriber.call("RESET"));
            assertEquals("$-1\r\n", subscriber.call("GET", "pubsub-absent"));
            assertEquals("*2\r\n$7\r\nreset-a\r\n:0\r\n", observer.call("PUBSUB", "NUMSUB", "reset-a"));
            assertEquals(":0\r\n", observer.call("PUBLISH", "reset-a", "m"));
            assertEquals(":0\r\n", observer.call("PUBLISH", "reset-pq", "m"));
            assertEquals(confirmation("subscribe", "reset-b", 1), subscriber.call("SUBSCRIBE", "reset-b"));
        }
        try (RespClient observer = RespClient.connect(port(target))) {
            long deadline = System.currentTimeMillis() + 10_000;
            while (!observer.call("PUBLISH", "reset-b", "m").equals(":0\r\n") && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(":0\r\n", observer.call("PUBLISH", "reset-b", "m"), "a closed subscriber is gone");
        }
    }

    /**
     * A subscriber that QUITs has left its channels, patterns and shard channels by the time its +OK
     * arrives (Redis frees it before it reads another command), so a PUBLISH or SPUBLISH sent after
     * that reply no longer counts it. Subscribers on several connections land on different workers.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aSubscriberThatQuitNoLongerCountsForAPublishAfterItsReply(Target target) {
        try (RespClient publisher = RespClient.connect(port(target))) {
            for (int round = 0; round < 20; round++) {
                List<RespClient> subscribers = new ArrayList<>();
                try {
                    for (int i = 0; i < 4; i++) {
                        RespClient subscriber = RespClient.connect(port(target));
                        subscribers.add(subscriber);
                        assertEquals(confirmation("subscribe", "quit-sub", 1), subscriber.call("SUBSCRIBE", "quit-sub"));
                        assertEquals(confirmation("psubscribe", "quit-*", 2), subscriber.call("PSUBSCRIBE", "quit-*"));
                        assertEquals(confirmation("ssubscribe", "quit-shard", 1),
                            subscriber.call("SSUBSCRIBE", "quit-shard"));
                    }
                    for (int i = 0; i < subscribers.size(); i++) {
                        int left = subscribers.size() - i - 1;
                        RespClient quitting = subscribers.get(i);
                        quitting.send("*1\r\n$4\r\nQUIT\r\n");
                        String reply = quitting.readReplyText();
                        for (int pushes = 0; pushes < 3 * i && !reply.equals("+OK\r\n"); pushes++) {
                            reply = quitting.readReplyText(); // the messages of the publishes before it
                        }
                        assertEquals("+OK\r\n", reply);
                        assertEquals(":" + 2 * left + "\r\n", publisher.call("PUBLISH", "quit-sub", "m"),
                            "PUBLISH after subscriber " + i + " quit, round " + round);
                        assertEquals(":" + left + "\r\n", publisher.call("SPUBLISH", "quit-shard", "m"),
                            "SPUBLISH after subscriber " + i + " quit, round " + round);
                    }
                } finally {
                    subscribers.forEach(RespClient::close);
                }
            }
            assertEquals(":0\r\n", publisher.call("PUBSUB", "NUMPAT"));
        }
    }

    /**
     * Redis's CLIENT KILL frees the client before it replies, so a PUBLISH right behind it, even in
     * the same pipeline, no longer counts the killed subscriber. Subscribers on several connections
     * land on different workers, the killer's own included.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aKilledSubscriberNoLongerCountsForAPublishBehindTheKill(Target target) {
        List<RespClient> subscribers = new ArrayList<>();
        try (RespClient killer = RespClient.connect(port(target))) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                RespClient subscriber = RespClient.connect(port(target));
                subscribers.add(subscriber);
                ids.add(subscriber.call("CLIENT", "ID").trim().substring(1));
                assertEquals(confirmation("subscribe", "killed-sub", 1), subscriber.call("SUBSCRIBE", "killed-sub"));
                assertEquals(confirmation("psubscribe", "killed-*", 2), subscriber.call("PSUBSCRIBE", "killed-*"));
            }
            for (int i = 0; i < ids.size(); i++) {
                int left = ids.size() - i - 1;
                killer.send("*4\r\n$6\r\nCLIENT\r\n$4\r\nKILL\r\n$2\r\nID\r\n$" + ids.get(i).length() + "\r\n"
                    + ids.get(i) + "\r\n*3\r\n$7\r\nPUBLISH\r\n$10\r\nkilled-sub\r\n$1\r\nm\r\n"
                    + "*3\r\n$6\r\nPUBSUB\r\n$6\r\nNUMSUB\r\n$10\r\nkilled-sub\r\n");
                assertEquals(":1\r\n", killer.readReplyText());
                assertEquals(":" + 2 * left + "\r\n", killer.readReplyText(), "PUBLISH after killing " + ids.get(i));
                assertEquals("*2\r\n$10\r\nkilled-sub\r\n:" + left + "\r\n", killer.readReplyText());
            }
            assertEquals(":0\r\n", killer.call("PUBSUB", "NUMPAT"));
        } finally {
            subscribers.forEach(RespClient::close);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void publishCountsEveryDeliveryOfChannelsAndMatchingPatterns(Target target) {
        try (RespClient one = RespClient.connect(port(target));
             RespClient two = RespClient.connect(port(target));
             RespClient publisher = RespClient.connect(port(target))) {
            one.send("*4\r\n$10\r\npsubscribe\r\n$6\r\ncnt-h*\r\n$9\r\ncnt-h?llo\r\n$6\r\ncnt-x*\r\n");
            one.readReplyText();
            one.readReplyText();
            assertEquals(confirmation("psubscribe", "cnt-x*", 3), one.readReplyText());
            assertEquals(confirmation("subscribe", "cnt-hello", 4), one.call("SUBSCRIBE", "cnt-hello"));
            assertEquals(confirmation("psubscribe", "cnt-h*", 1), two.call("PSUBSCRIBE", "cnt-h*"));
            assertEquals(":4\r\n", publisher.call("PUBLISH", "cnt-hello", "hi"));
            assertEquals(message('*', "cnt-hello", "hi"), one.readReplyText());
            String patterned = one.readReplyText() + one.readReplyText();
            assertTrue(patterned.contains("$6\r\ncnt-h*\r\n") && patterned.contains("$9\r\ncnt-h?llo\r\n"), patterned);
            assertEquals("*4\r\n$8\r\npmessage\r\n$6\r\ncnt-h*\r\n$9\r\ncnt-hello\r\n$2\r\nhi\r\n", two.readReplyText());
            assertEquals(":0\r\n", publisher.call("PUBLISH", "cnt-nobody", "hi"));
            assertEquals("*1\r\n$9\r\ncnt-hello\r\n", publisher.call("PUBSUB", "CHANNELS", "cnt-*"));
            assertEquals("*4\r\n$9\r\ncnt-hello\r\n:1\r\n$6\r\ncnt-h*\r\n:0\r\n",
                publisher.call("PUBSUB", "NUMSUB", "cnt-hello", "cnt-h*"));
            assertEquals("*0\r\n", publisher.call("PUBSUB", "NUMSUB"));
            assertEquals("-ERR wrong number of arguments for 'pubsub|numpat' command\r\n",
                publisher.call("PUBSUB", "NUMPAT", "x"));
            assertEquals("-ERR unknown subcommand or wrong number of arguments for 'CHANNELS'. Try PUBSUB HELP.\r\n",
                publisher.call("PUBSUB", "CHANNELS", "a", "b"));
            assertEquals("-ERR wrong number of arguments for 'publish' command\r\n", publisher.call("PUBLISH", "a"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void shardChannelsAreTheirOwnNamespace(Target target) {
        try (RespClient subscriber = RespClient.connect(port(target));
             RespClient publisher = RespClient.connect(port(target))) {
            assertEquals(confirmation("ssubscribe", "shard-a", 1), subscriber.call("SSUBSCRIBE", "shard-a"));
            assertEquals(":0\r\n", publisher.call("PUBLISH", "shard-a", "plain"));
            assertEquals(":1\r\n", publisher.call("SPUBLISH", "shard-a", "sharded"));
            assertEquals("*3\r\n$8\r\nsmessage\r\n$7\r\nshard-a\r\n$7\r\nsharded\r\n", subscriber.readReplyText());
            assertEquals("*1\r\n$7\r\nshard-a\r\n", publisher.call("PUBSUB", "SHARDCHANNELS", "shard-*"));
            assertEquals("*2\r\n$7\r\nshard-a\r\n:1\r\n", publisher.call("PUBSUB", "SHARDNUMSUB", "shard-a"));
            assertEquals("*0\r\n", publisher.call("PUBSUB", "CHANNELS", "shard-*"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void resp3PushesComeAmongOrdinaryReplies(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            client.call("HELLO", "3");
            assertEquals(">3\r\n$9\r\nsubscribe\r\n$6\r\nr3-own\r\n:1\r\n", client.call("SUBSCRIBE", "r3-own"));
            assertEquals("_\r\n", client.call("GET", "pubsub-absent"), "any command runs while subscribed");
            assertEquals("+PONG\r\n", client.call("PING"));
            client.send("*3\r\n$7\r\nPUBLISH\r\n$6\r\nr3-own\r\n$2\r\nm1\r\n");
            assertEquals(message('>', "r3-own", "m1"), client.readReplyText(), "its own message comes first");
            assertEquals(":1\r\n", client.readReplyText());
            assertEquals(">3\r\n$11\r\nunsubscribe\r\n$6\r\nr3-own\r\n:0\r\n", client.call("UNSUBSCRIBE"));
            assertEquals(">3\r\n$12\r\nsunsubscribe\r\n_\r\n:0\r\n", client.call("SUNSUBSCRIBE"));
        }
    }

    private static int worker(RespClient client) {
        Matcher matcher = Pattern.compile(" worker=(\\d+)").matcher(client.call("CLIENT", "INFO"));
        assertTrue(matcher.find());
        return Integer.parseInt(matcher.group(1));
    }

    /**
     * Redis writes a message into each subscriber's output before it replies to PUBLISH, so a
     * subscriber that sends a command once the publisher has its reply gets the message first, on
     * whatever worker each of them is (found by the differential test's pub/sub scenarios).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aMessageWhosePublishHasRepliedComesBeforeTheSubscribersNextReply(Target target) {
        try (RespClient publisher = RespClient.connect(port(target))) {
            RespClient subscriber = RespClient.connect(port(target));
            for (int i = 0; i < 12 && worker(subscriber) == worker(publisher); i++) {
                subscriber.close();
                subscriber = RespClient.connect(port(target));
            }
            try (RespClient other = subscriber) {
                assertTrue(worker(other) != worker(publisher), "the subscriber on another worker");
                assertEquals(confirmation("subscribe", "c", 1), other.call("SUBSCRIBE", "c"));
                assertEquals(confirmation("ssubscribe", "s", 1), other.call("SSUBSCRIBE", "s"));
                for (int i = 0; i < 300; i++) {
                    String payload = Integer.toString(i);
                    boolean shard = i % 2 == 1;
                    assertEquals(":1\r\n", publisher.call(shard ? "SPUBLISH" : "PUBLISH", shard ? "s" : "c", payload));
                    assertEquals(shard ? "*3\r\n$8\r\nsmessage\r\n$1\r\ns\r\n$" + payload.length() + "\r\n" + payload
                        + "\r\n" : message('*', "c", payload), other.call("PING"), "message " + i);
                    assertEquals("*2\r\n$4\r\npong\r\n$0\r\n\r\n", other.readReplyText());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void onePublishersMessagesReachSubscribersOnEveryWorkerInOrder(Target target) {
        int messages = 2000;
        List<RespClient> subscribers = new ArrayList<>();
        try (RespClient publisher = RespClient.connect(port(target))) {
            boolean[] workers = new boolean[2];
            for (int i = 0; i < 12 && !(workers[0] && workers[1] && subscribers.size() >= 4); i++) {
                RespClient subscriber = RespClient.connect(port(target));
                workers[worker(subscriber)] = true;
                subscribers.add(subscriber);
            }
            assertTrue(workers[0] && workers[1], "subscribers on both workers");
            for (RespClient subscriber : subscribers) {
                assertEquals(confirmation("subscribe", "order", 1), subscriber.call("SUBSCRIBE", "order"));
            }
            StringBuilder pipeline = new StringBuilder();
            for (int i = 0; i < messages; i++) {
                String payload = Integer.toString(i);
                pipeline.append("*3\r\n$7\r\nPUBLISH\r\n$5\r\norder\r\n$").append(payload.length()).append("\r\n")
                    .append(payload).append("\r\n");
            }
            publisher.send(pipeline.toString());
            for (int i = 0; i < messages; i++) {
                assertEquals(":" + subscribers.size() + "\r\n", publisher.readReplyText());
            }
            for (RespClient subscriber : subscribers) {
                for (int i = 0; i < messages; i++) {
                    assertEquals(message('*', "order", Integer.toString(i)), subscriber.readReplyText());
                }
            }
        } finally {
            subscribers.forEach(RespClient::close);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void lettucePubSubListenersReceiveInResp2AndResp3(Target target) throws Exception {
        for (ProtocolVersion version : List.of(ProtocolVersion.RESP2, ProtocolVersion.RESP3)) {
            RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(port(target))
                .withTimeout(Duration.ofSeconds(10)).build());
            client.setOptions(ClientOptions.builder().protocolVersion(version).build());
            try (StatefulRedisPubSubConnection<String, String> subscriber = client.connectPubSub();
                 StatefulRedisConnection<String, String> publisher = client.connect()) {
                List<String> received = new CopyOnWriteArrayList<>();
                CountDownLatch all = new CountDownLatch(3);
                subscriber.addListener(new RedisPubSubAdapter<>() {
                    @Override
                    public void message(String channel, String message) {
                        received.add(channel + ":" + message);
                        all.countDown();
                    }

                    @Override
                    public void message(String pattern, String channel, String message) {
                        received.add(pattern + ">" + channel + ":" + message);
                        all.countDown();
                    }
                });
                subscriber.sync().subscribe("lettuce-" + version);
                subscriber.sync().psubscribe("lettuce-p-*");
                assertEquals(1L, publisher.sync().publish("lettuce-" + version, "one"));
                assertEquals(1L, publisher.sync().publish("lettuce-p-x", "two"));
                assertEquals(1L, publisher.sync().publish("lettuce-" + version, "three"));
                assertTrue(all.await(10, TimeUnit.SECONDS), version + ": " + received);
                assertEquals(List.of("lettuce-" + version + ":one", "lettuce-p-*>lettuce-p-x:two",
                    "lettuce-" + version + ":three"), received, version.toString());
                subscriber.sync().unsubscribe("lettuce-" + version);
                subscriber.sync().punsubscribe("lettuce-p-*");
                assertEquals(0L, publisher.sync().publish("lettuce-" + version, "after"));
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    /** Reads until the server closes the socket or the time runs out; true when it closed. */
    private static boolean drainsToClose(Socket socket, long millis) throws IOException {
        long deadline = System.currentTimeMillis() + millis;
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[1 << 16];
        socket.setSoTimeout(200);
        while (System.currentTimeMillis() < deadline) {
            try {
                if (in.read(buffer) < 0) {
                    return true;
                }
            } catch (java.net.SocketTimeoutException e) {
                // still open
            } catch (java.net.SocketException e) {
                return true;
            }
        }
        return false;
    }

    private static void awaitSubscribers(RespClient client, String channel, int count) throws InterruptedException {
        String expected = "*2\r\n$" + channel.length() + "\r\n" + channel + "\r\n:" + count + "\r\n";
        long deadline = System.currentTimeMillis() + 10_000;
        while (!client.call("PUBSUB", "NUMSUB", channel).equals(expected) && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(expected, client.call("PUBSUB", "NUMSUB", channel));
    }

    private static long info(RespClient client, String field) {
        Matcher matcher = Pattern.compile(field + ":(\\d+)").matcher(client.call("INFO", "stats"));
        assertTrue(matcher.find(), field);
        return Long.parseLong(matcher.group(1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aSubscriberThatDoesNotReadIsClosedAtThePubsubHardLimitWhileAReaderKeepsReceiving(Target target)
        throws Exception {
        try (LacewingServer server = Servers.builder(target).set("client-output-buffer-limit", "pubsub 1mb 0 0")
                .start();
             RespClient publisher = RespClient.connect(server.port());
             RespClient reader = RespClient.connect(server.port());
             Socket slow = new Socket()) {
            slow.setReceiveBufferSize(4096);
            slow.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
            slow.getOutputStream().write(RespClient.bytes("*2\r\n$9\r\nSUBSCRIBE\r\n$4\r\nobuf\r\n"));
            assertEquals(confirmation("subscribe", "obuf", 1), reader.call("SUBSCRIBE", "obuf"));
            awaitSubscribers(publisher, "obuf", 2);
            String payload = "x".repeat(16 * 1024);
            String expected = message('*', "obuf", payload);
            int published = 0;
            long deadline = System.currentTimeMillis() + 20_000;
            // 16 KiB messages: the slow subscriber's 1 MB is passed within a few hundred, its socket
            // buffers included; bounded by 2000 messages (32 MB) and 20 s.
            while (published < 2000 && System.currentTimeMillis() < deadline) {
                long receivers = Long.parseLong(publisher.call("PUBLISH", "obuf", payload).trim().substring(1));
                published++;
                assertEquals(expected, reader.readReplyText(), "the reading subscriber gets message " + published);
                if (receivers == 1) {
                    break;
                }
            }
            assertTrue(published < 2000, "the slow subscriber was closed after " + published + " messages");
            assertTrue(drainsToClose(slow, 10_000), "the slow subscriber's connection closed");
            assertEquals(1, info(publisher, "client_output_buffer_limit_disconnections"));
            assertEquals(":1\r\n", publisher.call("PUBLISH", "obuf", "after"));
            assertEquals(message('*', "obuf", "after"), reader.readReplyText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aSubscriberOverThePubsubSoftLimitForItsSecondsIsClosed(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).set("client-output-buffer-limit", "pubsub 0 256kb 1")
                .start();
             RespClient publisher = RespClient.connect(server.port());
             Socket slow = new Socket()) {
            slow.setReceiveBufferSize(4096);
            slow.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
            slow.getOutputStream().write(RespClient.bytes("*2\r\n$9\r\nSUBSCRIBE\r\n$4\r\nsoft\r\n"));
            String payload = "x".repeat(16 * 1024);
            long deadline = System.currentTimeMillis() + 20_000;
            long receivers = 1;
            int published = 0;
            awaitSubscribers(publisher, "soft", 1);
            while (receivers == 1 && published < 4000 && System.currentTimeMillis() < deadline) {
                receivers = Long.parseLong(publisher.call("PUBLISH", "soft", payload).trim().substring(1));
                published++;
                if (published > 100) {
                    Thread.sleep(5);
                }
            }
            assertEquals(0, receivers, "closed once over the soft limit for a second");
            assertTrue(drainsToClose(slow, 10_000));
        }
    }
}
