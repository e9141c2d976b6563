package dev.lacewing.core.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The bytes of each reply shape, RESP2 and RESP3, with the numbers at their edges. */
class RespWriterTest {

    private static String written(int protocol, Consumer<RespWriter> replies) {
        ByteBuf buffer = Unpooled.buffer(4);
        RespWriter writer = new RespWriter();
        writer.protocol(protocol);
        writer.target(buffer);
        replies.accept(writer);
        return buffer.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void integersAtTheirEdges() {
        assertEquals(":0\r\n:7\r\n:-1\r\n:10\r\n:-10\r\n:9223372036854775807\r\n:-9223372036854775808\r\n",
            written(2, w -> {
                w.integer(0);
                w.integer(7);
                w.integer(-1);
                w.integer(10);
                w.integer(-10);
                w.integer(Long.MAX_VALUE);
                w.integer(Long.MIN_VALUE);
            }));
    }

    @Test
    void bulksOfEveryLengthClassIntoAGrowingBuffer() {
        for (int length : new int[] {0, 1, 9, 10, 99, 100, 256, 1000, 65536}) {
            byte[] value = new byte[length];
            java.util.Arrays.fill(value, (byte) 'v');
            String expected = "$" + length + "\r\n" + "v".repeat(length) + "\r\n";
            assertEquals(expected, written(2, w -> w.bulk(value)));
        }
        assertEquals("$5\r\nhello\r\n", written(2, w -> w.bulk("xhellox".getBytes(StandardCharsets.US_ASCII), 1, 5)));
    }

    @Test
    void aggregateHeadersInBothProtocols() {
        assertEquals("*3\r\n*0\r\n*4\r\n*2\r\n", written(2, w -> {
            w.array(3);
            w.array(0);
            w.map(2);
            w.set(2);
        }));
        assertEquals("*3\r\n%2\r\n~2\r\n", written(3, w -> {
            w.array(3);
            w.map(2);
            w.set(2);
        }));
        assertEquals("=9\r\ntxt:hello\r\n", written(3, w -> w.verbatim("hello")));
        assertEquals("$5\r\nhello\r\n", written(2, w -> w.verbatim("hello")));
        assertEquals("#t\r\n:0\r\n", written(3, w -> w.bool(true)) + written(2, w -> w.bool(false)));
    }
}
