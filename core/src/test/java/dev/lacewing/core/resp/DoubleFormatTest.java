package dev.lacewing.core.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DoubleFormatTest {

    @Test
    void shortestDigitsInPercentGLayout() {
        assertEquals("1e+20", DoubleFormat.reply(1e20));
        assertEquals("1.5e+17", DoubleFormat.reply(1.5e17));
        assertEquals("1.2345678901234568e+17", DoubleFormat.reply(123456789012345678d));
        assertEquals("99999999999999984", DoubleFormat.reply(99999999999999984d));
        assertEquals("0.1", DoubleFormat.reply(0.1));
        assertEquals("0.0001", DoubleFormat.reply(0.0001));
        assertEquals("1e-05", DoubleFormat.reply(0.00001));
        assertEquals("-2e-05", DoubleFormat.reply(-0.00002));
        assertEquals("3.5", DoubleFormat.reply(3.5));
        assertEquals("-7", DoubleFormat.reply(-7.0));
        assertEquals("1.7976931348623157e+308", DoubleFormat.reply(Double.MAX_VALUE));
        assertEquals("inf", DoubleFormat.reply(Double.POSITIVE_INFINITY));
        assertEquals("-inf", DoubleFormat.reply(Double.NEGATIVE_INFINITY));
    }
}
