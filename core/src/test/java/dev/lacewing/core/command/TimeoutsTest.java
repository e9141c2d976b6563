package dev.lacewing.core.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * How blocking commands read their timeout: seconds as a long double, times 1000 in that precision,
 * rounded up to whole milliseconds as Redis 7.0.15 does (checked against redis-server: BLPOP k 0.0001
 * times out at once, BLPOP k -0.0001 waits for ever, 9223372036854775.807 fits, 9223372036854776 is
 * "negative").
 */
class TimeoutsTest {

    private static Long millis(String seconds) {
        byte[] text = seconds.getBytes(StandardCharsets.US_ASCII);
        return Numbers.parseLongDouble(text, 0, text.length).multiply(1000).ceilingOrNull();
    }

    @Test
    void subMillisecondTimeoutsRoundUpToOneMillisecond() {
        assertEquals(1L, millis("0.001"), "0.001 s must not become 0, which waits for ever");
        assertEquals(1L, millis("0.0001"));
        assertEquals(2L, millis("0.0011"));
        assertEquals(100L, millis("0.1"));
        assertEquals(1500L, millis("1.5"));
        assertEquals(0L, millis("-0.0001"), "ceil(-0.1) is 0: for ever, as in Redis");
        assertEquals(-500L, millis("-0.5"));
    }

    @Test
    void whatDoesNotFitALongIsRefused() {
        assertEquals(9223372036854775807L, millis("9223372036854775.807"));
        assertNull(millis("9223372036854776"));
        assertNull(millis("1e100"));
        assertNull(millis("-inf"));
    }
}
