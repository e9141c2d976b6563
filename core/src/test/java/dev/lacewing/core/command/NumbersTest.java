package dev.lacewing.core.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.command.Numbers.InvalidNumber;

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

    @Test
    void aHexadecimalLongDoubleTakesHexDigitsAndABinaryExponentADecimalOneATenExponent() {
        assertEquals(0.25, viaLongDouble("0x1p-2"));
        assertEquals(1.0, viaLongDouble("0x.8p1"));
        assertEquals(10.0, viaLongDouble("0XAP0"));
        assertEquals(481.0, viaLongDouble("0x1e1"));
        assertEquals(100.0, viaLongDouble("1E2"));
        assertEquals(-0.5, viaLongDouble("-5e-1"));
        for (String text : List.of("0x1p", "1p1", "0x", "1.5e", ".", "0x.p1", "1e2.5", "0x1.8e+1")) {
            assertThrows(InvalidNumber.class, () -> viaLongDouble(text), text);
        }
    }

    private static double bound(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return Numbers.parseBound(bytes, 0, bytes.length);
    }

    private static double sortWeight(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return Numbers.parseSortWeight(bytes, 0, bytes.length);
    }

    @Test
    void aScoreBoundSkipsLeadingSpacesReadsNothingAsZeroAndOverflowsToInfinity() {
        assertEquals(0, bound(""));
        assertEquals(1.5, bound(" \t1.5"));
        assertEquals(Double.POSITIVE_INFINITY, bound("1e400"));
        assertEquals(1e-310, bound("1e-310"));
        for (String text : List.of("  ", "1.5 ", "nan", "x")) {
            assertThrows(InvalidNumber.class, () -> bound(text), text);
        }
    }

    @Test
    void aSortWeightSkipsLeadingSpacesButRefusesOverflowAndSubnormals() {
        assertEquals(0, sortWeight(""));
        assertEquals(2, sortWeight("  2"));
        assertEquals(-1e-300, sortWeight("-1e-300"));
        for (String text : List.of("  ", "1e400", "1e-310", "2 ", "nan")) {
            assertThrows(InvalidNumber.class, () -> sortWeight(text), text);
        }
    }

    @Test
    void aSumOverflowsOnlyPastEitherEndOfTheLongRange() {
        assertFalse(Numbers.sumOverflows(Long.MAX_VALUE - 1, 1));
        assertTrue(Numbers.sumOverflows(Long.MAX_VALUE, 1));
        assertFalse(Numbers.sumOverflows(Long.MIN_VALUE + 1, -1));
        assertTrue(Numbers.sumOverflows(Long.MIN_VALUE, -1));
        assertFalse(Numbers.sumOverflows(Long.MIN_VALUE, Long.MAX_VALUE));
        assertFalse(Numbers.sumOverflows(-1, Long.MIN_VALUE + 1));
        assertTrue(Numbers.sumOverflows(-2, Long.MIN_VALUE + 1));
    }
}
