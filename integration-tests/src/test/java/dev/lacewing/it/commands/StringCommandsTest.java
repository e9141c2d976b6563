package dev.lacewing.it.commands;

import static dev.lacewing.it.resp.RespClient.bytes;
import static dev.lacewing.it.resp.RespClient.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import dev.lacewing.it.server.TypedValueFixture;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.GetExArgs;
import io.lettuce.core.KeyValue;
import io.lettuce.core.LcsArgs;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.StringMatchResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The string family through lettuce (sync, pipelined async, RESP2 and RESP3) and raw sockets. */
class StringCommandsTest {

    private static byte[] key(Target target, String name) {
        return bytes("str:" + target + ":" + name);
    }

    /** Every byte value, with NUL and CR LF among them. */
    private static byte[] allBytes() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        return all;
    }

    private static void inBothProtocols(Target target,
                                        java.util.function.BiConsumer<ProtocolVersion, RedisCommands<byte[], byte[]>> body) {
        inBothProtocols(target, ByteArrayCodec.INSTANCE, body);
    }

    private static <T> void inBothProtocols(Target target, RedisCodec<T, T> codec,
                                            java.util.function.BiConsumer<ProtocolVersion, RedisCommands<T, T>> body) {
        for (ProtocolVersion version : ProtocolVersion.values()) {
            RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", Servers.server(target).port()));
            client.setOptions(ClientOptions.builder().protocolVersion(version).build());
            try (StatefulRedisConnection<T, T> connection = client.connect(codec)) {
                body.accept(version, connection.sync());
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void setAndGetWithEveryOptionInBothProtocols(Target target) {
        inBothProtocols(target, (version, sync) -> {
            byte[] k = key(target, "set:" + version);
            assertEquals("OK", sync.set(k, bytes("v1")));
            assertArrayEquals(bytes("v1"), sync.get(k));
            assertNull(sync.set(k, bytes("x"), SetArgs.Builder.nx()));
            assertEquals("OK", sync.set(k, bytes("v2"), SetArgs.Builder.xx()));
            assertArrayEquals(bytes("v2"), sync.setGet(k, bytes("v3")));
            assertEquals("OK", sync.set(k, bytes("v4"), SetArgs.Builder.ex(100)));
            assertEquals("OK", sync.set(k, bytes("v5"), SetArgs.Builder.px(100_000)));
            assertEquals("OK", sync.set(k, bytes("v6"), SetArgs.Builder.exAt(System.currentTimeMillis() / 1000 + 100)));
            assertEquals("OK", sync.set(k, bytes("v7"), SetArgs.Builder.pxAt(System.currentTimeMillis() + 100_000)));
            assertEquals("OK", sync.set(k, bytes("v8"), SetArgs.Builder.keepttl()));
            assertArrayEquals(bytes("v8"), sync.getdel(k));
            assertNull(sync.get(k));
            assertEquals("OK", sync.set(k, bytes("short"), SetArgs.Builder.px(1)));
            sleep(20);
            assertNull(sync.get(k), "expired");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void counterAndRangeCommands(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            byte[] n = key(target, "counter");
            assertEquals(1L, sync.incr(n));
            assertEquals(11L, sync.incrby(n, 10));
            assertEquals(10L, sync.decr(n));
            assertEquals(5L, sync.decrby(n, 5));
            assertEquals(6.5, sync.incrbyfloat(n, 1.5));
            assertArrayEquals(bytes("6.5"), sync.getdel(n));
            byte[] s = key(target, "range");
            assertEquals(5L, sync.append(s, bytes("hello")));
            assertEquals(11L, sync.append(s, bytes(" world")));
            assertEquals(11L, sync.strlen(s));
            assertArrayEquals(bytes("world"), sync.getrange(s, -5, -1));
            assertEquals(11L, sync.setrange(s, 6, bytes("Redis")));
            assertArrayEquals(bytes("hello Redis"), sync.get(s));
            assertEquals(false, sync.setnx(s, bytes("no")));
            assertEquals("OK", sync.setex(s, 100, bytes("ex")));
            assertEquals("OK", sync.psetex(s, 100_000, bytes("px")));
            assertArrayEquals(bytes("px"), sync.getex(s, GetExArgs.Builder.persist()));
            assertArrayEquals(bytes("px"), sync.getset(s, bytes("last")));
            assertArrayEquals(bytes("last"), sync.getdel(s));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void keysValuesAndArgumentsAreBinarySafe(Target target) {
        byte[] all = allBytes();
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            byte[] k = concat(key(target, "bin:"), all);
            assertEquals("OK", sync.set(k, all));
            assertArrayEquals(all, sync.get(k));
            assertEquals(512L, sync.append(k, all));
            assertArrayEquals(java.util.Arrays.copyOfRange(all, 250, 256), sync.getrange(k, 250, 255));
            assertEquals(512L, sync.setrange(k, 0, bytes("\r\n\0")));
            assertArrayEquals(bytes("\r\n\0"), java.util.Arrays.copyOf(sync.getdel(k), 3));
            Map<byte[], byte[]> many = new LinkedHashMap<>();
            for (int b = 0; b < 256; b++) {
                many.put(concat(key(target, "bin:one:"), new byte[] {(byte) b}), new byte[] {(byte) b, 0, '\r', '\n'});
            }
            assertEquals("OK", sync.mset(many));
            List<KeyValue<byte[], byte[]>> got = sync.mget(many.keySet().toArray(new byte[0][]));
            int b = 0;
            for (KeyValue<byte[], byte[]> value : got) {
                assertArrayEquals(new byte[] {(byte) b++, 0, '\r', '\n'}, value.getValue());
            }
        }
        try (RespClient raw = RespClient.connect(Servers.server(target).port())) {
            byte[] k = concat(key(target, "raw:"), all);
            assertEquals("+OK\r\n", RespClient.text(raw.callBytes(List.of(bytes("SET"), k, all))));
            byte[] expected = concat(concat(bytes("$256\r\n"), all), bytes("\r\n"));
            assertArrayEquals(expected, raw.callBytes(List.of(bytes("GETDEL"), k)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void errorsAreWordedAsRedisWordsThem(Target target) {
        String k = "str:" + target + ":errors";
        try (RespClient raw = RespClient.connect(Servers.server(target).port())) {
            assertEquals("+OK\r\n", raw.call("SET", k, "abc"));
            assertEquals("-ERR value is not an integer or out of range\r\n", raw.call("INCR", k));
            assertEquals("-ERR value is not an integer or out of range\r\n", raw.call("INCRBY", k + "n", "1.5"));
            assertEquals("-ERR value is not a valid float\r\n", raw.call("INCRBYFLOAT", k, "1"));
            assertEquals("-ERR syntax error\r\n", raw.call("SET", k, "v", "NX", "XX"));
            assertEquals("-ERR syntax error\r\n", raw.call("SET", k, "v", "FOO"));
            assertEquals("-ERR invalid expire time in 'set' command\r\n", raw.call("SET", k, "v", "EX", "0"));
            assertEquals("-ERR invalid expire time in 'setex' command\r\n", raw.call("SETEX", k, "-1", "v"));
            assertEquals("-ERR wrong number of arguments for 'get' command\r\n", raw.call("GET"));
            assertEquals("-ERR wrong number of arguments for 'mset' command\r\n", raw.call("MSET", "a", "1", "b"));
            assertEquals("-ERR unknown command 'foo', with args beginning with: 'a' 'b' \r\n", raw.call("foo", "a", "b"));
            assertEquals(":9223372036854775807\r\n", raw.call("INCRBY", k + "n", "9223372036854775807"));
            assertEquals("-ERR increment or decrement would overflow\r\n", raw.call("INCR", k + "n"));
            assertEquals("-ERR offset is out of range\r\n", raw.call("SETRANGE", k, "-1", "x"));
            assertEquals("-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n",
                raw.call("SETRANGE", k, "536870912", "x"));
            raw.call("GETDEL", k);
            raw.call("GETDEL", k + "n");
        }
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            sync.set(bytes(k + "x"), bytes("not a number"));
            RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class,
                () -> sync.incr(bytes(k + "x")));
            assertEquals("ERR value is not an integer or out of range", e.getMessage());
            sync.getdel(bytes(k + "x"));
        }
    }

    /** LCS through lettuce in both protocols (keys on two shards), and its errors as Redis words them. */
    /**
     * APPEND and SETRANGE past the end grow the string as Redis's sds grows (twice the length
     * below 1 MiB), in place while the room lasts; MEMORY USAGE counts the room, and a value stored
     * by SET or COPY has none. A new key made by SETRANGE has none either, as sdsnewlen makes it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void appendAndSetrangeGrowWithRoomThatMemoryUsageCountsUntilAValueIsStored(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            byte[] k = key(target, "{grow}");
            byte[] copy = key(target, "{grow}:copy");
            sync.del(k, copy);
            byte[] expected = new byte[150_100];
            Arrays.fill(expected, 0, 100_000, (byte) 'a');
            assertEquals(100_000L, sync.append(k, Arrays.copyOf(expected, 100_000)));
            assertTrue(sync.memoryUsage(k) < 100_000 + 200, "stored as SET stores it: " + sync.memoryUsage(k));
            sync.expire(k, 1000);
            Arrays.fill(expected, 100_000, 100_100, (byte) 'b');
            assertEquals(100_100L, sync.append(k, Arrays.copyOfRange(expected, 100_000, 100_100)));
            long grown = sync.memoryUsage(k);
            assertTrue(grown >= 2 * 100_100 && grown < 2 * 100_100 + 200, "room as sdsMakeRoomFor leaves: " + grown);
            for (int length = 100_100; length < expected.length; length += 1000) {
                Arrays.fill(expected, length, length + 1000, (byte) ('c' + length / 1000 % 20));
                assertEquals(length + 1000L, sync.append(k, Arrays.copyOfRange(expected, length, length + 1000)));
            }
            assertEquals(grown, sync.memoryUsage(k), "appended into the room");
            assertArrayEquals(expected, sync.get(k));
            assertTrue(sync.ttl(k) > 0, "the expiry is kept");
            assertEquals("raw", sync.objectEncoding(k));
            assertTrue(sync.copy(k, copy));
            assertTrue(sync.memoryUsage(copy) < expected.length + 200, "a copy has no room: " + sync.memoryUsage(copy));
            assertEquals("OK", sync.set(k, expected));
            assertTrue(sync.memoryUsage(k) < expected.length + 200, "SET gives the room back: " + sync.memoryUsage(k));

            sync.del(k);
            assertEquals(100_000L, sync.setrange(k, 99_999, bytes("x")));
            assertTrue(sync.memoryUsage(k) < 100_000 + 200, "made at its length: " + sync.memoryUsage(k));
            assertEquals(100_010L, sync.setrange(k, 100_009, bytes("y")));
            assertTrue(sync.memoryUsage(k) >= 2 * 100_010, "grown with room: " + sync.memoryUsage(k));
            byte[] patched = new byte[100_010];
            patched[99_999] = 'x';
            patched[100_009] = 'y';
            assertArrayEquals(patched, sync.get(k));
            sync.del(k, copy);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void lcsGivesRedisSubsequenceLengthAndRanges(Target target) {
        String a = "str:" + target + ":lcs:a";
        String b = "str:" + target + ":lcs:b";
        inBothProtocols(target, StringCodec.UTF8, (version, sync) -> {
            sync.mset(Map.of(a, "ohmytext", b, "mynewtext"));
            assertEquals("mytext", sync.lcs(new LcsArgs().by(a, b)).getMatchString());
            assertEquals(6, sync.lcs(new LcsArgs().by(a, b).justLen()).getLen());
            StringMatchResult ranges = sync.lcs(new LcsArgs().by(a, b).withIdx().withMatchLen());
            assertEquals(6, ranges.getLen());
            // Last match first, as Redis emits them: "text" at 4-7 / 5-8, then "my" at 2-3 / 0-1.
            assertEquals(List.of("4-7/5-8:4", "2-3/0-1:2"), ranges.getMatches().stream()
                .map(m -> m.getA().getStart() + "-" + m.getA().getEnd() + "/" + m.getB().getStart() + "-"
                    + m.getB().getEnd() + ":" + m.getMatchLen())
                .toList(), version.toString());
            assertEquals(1, sync.lcs(new LcsArgs().by(a, b).withIdx().minMatchLen(4)).getMatches().size());
            assertEquals("", sync.lcs(new LcsArgs().by(a, a + ":missing")).getMatchString());
            sync.del(a, b);
        });
        try (RespClient raw = RespClient.connect(Servers.server(target).port())) {
            assertEquals("+OK\r\n", raw.call("MSET", a, "ABCBDAB", b, "BDCABA"));
            assertEquals("$4\r\nBDAB\r\n", raw.call("LCS", a, b));
            assertEquals("*4\r\n$7\r\nmatches\r\n*0\r\n$3\r\nlen\r\n:4\r\n", raw.call("LCS", a, b, "IDX",
                "MINMATCHLEN", "3"));
            assertEquals("-ERR If you want both the length and indexes, please just use IDX.\r\n",
                raw.call("LCS", a, b, "LEN", "IDX"));
            assertEquals("-ERR syntax error\r\n", raw.call("LCS", a, b, "MINMATCHLEN"));
            assertEquals("-ERR value is not an integer or out of range\r\n",
                raw.call("LCS", a, b, "MINMATCHLEN", "x"));
            assertEquals("+OK\r\n", raw.call(TypedValueFixture.COMMAND, a + ":other"));
            assertEquals("-ERR The specified keys must contain string values\r\n",
                raw.call("LCS", a + ":other", b, "FOO"));
            // 12,001 squared cells at 4 bytes pass the default proto-max-bulk-len: refused, not computed.
            assertEquals("+OK\r\n", raw.call("MSET", a, "x".repeat(12_000), b, "x".repeat(12_000)));
            assertEquals("-ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len\r\n",
                raw.call("LCS", a, b, "LEN"));
            assertEquals(":3\r\n", raw.call("DEL", a, b, a + ":other"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void stringCommandsOnAnotherTypeReplyWrongtype(Target target) {
        String wrongType = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
        String k = "str:" + target + ":list";
        try (RespClient raw = RespClient.connect(Servers.server(target).port())) {
            assertEquals("+OK\r\n", raw.call(TypedValueFixture.COMMAND, k));
            String[][] commands = {{"GET", k}, {"SET", k, "v", "GET"}, {"GETSET", k, "v"}, {"GETDEL", k},
                {"GETEX", k}, {"INCR", k}, {"DECRBY", k, "1"}, {"INCRBYFLOAT", k, "1"}, {"APPEND", k, "x"},
                {"STRLEN", k}, {"GETRANGE", k, "0", "1"}, {"SETRANGE", k, "0", "x"}};
            for (String[] command : commands) {
                assertEquals(wrongType, raw.call(command), String.join(" ", command));
            }
            assertEquals("*1\r\n$-1\r\n", raw.call("MGET", k));
            assertEquals(":0\r\n", raw.call("SETNX", k, "v"));
            assertEquals("+OK\r\n", raw.call("SET", k, "v"));
            assertEquals("$1\r\nv\r\n", raw.call("GETDEL", k));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void msetMgetAndMsetnxSpanShardsWithManyKeys(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            Map<byte[], byte[]> values = new LinkedHashMap<>();
            for (int i = 0; i < 500; i++) {
                values.put(key(target, "many:" + i), bytes("value-" + i));
            }
            assertEquals("OK", sync.mset(values));
            List<KeyValue<byte[], byte[]>> got = sync.mget(values.keySet().toArray(new byte[0][]));
            for (int i = 0; i < 500; i++) {
                assertEquals("value-" + i, text(got.get(i).getValue()));
            }
            Map<byte[], byte[]> fresh = new LinkedHashMap<>();
            for (int i = 0; i < 100; i++) {
                fresh.put(key(target, "fresh:" + i), bytes("f" + i));
            }
            fresh.put(key(target, "many:7"), bytes("clash"));
            assertEquals(false, sync.msetnx(fresh));
            assertNull(sync.get(key(target, "fresh:0")), "MSETNX sets nothing when one key exists");
            fresh.remove(key(target, "many:7"));
            Map<byte[], byte[]> clean = new LinkedHashMap<>();
            for (int i = 0; i < 100; i++) {
                clean.put(key(target, "fresh2:" + i), bytes("f" + i));
            }
            assertEquals(true, sync.msetnx(clean));
            assertEquals("f99", text(sync.get(key(target, "fresh2:99"))));
            for (byte[] k : values.keySet()) {
                sync.getdel(k);
            }
            for (byte[] k : clean.keySet()) {
                sync.getdel(k);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aThousandPipelinedStringCommandsReplyInOrder(Target target) throws Exception {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisAsyncCommands<byte[], byte[]> async = connection.async();
            connection.setAutoFlushCommands(false);
            List<RedisFuture<Long>> increments = new ArrayList<>();
            byte[] counter = key(target, "pipelined:counter");
            List<RedisFuture<?>> all = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                if (i % 2 == 0) {
                    RedisFuture<Long> increment = async.incr(counter);
                    increments.add(increment);
                    all.add(increment);
                } else {
                    all.add(async.append(key(target, "pipelined:log"), bytes(Integer.toString(i % 10))));
                }
            }
            RedisFuture<byte[]> log = async.getdel(key(target, "pipelined:log"));
            RedisFuture<byte[]> total = async.getdel(counter);
            connection.flushCommands();
            connection.setAutoFlushCommands(true);
            assertTrue(LettuceFutures.awaitAll(Duration.ofSeconds(20), all.toArray(new RedisFuture[0])));
            for (int i = 0; i < increments.size(); i++) {
                assertEquals(i + 1L, increments.get(i).get());
            }
            assertEquals(500, log.get().length);
            assertEquals("500", text(total.get()));
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
