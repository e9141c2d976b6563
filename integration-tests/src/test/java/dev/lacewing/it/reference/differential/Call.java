package dev.lacewing.it.reference.differential;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One generated request, sent identically to redis-server and to Lacewing, with the way its two
 * replies are compared. A fixture call is the exception: it puts a value of a type no enabled
 * family writes (a list, before the list family is merged) at a key, as {@code TEST.SETLIST key}
 * on Lacewing and as the equivalent {@link #redisInstead} requests on Redis, and its replies are
 * not compared.
 */
record Call(List<byte[]> arguments, ReplyCheck check, List<List<byte[]>> redisInstead) {

    /** A request of words (String, one byte per char, or byte[] as it is), compared by {@code check}. */
    static Call of(ReplyCheck check, Object... words) {
        List<byte[]> arguments = new ArrayList<>(words.length);
        for (Object word : words) {
            arguments.add(bytes(word));
        }
        return new Call(List.copyOf(arguments), check, null);
    }

    /** A request whose replies must be byte-identical. */
    static Call exact(Object... words) {
        return of(ReplyCheck.EXACT, words);
    }

    static byte[] bytes(Object word) {
        return word instanceof byte[] raw ? raw : ((String) word).getBytes(StandardCharsets.ISO_8859_1);
    }

    boolean fixture() {
        return redisInstead != null;
    }

    /**
     * The same call with other arguments (a dropped or extra argument), compared as the call is:
     * dropping an optional argument can leave a valid request (SRANDMEMBER without its count)
     * whose reply is as random as the original's.
     */
    Call withArguments(List<byte[]> other) {
        return new Call(List.copyOf(other), check, null);
    }

    /** The command name, upper case. */
    String name() {
        return new String(arguments.get(0), StandardCharsets.ISO_8859_1).toUpperCase(Locale.ROOT);
    }

    /** The words as text, one char per byte, for DeliberateDifferences and for messages. */
    String words() {
        List<String> words = new ArrayList<>();
        for (byte[] argument : arguments) {
            words.add(new String(argument, StandardCharsets.ISO_8859_1));
        }
        return String.join(" ", words);
    }

    /** The redis-cli line(s) that send this call to redis-server. */
    List<String> redisCliLines() {
        if (!fixture()) {
            return List.of(redisCliLine(arguments));
        }
        List<String> lines = new ArrayList<>();
        lines.add("# on Lacewing: " + redisCliLine(arguments));
        for (List<byte[]> request : redisInstead) {
            lines.add(redisCliLine(request));
        }
        return lines;
    }

    /** Words quoted as redis-cli reads them: bare when plain, else in double quotes with \xHH escapes. */
    static String redisCliLine(List<byte[]> words) {
        StringBuilder line = new StringBuilder();
        for (byte[] word : words) {
            if (line.length() > 0) {
                line.append(' ');
            }
            boolean plain = word.length > 0;
            for (byte b : word) {
                int c = b & 0xff;
                plain &= c > ' ' && c < 0x7f && c != '"' && c != '\'' && c != '\\';
            }
            if (plain) {
                line.append(new String(word, StandardCharsets.ISO_8859_1));
                continue;
            }
            line.append('"');
            for (byte b : word) {
                int c = b & 0xff;
                switch (c) {
                    case '"' -> line.append("\\\"");
                    case '\\' -> line.append("\\\\");
                    case '\r' -> line.append("\\r");
                    case '\n' -> line.append("\\n");
                    case '\t' -> line.append("\\t");
                    default -> {
                        if (c < ' ' || c >= 0x7f) {
                            line.append(String.format("\\x%02x", c));
                        } else {
                            line.append((char) c);
                        }
                    }
                }
            }
            line.append('"');
        }
        return line.toString();
    }
}
