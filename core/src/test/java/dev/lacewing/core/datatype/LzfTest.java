package dev.lacewing.core.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** LZF round trips over data of every kind, the output limit, liblzf's own output, corrupt input. */
class LzfTest {

    /** Compresses into a buffer with room to spare, checks the round trip, returns the compressed length. */
    private static int roundTrip(byte[] input) {
        byte[] compressed = new byte[input.length + input.length / 16 + 64];
        int length = Lzf.compress(input, 0, input.length, compressed, 0, compressed.length);
        assertTrue(length > 0 || input.length == 0, "compresses into enough room");
        byte[] restored = new byte[input.length];
        assertEquals(input.length, Lzf.decompress(compressed, 0, length, restored, 0, restored.length));
        assertArrayEquals(input, restored);
        return length;
    }

    private static byte[] repetitive(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append("value:").append(i);
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void randomDataRoundTripsAtEverySize() {
        Random random = new Random(7);
        for (int length = 0; length < 300; length++) {
            byte[] input = new byte[length];
            random.nextBytes(input);
            roundTrip(input);
        }
        for (int round = 0; round < 50; round++) {
            byte[] input = new byte[random.nextInt(70_000)];
            random.nextBytes(input);
            roundTrip(input);
        }
    }

    @Test
    void repetitiveDataShrinks() {
        byte[] input = repetitive(1000);
        int length = roundTrip(input);
        assertTrue(length * 2 < input.length, "value:N text compresses over 2x, got " + length + " of " + input.length);
        byte[] zeros = new byte[65536];
        assertTrue(roundTrip(zeros) < 65536 / 80, "a run of zeros becomes 264-byte back references of 3 bytes");
    }

    @Test
    void mixedDataRoundTrips() {
        Random random = new Random(11);
        for (int round = 0; round < 200; round++) {
            byte[] input = new byte[random.nextInt(20_000)];
            int at = 0;
            while (at < input.length) {
                int run = Math.min(input.length - at, 1 + random.nextInt(600));
                if (random.nextBoolean() || at == 0) {
                    byte[] noise = new byte[run];
                    random.nextBytes(noise);
                    System.arraycopy(noise, 0, input, at, run);
                } else {
                    // Copy from up to 10 KiB back: references beyond the 8 KiB window must not be made.
                    int from = Math.max(0, at - 1 - random.nextInt(10_000));
                    for (int i = 0; i < run; i++) {
                        input[at + i] = input[from + i];
                    }
                }
                at += run;
            }
            roundTrip(input);
        }
    }

    /**
     * liblzf 3.6 (which Debian's redis-server links) starts a match anywhere before the last two
     * bytes and runs it to at most the second-to-last: outputs taken from its lzf_compress.
     */
    @Test
    void matchesNearTheEndAsLiblzf() {
        byte[] out = new byte[32];
        byte[] threeBeforeTheEnd = "XabcdefghabcZ".getBytes(StandardCharsets.US_ASCII);
        int length = Lzf.compress(threeBeforeTheEnd, 0, threeBeforeTheEnd.length, out, 0, out.length);
        assertEquals("085861626364656667682007005a", HexFormat.of().formatHex(out, 0, length));
        byte[] cutShort = "XabcdefghiabcdZ".getBytes(StandardCharsets.US_ASCII);
        length = Lzf.compress(cutShort, 0, cutShort.length, out, 0, out.length);
        assertEquals("0958616263646566676869200801645a", HexFormat.of().formatHex(out, 0, length));
    }

    @Test
    void emptyAndTinyInput() {
        byte[] out = new byte[16];
        assertEquals(0, Lzf.compress(new byte[0], 0, 0, out, 0, out.length));
        assertEquals(0, Lzf.decompress(out, 0, 0, new byte[4], 0, 4));
        assertEquals(2, roundTrip(new byte[] {42}), "one literal run: control byte and the byte");
        assertEquals(3, roundTrip(new byte[] {1, 2}));
        assertEquals(4, roundTrip(new byte[] {1, 2, 3}));
    }

    @Test
    void incompressibleInputIsRefusedUnderItsOwnSize() {
        byte[] input = new byte[8192];
        new Random(3).nextBytes(input);
        byte[] out = new byte[input.length];
        assertEquals(0, Lzf.compress(input, 0, input.length, out, 0, input.length - 9),
            "random bytes do not fit under their own size");
        byte[] text = repetitive(100);
        int length = roundTrip(text);
        assertEquals(0, Lzf.compress(text, 0, text.length, out, 0, length - 1), "one byte short of room gives 0");
        // Like liblzf, the checks are conservative by a few bytes near the end.
        assertEquals(length, Lzf.compress(text, 0, text.length, out, 0, length + 4), "enough room");
    }

    @Test
    void offsetsInBothArraysAreHonoured() {
        byte[] text = repetitive(200);
        byte[] input = new byte[text.length + 10];
        System.arraycopy(text, 0, input, 5, text.length);
        byte[] compressed = new byte[text.length + 100];
        int length = Lzf.compress(input, 5, text.length, compressed, 7, compressed.length - 7);
        byte[] restored = new byte[text.length + 3];
        assertEquals(text.length, Lzf.decompress(compressed, 7, length, restored, 3, text.length));
        assertArrayEquals(text, Arrays.copyOfRange(restored, 3, restored.length));
    }

    /** What redis-server 7.0.15's liblzf wrote in an RDB for this string: the formats and the choices agree. */
    @Test
    void decompressesWhatLiblzfWrote() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            text.append("value:").append(i).append(',');
        }
        byte[] expected = text.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] fromRedis = HexFormat.of().parseHex("0876616c75653a302c7660070031a0070032a0070033a0070034a0070035a00700"
            + "36a0070037a0070038a0070039a0070031e00050c0510031c0520031c0530031c0540031c0550031c0560031c0570031c05800"
            + "31c0590032c0590032c0590032c0590032c0590032c0590032c0590032c0590032c0590032c0590032c0590033c0590033c05900"
            + "33c0590033c0590033c0590033c0590033c0590033c0590033c0590233392c");
        byte[] restored = new byte[expected.length];
        assertEquals(expected.length, Lzf.decompress(fromRedis, 0, fromRedis.length, restored, 0, restored.length));
        assertArrayEquals(expected, restored);
        byte[] ours = new byte[expected.length];
        int length = Lzf.compress(expected, 0, expected.length, ours, 0, ours.length);
        assertEquals(HexFormat.of().formatHex(fromRedis), HexFormat.of().formatHex(Arrays.copyOf(ours, length)));
    }

    /**
     * Byte for byte what redis-server 7.0.15 wrote (DUMP with rdbcompression yes): no match against
     * the first byte, the hash over four bytes, the unrolled match extension.
     */
    @Test
    void compressesAsLiblzfDoes() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            text.append("value:").append(i).append(":padding-");
        }
        assertCompressesTo(text.toString(), "1076616c75653a303a70616464696e672d76600f0031e0060f0032e0060f0033e0060f0034e0060f0035e0060f0036e0060f"
            + "0037e0060f0038e0060f0039e0060f0031e008a0e007a10031e007a20031e007a30031e007a40031e007a50031e007a60031"
            + "e007a70031e007a80031e007a90032e007a90032e007a90032e007a90032e007a90032e007a90032e007a90032e007a90032"
            + "e007a90032e007a90032c0a901672d");
        assertCompressesTo("abc".repeat(200), "03616263 61e0ff02e1ff07e1390701 6263".replace(" ", ""));
    }

    private static void assertCompressesTo(String text, String expectedHex) {
        byte[] input = text.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[input.length];
        int length = Lzf.compress(input, 0, input.length, out, 0, out.length - 4);
        assertEquals(expectedHex, HexFormat.of().formatHex(Arrays.copyOf(out, length)));
    }

    @Test
    void corruptInputIsRefused() {
        byte[] out = new byte[64];
        assertThrows(IllegalArgumentException.class, () -> Lzf.decompress(new byte[] {5, 1, 2}, 0, 3, out, 0, 64),
            "literal run past the input");
        assertThrows(IllegalArgumentException.class, () -> Lzf.decompress(new byte[] {0x20, 0}, 0, 2, out, 0, 64),
            "reference before the start of the output");
        assertThrows(IllegalArgumentException.class, () -> Lzf.decompress(new byte[] {(byte) 0xE0}, 0, 1, out, 0, 64),
            "long reference cut short");
        assertThrows(IllegalArgumentException.class, () -> Lzf.decompress(new byte[] {3, 1, 2, 3, 4}, 0, 5, out, 0, 3),
            "output longer than allowed");
    }
}
