package dev.lacewing.it.reference;

import static dev.lacewing.it.resp.RespClient.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Strings grown by edits past 1 MiB, which Lacewing keeps in chunks, against Debian's real
 * redis-server 7.0: the same value is built on both (APPENDs, SETRANGE and SETBIT past the end),
 * then every string command that reads or edits it must get a byte-identical reply, offsets on
 * and across chunk boundaries included.
 */
class LongStringReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    /** Lacewing's chunk size (1 MiB less an array header): offsets either side of chunk 1's start. */
    private static final int CHUNK = 1024 * 1024 - 16;
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    static Stream<Target> targets() {
        return Servers.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void everyStringCommandOnAStringGrownPastOneMebibyteRepliesAsRedisDoes(Target target) {
        String p = "{long" + RUNS.incrementAndGet() + "}";
        byte[] piece = new byte[64 * 1024];
        List<List<byte[]>> commands = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            for (int j = 0; j < piece.length; j++) {
                piece[j] = (byte) (i * 31 + j * 7);
            }
            commands.add(List.of(bytes("APPEND"), bytes(p + "g"), piece.clone()));
        }
        String boundary = String.valueOf(CHUNK);
        String bit = String.valueOf(8L * CHUNK - 1);
        String[][] lines = {
            {"STRLEN", p + "g"},
            {"GET", p + "g"},
            {"GETRANGE", p + "g", "0", "10"},
            {"GETRANGE", p + "g", String.valueOf(CHUNK - 50), String.valueOf(CHUNK + 50)},
            {"GETRANGE", p + "g", "-100", "-1"},
            {"GETRANGE", p + "g", "0", "-1"},
            {"SUBSTR", p + "g", "1000000", "1300000"},
            {"SETRANGE", p + "g", String.valueOf(CHUNK - 5), "across-the-boundary"},
            {"GETRANGE", p + "g", String.valueOf(CHUNK - 50), String.valueOf(CHUNK + 50)},
            {"SETRANGE", p + "g", "2621430", "past-the-end"},
            {"STRLEN", p + "g"},
            {"GETBIT", p + "g", bit},
            {"SETBIT", p + "g", bit, "1"},
            {"GETBIT", p + "g", bit},
            {"SETBIT", p + "g", String.valueOf(8L * CHUNK), "0"},
            {"SETBIT", p + "g", "30000000", "1"},
            {"STRLEN", p + "g"},
            {"BITCOUNT", p + "g"},
            {"BITCOUNT", p + "g", "100", "3000000"},
            {"BITCOUNT", p + "g", "8", String.valueOf(8L * CHUNK + 8), "BIT"},
            {"BITPOS", p + "g", "1", "3000000"},
            {"BITPOS", p + "g", "0"},
            {"BITFIELD", p + "g", "GET", "u8", "0", "SET", "i16", String.valueOf(8L * CHUNK - 4), "-5",
                "INCRBY", "u32", bit, "7", "GET", "u32", String.valueOf(8L * CHUNK - 16),
                "OVERFLOW", "SAT", "INCRBY", "i8", "24000000", "200", "GET", "u8", "99999999999"},
            {"BITFIELD_RO", p + "g", "GET", "u16", "100", "GET", "i32", String.valueOf(8L * CHUNK - 10)},
            {"GETRANGE", p + "g", String.valueOf(CHUNK - 50), String.valueOf(CHUNK + 50)},
            {"SETRANGE", p + "z", "3000000", "tail"},
            {"STRLEN", p + "z"},
            {"GETRANGE", p + "z", "2999990", "-1"},
            {"APPEND", p + "z", "more"},
            {"BITOP", "XOR", p + "x", p + "g", p + "z"},
            {"GET", p + "x"},
            {"BITOP", "NOT", p + "n", p + "g"},
            {"BITCOUNT", p + "n"},
            {"INCR", p + "g"},
            {"DECRBY", p + "g", "3"},
            {"INCRBYFLOAT", p + "g", "1.5"},
            {"OBJECT", "ENCODING", p + "g"},
            {"TYPE", p + "g"},
            {"EXISTS", p + "g"},
            {"COPY", p + "g", p + "c"},
            {"GET", p + "c"},
            {"MGET", p + "g", p + "missing", p + "z"},
            {"SET", p + "s", "small"},
            {"GETSET", p + "z", "replaced"},
            {"EXPIRE", p + "g", "1000"},
            {"GETEX", p + "g", "PERSIST"},
            {"TTL", p + "g"},
            {"RENAME", p + "g", p + "r"},
            {"APPEND", p + "r", "after-rename"},
            {"GETDEL", p + "r"},
            {"EXISTS", p + "r"},
        };
        for (String[] line : lines) {
            List<byte[]> command = new ArrayList<>();
            for (String argument : line) {
                command.add(bytes(argument));
            }
            commands.add(command);
        }
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            for (List<byte[]> command : commands) {
                byte[] expected = reference.callBytes(command);
                byte[] actual = lacewing.callBytes(command);
                assertArrayEquals(expected, actual, () -> RespClient.text(command.get(0)) + " "
                    + (command.size() > 2 ? RespClient.text(command.get(2)) : "") + ": "
                    + shown(expected) + " / " + shown(actual));
            }
        }
    }

    /**
     * DUMP of a chunked string restores on redis-server to the same bytes, and MEMORY USAGE counts
     * the room past the string as Redis's sds does: up to 1 MiB past the length at each growth (here
     * rounded up to a chunk, there to jemalloc's size class), not an eighth of a 20 MB string.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aChunkedStringDumpsForRedisAndCountsItsRoomAsRedisDoes(Target target) {
        String p = "{dump" + RUNS.incrementAndGet() + "}";
        byte[] piece = new byte[1_000_000];
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            for (int i = 0; i < 20; i++) {
                Arrays.fill(piece, (byte) ('a' + i % 26));
                piece[i] = 'z';
                List<byte[]> append = List.of(bytes("APPEND"), bytes(p + "g"), piece.clone());
                assertArrayEquals(reference.callBytes(append), lacewing.callBytes(append));
            }
            byte[] dump = bulk(lacewing.callBytes(List.of(bytes("DUMP"), bytes(p + "g"))));
            assertEquals("+OK\r\n", RespClient.text(reference.callBytes(
                List.of(bytes("RESTORE"), bytes(p + "restored"), bytes("0"), dump))));
            assertArrayEquals(reference.callBytes(List.of(bytes("GET"), bytes(p + "g"))),
                reference.callBytes(List.of(bytes("GET"), bytes(p + "restored"))));
            long redisUsage = integer(reference.callBytes(List.of(bytes("MEMORY"), bytes("USAGE"), bytes(p + "g"))));
            long usage = integer(lacewing.callBytes(List.of(bytes("MEMORY"), bytes("USAGE"), bytes(p + "g"))));
            assertTrue(usage > 20_000_000 && usage <= 20_000_000 + 1024 * 1024 + CHUNK + 4096
                    && usage <= redisUsage + CHUNK + 4096,
                "MEMORY USAGE " + usage + " against Redis's " + redisUsage);
        }
    }

    private static long integer(byte[] reply) {
        String text = RespClient.text(reply).trim();
        return Long.parseLong(text.substring(1));
    }

    private static byte[] bulk(byte[] reply) {
        String text = RespClient.text(reply);
        int start = text.indexOf("\r\n") + 2;
        return Arrays.copyOfRange(reply, start, reply.length - 2);
    }

    private static String shown(byte[] reply) {
        String text = RespClient.escape(reply);
        return text.length() > 300 ? text.substring(0, 300) + "... (" + reply.length + " bytes)" : text;
    }
}
