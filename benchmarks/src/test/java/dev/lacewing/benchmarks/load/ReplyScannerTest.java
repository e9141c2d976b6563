package dev.lacewing.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplyScannerTest {

    private static final String REPLIES = "+OK\r\n"
        + "$5\r\nhello\r\n"
        + "$-1\r\n"
        + "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"
        + ":42\r\n"
        + "*3\r\n$1\r\na\r\n*2\r\n:1\r\n$-1\r\n+x\r\n"
        + "*-1\r\n"
        + "*0\r\n"
        + "$0\r\n\r\n"
        + "%1\r\n+k\r\n*1\r\n_\r\n"
        + "_\r\n"
        + ",3.14\r\n";

    private static final List<String> EXPECTED = List.of("value 5", "value 11", "nil 5", "error 68", "value 5",
        "value 28", "nil 5", "value 4", "value 6", "value 15", "nil 3", "value 7");

    @Test
    void findsEveryReplyWithItsOutcomeAndSize() {
        ByteBuf in = buffer(REPLIES);
        List<String> replies = new ArrayList<>();
        ReplyScanner scanner = new ReplyScanner();
        scanner.scan(in, (outcome, bytes) -> replies.add(name(outcome) + " " + bytes));
        assertEquals(EXPECTED, replies);
        assertEquals("WRONGTYPE Operation against a key holding the wrong kind of value", scanner.lastError());
    }

    @Test
    void aReplySplitAnywhereAcrossReadsIsFoundOnce() {
        byte[] bytes = REPLIES.getBytes(StandardCharsets.US_ASCII);
        for (int chunk = 1; chunk <= 7; chunk++) {
            List<String> replies = new ArrayList<>();
            ReplyScanner scanner = new ReplyScanner();
            for (int offset = 0; offset < bytes.length; offset += chunk) {
                ByteBuf in = Unpooled.wrappedBuffer(bytes, offset, Math.min(chunk, bytes.length - offset));
                scanner.scan(in, (outcome, size) -> replies.add(name(outcome) + " " + size));
                assertEquals(0, in.readableBytes());
            }
            assertEquals(EXPECTED, replies, "read size " + chunk);
        }
    }

    @Test
    void aLargeBulkIsSkippedNotCopied() {
        ByteBuf in = Unpooled.buffer();
        in.writeCharSequence("$100000\r\n", StandardCharsets.US_ASCII);
        in.writeZero(100_000);
        in.writeCharSequence("\r\n", StandardCharsets.US_ASCII);
        List<Integer> sizes = new ArrayList<>();
        new ReplyScanner().scan(in, (outcome, bytes) -> sizes.add(bytes));
        assertEquals(List.of(100_011), sizes);
    }

    @Test
    void aByteThatStartsNoRespValueIsAProtocolError() {
        ReplyScanner scanner = new ReplyScanner();
        assertThrows(IllegalStateException.class, () -> scanner.scan(buffer("HTTP/1.1 400\r\n"), (o, b) -> { }));
    }

    private static ByteBuf buffer(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
    }

    private static String name(int outcome) {
        return switch (outcome) {
            case ReplyScanner.VALUE -> "value";
            case ReplyScanner.NIL -> "nil";
            default -> "error";
        };
    }
}
