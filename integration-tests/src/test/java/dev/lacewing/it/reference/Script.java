package dev.lacewing.it.reference;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A named list of steps sent identically to Redis and to Lacewing. Written as text, one step a
 * line:
 * <ul>
 *   <li>{@code SET {p}k "a b\x00"}: a command, sent as a multibulk request; words are split on
 *       blanks, double quotes group and take {@code \xHH \r \n \t \" \\} escapes; {@code {p}} is
 *       replaced by a prefix unique to the run, so that runs never share keys;</li>
 *   <li>{@code @raw N bytes}: the rest of the line after one blank, exactly, with only
 *       {@code \r \n \t \\ \xHH} escapes (quotes are sent as they are), then N replies
 *       compared;</li>
 *   <li>{@code @typed KEY}: stores a list at KEY ({@code RPUSH KEY x} on Redis, the test
 *       fixture's {@code TEST.SETLIST KEY} on Lacewing); replies are not compared;</li>
 *   <li>{@code @closed}: both servers have closed the connection;</li>
 *   <li>{@code #} starts a comment line.</li>
 * </ul>
 */
record Script(String name, List<Step> steps) {

    sealed interface Step permits Command, Raw, Typed, Closed {
    }

    /** A request; {@code words} is its text form, for messages and for DeliberateDifferences. */
    record Command(List<byte[]> arguments, String words) implements Step {
    }

    record Raw(byte[] bytes, int replies, String words) implements Step {
    }

    record Typed(byte[] key) implements Step {
    }

    record Closed() implements Step {
    }

    static Script parse(String name, String text, String prefix) {
        List<Step> steps = new ArrayList<>();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String expanded = trimmed.replace("{p}", prefix);
            if (expanded.startsWith("@raw ")) {
                int space = expanded.indexOf(' ', 5);
                steps.add(new Raw(unescape(expanded.substring(space + 1)),
                    Integer.parseInt(expanded.substring(5, space)), expanded));
                continue;
            }
            List<byte[]> words = words(expanded);
            String first = new String(words.get(0), StandardCharsets.ISO_8859_1);
            switch (first) {
                case "@typed" -> steps.add(new Typed(words.get(1)));
                case "@closed" -> steps.add(new Closed());
                default -> steps.add(new Command(words, expanded));
            }
        }
        return new Script(name, steps);
    }

    private static byte[] unescape(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            char e = text.charAt(++i);
            switch (e) {
                case 'r' -> bytes.write('\r');
                case 'n' -> bytes.write('\n');
                case 't' -> bytes.write('\t');
                case 'x' -> {
                    bytes.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
                    i += 2;
                }
                default -> bytes.write(e);
            }
        }
        return bytes.toByteArray();
    }

    /** Splits a line as redis-cli would, with the escapes above. */
    static List<byte[]> words(String line) {
        List<byte[]> words = new ArrayList<>();
        int i = 0;
        while (i < line.length()) {
            while (i < line.length() && line.charAt(i) == ' ') {
                i++;
            }
            if (i >= line.length()) {
                break;
            }
            ByteArrayOutputStream word = new ByteArrayOutputStream();
            if (line.charAt(i) == '"') {
                i++;
                while (line.charAt(i) != '"') {
                    char c = line.charAt(i);
                    if (c == '\\') {
                        char e = line.charAt(i + 1);
                        switch (e) {
                            case 'x' -> {
                                word.write(Integer.parseInt(line.substring(i + 2, i + 4), 16));
                                i += 2;
                            }
                            case 'r' -> word.write('\r');
                            case 'n' -> word.write('\n');
                            case 't' -> word.write('\t');
                            default -> word.write(e);
                        }
                        i += 2;
                    } else {
                        word.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                        i++;
                    }
                }
                i++;
            } else {
                int start = i;
                while (i < line.length() && line.charAt(i) != ' ') {
                    i++;
                }
                word.writeBytes(line.substring(start, i).getBytes(StandardCharsets.UTF_8));
            }
            words.add(word.toByteArray());
        }
        return words;
    }

    @Override
    public String toString() {
        return name;
    }
}
