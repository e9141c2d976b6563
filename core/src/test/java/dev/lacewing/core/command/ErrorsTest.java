package dev.lacewing.core.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ErrorsTest {

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    @Test
    void aQuotedArgumentKeepsItsRawBytesAndEndsAtItsFirstNul() {
        byte[] argument = {'x', 'a', (byte) 0xff, 'b', 0, 'c'};
        assertEquals("ERR Syntax error in HELLO option 'a\u00ffb'",
            text(Errors.quoting("ERR Syntax error in HELLO option '", argument, 1, 5, Integer.MAX_VALUE, "'")));
        assertEquals("ERR Unsupported option ", text(Errors.unsupportedOption(new byte[] {0, (byte) 0xff}, 0, 2)));
    }

    @Test
    void aQuotedArgumentIsCutAtItsLimitInBytes() {
        byte[] argument = "\u00e9".repeat(100).getBytes(StandardCharsets.UTF_8);
        byte[] quoted = Errors.quoting("'", argument, 0, argument.length, 128, "'");
        assertEquals(130, quoted.length);
    }
}
