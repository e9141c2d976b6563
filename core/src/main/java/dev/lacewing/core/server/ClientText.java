package dev.lacewing.core.server;

import java.nio.charset.StandardCharsets;

/**
 * Client-supplied bytes as a log line may show them: quoted and escaped as Redis's sdscatrepr
 * does, so that whatever a client sends stays one line of printable ASCII. Printable ASCII is
 * kept (a {@code "} or {@code \} escaped with a backslash), {@code \n \r \t \a \b} are written so,
 * and every other byte as {@code \xHH}. Every log line that carries a client's bytes (request
 * bytes, arguments, names taken from them) passes them through here.
 *
 * <p>Thread rule: stateless; any thread.
 */
public final class ClientText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Bytes of a query buffer sample: at most this much of its start and of its end. */
    private static final int SAMPLE_HALF = 64;

    private ClientText() {
    }

    /** {@code length} bytes of {@code bytes} from {@code offset}, quoted. */
    public static String quote(byte[] bytes, int offset, int length) {
        StringBuilder out = new StringBuilder(length + 2);
        appendQuoted(out, bytes, offset, length);
        return out.toString();
    }

    /** A string that came from a client (its UTF-8 bytes), quoted. */
    public static String quote(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return quote(bytes, 0, bytes.length);
    }

    /**
     * A sample of unparsed request bytes, as Redis logs the query buffer on a protocol error:
     * all of it under 128 bytes, else its first and last 64 bytes around the count of the others.
     */
    public static String sample(byte[] bytes, int offset, int length) {
        if (length < SAMPLE_HALF * 2) {
            return quote(bytes, offset, length);
        }
        StringBuilder out = new StringBuilder(SAMPLE_HALF * 2 + 48);
        appendQuoted(out, bytes, offset, SAMPLE_HALF);
        out.append(" (... more ").append(length - SAMPLE_HALF * 2).append(" bytes ...) ");
        appendQuoted(out, bytes, offset + length - SAMPLE_HALF, SAMPLE_HALF);
        return out.toString();
    }

    /**
     * A log message kept to one line: its control characters escaped as {@link #quote} escapes
     * them, everything else as it is. The log's last guard, for text that may carry a client's
     * bytes without having been quoted (an exception's message); null when {@code text} is.
     */
    public static String oneLine(String text) {
        if (text == null || text.chars().noneMatch(ClientText::isControl)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isControl(c)) {
                appendEscaped(out, c);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** C0 and C1 controls and DEL: none of them belongs in a log line. */
    private static boolean isControl(int c) {
        return c < 0x20 || (c >= 0x7f && c < 0xa0);
    }

    private static void appendQuoted(StringBuilder out, byte[] bytes, int offset, int length) {
        out.append('"');
        for (int i = offset; i < offset + length; i++) {
            int c = bytes[i] & 0xff;
            if (c == '\\' || c == '"') {
                out.append('\\').append((char) c);
            } else if (c >= 0x20 && c < 0x7f) {
                out.append((char) c);
            } else {
                appendEscaped(out, c);
            }
        }
        out.append('"');
    }

    /** A byte or character that is not printable ASCII (below 0x100). */
    private static void appendEscaped(StringBuilder out, int c) {
        switch (c) {
            case '\n' -> out.append("\\n");
            case '\r' -> out.append("\\r");
            case '\t' -> out.append("\\t");
            case 7 -> out.append("\\a");
            case '\b' -> out.append("\\b");
            default -> out.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xf]);
        }
    }
}
