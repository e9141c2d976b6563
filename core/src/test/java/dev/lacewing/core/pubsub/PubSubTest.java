package dev.lacewing.core.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The bytes of a published message, as redis-server 7.0.15 sends them (read with a raw socket). */
class PubSubTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String encoded(SubscriptionKind kind, String pattern, String channel, String message) {
        byte[] payload = bytes(message);
        return new String(PubSub.encode(kind, pattern == null ? null : bytes(pattern), bytes(channel), payload, 0,
            payload.length), StandardCharsets.ISO_8859_1);
    }

    @Test
    void aMessageIsTakenFromItsPlaceInTheRequestBuffer() {
        byte[] request = bytes("*3\r\n$7\r\nPUBLISH\r\n$2\r\nch\r\n$5\r\nhello\r\n");
        int offset = request.length - 7;
        assertEquals("*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$5\r\nhello\r\n", new String(PubSub.encode(
            SubscriptionKind.CHANNEL, null, bytes("ch"), request, offset, 5), StandardCharsets.ISO_8859_1));
    }

    @Test
    void aMessageIsAnArrayOfItsTypeChannelAndPayload() {
        assertEquals("*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$5\r\nhello\r\n",
            encoded(SubscriptionKind.CHANNEL, null, "ch", "hello"));
        assertEquals("*3\r\n$8\r\nsmessage\r\n$2\r\nch\r\n$0\r\n\r\n", encoded(SubscriptionKind.SHARD, null, "ch", ""));
        assertEquals("*4\r\n$8\r\npmessage\r\n$3\r\nc?*\r\n$2\r\nch\r\n$1\r\nx\r\n",
            encoded(SubscriptionKind.PATTERN, "c?*", "ch", "x"));
    }

    @Test
    void lengthsOfEveryNumberOfDigitsAreWrittenWhole() {
        for (int length : new int[] {9, 10, 99, 100, 1000, 12345, 100000}) {
            String payload = "p".repeat(length);
            assertEquals("*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$" + length + "\r\n" + payload + "\r\n",
                encoded(SubscriptionKind.CHANNEL, null, "c", payload), "length " + length);
        }
    }
}
