package dev.lacewing.core.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class NumbersTest {

    private static double viaLongDouble(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return Numbers.parseLongDouble(bytes, 0, bytes.length).toDouble();
    }

    /** A blocking command's 0.001 s timeout depends on it: 0.001 * 1000 must be 1 ms, not 0. */
    @Test
    void aLongDoubleConvertsToTheNearestDouble() {
        for (String text : List.of("0.001", "0.002", "0.01", "0.1", "0.3", "1e-5", "123.456", "3.14159",
                "2.5", "1e300", "-7.1", "0x1.8p1", "9007199254740993")) {
            assertEquals(Double.parseDouble(text), viaLongDouble(text), text);
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 2000; i++) {
            double value = Double.longBitsToDouble(random.nextLong() & 0x7fefffffffffffffL);
            if (Math.abs(value) > 1e-300) {
                String text = Double.toString(value);
                assertEquals(value, viaLongDouble(text), text);
            }
        }
        assertEquals(1, (long) (viaLongDouble("0.001") * 1000.0));
    }
}
