package dev.lacewing.it.tracking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.support.caching.CacheAccessor;
import io.lettuce.core.support.caching.CacheFrontend;
import io.lettuce.core.support.caching.ClientSideCaching;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Client-side caching over real sockets, as redis-server 7.0.15 answers (checked against it):
 * CLIENT TRACKING's options and errors, GETREDIR, TRACKINGINFO in RESP2 and RESP3, CLIENT INFO's
 * flags and redir; invalidations as RESP3 pushes for keys read then written by another client (on
 * another thread) or by the client itself (after its reply), REDIRECT to a RESP2 subscriber of
 * __redis__:invalidate, BCAST prefixes, NOLOOP, OPTIN and OPTOUT with CLIENT CACHING, FLUSHALL's null
 * invalidation, and tracking-table-max-keys; lettuce's client-side cache kept fresh.
 */
class ClientTrackingTest {

    private static final Pattern TRACKING_FIELD = Pattern.compile("(tracking_[a-z_]+):(\\d+)");

    private static int port(Target target) {
        return Servers.server(target).port();
    }

    private static RespClient resp3(int port) {
        RespClient client = RespClient.connect(port);
        client.call("HELLO", "3");
        return client;
    }

    private static String invalidate(String... keys) {
        StringBuilder push = new StringBuilder(">2\r\n$10\r\ninvalidate\r\n*" + keys.length + "\r\n");
        for (String key : keys) {
            push.append('$').append(key.length()).append("\r\n").append(key).append("\r\n");
        }
        return push.toString();
    }

    private static String invalidateMessage(String keys) {
        return "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n" + keys;
    }

    /** A RESP2 connection served by another worker thread than {@code other}'s (the servers run two). */
    private static RespClient onAnotherWorker(Target target, RespClient other) {
        String worker = worker(other);
        for (int i = 0; i < 16; i++) {
            RespClient client = RespClient.connect(port(target));
            if (!worker(client).equals(worker)) {
                return client;
            }
            client.close();
        }
        throw new AssertionError("every connection went to worker " + worker);
    }

    private static String worker(RespClient client) {
        Matcher matcher = Pattern.compile(" worker=(\\d+)").matcher(client.call("CLIENT", "INFO"));
        assertTrue(matcher.find());
        return matcher.group(1);
    }

    private static long id(RespClient client) {
        String reply = client.call("CLIENT", "ID");
        return Long.parseLong(reply.substring(1, reply.length() - 2));
    }

    private static long infoField(RespClient client, String field) {
        Matcher matcher = TRACKING_FIELD.matcher(client.call("INFO", "everything"));
        while (matcher.find()) {
            if (matcher.group(1).equals(field)) {
                return Long.parseLong(matcher.group(2));
            }
        }
        throw new AssertionError("no " + field + " in INFO");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void trackingOptionsAreCheckedWithRedisErrors(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            assertEquals("-ERR PREFIX option requires BCAST mode to be enabled\r\n",
                client.call("CLIENT", "TRACKING", "ON", "PREFIX", "a"));
            assertEquals("-ERR You can't specify both OPTIN mode and OPTOUT mode\r\n",
                client.call("CLIENT", "TRACKING", "ON", "OPTIN", "OPTOUT"));
            assertEquals("-ERR OPTIN and OPTOUT are not compatible with BCAST\r\n",
                client.call("CLIENT", "TRACKING", "ON", "BCAST", "OPTIN"));
            assertEquals("-ERR Prefix 'ab' overlaps with another provided prefix 'a'. Prefixes for a single client "
                + "must not overlap.\r\n", client.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "ab", "PREFIX", "a"));
            assertEquals("-ERR The client ID you want redirect to does not exist\r\n",
                client.call("CLIENT", "TRACKING", "ON", "REDIRECT", "999999"));
            assertEquals("-ERR value is not an integer or out of range\r\n",
                client.call("CLIENT", "TRACKING", "ON", "REDIRECT", "x"));
            assertEquals("-ERR syntax error\r\n", client.call("CLIENT", "TRACKING", "FOO"));
            assertEquals("-ERR syntax error\r\n", client.call("CLIENT", "TRACKING", "ON", "BAR"));
            assertEquals("-ERR wrong number of arguments for 'client|tracking' command\r\n",
                client.call("CLIENT", "TRACKING"));
            assertEquals("-ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or "
                + "OPTOUT mode enabled\r\n", client.call("CLIENT", "CACHING", "YES"));
            assertEquals(":-1\r\n", client.call("CLIENT", "GETREDIR"));
            assertEquals("*6\r\n$5\r\nflags\r\n*1\r\n$3\r\noff\r\n$8\r\nredirect\r\n:-1\r\n$8\r\nprefixes\r\n*0\r\n",
                client.call("CLIENT", "TRACKINGINFO"));

            assertEquals("+OK\r\n", client.call("CLIENT", "TRACKING", "ON", "OPTIN"));
            assertEquals("-ERR syntax error\r\n", client.call("CLIENT", "CACHING", "maybe"));
            assertEquals("-ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.\r\n",
                client.call("CLIENT", "CACHING", "no"));
            assertEquals("+OK\r\n", client.call("CLIENT", "CACHING", "yes"));
            assertEquals("*6\r\n$5\r\nflags\r\n*3\r\n$2\r\non\r\n$5\r\noptin\r\n$11\r\ncaching-yes\r\n$8\r\nredirect\r\n"
                + ":0\r\n$8\r\nprefixes\r\n*0\r\n", client.call("CLIENT", "TRACKINGINFO"));
            assertEquals("-ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and then "
                + "re-enabling it with a different mode.\r\n", client.call("CLIENT", "TRACKING", "ON", "OPTOUT"));
            assertEquals("-ERR You can't switch BCAST mode on/off before disabling tracking for this client, and then "
                + "re-enabling it with a different mode.\r\n", client.call("CLIENT", "TRACKING", "ON", "BCAST"));
            assertEquals("+OK\r\n", client.call("CLIENT", "TRACKING", "OFF"));

            assertEquals("+OK\r\n", client.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "a", "NOLOOP"));
            assertEquals("-ERR Prefix 'ab' overlaps with an existing prefix 'a'. Prefixes for a single client must "
                + "not overlap.\r\n", client.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "ab"));
            assertEquals("*6\r\n$5\r\nflags\r\n*3\r\n$2\r\non\r\n$5\r\nbcast\r\n$6\r\nnoloop\r\n$8\r\nredirect\r\n:0\r\n"
                + "$8\r\nprefixes\r\n*1\r\n$1\r\na\r\n", client.call("CLIENT", "TRACKINGINFO"));
            String info = client.call("CLIENT", "INFO");
            assertTrue(info.contains(" flags=tB ") && info.contains(" redir=0 "), info);
            assertEquals("+OK\r\n", client.call("CLIENT", "TRACKING", "OFF"));

            try (RespClient other = RespClient.connect(port(target))) {
                long otherId = id(other);
                assertEquals("+OK\r\n", client.call("CLIENT", "TRACKING", "ON", "REDIRECT", Long.toString(otherId)));
                assertEquals(":" + otherId + "\r\n", client.call("CLIENT", "GETREDIR"));
                info = client.call("CLIENT", "INFO");
                assertTrue(info.contains(" flags=t ") && info.contains(" redir=" + otherId + " "), info);
            }
            assertEquals("+OK\r\n", client.call("CLIENT", "TRACKING", "OFF"));
            info = client.call("CLIENT", "INFO");
            assertTrue(info.contains(" flags=N ") && info.contains(" redir=-1 "), info);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void trackingInfoIsAMapWithASetOfFlagsInResp3(Target target) {
        try (RespClient client = resp3(port(target))) {
            assertEquals("+OK\r\n", client.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "ti:b", "PREFIX", "ti:a"));
            assertEquals("%3\r\n$5\r\nflags\r\n~2\r\n$2\r\non\r\n$5\r\nbcast\r\n$8\r\nredirect\r\n:0\r\n$8\r\nprefixes\r\n"
                + "*2\r\n$4\r\nti:a\r\n$4\r\nti:b\r\n", client.call("CLIENT", "TRACKINGINFO"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void keysReadAreInvalidatedWhenAnotherClientOrTheClientItselfWritesThem(Target target) {
        try (RespClient reader = resp3(port(target)); RespClient writer = onAnotherWorker(target, reader)) {
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON"));
            assertEquals("_\r\n", reader.call("GET", "dm:k1"));
            assertEquals("*2\r\n_\r\n_\r\n", reader.call("MGET", "dm:k2", "dm:k3"));
            assertEquals("+OK\r\n", writer.call("MSET", "dm:k2", "x", "dm:k3", "y"));
            assertEquals(invalidate("dm:k2"), reader.readReplyText());
            assertEquals(invalidate("dm:k3"), reader.readReplyText());
            assertEquals("+OK\r\n", writer.call("SET", "dm:k2", "z"));
            assertEquals("+OK\r\n", writer.call("SET", "dm:k1", "v"));
            assertEquals(invalidate("dm:k1"), reader.readReplyText());

            assertEquals("$1\r\nv\r\n", reader.call("GET", "dm:k1"));
            assertEquals("+OK\r\n", reader.call("SET", "dm:k1", "w"));
            assertEquals(invalidate("dm:k1"), reader.readReplyText());

            assertEquals("$1\r\nw\r\n", reader.call("GET", "dm:k1"));
            assertEquals("+OK\r\n", reader.call("MULTI"));
            assertEquals("+QUEUED\r\n", reader.call("SET", "dm:k1", "1"));
            assertEquals("+QUEUED\r\n", reader.call("GET", "dm:k1"));
            assertEquals("*2\r\n+OK\r\n$1\r\n1\r\n", reader.call("EXEC"));
            assertEquals(invalidate("dm:k1"), reader.readReplyText());
            assertEquals("+PONG\r\n", reader.call("PING"));
            writer.call("DEL", "dm:k1", "dm:k2", "dm:k3");
            assertEquals(invalidate("dm:k1"), reader.readReplyText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aKeyWhoseTimePassesIsInvalidated(Target target) {
        try (RespClient reader = resp3(port(target)); RespClient writer = RespClient.connect(port(target))) {
            assertEquals("+OK\r\n", writer.call("SET", "ex:a", "1", "PX", "300"));
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON"));
            assertEquals("$1\r\n1\r\n", reader.call("GET", "ex:a"));
            assertEquals(invalidate("ex:a"), reader.readReplyText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void invalidationsRedirectedToAResp2SubscriberArriveOnTheInvalidateChannel(Target target) {
        try (RespClient subscriber = RespClient.connect(port(target));
             RespClient reader = RespClient.connect(port(target));
             RespClient writer = RespClient.connect(port(target))) {
            long subscriberId = id(subscriber);
            assertEquals("*3\r\n$9\r\nsubscribe\r\n$20\r\n__redis__:invalidate\r\n:1\r\n",
                subscriber.call("SUBSCRIBE", "__redis__:invalidate"));
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON", "REDIRECT", Long.toString(subscriberId)));
            reader.call("GET", "rd:x");
            assertEquals("+OK\r\n", writer.call("SET", "rd:x", "1"));
            assertEquals(invalidateMessage("*1\r\n$4\r\nrd:x\r\n"), subscriber.readReplyText());
            subscriber.close();
            String info = "";
            for (int i = 0; i < 100 && !info.contains(" flags=tR "); i++) {
                reader.call("GET", "rd:x");
                writer.call("SET", "rd:x", "2");
                info = reader.call("CLIENT", "INFO");
            }
            assertTrue(info.contains(" flags=tR ") && info.contains(" redir=" + subscriberId + " "), info);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aResp3ClientIsToldWhenItsRedirectClientHasGone(Target target) throws InterruptedException {
        try (RespClient reader = resp3(port(target)); RespClient writer = RespClient.connect(port(target))) {
            long goneId;
            try (RespClient gone = RespClient.connect(port(target))) {
                goneId = id(gone);
                assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON", "REDIRECT", Long.toString(goneId)));
            }
            for (int i = 0; i < 200 && !writer.call("CLIENT", "LIST", "ID", Long.toString(goneId)).equals("$0\r\n"); i++) {
                Thread.sleep(10);
            }
            reader.call("GET", "rb:x");
            assertEquals("+OK\r\n", writer.call("SET", "rb:x", "1"));
            assertEquals(">2\r\n$21\r\ntracking-redir-broken\r\n:" + goneId + "\r\n", reader.readReplyText());
            reader.send("*2\r\n$6\r\nCLIENT\r\n$12\r\nTRACKINGINFO\r\n");
            assertEquals("%3\r\n$5\r\nflags\r\n~2\r\n$2\r\non\r\n$15\r\nbroken_redirect\r\n$8\r\nredirect\r\n:" + goneId
                + "\r\n$8\r\nprefixes\r\n*0\r\n", reader.readReplyText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void broadcastSendsTheKeysOfEachPrefixSortedAndNoLoopSkipsOwnWrites(Target target) {
        try (RespClient reader = resp3(port(target)); RespClient writer = RespClient.connect(port(target))) {
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "{bc}x", "PREFIX",
                "{bc}y"));
            assertEquals("+OK\r\n", writer.call("MSET", "{bc}xb", "1", "{bc}xa", "2", "{bc}y1", "3", "{bc}z", "4"));
            assertEquals(invalidate("{bc}xa", "{bc}xb"), reader.readReplyText());
            assertEquals(invalidate("{bc}y1"), reader.readReplyText());
            assertEquals("+OK\r\n", reader.call("SET", "{bc}xq", "1"));
            assertEquals(invalidate("{bc}xq"), reader.readReplyText());
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "OFF"));
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "{bc}x", "NOLOOP"));
            assertEquals("+OK\r\n", reader.call("SET", "{bc}xq", "2"));
            assertEquals("+OK\r\n", writer.call("SET", "{bc}xr", "3"));
            assertEquals(invalidate("{bc}xr"), reader.readReplyText());
            assertEquals("+PONG\r\n", reader.call("PING"));
        }
    }

    /** Redis invalidates only keys a write modified (signalModifiedKey), in BCAST and default modes alike. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aWriteThatChangedNothingInvalidatesNothing(Target target) {
        try (RespClient broadcast = resp3(port(target)); RespClient reader = resp3(port(target));
             RespClient writer = RespClient.connect(port(target))) {
            assertEquals("+OK\r\n", broadcast.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "{un}"));
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON"));
            assertEquals("+OK\r\n", writer.call("SET", "{un}a", "1"));
            assertEquals(invalidate("{un}a"), broadcast.readReplyText());
            assertEquals("$1\r\n1\r\n", reader.call("GET", "{un}a"));
            reader.call("GET", "{un}m");

            assertTrue(writer.call("SETBIT", "{un}a", "99", "x").startsWith("-ERR bit is not an integer"));
            assertEquals("$-1\r\n", writer.call("SET", "{un}a", "2", "NX"));
            assertEquals(":0\r\n", writer.call("DEL", "{un}m"));
            assertTrue(writer.call("LPUSH", "{un}a", "x").startsWith("-WRONGTYPE"));
            assertEquals("+OK\r\n", writer.call("SET", "{un}b", "3"));

            assertEquals(invalidate("{un}b"), broadcast.readReplyText());
            assertEquals("+PONG\r\n", reader.call("PING"));
            assertEquals("+OK\r\n", writer.call("SET", "{un}a", "4"));
            assertEquals(invalidate("{un}a"), reader.readReplyText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void noLoopSkipsOwnWritesInTheDefaultMode(Target target) {
        try (RespClient reader = resp3(port(target)); RespClient writer = RespClient.connect(port(target))) {
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON", "NOLOOP"));
            reader.call("GET", "nl:a");
            reader.call("GET", "nl:b");
            assertEquals("+OK\r\n", reader.call("SET", "nl:a", "1"));
            assertEquals("+OK\r\n", writer.call("SET", "nl:a", "2"));
            assertEquals("+OK\r\n", writer.call("SET", "nl:b", "2"));
            assertEquals(invalidate("nl:b"), reader.readReplyText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void optInTracksOnlyAfterCachingYesAndOptOutSkipsAfterCachingNo(Target target) {
        try (RespClient reader = resp3(port(target)); RespClient writer = RespClient.connect(port(target))) {
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON", "OPTIN"));
            reader.call("GET", "oi:a");
            assertEquals("+OK\r\n", reader.call("CLIENT", "CACHING", "YES"));
            reader.call("GET", "oi:b");
            reader.call("GET", "oi:c");
            assertEquals("+OK\r\n", writer.call("MSET", "oi:a", "1", "oi:c", "1"));
            assertEquals("+OK\r\n", writer.call("SET", "oi:b", "1"));
            assertEquals(invalidate("oi:b"), reader.readReplyText());
            assertEquals("+OK\r\n", reader.call("CLIENT", "CACHING", "YES"));
            assertEquals("+OK\r\n", reader.call("MULTI"));
            reader.call("GET", "oi:a");
            reader.call("GET", "oi:c");
            reader.call("EXEC");
            assertEquals("+OK\r\n", writer.call("SET", "oi:c", "2"));
            assertEquals(invalidate("oi:c"), reader.readReplyText());
            assertEquals("+OK\r\n", writer.call("SET", "oi:a", "2"));
            assertEquals(invalidate("oi:a"), reader.readReplyText());

            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "OFF"));
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON", "OPTOUT"));
            assertEquals("+OK\r\n", reader.call("CLIENT", "CACHING", "NO"));
            reader.call("GET", "oi:a");
            reader.call("GET", "oi:b");
            assertEquals("+OK\r\n", writer.call("SET", "oi:a", "3"));
            assertEquals("+OK\r\n", writer.call("SET", "oi:b", "3"));
            assertEquals(invalidate("oi:b"), reader.readReplyText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void flushSendsEveryTrackingClientANullInvalidation(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient reader = resp3(server.port());
             RespClient broadcast = resp3(server.port());
             RespClient subscriber = RespClient.connect(server.port());
             RespClient redirected = RespClient.connect(server.port());
             RespClient writer = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON"));
            assertEquals("+OK\r\n", broadcast.call("CLIENT", "TRACKING", "ON", "BCAST"));
            long subscriberId = id(subscriber);
            subscriber.call("SUBSCRIBE", "__redis__:invalidate");
            assertEquals("+OK\r\n", redirected.call("CLIENT", "TRACKING", "ON", "REDIRECT", Long.toString(subscriberId)));
            reader.call("GET", "fl:a");
            redirected.call("GET", "fl:a");
            assertEquals(2, infoField(writer, "tracking_total_items"));
            assertEquals(3, infoField(writer, "tracking_clients"));
            assertEquals(1, infoField(writer, "tracking_total_prefixes"));
            assertEquals("+OK\r\n", writer.call("FLUSHALL"));
            assertEquals(">2\r\n$10\r\ninvalidate\r\n_\r\n", reader.readReplyText());
            assertEquals(">2\r\n$10\r\ninvalidate\r\n_\r\n", broadcast.readReplyText());
            assertEquals(invalidateMessage("$-1\r\n"), subscriber.readReplyText());
            assertEquals(0, infoField(writer, "tracking_total_keys"));
            assertEquals("+OK\r\n", reader.call("FLUSHDB"));
            assertEquals(">2\r\n$10\r\ninvalidate\r\n_\r\n", reader.readReplyText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theTrackingTableStaysWithinItsBoundAndInvalidatesTheKeysItGivesUp(Target target) {
        int reads = 200;
        try (LacewingServer server = Servers.builder(target).set("tracking-table-max-keys", "8").start();
             RespClient reader = resp3(server.port())) {
            assertEquals("%1\r\n$23\r\ntracking-table-max-keys\r\n$1\r\n8\r\n",
                reader.call("CONFIG", "GET", "tracking-table-max-keys"));
            assertEquals("+OK\r\n", reader.call("CLIENT", "TRACKING", "ON"));
            int pushes = 0;
            for (int i = 0; i < reads; i++) {
                String reply = reader.call("GET", "tb:" + i);
                while (reply.startsWith(">")) {
                    pushes++;
                    reply = reader.readReplyText();
                }
                assertEquals("_\r\n", reply);
            }
            String pong = reader.call("PING");
            while (pong.startsWith(">")) {
                pushes++;
                pong = reader.readReplyText();
            }
            long tracked = infoField(reader, "tracking_total_keys");
            assertTrue(tracked > 0 && tracked <= 8, "tracked " + tracked);
            assertEquals(reads, tracked + pushes);
            assertEquals(tracked, infoField(reader, "tracking_total_items"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void lettuceClientSideCachingDropsEntriesOtherClientsWrite(Target target) throws InterruptedException {
        RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(port(target))
            .withTimeout(Duration.ofSeconds(10)).build());
        client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP3).build());
        try (StatefulRedisConnection<String, String> tracked = client.connect();
             StatefulRedisConnection<String, String> writer = client.connect()) {
            Map<String, String> cache = new ConcurrentHashMap<>();
            CacheFrontend<String, String> frontend = ClientSideCaching.enable(CacheAccessor.forMap(cache), tracked,
                TrackingArgs.Builder.enabled());
            writer.sync().set("lc:a", "1");
            writer.sync().set("lc:b", "1");
            assertEquals("1", frontend.get("lc:a"));
            assertEquals("1", frontend.get("lc:b"));
            assertEquals("1", cache.get("lc:a"));
            writer.sync().set("lc:a", "2");
            for (int i = 0; i < 500 && cache.containsKey("lc:a"); i++) {
                Thread.sleep(10);
            }
            assertEquals(Map.of("lc:b", "1"), cache);
            assertEquals("2", frontend.get("lc:a"));
            writer.sync().del("lc:a", "lc:b");
            for (int i = 0; i < 500 && !cache.isEmpty(); i++) {
                Thread.sleep(10);
            }
            assertEquals(Map.of(), cache);
            frontend.close();
        } finally {
            client.shutdown();
        }
    }
}
