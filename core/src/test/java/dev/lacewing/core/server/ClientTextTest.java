package dev.lacewing.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ClientTextTest {

    private static String quote(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        return ClientText.quote(bytes, 0, bytes.length);
    }

    @Test
    void quotesAsRedisSdscatreprDoes() {
        assertEquals("\"a b\\\\c\\\"d\\n\\r\\t\\a\\b\\x00\\x1b\\x7f\\xff\"",
            quote("a b\\c\"d\n\r\t\u0007\b\0\u001b\u007f\u00ff"));
    }

    @Test
    void quotesAStringByItsUtf8Bytes() {
        assertEquals("\"\\xc3\\xa9\\n\"", ClientText.quote("\u00e9\n"));
    }

    @Test
    void samplesAShortBufferWhole() {
        byte[] bytes = "xx*1\r\nfoo\r\n".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("\"*1\\r\\nfoo\\r\\n\"", ClientText.sample(bytes, 2, bytes.length - 2));
    }

    @Test
    void samplesALongBufferByItsFirstAndLastSixtyFourBytes() {
        byte[] bytes = ("a".repeat(64) + "b".repeat(100) + "c".repeat(64)).getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("\"" + "a".repeat(64) + "\" (... more 100 bytes ...) \"" + "c".repeat(64) + "\"",
            ClientText.sample(bytes, 0, bytes.length));
    }

    @Test
    void oneLineEscapesControlCharactersOnly() {
        assertEquals("bad \"x\\ny\\x85\" \u00e9", ClientText.oneLine("bad \"x\ny\u0085\" \u00e9"));
        assertEquals("plain", ClientText.oneLine("plain"));
    }
}
