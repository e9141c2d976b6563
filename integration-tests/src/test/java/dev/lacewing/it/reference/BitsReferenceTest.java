package dev.lacewing.it.reference;

import static dev.lacewing.it.resp.RespClient.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bitmaps and HyperLogLogs against Debian's real redis-server 7.0: the same scripts must get
 * byte-identical replies, and HyperLogLog values must be byte-identical too, sparse and dense, so
 * that a value moved between the two servers (GET on one, SET on the other) keeps its count.
 */
class BitsReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    static final List<String[]> SCRIPTS = List.of(
        new String[] {"command-info-docs-getkeys", """
            COMMAND INFO setbit getbit bitcount bitpos bitop bitfield bitfield_ro pfadd pfcount pfmerge
            COMMAND DOCS setbit getbit bitcount bitpos bitop bitfield bitfield_ro pfadd pfcount pfmerge
            COMMAND GETKEYS BITOP AND {p}d {p}a {p}b
            COMMAND GETKEYS PFCOUNT {p}a {p}b {p}c
            COMMAND GETKEYS PFMERGE {p}d {p}a
            COMMAND GETKEYS BITFIELD {p}a GET u8 0
            """},
        new String[] {"setbit-getbit", """
            SETBIT {p}bm 7 1
            GET {p}bm
            SETBIT {p}bm 7 1
            SETBIT {p}bm 7 0
            SETBIT {p}bm 100 1
            STRLEN {p}bm
            GETBIT {p}bm 100
            GETBIT {p}bm 99
            GETBIT {p}bm 1000
            GETBIT {p}missing 0
            SETBIT {p}bm 8 2
            SETBIT {p}bm 8 -1
            SETBIT {p}bm 8 x
            SETBIT {p}bm -1 1
            SETBIT {p}bm 4294967296 1
            SETBIT {p}bm 99999999999999999999 1
            SETBIT {p}bm 1.5 1
            SETBIT {p}bm #8 1
            GETBIT {p}bm x
            GETBIT {p}bm 4294967296
            SET {p}s foobar EX 100
            SETBIT {p}s 100 1
            TTL {p}s
            GET {p}s
            @typed {p}list
            SETBIT {p}list 0 1
            SETBIT {p}list 0 x
            GETBIT {p}list 0
            GETBIT {p}list x
            SETBIT {p}bm
            GETBIT {p}bm
            """},
        new String[] {"bitcount", """
            SET {p}s foobar
            BITCOUNT {p}s
            BITCOUNT {p}s 0 0
            BITCOUNT {p}s 1 1
            BITCOUNT {p}s 1 1 BYTE
            BITCOUNT {p}s 1 1 bit
            BITCOUNT {p}s -2 -1
            BITCOUNT {p}s 5 30 BIT
            BITCOUNT {p}s 0 -1 BIT
            BITCOUNT {p}s -100 100
            BITCOUNT {p}s 3 1
            BITCOUNT {p}s -1 -2 foo
            BITCOUNT {p}s 1
            BITCOUNT {p}s 1 2 3 4
            BITCOUNT {p}s 1 2 foo
            BITCOUNT {p}s a b
            BITCOUNT {p}s 9223372036854775807 -9223372036854775808 BIT
            BITCOUNT {p}missing
            BITCOUNT {p}missing a b
            BITCOUNT {p}missing 1
            SET {p}empty ""
            BITCOUNT {p}empty
            BITCOUNT {p}empty 0 -1 BIT
            @typed {p}list
            BITCOUNT {p}list
            BITCOUNT
            """},
        new String[] {"bitpos", """
            SET {p}b "\\xff\\xf0\\x00"
            BITPOS {p}b 0
            BITPOS {p}b 1
            BITPOS {p}b 1 1
            BITPOS {p}b 1 2
            BITPOS {p}b 0 0 0
            BITPOS {p}b 1 7 15 BIT
            BITPOS {p}b 0 2 -1 BIT
            BITPOS {p}b 0 0 11 BIT
            BITPOS {p}b 0 3 5 bit
            BITPOS {p}b 1 -1
            BITPOS {p}b 0 -100 100 BYTE
            SET {p}ones "\\xff\\xff"
            BITPOS {p}ones 0
            BITPOS {p}ones 0 1
            BITPOS {p}ones 0 0 -1
            BITPOS {p}ones 1 2
            SET {p}zeros "\\x00\\x00"
            BITPOS {p}zeros 1
            BITPOS {p}zeros 0 1
            SET {p}empty ""
            BITPOS {p}empty 0
            BITPOS {p}empty 1
            BITPOS {p}missing 1
            BITPOS {p}missing 0
            BITPOS {p}missing 1 a b c d
            BITPOS {p}missing 2
            BITPOS {p}missing x
            BITPOS {p}b 1 2 3 bit x
            BITPOS {p}b 1 a
            BITPOS {p}b 0 1 2 foo
            BITPOS {p}b 0 1 a foo
            BITPOS {p}b 0 1 a
            @typed {p}list
            BITPOS {p}list 1
            BITPOS {p}b
            """},
        new String[] {"bitop", """
            SET {p}a1 "\\x0f\\xf0"
            SET {p}a2 "\\xff"
            BITOP AND {p}d {p}a1 {p}a2
            GET {p}d
            BITOP or {p}d {p}a1 {p}a2 {p}missing
            GET {p}d
            BITOP XOR {p}d {p}a1 {p}a2
            GET {p}d
            BITOP NOT {p}d {p}a1
            GET {p}d
            BITOP AND {p}d {p}a1 {p}missing
            GET {p}d
            BITOP AND {p}d {p}m1 {p}m2
            EXISTS {p}d
            SET {p}d x EX 100
            BITOP OR {p}d {p}a1
            TTL {p}d
            BITOP OR {p}a1 {p}a1 {p}a2
            GET {p}a1
            BITOP FOO {p}d {p}a1
            BITOP NOT {p}d {p}a1 {p}a2
            BITOP NOT {p}d
            @typed {p}list
            BITOP AND {p}d {p}a1 {p}list
            BITOP AND {p}d {p}list {p}nosuch
            GET {p}d
            BITOP AND {p}d
            """},
        new String[] {"bitfield", """
            BITFIELD {p}bf SET u8 0 255 GET u8 0
            BITFIELD {p}bf INCRBY u2 100 1 OVERFLOW SAT INCRBY u2 102 5 OVERFLOW FAIL INCRBY u2 102 5
            STRLEN {p}bf
            BITFIELD {p}bf SET i8 #1 -100 GET i8 8 GET u4 8 INCRBY i8 8 -100
            BITFIELD {p}bf OVERFLOW WRAP INCRBY i64 0 9223372036854775807 INCRBY i64 0 9223372036854775807
            BITFIELD {p}bf GET u63 0 GET i64 0 SET u63 0 -1
            BITFIELD {p}bf OVERFLOW SAT SET u8 0 -1 SET i8 0 1000 SET i8 0 -1000 GET i8 0
            BITFIELD {p}bf OVERFLOW WRAP SET u8 0 -1 SET i8 0 1000 SET u1 0 3 GET u8 0
            BITFIELD {p}bf OVERFLOW SAT INCRBY i64 0 9223372036854775807 INCRBY i64 0 -9223372036854775808
            BITFIELD {p}bf OVERFLOW FAIL INCRBY u63 0 -1 INCRBY i1 0 1 GET i1 0
            BITFIELD {p}bf GET u8 #2 GET i5 3 GET u3 13 GET u8 1000000
            BITFIELD {p}fail OVERFLOW FAIL INCRBY u2 30 9
            STRLEN {p}fail
            BITFIELD {p}bf GET u64 0
            BITFIELD {p}bf GET I8 0
            BITFIELD {p}bf GET i65 0
            BITFIELD {p}bf GET u0 0
            BITFIELD {p}bf GET x8 0
            BITFIELD {p}bf GET "" 0
            BITFIELD {p}bf OVERFLOW foo GET u8 0
            BITFIELD {p}bf GET u8
            BITFIELD {p}bf SET u8 0
            BITFIELD {p}bf FOO u8 0
            BITFIELD {p}bf GET u8 -1
            BITFIELD {p}bf GET u8 #-1
            BITFIELD {p}bf GET u8 4294967296
            BITFIELD {p}bf SET u8 0 x
            BITFIELD {p}bf SET u8 0 1 GET u8 x
            BITFIELD {p}bf OVERFLOW
            BITFIELD {p}new
            EXISTS {p}new
            BITFIELD_RO {p}bf GET u8 0 GET i16 4
            BITFIELD_RO {p}bf GET u8 0 SET u8 0 1
            BITFIELD_RO {p}bf INCRBY u8 0 1
            BITFIELD_RO {p}bf OVERFLOW SAT
            BITFIELD_RO {p}missing GET u8 0
            @typed {p}list
            BITFIELD {p}list GET u8 0
            BITFIELD {p}list SET u8 0 1
            BITFIELD {p}list GET
            BITFIELD_RO {p}list GET u8 0
            BITFIELD
            BITFIELD_RO
            """},
        new String[] {"pfadd-pfcount-pfmerge", """
            PFADD {p}h a b c
            GET {p}h
            PFCOUNT {p}h
            GET {p}h
            PFADD {p}h a
            PFADD {p}h
            PFADD {p}new
            GET {p}new
            PFCOUNT {p}new
            PFADD {p}h2 c d e "" "\\x00\\xff"
            PFCOUNT {p}h {p}h2
            PFCOUNT {p}h {p}h2 {p}missing
            PFCOUNT {p}missing
            CONFIG GET hll-sparse-max-bytes
            PFMERGE {p}m {p}h {p}h2
            GET {p}m
            PFCOUNT {p}m
            PFMERGE {p}m
            PFMERGE {p}empty
            GET {p}empty
            SET {p}s x
            SET {p}magic HYLL
            SET {p}num 123
            SET {p}dense "HYLL\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
            SET {p}corrupt "HYLL\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x80\\x7f\\xfe"
            SET {p}badenc "HYLL\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x80\\x7f\\xff"
            PFADD {p}s x
            PFADD {p}num x
            PFCOUNT {p}magic
            PFCOUNT {p}dense
            PFCOUNT {p}badenc
            PFCOUNT {p}corrupt
            PFCOUNT {p}corrupt {p}h
            PFMERGE {p}m {p}corrupt
            PFMERGE {p}m {p}s
            PFMERGE {p}s {p}h
            PFADD {p}corrupt a b c
            GET {p}corrupt
            @typed {p}list
            PFADD {p}list a
            PFCOUNT {p}list
            PFCOUNT {p}h {p}list
            PFMERGE {p}list {p}h
            PFMERGE {p}h {p}list
            PFADD
            PFCOUNT
            PFMERGE
            """});

    static Stream<Arguments> scripts() {
        return ScriptComparison.onEveryTarget(SCRIPTS);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void repliesAsRedisDoes(Target target, String name, String text) {
        Script script = Script.parse(name, text, "bits" + RUNS.incrementAndGet() + ":");
        ScriptComparison.assertSameReplies(script, redis.port(), target);
    }

    static Stream<Target> targets() {
        return Servers.all();
    }

    /**
     * The same PFADDs give the same bytes on both servers at each size (sparse, sparse near the
     * 3000-byte limit, dense), and each server counts the other's value as its author does.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void hyperLogLogValuesAreByteIdenticalAndMoveBetweenServers(Target target) {
        String prefix = "bits" + RUNS.incrementAndGet() + ":";
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            int[] sizes = {1, 30, 400, 1500, 3000, 20_000};
            for (int size : sizes) {
                byte[] key = bytes(prefix + "n" + size);
                for (int from = 0; from < size; from += 1000) {
                    List<byte[]> add = new ArrayList<>(List.of(bytes("PFADD"), key));
                    for (int i = from; i < Math.min(size, from + 1000); i++) {
                        add.add(bytes("element:" + i));
                    }
                    assertArrayEquals(reference.callBytes(add), lacewing.callBytes(add), "PFADD reply, size " + size);
                }
                byte[] fromRedis = bulk(reference.callBytes(List.of(bytes("GET"), key)));
                byte[] fromLacewing = bulk(lacewing.callBytes(List.of(bytes("GET"), key)));
                assertArrayEquals(fromRedis, fromLacewing, "HLL bytes after " + size + " elements");
                byte[] moved = bytes(prefix + "moved" + size);
                assertEquals("+OK\r\n", RespClient.text(lacewing.callBytes(List.of(bytes("SET"), moved, fromRedis))));
                assertEquals("+OK\r\n", RespClient.text(reference.callBytes(List.of(bytes("SET"), moved, fromLacewing))));
                String redisCount = RespClient.text(reference.callBytes(List.of(bytes("PFCOUNT"), key)));
                assertEquals(redisCount, RespClient.text(lacewing.callBytes(List.of(bytes("PFCOUNT"), moved))),
                    "Lacewing counts Redis's value of " + size);
                assertEquals(redisCount, RespClient.text(reference.callBytes(List.of(bytes("PFCOUNT"), moved))),
                    "Redis counts Lacewing's value of " + size);
                assertEquals(redisCount, RespClient.text(lacewing.callBytes(List.of(bytes("PFCOUNT"), key))));
                assertArrayEquals(reference.callBytes(List.of(bytes("GET"), key)),
                    lacewing.callBytes(List.of(bytes("GET"), key)), "the cached count is written the same way");
            }
            List<List<byte[]>> merges = List.of(
                List.of(bytes("PFMERGE"), bytes(prefix + "m1"), bytes(prefix + "n30"), bytes(prefix + "n400")),
                List.of(bytes("PFMERGE"), bytes(prefix + "m2"), bytes(prefix + "n400"), bytes(prefix + "n1500"),
                    bytes(prefix + "n3000")),
                List.of(bytes("PFMERGE"), bytes(prefix + "m3"), bytes(prefix + "n30"), bytes(prefix + "n20000")),
                List.of(bytes("PFMERGE"), bytes(prefix + "n30"), bytes(prefix + "n1"), bytes(prefix + "missing")));
            for (List<byte[]> merge : merges) {
                assertEquals("+OK\r\n", RespClient.text(reference.callBytes(merge)));
                assertEquals("+OK\r\n", RespClient.text(lacewing.callBytes(merge)));
                List<byte[]> get = List.of(bytes("GET"), merge.get(1));
                assertArrayEquals(reference.callBytes(get), lacewing.callBytes(get),
                    "PFMERGE result of " + RespClient.text(merge.get(2)));
                List<byte[]> count = List.of(bytes("PFCOUNT"), merge.get(1));
                assertArrayEquals(reference.callBytes(count), lacewing.callBytes(count));
            }
            List<byte[]> union = List.of(bytes("PFCOUNT"), bytes(prefix + "n400"), bytes(prefix + "n3000"),
                bytes(prefix + "n20000"), bytes(prefix + "m1"));
            assertArrayEquals(reference.callBytes(union), lacewing.callBytes(union), "union count");
        }
    }

    /**
     * Seeded random sequences of bit and HyperLogLog commands (random elements, offsets, types,
     * ranges and merges over a few keys) sent to both servers; every reply must be identical, and
     * HyperLogLog values are compared byte for byte after each change. A failure names the seed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void randomSequencesAgreeWithRedis(Target target) {
        long seed = System.nanoTime();
        java.util.Random random = new java.util.Random(seed);
        String prefix = "bits" + RUNS.incrementAndGet() + ":";
        String[] types = {"u1", "u7", "u8", "u31", "u63", "i1", "i8", "i13", "i32", "i64"};
        String[] overflows = {"WRAP", "SAT", "FAIL"};
        String[] operations = {"AND", "OR", "XOR", "NOT"};
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            for (int step = 0; step < 1500; step++) {
                String hll = prefix + "h" + random.nextInt(4);
                String bitmap = prefix + "b" + random.nextInt(3);
                List<String> command = switch (random.nextInt(12)) {
                    case 0, 1, 2 -> {
                        List<String> add = new ArrayList<>(List.of("PFADD", hll));
                        int elements = random.nextInt(40);
                        for (int i = 0; i < elements; i++) {
                            add.add(Long.toString(random.nextLong() % 100_000, 36));
                        }
                        yield add;
                    }
                    case 3 -> List.of("PFMERGE", hll, prefix + "h" + random.nextInt(4), prefix + "h" + random.nextInt(4));
                    case 4 -> List.of("PFCOUNT", hll);
                    case 5 -> List.of("PFCOUNT", hll, prefix + "h" + random.nextInt(4));
                    case 6 -> List.of("SETBIT", bitmap, Integer.toString(random.nextInt(300)),
                        Integer.toString(random.nextInt(2)));
                    case 7 -> List.of("BITCOUNT", bitmap, Integer.toString(random.nextInt(80) - 40),
                        Integer.toString(random.nextInt(80) - 40), random.nextBoolean() ? "BIT" : "BYTE");
                    case 8 -> random.nextBoolean()
                        ? List.of("BITPOS", bitmap, Integer.toString(random.nextInt(2)),
                            Integer.toString(random.nextInt(80) - 40), Integer.toString(random.nextInt(80) - 40),
                            random.nextBoolean() ? "BIT" : "BYTE")
                        : List.of("BITPOS", bitmap, Integer.toString(random.nextInt(2)),
                            Integer.toString(random.nextInt(20) - 10));
                    case 9 -> {
                        String operation = operations[random.nextInt(4)];
                        yield operation.equals("NOT") ? List.of("BITOP", operation, bitmap, prefix + "b" + random.nextInt(3))
                            : List.of("BITOP", operation, bitmap, prefix + "b" + random.nextInt(3),
                                prefix + "b" + random.nextInt(3));
                    }
                    default -> {
                        List<String> field = new ArrayList<>(List.of("BITFIELD", bitmap));
                        for (int i = random.nextInt(4); i >= 0; i--) {
                            String type = types[random.nextInt(types.length)];
                            String offset = random.nextInt(4) == 0 ? "#" + random.nextInt(5)
                                : Integer.toString(random.nextInt(200));
                            switch (random.nextInt(4)) {
                                case 0 -> field.addAll(List.of("GET", type, offset));
                                case 1 -> field.addAll(List.of("SET", type, offset, Long.toString(random.nextLong()
                                    >> random.nextInt(64))));
                                case 2 -> field.addAll(List.of("INCRBY", type, offset, Long.toString(random.nextLong()
                                    >> random.nextInt(64))));
                                default -> field.addAll(List.of("OVERFLOW", overflows[random.nextInt(3)]));
                            }
                        }
                        yield field;
                    }
                };
                List<byte[]> arguments = command.stream().map(RespClient::bytes).toList();
                String expected = RespClient.text(reference.callBytes(arguments));
                String actual = RespClient.text(lacewing.callBytes(arguments));
                assertEquals(expected, actual, "seed " + seed + ", step " + step + ": " + String.join(" ", command));
                if (command.get(0).startsWith("PF")) {
                    List<byte[]> get = List.of(bytes("GET"), bytes(command.get(1)));
                    assertArrayEquals(reference.callBytes(get), lacewing.callBytes(get),
                        "value after seed " + seed + ", step " + step + ": " + String.join(" ", command));
                }
            }
        }
    }

    /** The payload of a bulk-string reply. */
    private static byte[] bulk(byte[] reply) {
        int lineEnd = 0;
        while (reply[lineEnd] != '\r') {
            lineEnd++;
        }
        int length = Integer.parseInt(new String(reply, 1, lineEnd - 1, StandardCharsets.US_ASCII));
        return Arrays.copyOfRange(reply, lineEnd + 2, lineEnd + 2 + length);
    }
}
