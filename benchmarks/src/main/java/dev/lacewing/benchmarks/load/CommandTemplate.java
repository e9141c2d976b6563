package dev.lacewing.benchmarks.load;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One command of the workload, pre-encoded as RESP: the literal words are encoded once, and
 * {@link #encode} writes them around the {@code __key__} and {@code __data__} arguments, whose
 * bytes go straight into the outbound buffer (no String, no byte[] per request). Immutable and
 * shared by every thread.
 */
public final class CommandTemplate {

    public static final String KEY = "__key__";
    public static final String DATA = "__data__";

    private static final short CRLF = ('\r' << 8) | '\n';
    private static final byte PLACEHOLDER_KEY = 'K';
    private static final byte PLACEHOLDER_DATA = 'D';

    private final String name;
    private final String command;
    private final byte[][] literals;
    private final byte[] placeholders;
    private final boolean read;

    public CommandTemplate(List<String> words) {
        if (words.isEmpty()) {
            throw new IllegalArgumentException("empty command");
        }
        String first = words.get(0).toLowerCase(Locale.ROOT);
        this.command = first.toUpperCase(Locale.ROOT);
        this.name = Character.toUpperCase(first.charAt(0)) + first.substring(1) + "s";
        List<byte[]> literalList = new ArrayList<>();
        ByteArrayOutputStream literal = new ByteArrayOutputStream();
        byte[] placeholderList = new byte[words.size()];
        int count = 0;
        writeAscii(literal, "*" + words.size() + "\r\n");
        for (String word : words) {
            if (word.equals(KEY) || word.equals(DATA)) {
                literalList.add(literal.toByteArray());
                literal.reset();
                placeholderList[count++] = word.equals(KEY) ? PLACEHOLDER_KEY : PLACEHOLDER_DATA;
            } else {
                byte[] bytes = word.getBytes(StandardCharsets.UTF_8);
                writeAscii(literal, "$" + bytes.length + "\r\n");
                literal.writeBytes(bytes);
                writeAscii(literal, "\r\n");
            }
        }
        literalList.add(literal.toByteArray());
        this.literals = literalList.toArray(new byte[0][]);
        this.placeholders = Arrays.copyOf(placeholderList, count);
        this.read = words.contains(KEY) && !words.contains(DATA);
    }

    /** The name results are reported under, as memtier does: "Sets", "Gets", "Lpushs". */
    public String name() {
        return name;
    }

    /** The command's first word in capitals, as the latency distribution names it. */
    public String command() {
        return command;
    }

    /** Whether a nil reply is a miss: the command names a key and sends no value. */
    public boolean isRead() {
        return read;
    }

    public boolean usesData() {
        for (byte placeholder : placeholders) {
            if (placeholder == PLACEHOLDER_DATA) {
                return true;
            }
        }
        return false;
    }

    /**
     * Writes the request; every {@code __key__} is {@code keyPrefix} followed by {@code keyIndex}
     * in decimal, every {@code __data__} the first {@code valueLength} bytes of {@code value}.
     * Returns the number of bytes written.
     */
    public int encode(ByteBuf out, byte[] keyPrefix, long keyIndex, byte[] value, int valueLength) {
        int start = out.writerIndex();
        out.writeBytes(literals[0]);
        for (int i = 0; i < placeholders.length; i++) {
            if (placeholders[i] == PLACEHOLDER_KEY) {
                out.writeByte('$');
                writeDecimal(out, keyPrefix.length + decimalDigits(keyIndex));
                out.writeShort(CRLF);
                out.writeBytes(keyPrefix);
                writeDecimal(out, keyIndex);
            } else {
                out.writeByte('$');
                writeDecimal(out, valueLength);
                out.writeShort(CRLF);
                out.writeBytes(value, 0, valueLength);
            }
            out.writeShort(CRLF);
            out.writeBytes(literals[i + 1]);
        }
        return out.writerIndex() - start;
    }

    /**
     * Splits a --command string into words at spaces; double or single quotes group words with
     * spaces, as memtier's parser does.
     */
    public static List<String> words(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("unbalanced quotes in --command: " + command);
        }
        if (inWord) {
            words.add(word.toString());
        }
        if (words.isEmpty()) {
            throw new IllegalArgumentException("--command must not be empty");
        }
        return words;
    }

    static int decimalDigits(long value) {
        int digits = 1;
        while (value >= 10) {
            value /= 10;
            digits++;
        }
        return digits;
    }

    /** Writes a non-negative number in decimal, in place. */
    static void writeDecimal(ByteBuf out, long value) {
        int digits = decimalDigits(value);
        out.ensureWritable(digits);
        int start = out.writerIndex();
        for (int i = start + digits - 1; i >= start; i--) {
            out.setByte(i, (int) ('0' + value % 10));
            value /= 10;
        }
        out.writerIndex(start + digits);
    }

    private static void writeAscii(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
    }
}
