package dev.lacewing.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommandTemplateTest {

    private static final byte[] PREFIX = "memtier-".getBytes(StandardCharsets.US_ASCII);

    @Test
    void encodesKeyAndDataInPlaceAroundTheLiteralWords() {
        CommandTemplate set = new CommandTemplate(List.of("SET", "__key__", "__data__", "EX", "100"));
        ByteBuf out = Unpooled.buffer();
        int written = set.encode(out, PREFIX, 1234567, "abcdef".getBytes(StandardCharsets.US_ASCII), 4);
        String expected = "*5\r\n$3\r\nSET\r\n$15\r\nmemtier-1234567\r\n$4\r\nabcd\r\n$2\r\nEX\r\n$3\r\n100\r\n";
        assertEquals(expected, out.toString(StandardCharsets.US_ASCII));
        assertEquals(expected.length(), written);
        assertEquals("Sets", set.name());
        assertEquals("SET", set.command());
        assertFalse(set.isRead());
        assertTrue(set.usesData());
    }

    @Test
    void keyIndexZeroAndAnEmptyPrefixEncode() {
        CommandTemplate get = new CommandTemplate(List.of("get", "__key__"));
        ByteBuf out = Unpooled.buffer();
        get.encode(out, new byte[0], 0, new byte[0], 0);
        assertEquals("*2\r\n$3\r\nget\r\n$1\r\n0\r\n", out.toString(StandardCharsets.US_ASCII));
        assertEquals("Gets", get.name());
        assertTrue(get.isRead());
        assertFalse(get.usesData());
    }

    @Test
    void wordsSplitAtSpacesAndQuotesGroupThem() {
        assertEquals(List.of("SET", "__key__", "a b", "c"), CommandTemplate.words("  SET __key__ 'a b'   \"c\" "));
    }
}
