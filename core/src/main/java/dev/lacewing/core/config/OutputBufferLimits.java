package dev.lacewing.core.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code client-output-buffer-limit}: a hard limit, a soft limit and its seconds for each client
 * class, as Redis 7.0 keeps them (config.c's clientBufferLimitsConfig). A value names one or more
 * classes, each followed by its three numbers; classes it does not name keep their limits. 0 is
 * no limit.
 *
 * <p>Immutable: CONFIG SET replaces the whole value, so readers see one consistent set.
 */
public record OutputBufferLimits(Limit normal, Limit replica, Limit pubsub) {

    /** One class's limits: bytes, bytes, seconds. */
    public record Limit(long hardBytes, long softBytes, long softSeconds) {
        public String text() {
            return hardBytes + " " + softBytes + " " + softSeconds;
        }
    }

    /** Redis 7.0's defaults: no limit for normal clients. */
    public static final OutputBufferLimits DEFAULT = new OutputBufferLimits(new Limit(0, 0, 0),
        new Limit(256L * 1024 * 1024, 64L * 1024 * 1024, 60), new Limit(32L * 1024 * 1024, 8L * 1024 * 1024, 60));

    /** The form CONFIG GET replies, with Redis's class name {@code slave}. */
    public String text() {
        return "normal " + normal.text() + " slave " + replica.text() + " pubsub " + pubsub.text();
    }

    /**
     * These limits with the classes {@code value} names changed; IllegalArgumentException with
     * Redis's reason when a word is wrong. An empty value changes nothing, as in Redis.
     */
    public OutputBufferLimits with(String value) {
        List<String> words = new ArrayList<>();
        for (String word : value.trim().split("\\s+")) {
            if (!word.isEmpty()) {
                words.add(word);
            }
        }
        if (words.size() % 4 != 0) {
            throw new IllegalArgumentException("Wrong number of arguments in buffer limit configuration.");
        }
        Limit[] limits = {normal, replica, pubsub};
        for (int i = 0; i < words.size(); i += 4) {
            int index = switch (words.get(i).toLowerCase(Locale.ROOT)) {
                case "normal" -> 0;
                case "slave", "replica" -> 1;
                case "pubsub" -> 2;
                default -> throw new IllegalArgumentException(
                    "Invalid client class specified in buffer limit configuration.");
            };
            limits[index] = new Limit(bytes(words.get(i + 1)), bytes(words.get(i + 2)), seconds(words.get(i + 3)));
        }
        return new OutputBufferLimits(limits[0], limits[1], limits[2]);
    }

    /** Parses a value as CONFIG GET replies it (or as written in a config file) over the defaults. */
    public static OutputBufferLimits parse(String value) {
        return DEFAULT.with(value);
    }

    private static long bytes(String word) {
        try {
            return Setting.parseMemory(word);
        } catch (IllegalArgumentException e) {
            throw invalidNumber();
        }
    }

    private static long seconds(String word) {
        try {
            long seconds = Long.parseLong(word);
            if (seconds < 0) {
                throw invalidNumber();
            }
            return seconds;
        } catch (NumberFormatException e) {
            throw invalidNumber();
        }
    }

    private static IllegalArgumentException invalidNumber() {
        return new IllegalArgumentException("Error in hard, soft or soft_seconds setting in buffer limit configuration.");
    }
}
