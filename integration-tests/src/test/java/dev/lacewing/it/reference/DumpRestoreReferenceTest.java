package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.persistence.rdb.Crc64;
import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DUMP and RESTORE against redis-server 7.0 on every target: the same data built the same way
 * DUMPs to the same bytes, for every type and encoding whose order is not a hash table's; each
 * server RESTOREs the other's payloads and reads back the same data; corrupt payloads get Redis's
 * errors.
 */
class DumpRestoreReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    /** A key and the commands that build it (the key is argument 1 of each), and how to read it back. */
    private record Value(String name, String encoding, List<String[]> build, String[] read) {
    }

    private static String[] cmd(String... arguments) {
        return arguments;
    }

    private static List<Value> values() {
        List<Value> values = new ArrayList<>();
        values.add(new Value("int8", "int", List.<String[]>of(cmd("SET", "K", "-12")), cmd("GET", "K")));
        values.add(new Value("int16", "int", List.<String[]>of(cmd("SET", "K", "30000")), cmd("GET", "K")));
        values.add(new Value("int32", "int", List.<String[]>of(cmd("SET", "K", "-2000000000")), cmd("GET", "K")));
        values.add(new Value("int64", "int", List.<String[]>of(cmd("SET", "K", "9223372036854775807")),
            cmd("GET", "K")));
        values.add(new Value("leading-zero", "embstr", List.<String[]>of(cmd("SET", "K", "007")), cmd("GET", "K")));
        values.add(new Value("short", "embstr", List.<String[]>of(cmd("SET", "K", "hello\r\n\u0000")), cmd("GET", "K")));
        values.add(new Value("compressible", "raw", List.<String[]>of(cmd("SET", "K", "abc".repeat(200))),
            cmd("GET", "K")));
        values.add(new Value("incompressible", "raw", List.<String[]>of(cmd("SET", "K", randomText(300))),
            cmd("GET", "K")));
        values.add(new Value("appended", "raw", List.<String[]>of(cmd("SET", "K", "12"), cmd("APPEND", "K", "34")),
            cmd("GET", "K")));
        values.add(new Value("hyperloglog", "raw", List.<String[]>of(cmd("PFADD", "K", "a", "b", "c", "d")),
            cmd("PFCOUNT", "K")));
        values.add(new Value("list", "quicklist", List.<String[]>of(cmd("RPUSH", "K", "a", "1", "-5000", "70000",
            "-9000000", "3000000000", "x".repeat(100), "y".repeat(5000)), cmd("LPUSH", "K", "head")),
            cmd("LRANGE", "K", "0", "-1")));
        List<String[]> longList = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String[] push = new String[52];
            push[0] = "RPUSH";
            push[1] = "K";
            for (int j = 0; j < 50; j++) {
                push[j + 2] = "value:" + (i * 50 + j) + ":padding-padding";
            }
            longList.add(push);
        }
        longList.add(cmd("LINSERT", "K", "BEFORE", "value:700:padding-padding", "inserted"));
        longList.add(cmd("LREM", "K", "0", "value:100:padding-padding"));
        values.add(new Value("long-list", "quicklist", longList, cmd("LRANGE", "K", "0", "-1")));
        values.add(new Value("intset", "intset", List.<String[]>of(cmd("SADD", "K", "5", "-3", "100", "70000")),
            cmd("SMEMBERS", "K")));
        values.add(new Value("intset-wide", "intset", List.<String[]>of(cmd("SADD", "K", "1", "5000000000", "2"),
            cmd("SREM", "K", "5000000000")), cmd("SMEMBERS", "K")));
        values.add(new Value("zset-listpack", "listpack", List.<String[]>of(cmd("ZADD", "K", "1", "a", "-2.5", "b",
            "0.1", "c", "1e300", "d", "-inf", "e", "inf", "f", "3", "g", "4503599627370497", "h", "-0", "i",
            "1.7976931348623157e308", "j", "123456.789", "k", "5e-324", "l")), cmd("ZRANGE", "K", "0", "-1",
            "WITHSCORES")));
        List<String[]> bigZset = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            bigZset.add(cmd("ZADD", "K", Double.toString(i * 0.37 - 20), "member:" + i));
        }
        values.add(new Value("zset-skiplist", "skiplist", bigZset, cmd("ZRANGE", "K", "0", "-1", "WITHSCORES")));
        values.add(new Value("zset-long-member", "skiplist", List.<String[]>of(cmd("ZADD", "K", "1", "m".repeat(100),
            "2", "n")), cmd("ZRANGE", "K", "0", "-1", "WITHSCORES")));
        values.add(new Value("hash-listpack", "listpack", List.<String[]>of(cmd("HSET", "K", "f1", "v1", "f2", "12",
            "num", "-70000", "f3", "z".repeat(60)), cmd("HDEL", "K", "f2")), cmd("HGETALL", "K")));
        values.add(new Value("stream", "stream", streamBuild(), cmd("XRANGE", "K", "-", "+")));
        return values;
    }

    /**
     * A stream of three nodes (100 entries a node, the bound that splits first here), entries
     * with other fields than the master's, integers of every width, a long value, deletions and an
     * exact trim (deleted entries stay in their nodes), and groups without consumers.
     */
    private static List<String[]> streamBuild() {
        List<String[]> build = new ArrayList<>();
        for (int i = 1; i <= 250; i++) {
            build.add(i % 40 == 0 ? cmd("XADD", "K", i + "-" + i, "other", "x", "n", Integer.toString(-i))
                : cmd("XADD", "K", i + "-1", "f", "value-" + i, "n", Long.toString(i * 9_999_999L)));
        }
        build.add(cmd("XADD", "K", "5000000000-7", "f", "v".repeat(100), "n", "-70000"));
        build.add(cmd("XDEL", "K", "3-1", "150-1", "250-1"));
        build.add(cmd("XTRIM", "K", "MAXLEN", "240"));
        build.add(cmd("XGROUP", "CREATE", "K", "g1", "0"));
        build.add(cmd("XGROUP", "CREATE", "K", "g2", "120-1", "ENTRIESREAD", "100"));
        build.add(cmd("XGROUP", "CREATE", "K", "g3", "$"));
        return build;
    }

    /** Values stored in a hash table: Redis's DUMP order is its table's, so they are compared by content. */
    private static List<Value> tableValues() {
        List<Value> values = new ArrayList<>();
        values.add(new Value("set-table", "hashtable", List.<String[]>of(cmd("SADD", "K", "a", "b", "1", "c",
            "long member ".repeat(5))), cmd("SORT", "K", "ALPHA")));
        List<String[]> bigSet = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            bigSet.add(cmd("SADD", "K", Integer.toString(i * 7)));
        }
        values.add(new Value("set-many-integers", "hashtable", bigSet, cmd("SORT", "K")));
        values.add(new Value("hash-table", "hashtable", List.<String[]>of(cmd("HSET", "K", "f1", "v1", "f2",
            "w".repeat(100), "12", "34")), cmd("SORT", "K", "BY", "nosort", "GET", "#", "ALPHA")));
        return values;
    }

    private static String randomText(int length) {
        java.util.Random random = new java.util.Random(17);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append((char) ('!' + random.nextInt(90)));
        }
        return text.toString();
    }

    static Stream<Arguments> targets() {
        return Servers.all().map(Arguments::of);
    }

    private static String key(Value value) {
        return "dump" + RUNS.incrementAndGet() + ":" + value.name();
    }

    /** The command with its "K" arguments (the key, wherever the command takes it) replaced by {@code key}. */
    private static String[] withKey(String[] command, String key) {
        String[] arguments = command.clone();
        for (int i = 1; i < arguments.length; i++) {
            if (arguments[i].equals("K")) {
                arguments[i] = key;
            }
        }
        return arguments;
    }

    private static void build(RespClient client, Value value, String key) {
        for (String[] command : value.build()) {
            String[] arguments = withKey(command, key);
            String reply = client.call(arguments);
            if (reply.startsWith("-")) {
                throw new AssertionError(String.join(" ", command) + " -> " + reply);
            }
        }
    }

    private static String read(RespClient client, Value value, String key) {
        return client.call(withKey(value.read(), key));
    }

    /** The bytes of a bulk-string reply. */
    private static byte[] bulk(byte[] reply) {
        int headerEnd = 0;
        while (reply[headerEnd] != '\r') {
            headerEnd++;
        }
        return Arrays.copyOfRange(reply, headerEnd + 2, reply.length - 2);
    }

    private static byte[] dump(RespClient client, String key) {
        return bulk(client.callBytes(RespClient.toBytes("DUMP", key)));
    }

    private static String restore(RespClient client, String key, byte[] payload, String... options) {
        List<byte[]> arguments = new ArrayList<>(List.of(bytes("RESTORE"), bytes(key), bytes("0"), payload));
        for (String option : options) {
            arguments.add(bytes(option));
        }
        return RespClient.text(client.callBytes(arguments));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void dumpsTheBytesRedisDumps(Target target) {
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            for (Value value : values()) {
                String key = key(value);
                build(reference, value, key);
                build(lacewing, value, key);
                assertEquals("$" + value.encoding().length() + "\r\n" + value.encoding() + "\r\n",
                    reference.call("OBJECT", "ENCODING", key), value.name());
                byte[] expected = dump(reference, key);
                assertSameBytes(expected, dump(lacewing, key), value.name());
            }
        }
    }

    /**
     * With list-compress-depth 1 the interior nodes are LZF-compressed, and DUMP writes them as
     * their compressed blobs: the same bytes as Redis's; each side restores the other's list.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void compressedListNodesDumpAsRedisDoes(Target target) {
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            Value list = values().stream().filter(value -> value.name().equals("long-list")).findFirst().orElseThrow();
            String key = key(list);
            try {
                for (RespClient client : List.of(reference, lacewing)) {
                    assertEquals("+OK\r\n", client.call("CONFIG", "SET", "list-compress-depth", "1"));
                    build(client, list, key);
                }
                byte[] fromRedis = dump(reference, key);
                assertSameBytes(fromRedis, dump(lacewing, key), "compressed list");
                assertEquals("+OK\r\n", restore(lacewing, key + ":from-redis", fromRedis));
                assertEquals(read(lacewing, list, key), read(lacewing, list, key + ":from-redis"));
                assertSameBytes(fromRedis, dump(lacewing, key + ":from-redis"), "restored compressed list");
                assertEquals("+OK\r\n", restore(reference, key + ":from-lacewing", dump(lacewing, key)));
                assertEquals(read(reference, list, key), read(reference, list, key + ":from-lacewing"));
            } finally {
                for (RespClient client : List.of(reference, lacewing)) {
                    client.call("CONFIG", "SET", "list-compress-depth", "0");
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void restoresWhatRedisDumpedAndTheReverse(Target target) {
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            List<Value> all = new ArrayList<>(values());
            all.addAll(tableValues());
            for (Value value : all) {
                String key = key(value);
                build(reference, value, key);
                build(lacewing, value, key);
                // Each server reads the restored key as it reads its own original (reply formats of
                // scores differ between the two, the data must not).
                String fromRedis = key + ":from-redis";
                assertEquals("+OK\r\n", restore(lacewing, fromRedis, dump(reference, key)), value.name());
                assertEquals(read(lacewing, value, key), read(lacewing, value, fromRedis), value.name());

                String fromLacewing = key + ":from-lacewing";
                assertEquals("+OK\r\n", restore(reference, fromLacewing, dump(lacewing, key)), value.name());
                assertEquals(read(reference, value, key), read(reference, value, fromLacewing), value.name());
                assertEquals(reference.call("OBJECT", "ENCODING", fromLacewing),
                    lacewing.call("OBJECT", "ENCODING", fromRedis), value.name());
            }
        }
    }

    /** XINFO STREAM FULL without radix-tree-nodes, which counts Redis's radix tree's inner nodes. */
    private static String streamInfo(RespClient client, String key) {
        return client.call("XINFO", "STREAM", key, "FULL").replaceFirst("radix-tree-nodes\r\n:\\d+", "");
    }

    /**
     * A stream with consumer groups, pending entries (one of them deleted from the stream, one
     * claimed by another consumer) and consumers with and without pending entries: each server
     * restores the other's DUMP and shows the same entries, groups, PELs, delivery times and counts
     * and seen times; a payload restored from Redis dumps back to the same bytes.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void streamWithGroupsRestoresBothWays(Target target) {
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            List<String[]> commands = new ArrayList<>(streamBuild());
            commands.add(cmd("XREADGROUP", "GROUP", "g1", "alice", "COUNT", "3", "STREAMS", "K", ">"));
            commands.add(cmd("XREADGROUP", "GROUP", "g1", "bob", "COUNT", "2", "STREAMS", "K", ">"));
            commands.add(cmd("XGROUP", "CREATECONSUMER", "K", "g1", "idle"));
            commands.add(cmd("XACK", "K", "g1", "12-1"));
            commands.add(cmd("XDEL", "K", "14-1"));
            commands.add(cmd("XCLAIM", "K", "g1", "bob", "0", "11-1"));
            commands.add(cmd("XREADGROUP", "GROUP", "g2", "carol", "COUNT", "1", "STREAMS", "K", ">"));
            Value stream = new Value("stream-groups", "stream", commands, cmd("XRANGE", "K", "-", "+"));
            String key = key(stream);
            build(reference, stream, key);
            build(lacewing, stream, key);

            String fromRedis = key + ":from-redis";
            byte[] redisPayload = dump(reference, key);
            assertEquals("+OK\r\n", restore(lacewing, fromRedis, redisPayload));
            assertEquals(read(reference, stream, key), read(lacewing, stream, fromRedis));
            assertEquals(streamInfo(reference, key), streamInfo(lacewing, fromRedis));
            assertEquals(reference.call("XPENDING", key, "g1"), lacewing.call("XPENDING", fromRedis, "g1"));
            assertSameBytes(redisPayload, dump(lacewing, fromRedis), "stream restored from Redis");

            String fromLacewing = key + ":from-lacewing";
            assertEquals("+OK\r\n", restore(reference, fromLacewing, dump(lacewing, key)));
            assertEquals(read(lacewing, stream, key), read(reference, stream, fromLacewing));
            assertEquals(streamInfo(lacewing, key), streamInfo(reference, fromLacewing));
            assertEquals(lacewing.call("XPENDING", key, "g1"), reference.call("XPENDING", fromLacewing, "g1"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void restoreOptionsAndErrorsAsRedis(Target target) {
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            String key = "dump" + RUNS.incrementAndGet() + ":errors";
            byte[] good = null;
            for (RespClient client : List.of(reference, lacewing)) {
                client.call("SET", key, "value");
                good = dump(client, key);
            }
            byte[] badChecksum = good.clone();
            badChecksum[badChecksum.length - 1] ^= 1;
            byte[] newerVersion = withChecksum(good, 11);
            byte[] truncatedBody = withChecksum(Arrays.copyOfRange(good, 0, 3), 10);
            byte[] unknownType = withChecksum(new byte[] {(byte) 200, 0}, 10);
            // A string that claims 2^31 - 1 bytes, with a valid footer: refused without allocating it.
            byte[] hugeLength = withChecksum(new byte[] {0, (byte) 0x80, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                'a'}, 10);
            // An LZF string that claims 2 GB once decompressed.
            byte[] hugeLzf = withChecksum(new byte[] {0, (byte) 0xC3, 2, (byte) 0x80, 0x7F, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, 0, 'a'}, 10);
            // A set that claims 2^31 - 1 members.
            byte[] hugeCount = withChecksum(new byte[] {2, (byte) 0x80, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                1, 'a'}, 10);
            String other = key + ":other";
            List<List<byte[]>> calls = List.of(
                args("RESTORE", key, "0", good),
                args("RESTORE", other, "0", good, "REPLACE", "FREQ"),
                args("RESTORE", other, "0", good, "IDLETIME", "-1"),
                args("RESTORE", other, "0", good, "IDLETIME", "x"),
                args("RESTORE", other, "0", good, "FREQ", "256"),
                args("RESTORE", other, "0", good, "IDLETIME", "1", "FREQ", "1"),
                args("RESTORE", other, "0", good, "BOGUS"),
                args("RESTORE", other, "-1", good),
                args("RESTORE", other, "x", good),
                args("RESTORE", other, "0", bytes("short")),
                args("RESTORE", other, "0", badChecksum),
                args("RESTORE", other, "0", newerVersion),
                args("RESTORE", other, "0", truncatedBody),
                args("RESTORE", other, "0", unknownType),
                args("RESTORE", other, "0", hugeLength),
                args("RESTORE", other, "0", hugeLzf),
                args("RESTORE", other, "0", hugeCount),
                args("EXISTS", other),
                args("RESTORE", key, "0", good, "REPLACE", "IDLETIME", "10"),
                args("RESTORE", other, "100000", good, "REPLACE"),
                args("PTTL", other),
                args("RESTORE", other, "1", good, "REPLACE", "ABSTTL"),
                args("EXISTS", other),
                args("RESTORE", other, "0", good, "ABSTTL", "FREQ", "7"),
                args("GET", other),
                args("DUMP", key + ":missing"),
                args("DUMP", key, "extra"));
            for (List<byte[]> call : calls) {
                String expected = RespClient.text(reference.callBytes(call));
                String actual = RespClient.text(lacewing.callBytes(call));
                if (new String(call.get(0), StandardCharsets.UTF_8).equals("PTTL")) {
                    long left = Long.parseLong(actual.substring(1).trim());
                    assertEquals(true, left > 90_000 && left <= 100_000, actual);
                } else {
                    assertEquals(expected, actual, RespClient.escape(call.get(call.size() > 3 ? 3 : 1)));
                }
            }
        }
    }

    /** Fails with where two payloads first differ, rather than both whole. */
    private static void assertSameBytes(byte[] expected, byte[] actual, String name) {
        int at = Arrays.mismatch(expected, actual);
        if (at >= 0) {
            int from = Math.max(0, at - 16);
            throw new AssertionError(name + ": " + expected.length + " bytes expected, " + actual.length
                + " dumped; first difference at " + at + ": expected ..."
                + RespClient.escape(Arrays.copyOfRange(expected, from, Math.min(expected.length, at + 16)))
                + " but was ..." + RespClient.escape(Arrays.copyOfRange(actual, from, Math.min(actual.length, at + 16))));
        }
    }

    /**
     * IDLETIME under an LRU meaning and FREQ under an LFU policy set the restored key's access
     * field, as objectSetLRUOrLFU does; the option of the other meaning is ignored. On a server of
     * its own, as the policy changes.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void restoreSetsIdleTimeOrFrequency(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient lacewing = RespClient.connect(server.port())) {
            lacewing.call("SET", "source", "value");
            byte[] payload = dump(lacewing, "source");
            assertEquals("+OK\r\n", restore(lacewing, "idle", payload, "IDLETIME", "1000"));
            String idle = lacewing.call("OBJECT", "IDLETIME", "idle");
            assertTrue(idle.equals(":1000\r\n") || idle.equals(":1001\r\n"), idle);
            assertEquals("+OK\r\n", restore(lacewing, "ignored", payload, "FREQ", "100"));
            assertEquals(":0\r\n", lacewing.call("OBJECT", "IDLETIME", "ignored"));
            // Idle longer than the 24-bit clock's range: it wraps, as redis-server 7.0.15's does
            // (100000000 mod 2^24 = 16113920, a second less when the clock itself wrapped since).
            assertEquals("+OK\r\n", restore(lacewing, "ancient", payload, "IDLETIME", "100000000"));
            long ancient = Long.parseLong(lacewing.call("OBJECT", "IDLETIME", "ancient").substring(1).trim());
            assertTrue(ancient >= 16113919 && ancient <= 16113921, Long.toString(ancient));

            assertEquals("+OK\r\n", lacewing.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu"));
            assertEquals("+OK\r\n", restore(lacewing, "frequent", payload, "FREQ", "100"));
            assertEquals(":100\r\n", lacewing.call("OBJECT", "FREQ", "frequent"));
            assertEquals("+OK\r\n", restore(lacewing, "new", payload, "IDLETIME", "50"));
            assertEquals(":5\r\n", lacewing.call("OBJECT", "FREQ", "new"));
        }
    }

    private static List<byte[]> args(Object... arguments) {
        List<byte[]> list = new ArrayList<>();
        for (Object argument : arguments) {
            list.add(argument instanceof byte[] b ? b : bytes((String) argument));
        }
        return list;
    }

    /** A payload of {@code body} with the given RDB version and a correct checksum. */
    private static byte[] withChecksum(byte[] payload, int version) {
        int bodyLength = payload.length >= 10 && version == 11 ? payload.length - 10 : payload.length;
        byte[] out = Arrays.copyOf(payload, bodyLength + 10);
        out[bodyLength] = (byte) version;
        out[bodyLength + 1] = 0;
        long crc = Crc64.update(0, out, 0, bodyLength + 2);
        for (int i = 0; i < 8; i++) {
            out[bodyLength + 2 + i] = (byte) (crc >>> 8 * i);
        }
        return out;
    }
}
