package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * When eviction runs and what a write over the limit is answered, against redis-server 7.0: the
 * same sequence on both servers gives the same replies. Redis evicts at CONFIG SET maxmemory
 * (updateMaxmemory calls performEvictions) and goes on in the background (evictionTimeProc); a
 * write is refused with OOM only when nothing is left to evict (EVICT_FAIL), not while eviction
 * goes on (EVICT_RUNNING). Each Lacewing target runs on a server of its own.
 */
class EvictionReferenceTest {

    private static final String OOM = "-OOM command not allowed when used memory > 'maxmemory'.\r\n";

    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    /**
     * CONFIG SET maxmemory 1 over 50,000 keys: the write that follows is admitted while eviction
     * goes on, every key is evicted without more writes, and a write then is refused.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aWriteIsAdmittedWhileEvictionGoesOnAndRefusedOnceNothingIsLeft(Target target) {
        assertRedisThenLacewingGive(List.of("+OK\r\n", "+OK\r\n", "keys left 0", "evicted 50001", OOM),
            target, Servers.builder(target), EvictionReferenceTest::admissionTranscript);
    }

    /**
     * Runs {@code transcript} on redis-server, which must give {@code expected}, then on a Lacewing
     * server of its own for the target, which must give the same.
     */
    private static void assertRedisThenLacewingGive(List<String> expected, Target target,
                                                    LacewingServer.Builder lacewing,
                                                    IntFunction<List<String>> transcript) {
        assertEquals(expected, transcript.apply(redis.port()));
        try (LacewingServer server = lacewing.start()) {
            assertEquals(expected, transcript.apply(server.port()), target::toString);
        }
    }

    private static List<String> admissionTranscript(int port) {
        List<String> transcript = new ArrayList<>();
        try (RespClient client = RespClient.connect(port)) {
            client.call("FLUSHALL");
            client.call("CONFIG", "RESETSTAT");
            fill(client, 50_000);
            client.call("CONFIG", "SET", "maxmemory-policy", "allkeys-random");
            transcript.add(client.call("CONFIG", "SET", "maxmemory", "1"));
            transcript.add(client.call("SET", "written", "v"));
            long left = keys(client);
            for (long deadline = System.nanoTime() + 20_000_000_000L; left > 0 && System.nanoTime() < deadline; ) {
                sleepMillis(10);
                left = keys(client);
            }
            transcript.add("keys left " + left);
            transcript.add("evicted " + infoField(client.call("INFO", "stats"), "evicted_keys"));
            transcript.add(client.call("SET", "refused", "v"));
            client.call("CONFIG", "SET", "maxmemory", "0");
            client.call("CONFIG", "SET", "maxmemory-policy", "noeviction");
        }
        return transcript;
    }

    /**
     * CONFIG SET maxmemory below the memory in use evicts by itself: a subscriber to the
     * {@code evicted} event hears every key go while no client sends another command.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void configSetMaxmemoryEvictsWithoutAnotherCommand(Target target) {
        assertRedisThenLacewingGive(List.of("+OK\r\n", "evicted events 5000", OOM),
            target, Servers.builder(target), EvictionReferenceTest::configSetTranscript);
    }

    private static List<String> configSetTranscript(int port) {
        List<String> transcript = new ArrayList<>();
        try (RespClient client = RespClient.connect(port); RespClient subscriber = RespClient.connect(port)) {
            client.call("FLUSHALL");
            client.call("CONFIG", "SET", "notify-keyspace-events", "Ee");
            fill(client, 5000);
            subscriber.call("SUBSCRIBE", "__keyevent@0__:evicted");
            client.call("CONFIG", "SET", "maxmemory-policy", "allkeys-random");
            transcript.add(client.call("CONFIG", "SET", "maxmemory", "1"));
            int events = 0;
            for (long deadline = System.nanoTime() + 20_000_000_000L; events < 5000 && System.nanoTime() < deadline; ) {
                if (subscriber.available(100)) {
                    subscriber.readReply();
                    events++;
                }
            }
            transcript.add("evicted events " + events);
            transcript.add(client.call("SET", "refused", "v"));
            client.call("CONFIG", "SET", "maxmemory", "0");
            client.call("CONFIG", "SET", "maxmemory-policy", "noeviction");
            client.call("CONFIG", "SET", "notify-keyspace-events", "");
        }
        return transcript;
    }

    /**
     * CONFIG SET maxmemory below the memory in use, pipelined in one write with the requests behind
     * it: its OK, which may wait for eviction on other threads, comes in its place, and the
     * requests behind it run after it, in order.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theRequestsPipelinedBehindConfigSetMaxmemoryAreAnsweredAfterItInOrder(Target target) {
        assertRedisThenLacewingGive(List.of("+OK\r\n", "+OK\r\n", "+PONG\r\n", "$5\r\nafter\r\n", "+OK\r\n"),
            target, Servers.builder(target), EvictionReferenceTest::pipelinedTranscript);
    }

    private static List<String> pipelinedTranscript(int port) {
        List<String> transcript = new ArrayList<>();
        try (RespClient client = RespClient.connect(port)) {
            client.call("FLUSHALL");
            fill(client, 20_000);
            String[][] pipeline = {
                {"CONFIG", "SET", "maxmemory-policy", "allkeys-random"}, {"CONFIG", "SET", "maxmemory", "1"},
                {"PING"}, {"ECHO", "after"}, {"CONFIG", "SET", "maxmemory", "0"}};
            client.send(join(List.of(pipeline)));
            for (int i = 0; i < pipeline.length; i++) {
                transcript.add(client.readReplyText());
            }
            client.call("CONFIG", "SET", "maxmemory-policy", "noeviction");
        }
        return transcript;
    }

    /**
     * maxmemory-eviction-tenacity 100 lifts the time limit: CONFIG SET maxmemory evicts all it must
     * before it replies, so an INFO pipelined behind it counts every key evicted.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void atTenacity100ConfigSetMaxmemoryEvictsEverythingBeforeItReplies(Target target) {
        assertRedisThenLacewingGive(List.of("+OK\r\n", "evicted 20000"), target, Servers.builder(target),
            port -> tenacityTranscript(port, 100));
    }

    /**
     * maxmemory-eviction-tenacity 0 leaves no time: CONFIG SET maxmemory evicts the 16 keys after
     * which the limit is first checked, and the rest goes on in the background, after the INFO
     * pipelined behind it. On one thread, where nothing else evicts in between.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void atTenacity0ConfigSetMaxmemoryEvictsSixteenKeysBeforeItReplies(Target target) {
        assertRedisThenLacewingGive(List.of("+OK\r\n", "evicted 16"), target, Servers.builder(target).threads(1),
            port -> tenacityTranscript(port, 0));
    }

    private static List<String> tenacityTranscript(int port, int tenacity) {
        List<String> transcript = new ArrayList<>();
        try (RespClient client = RespClient.connect(port)) {
            client.call("FLUSHALL");
            client.call("CONFIG", "RESETSTAT");
            fill(client, 20_000);
            client.call("CONFIG", "SET", "maxmemory-policy", "allkeys-random");
            client.call("CONFIG", "SET", "maxmemory-eviction-tenacity", Integer.toString(tenacity));
            client.send(join(List.of(new String[] {"CONFIG", "SET", "maxmemory", "1"}, new String[] {"INFO", "stats"})));
            transcript.add(client.readReplyText());
            transcript.add("evicted " + infoField(client.readReplyText(), "evicted_keys"));
            client.call("CONFIG", "SET", "maxmemory", "0");
            client.call("CONFIG", "SET", "maxmemory-policy", "noeviction");
            client.call("CONFIG", "SET", "maxmemory-eviction-tenacity", "10");
        }
        return transcript;
    }

    /** Requests encoded one after another, to be sent in one write. */
    private static byte[] join(List<String[]> requests) {
        ByteArrayOutputStream write = new ByteArrayOutputStream();
        for (String[] request : requests) {
            write.writeBytes(RespClient.encode(RespClient.toBytes(request)));
        }
        return write.toByteArray();
    }

    /** {@code count} keys {@code key:<n>}, written by pipelined MSETs of 1,000. */
    private static void fill(RespClient client, int count) {
        for (int batch = 0; batch < count; batch += 1000) {
            List<String> args = new ArrayList<>(List.of("MSET"));
            for (int i = batch; i < batch + 1000; i++) {
                args.add("key:" + i);
                args.add("value:" + i);
            }
            client.send(RespClient.encode(RespClient.toBytes(args.toArray(String[]::new))));
        }
        for (int batch = 0; batch < count; batch += 1000) {
            assertEquals("+OK\r\n", client.readReplyText());
        }
    }

    /** db0's key count from INFO keyspace (0 when the section leaves it out). */
    private static long keys(RespClient client) {
        String info = client.call("INFO", "keyspace");
        int at = info.indexOf("db0:keys=");
        return at < 0 ? 0 : Long.parseLong(info.substring(at + "db0:keys=".length(), info.indexOf(',', at)));
    }

    private static long infoField(String info, String field) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError(field + " not in INFO");
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
