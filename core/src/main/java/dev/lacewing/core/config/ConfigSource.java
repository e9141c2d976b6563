package dev.lacewing.core.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Reads settings the way redis-server does: {@code [config-file] [--name value ...]}, where the
 * file has one {@code name value...} per line ({@code #} comments, {@code include} of further
 * files, relative to the working directory) and command-line options come after the file and
 * override it.
 */
public final class ConfigSource {

    /** One setting as written: the name lower-cased, the value its remaining words joined by a space. */
    public record Entry(String name, String value) {
    }

    private ConfigSource() {
    }

    /** Parses redis-server style arguments; a first argument not starting with {@code --} is the file. */
    public static List<Entry> fromCommandLine(String[] args) throws IOException {
        return fromCommandLine(args, file -> { });
    }

    /**
     * As {@link #fromCommandLine(String[])}, telling {@code fileRead} each file it opens (the
     * config file, then its includes, as they were named), so that a caller can tell when what it
     * derived from them is out of date.
     */
    public static List<Entry> fromCommandLine(String[] args, Consumer<Path> fileRead) throws IOException {
        List<Entry> entries = new ArrayList<>();
        int i = 0;
        if (args.length > 0 && !args[0].startsWith("--")) {
            entries.addAll(fromFile(Path.of(args[0]), fileRead));
            i = 1;
        }
        while (i < args.length) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new IllegalArgumentException("expected --name value, got '" + arg + "'");
            }
            String name = arg.substring(2).toLowerCase(Locale.ROOT);
            StringBuilder value = new StringBuilder();
            i++;
            while (i < args.length && !args[i].startsWith("--")) {
                if (value.length() > 0) {
                    value.append(' ');
                }
                value.append(args[i]);
                i++;
            }
            entries.add(new Entry(name, value.toString()));
        }
        return entries;
    }

    /** Parses a redis.conf-style file. */
    public static List<Entry> fromFile(Path file) throws IOException {
        return fromFile(file, read -> { });
    }

    private static List<Entry> fromFile(Path file, Consumer<Path> fileRead) throws IOException {
        fileRead.accept(file);
        List<Entry> entries = new ArrayList<>();
        int lineNumber = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            lineNumber++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            List<String> words = splitWords(trimmed, file, lineNumber);
            String name = words.get(0).toLowerCase(Locale.ROOT);
            String value = String.join(" ", words.subList(1, words.size()));
            if (name.equals("include")) {
                // As Redis: a relative path starts at the working directory, not the including file's.
                entries.addAll(fromFile(Path.of(value), fileRead));
            } else {
                entries.add(new Entry(name, value));
            }
        }
        return entries;
    }

    /** Splits on blanks, honouring "double" and 'single' quotes as redis.conf does. */
    static List<String> splitWords(String line, Path file, int lineNumber) {
        List<String> words = new ArrayList<>();
        if (!splitArgs(line, words)) {
            throw new IllegalArgumentException(file + ":" + lineNumber + ": unbalanced quotes");
        }
        return words;
    }

    /**
     * Redis's sdssplitargs: adds the blank-separated words of {@code line} to {@code words},
     * "double" and 'single' quotes grouping, a backslash escaping inside double quotes. False
     * when a quote is left open (the words so far, the open one included, are added).
     */
    public static boolean splitArgs(String line, List<String> words) {
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
                    word.append(line.charAt(++i));
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
        if (inWord) {
            words.add(word.toString());
        }
        return quote == 0;
    }
}
