package dev.lacewing.script.lua;

import java.nio.charset.StandardCharsets;

/**
 * RESP replies and strings as the Lua debugger shows them: ldbRedisProtocolToHuman and sds's
 * sdscatrepr (a quoted string, with C escapes and \xHH for other unprintable bytes). Stateless.
 */
final class RespText {

    private RespText() {
    }

    /** Appends {@code reply} (one whole RESP2 or RESP3 reply) in LDB's words. */
    static void append(StringBuilder out, byte[] reply) {
        parse(out, reply, 0);
    }

    /** Appends the reply at {@code at}; returns where the next one starts. */
    private static int parse(StringBuilder out, byte[] reply, int at) {
        if (at >= reply.length) {
            return at;
        }
        int end = lineEnd(reply, at);
        String header = new String(reply, at + 1, end - at - 1, StandardCharsets.ISO_8859_1);
        int next = end + 2;
        switch (reply[at]) {
            case ':' -> out.append(header);
            case '$' -> {
                int length = Integer.parseInt(header);
                if (length == -1) {
                    out.append("NULL");
                    return next;
                }
                repr(out, reply, next, length);
                return next + length + 2;
            }
            case '+', '-' -> repr(out, reply, at, end - at);
            case '*' -> {
                int count = Integer.parseInt(header);
                if (count == -1) {
                    out.append("NULL");
                    return next;
                }
                out.append('[');
                for (int i = 0; i < count; i++) {
                    next = parse(out, reply, next);
                    if (i != count - 1) {
                        out.append(',');
                    }
                }
                out.append(']');
            }
            case '~' -> {
                int count = Integer.parseInt(header);
                out.append("~(");
                for (int i = 0; i < count; i++) {
                    next = parse(out, reply, next);
                    if (i != count - 1) {
                        out.append(',');
                    }
                }
                out.append(')');
            }
            case '%' -> {
                int count = Integer.parseInt(header);
                out.append('{');
                for (int i = 0; i < count; i++) {
                    next = parse(out, reply, next);
                    out.append(" => ");
                    next = parse(out, reply, next);
                    if (i != count - 1) {
                        out.append(',');
                    }
                }
                out.append('}');
            }
            case '_' -> out.append("(null)");
            case '#' -> out.append(reply[at + 1] == 't' ? "#true" : "#false");
            case ',' -> out.append("(double) ").append(header);
            default -> {
                // LDB shows nothing of other types (verbatim strings, big numbers).
            }
        }
        return next;
    }

    private static int lineEnd(byte[] reply, int from) {
        int at = from;
        while (at < reply.length && reply[at] != '\r') {
            at++;
        }
        return at;
    }

    static void repr(StringBuilder out, byte[] bytes) {
        repr(out, bytes, 0, bytes.length);
    }

    /** sdscatrepr. */
    static void repr(StringBuilder out, byte[] bytes, int offset, int length) {
        out.append('"');
        for (int i = offset; i < offset + length; i++) {
            int b = bytes[i] & 0xff;
            switch (b) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case 7 -> out.append("\\a");
                case '\b' -> out.append("\\b");
                default -> {
                    if (b >= 0x20 && b < 0x7f) {
                        out.append((char) b);
                    } else {
                        out.append("\\x").append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 0xf, 16));
                    }
                }
            }
        }
        out.append('"');
    }
}
