package dev.lacewing.core.command.hyperloglog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.command.FakeCommandContext;
import dev.lacewing.core.command.FakeCommandContext.Error;
import dev.lacewing.core.command.generic.KeyCommands;
import dev.lacewing.core.command.string.StringCommands;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The HyperLogLog family against values and counts recorded from Redis 7.0.15: the same
 * additions must give the same bytes (compared whole when short, by SHA-256 when long), sparse and
 * dense, and the same counts.
 */
class HyperLogLogCommandsTest {

    private static final Error NOT_HLL = new Error("WRONGTYPE Key is not a valid HyperLogLog string value.");
    private static final Error CORRUPT = new Error("INVALIDOBJ Corrupted HLL object detected");

    private final FakeCommandContext ctx = new FakeCommandContext(StringCommands::register, KeyCommands::register,
        HyperLogLogCommands::register);

    private static String hex(String value) {
        return HexFormat.of().formatHex(FakeCommandContext.bytes(value));
    }

    private static String sha256(String value) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(FakeCommandContext.bytes(value)));
    }

    /** PFADD of e0..e(n-1) in calls of 100 elements, as the recording did. */
    private void addElements(String key, int n) {
        for (int i = 0; i < n; i += 100) {
            List<String> words = new ArrayList<>(List.of("PFADD", key));
            for (int j = i; j < Math.min(n, i + 100); j++) {
                words.add("e" + j);
            }
            ctx.call(words.toArray(String[]::new));
        }
    }

    @Test
    void pfaddWritesRedisSparseBytesAndPfcountCachesTheCount() {
        assertEquals(1L, ctx.reply("PFADD", "h", "a", "b", "c"));
        assertEquals("48594c4c01000000000000000000008060f38050b1844bfb80425a", hex((String) ctx.reply("GET", "h")));
        assertEquals(3L, ctx.reply("PFCOUNT", "h"));
        assertEquals("48594c4c01000000030000000000000060f38050b1844bfb80425a", hex((String) ctx.reply("GET", "h")));
        assertEquals(0L, ctx.reply("PFADD", "h", "a"));
        assertEquals(3L, ctx.reply("PFCOUNT", "h"));
    }

    @ParameterizedTest(name = "{0} elements")
    @CsvSource({
        "10, 48, 5e1f7c888c80593cadd16ec9156fe7ed6c8ab05d1380008868f6e43573ca045d, 10",
        "200, 513, 48e2bfbe29cb081e284a0f7f41ab64b276f3e06f682a30ea27ea8666fd92730c, 200",
        "1000, 1906, 519a7f0764d633e025ff9f8cdeb30cd2f452e2ad37f729f6b9ea7a4699791162, 1008",
        "5000, 12304, 0a4b61a05c269540574e1293e6e18e69a4e9cb96ade9ecb5b7ff490debf31722, 4968"})
    void sparseAndDenseValuesAreByteForByteRedis(int elements, long length, String digest, long count)
        throws Exception {
        addElements("n", elements);
        assertEquals(length, ctx.reply("STRLEN", "n"));
        assertEquals(digest, sha256((String) ctx.reply("GET", "n")));
        assertEquals(count, ctx.reply("PFCOUNT", "n"));
    }

    @Test
    void pfmergeAndMultiKeyPfcountMatchRedis() throws Exception {
        addElements("n10", 10);
        addElements("n200", 200);
        addElements("n1000", 1000);
        addElements("n5000", 5000);
        assertEquals(new FakeCommandContext.Simple("OK"), ctx.reply("PFMERGE", "m", "n10", "n200"));
        assertEquals("48e2bfbe29cb081e284a0f7f41ab64b276f3e06f682a30ea27ea8666fd92730c",
            sha256((String) ctx.reply("GET", "m")));
        assertEquals(1008L, ctx.reply("PFCOUNT", "n10", "n1000", "missing"));
        ctx.call("PFMERGE", "m2", "n200", "n5000");
        assertEquals("0a4b61a05c269540574e1293e6e18e69a4e9cb96ade9ecb5b7ff490debf31722",
            sha256((String) ctx.reply("GET", "m2")));
        assertEquals(4968L, ctx.reply("PFCOUNT", "m2"));
    }

    @Test
    void aSmallSparseLimitPromotesToDenseEarly() {
        ctx.setting("hll-sparse-max-bytes", "100");
        addElements("h", 200);
        assertEquals((long) HyperLogLog.DENSE_SIZE, ctx.reply("STRLEN", "h"));
        assertEquals(200L, ctx.reply("PFCOUNT", "h"));
    }

    @Test
    void multiKeyPfcountChangesNothingAndPfmergeKeepsTheExpiry() {
        ctx.call("PFADD", "a", "x", "y");
        ctx.call("PFADD", "b", "y", "z", "w");
        String before = (String) ctx.reply("GET", "a");
        assertEquals(4L, ctx.reply("PFCOUNT", "a", "b"));
        assertEquals(before, ctx.reply("GET", "a"));
        ctx.call("EXPIRE", "a", "100");
        ctx.call("PFMERGE", "a", "b");
        assertEquals(100L, ctx.reply("TTL", "a"));
        assertEquals(4L, ctx.reply("PFCOUNT", "a"));
        assertEquals(new FakeCommandContext.Simple("OK"), ctx.reply("PFMERGE", "empty"));
        assertEquals(0L, ctx.reply("PFCOUNT", "empty"));
        assertEquals(1L, ctx.reply("PFADD", "created"));
        assertEquals(0L, ctx.reply("PFCOUNT", "created"));
    }

    @Test
    void stringsThatAreNotHyperLogLogsAndCorruptOnesAreRefused() {
        ctx.call("SET", "s", "x");
        ctx.call("SET", "magic", "HYLL");
        ctx.call("SET", "dense", "HYLL\u0000" + "\u0000".repeat(20));
        assertEquals(NOT_HLL, ctx.reply("PFADD", "s", "x"));
        assertEquals(NOT_HLL, ctx.reply("PFCOUNT", "magic"));
        assertEquals(NOT_HLL, ctx.reply("PFCOUNT", "dense"));
        assertEquals(NOT_HLL, ctx.reply("PFMERGE", "d", "s"));
        assertEquals(0L, ctx.reply("EXISTS", "d"));
        String corrupt = "HYLL\u0001" + "\u0000".repeat(10) + "\u0080\u007f\u00fe";
        ctx.call("SET", "c", corrupt);
        assertEquals(CORRUPT, ctx.reply("PFCOUNT", "c"));
        assertEquals(CORRUPT, ctx.reply("PFCOUNT", "c", "s2"));
        assertEquals(CORRUPT, ctx.reply("PFMERGE", "c2", "c"));
        assertTrue(ctx.reply("PFADD", "c", "a", "b", "c") instanceof Long);
    }

    @Test
    void elementsOfEveryTailLengthAndOfWholeBlocksHashAsInRedis() {
        String alphabet = "abcdefghijklmnopq";
        List<String> words = new ArrayList<>(List.of("PFADD", "L"));
        for (int length = 0; length <= alphabet.length(); length++) {
            words.add(alphabet.substring(0, length));
        }
        ctx.call(words.toArray(String[]::new));
        assertEquals("48594c4c01000000000000000000008042ce8042968049258c421f804551843d8440ef8443c38048cc8040a980409080"
            + "40db90455d9c44848040938c414c8443a68441d88048d5", hex((String) ctx.reply("GET", "L")));
    }
}
