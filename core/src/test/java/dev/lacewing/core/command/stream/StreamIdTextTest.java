package dev.lacewing.core.command.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StreamIdTextTest {

    private static String digits(long value) {
        byte[] into = new byte[20];
        int start = StreamCommands.unsignedDigits(into, into.length, value);
        return new String(into, start, into.length - start, StandardCharsets.US_ASCII);
    }

    @Test
    void unsignedDigitsMatchLongToUnsignedStringAtTheEdges() {
        long[] edges = {0, 1, 9, 10, 99, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, -10, -9, -2, -1};
        for (long value : edges) {
            assertEquals(Long.toUnsignedString(value), digits(value), () -> "value " + value);
        }
    }

    @Test
    void unsignedDigitsMatchLongToUnsignedStringOverRandomValues() {
        SplittableRandom random = new SplittableRandom(19);
        for (int i = 0; i < 100_000; i++) {
            long value = random.nextLong() >>> random.nextInt(64);
            assertEquals(Long.toUnsignedString(value), digits(value));
        }
    }
}
