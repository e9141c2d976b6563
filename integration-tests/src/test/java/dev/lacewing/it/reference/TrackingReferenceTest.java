package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Client-side caching against redis-server 7.0: a RESP3 reader (R) and a RESP2 writer (W) run the
 * same corpus on both servers, and the reader's replies and invalidation pushes must match byte for
 * byte. After each step the writer publishes on a channel the reader is subscribed to, and the
 * reader's transcript for the step is everything it received before that message: one writer's
 * invalidations and messages reach a client in order, so the step's pushes are all in. Keys share a
 * hash tag, so that a multi-key write is one write on every engine.
 */
class TrackingReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final String CORPUS = """
        R CLIENT TRACKINGINFO
        R CLIENT GETREDIR
        R CLIENT TRACKING ON
        R CLIENT GETREDIR
        R GET {p}a
        R MGET {p}b {p}c
        W SET {p}a 1
        W MSET {p}b 1 {p}c 2
        W SET {p}b 2
        R GET {p}a
        R SET {p}a 2
        R GET {p}a
        R MULTI
        R SET {p}a 3
        R GET {p}a
        R EXEC
        R HGET {p}h f
        W HSET {p}h f v
        R LRANGE {p}l 0 -1
        R SCARD {p}s
        W LPUSH {p}l x
        W SADD {p}s x
        R GET {p}a
        W EXPIRE {p}a 100
        R GET {p}a
        W DEL {p}a {p}b {p}c
        R CLIENT TRACKINGINFO
        R CLIENT TRACKING ON NOLOOP
        R CLIENT TRACKINGINFO
        R GET {p}a
        R SET {p}a 5
        W SET {p}a 6
        R CLIENT TRACKING OFF
        R CLIENT TRACKINGINFO
        R CLIENT TRACKING ON OPTIN
        R GET {p}a
        W SET {p}a 7
        R CLIENT CACHING YES
        R CLIENT TRACKINGINFO
        R GET {p}a
        W SET {p}a 8
        R CLIENT CACHING NO
        R CLIENT TRACKING ON OPTOUT
        R CLIENT TRACKING OFF
        R CLIENT TRACKING ON OPTOUT
        R CLIENT CACHING YES
        R CLIENT CACHING NO
        R GET {p}a
        W SET {p}a 9
        R GET {p}a
        W SET {p}a 10
        R CLIENT TRACKING OFF
        R CLIENT TRACKING ON BCAST PREFIX {p}x PREFIX {p}y
        W MSET {p}xb 1 {p}xa 2 {p}y1 3 {p}z 4
        R CLIENT TRACKINGINFO
        R CLIENT TRACKING ON BCAST PREFIX {p}x1
        R CLIENT TRACKING ON BCAST PREFIX {p}w PREFIX {p}w2
        R CLIENT TRACKING ON
        R CLIENT TRACKING ON BCAST OPTIN
        R SET {p}xq 1
        W DEL {p}xq {p}y1 {p}xa
        R CLIENT TRACKING OFF
        R CLIENT TRACKING ON BCAST PREFIX {p}x NOLOOP
        R SET {p}xq 2
        W SET {p}xr 3
        R CLIENT TRACKING OFF
        R CLIENT TRACKING ON PREFIX {p}x
        R CLIENT TRACKING ON OPTIN OPTOUT
        R CLIENT TRACKING ON REDIRECT 0
        R CLIENT TRACKING ON REDIRECT x
        R CLIENT TRACKING MAYBE
        R CLIENT CACHING YES
        R CLIENT TRACKINGINFO
        """;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void readsWritesAndTrackingCommandsGiveRedisRepliesAndPushes(Target target) {
        assertLacewingGivesRedisTranscript(target, "{trk" + RUNS.incrementAndGet() + "}",
            TrackingReferenceTest::transcript,
            expected -> assertTrue(expected.stream().filter(line -> line.startsWith("  push >2")).count() >= 15,
                () -> "the corpus should make invalidations: " + String.join("\n", expected)));
    }

    /**
     * Runs {@code transcript} on redis-server, whose lines {@code redisGave} checks, then on the
     * target's shared server, which must give the same lines.
     */
    private static void assertLacewingGivesRedisTranscript(Target target, String prefix,
                                                           BiFunction<Integer, String, List<String>> transcript,
                                                           Consumer<List<String>> redisGave) {
        List<String> expected = transcript.apply(redis.port(), prefix);
        redisGave.accept(expected);
        List<String> actual = transcript.apply(Servers.server(target).port(), prefix);
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    private static List<String> transcript(int port, String prefix) {
        List<String> transcript = new ArrayList<>();
        try (RespClient reader = RespClient.connect(port); RespClient writer = RespClient.connect(port)) {
            reader.call("HELLO", "3");
            String channel = prefix + "sync";
            reader.call("SUBSCRIBE", channel);
            String sync = ">3\r\n$7\r\nmessage\r\n$" + channel.length() + "\r\n" + channel + "\r\n$1\r\ns\r\n";
            for (String step : CORPUS.strip().split("\n")) {
                RespClient client = step.startsWith("R ") ? reader : writer;
                String[] words = step.substring(2).replace("{p}", prefix).split(" ");
                transcript.add(step + " -> " + RespClient.escape(RespClient.bytes(client.call(words))));
                writer.call("PUBLISH", channel, "s");
                for (String received = reader.readReplyText(); !received.equals(sync); received = reader.readReplyText()) {
                    transcript.add("  push " + RespClient.escape(RespClient.bytes(received)));
                }
            }
            reader.call("CLIENT", "TRACKING", "OFF");
            writer.call("DEL", prefix + "a", prefix + "h", prefix + "l", prefix + "s", prefix + "xq", prefix + "xr",
                prefix + "xb", prefix + "z");
        }
        return transcript;
    }

    /**
     * BCAST invalidations go out once per pass, as Redis's beforeSleep sends them: a pipeline's
     * written keys (a key written twice, a transaction's) come in one message per prefix, after
     * every reply of the pass, the marker PING's included; a NOLOOP writer is not sent its own keys.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void broadcastInvalidationsOfAPipelineComeOnceAfterItsRepliesAsRedisSendsThem(Target target) {
        assertLacewingGivesRedisTranscript(target, "{bp" + RUNS.incrementAndGet() + "}",
            TrackingReferenceTest::pipelineTranscript,
            expected -> assertTrue(expected.stream().filter(line -> line.startsWith(">2")).count() >= 2,
                () -> String.join("\n", expected)));
    }

    /** Each frame the writer receives for its pipeline, up to a PING sent after it. */
    private static List<String> pipelineTranscript(int port, String prefix) {
        List<String> transcript = new ArrayList<>();
        try (RespClient writer = RespClient.connect(port); RespClient other = RespClient.connect(port)) {
            writer.call("HELLO", "3");
            other.call("HELLO", "3");
            for (String options : List.of("BCAST PREFIX " + prefix + "a PREFIX " + prefix + "b",
                "BCAST PREFIX " + prefix + " NOLOOP")) {
                writer.call(("CLIENT TRACKING ON " + options).split(" "));
                other.call(("CLIENT TRACKING ON BCAST PREFIX " + prefix).split(" "));
                ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
                for (String command : List.of("SET {p}a1 1", "SET {p}b 1", "SET {p}a1 2", "MULTI", "SET {p}c 1",
                    "INCR {p}a2", "EXEC", "GET {p}c", "PING end")) {
                    pipeline.writeBytes(RespClient.encode(RespClient.toBytes(command.replace("{p}", prefix).split(" "))));
                }
                writer.send(pipeline.toByteArray());
                readUntil(writer, "$3\r\nend\r\n", transcript);
                writer.send(RespClient.encode(RespClient.toBytes("PING", "after")));
                readUntil(writer, "$5\r\nafter\r\n", transcript);
                other.send(RespClient.encode(RespClient.toBytes("PING", "after")));
                readUntil(other, "$5\r\nafter\r\n", transcript);
                writer.call("CLIENT", "TRACKING", "OFF");
                other.call("CLIENT", "TRACKING", "OFF");
            }
        }
        return transcript;
    }

    private static void readUntil(RespClient client, String last, List<String> transcript) {
        String frame;
        do {
            frame = client.readReplyText();
            transcript.add(RespClient.escape(RespClient.bytes(frame)));
        } while (!frame.equals(last));
    }

    /**
     * A write over a key whose time has passed deletes it and then writes it, in one pass: a BCAST
     * client is sent the key once, as redis-server 7.0.15 sends it. hz 1 keeps active expiry out of
     * the way (a try where it deleted the key first, seen by its invalidation, is tried again).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aWriteOverAKeyWhoseTimePassedInvalidatesItOnceForBroadcastClients(Target target) {
        String key = "{bx" + RUNS.incrementAndGet() + "}k";
        try (RespClient admin = RespClient.connect(redis.port())) {
            admin.call("CONFIG", "SET", "hz", "1");
            try {
                List<String> expected = expiredWriteTranscript(redis.port(), key);
                try (LacewingServer server = Servers.builder(target).set("save", "").set("hz", "1").start()) {
                    assertEquals(String.join("\n", expected), String.join("\n", expiredWriteTranscript(server.port(), key)));
                }
            } finally {
                admin.call("CONFIG", "SET", "hz", "10");
            }
        }
    }

    private static List<String> expiredWriteTranscript(int port, String key) {
        try (RespClient reader = RespClient.connect(port); RespClient writer = RespClient.connect(port)) {
            reader.call("HELLO", "3");
            reader.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", key);
            for (int attempt = 0; attempt < 5; attempt++) {
                List<String> transcript = new ArrayList<>();
                writer.call("SET", key, "old", "PX", "5");
                reader.send(RespClient.encode(RespClient.toBytes("PING", "set")));
                readUntil(reader, "$3\r\nset\r\n", transcript);
                pause(40);
                reader.send(RespClient.encode(RespClient.toBytes("PING", "waited")));
                List<String> waited = new ArrayList<>();
                readUntil(reader, "$6\r\nwaited\r\n", waited);
                if (waited.size() > 1) {
                    continue;
                }
                transcript.add("SET -> " + writer.call("SET", key, "new"));
                reader.send(RespClient.encode(RespClient.toBytes("PING", "written")));
                readUntil(reader, "$7\r\nwritten\r\n", transcript);
                writer.call("DEL", key);
                return transcript;
            }
            throw new AssertionError("active expiry deleted the key first in every try");
        }
    }

    /**
     * Keys deleted by active expiry, no client's command, go out once per event-loop pass as Redis's
     * beforeSleep sends them: 50 keys of one prefix (one hash tag, so one partition) expiring
     * together come to a BCAST client in one message, sorted, as redis-server 7.0.15 sends them.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void keysExpiringTogetherAreInvalidatedInOneMessagePerPass(Target target) {
        assertLacewingGivesRedisTranscript(target, "{be" + RUNS.incrementAndGet() + "}",
            TrackingReferenceTest::activeExpiryTranscript,
            expected -> assertEquals(List.of("written 50", "expiry set 50", "expired 50 in 1 message(s)"),
                expected.subList(0, 3)));
    }

    private static List<String> activeExpiryTranscript(int port, String prefix) {
        List<String> transcript = new ArrayList<>();
        try (RespClient reader = RespClient.connect(port); RespClient writer = RespClient.connect(port)) {
            reader.call("HELLO", "3");
            reader.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", prefix);
            List<String> mset = new ArrayList<>(List.of("MSET"));
            for (int i = 0; i < 50; i++) {
                mset.add(prefix + i);
                mset.add("v");
            }
            writer.call(mset.toArray(String[]::new));
            transcript.add("written " + invalidatedKeys(reader.readReplyText()));
            long at = System.currentTimeMillis() + 300;
            ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
            for (int i = 0; i < 50; i++) {
                pipeline.writeBytes(RespClient.encode(RespClient.toBytes("PEXPIREAT", prefix + i, Long.toString(at))));
            }
            writer.send(pipeline.toByteArray());
            for (int i = 0; i < 50; i++) {
                writer.readReply();
            }
            transcript.add("expiry set " + invalidatedKeys(reader.readReplyText()));
            int keys = 0;
            int messages = 0;
            String last = "";
            for (long deadline = System.nanoTime() + 10_000_000_000L; keys < 50 && System.nanoTime() < deadline; ) {
                if (reader.available(100)) {
                    last = reader.readReplyText();
                    keys += invalidatedKeys(last);
                    messages++;
                }
            }
            transcript.add("expired " + keys + " in " + messages + " message(s)");
            transcript.add(RespClient.escape(RespClient.bytes(last)));
        }
        return transcript;
    }

    /** How many keys an invalidation push names. */
    private static int invalidatedKeys(String push) {
        String head = ">2\r\n$10\r\ninvalidate\r\n*";
        assertTrue(push.startsWith(head), push);
        return Integer.parseInt(push.substring(head.length(), push.indexOf('\r', head.length())));
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Eviction, which the differential test cannot draw (which key goes first differs): with
     * maxmemory 1 the next write evicts keys and is refused with OOM; each evicted key that a
     * tracking client read gets its own invalidation and an {@code evicted} event, in Redis's form.
     * Redis evicts every key, in its own order; Lacewing evicts from the partitions it reclaims
     * (see the report), so each side's lines are compared sorted, for the keys Lacewing evicted.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void evictedKeysAreInvalidatedAndPublishedAsRedisDoes(Target target) {
        List<String> gone = new ArrayList<>();
        List<String> fromRedis = evictionTranscript(redis.port(), gone);
        assertEquals(List.of("ev:1", "ev:2", "ev:3"), gone, () -> String.join("\n", fromRedis));
        gone.clear();
        try (LacewingServer server = Servers.builder(target).set("save", "").start()) {
            List<String> actual = evictionTranscript(server.port(), gone);
            assertFalse(gone.isEmpty(), () -> String.join("\n", actual));
            List<String> expected = fromRedis.stream().filter(line -> line.startsWith("SET")
                || gone.stream().anyMatch(key -> line.endsWith("$4\\r\\n" + key + "\\r\\n"))).toList();
            assertEquals(String.join("\n", expected), String.join("\n", actual));
        }
    }

    /** The refused write, then the invalidations and evicted events sorted; {@code gone} gets the keys evicted. */
    private static List<String> evictionTranscript(int port, List<String> gone) {
        List<String> transcript = new ArrayList<>();
        List<String> pushes = new ArrayList<>();
        try (RespClient reader = RespClient.connect(port); RespClient writer = RespClient.connect(port);
             RespClient subscriber = RespClient.connect(port)) {
            writer.call("FLUSHALL");
            reader.call("HELLO", "3");
            writer.call("CONFIG", "SET", "notify-keyspace-events", "Ee");
            subscriber.call("SUBSCRIBE", "__keyevent@0__:evicted");
            reader.call("CLIENT", "TRACKING", "ON");
            List<String> keys = List.of("ev:1", "ev:2", "ev:3");
            for (String key : keys) {
                writer.call("SET", key, "v".repeat(100));
                reader.call("GET", key);
            }
            writer.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
            writer.call("CONFIG", "SET", "maxmemory", "1");
            transcript.add("SET -> " + RespClient.escape(RespClient.bytes(writer.call("SET", "ev:new", "1"))));
            writer.call("CONFIG", "SET", "maxmemory", "0");
            reader.send(RespClient.encode(RespClient.toBytes("PING")));
            for (String frame = reader.readReplyText(); !frame.equals("+PONG\r\n"); frame = reader.readReplyText()) {
                pushes.add("push " + RespClient.escape(RespClient.bytes(frame)));
            }
            subscriber.send(RespClient.encode(RespClient.toBytes("PING")));
            for (String frame = subscriber.readReplyText(); !frame.startsWith("*2\r\n$4\r\npong");
                 frame = subscriber.readReplyText()) {
                pushes.add("message " + RespClient.escape(RespClient.bytes(frame)));
            }
            for (String key : keys) {
                if (writer.call("EXISTS", key).equals(":0\r\n")) {
                    gone.add(key);
                }
            }
            writer.call("CONFIG", "SET", "notify-keyspace-events", "");
            writer.call("CONFIG", "SET", "maxmemory-policy", "noeviction");
        }
        pushes.sort(null);
        transcript.addAll(pushes);
        return transcript;
    }
}
