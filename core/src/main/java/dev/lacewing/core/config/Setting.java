package dev.lacewing.core.config;

import dev.lacewing.core.diagnostics.LatencyTracking;
import dev.lacewing.core.keyspace.EvictionPolicy;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * One configuration setting: its Redis name, legacy aliases, default, whether CONFIG SET may
 * change it while the server runs, and how its value is checked and normalized.
 *
 * @param name the name CONFIG GET replies
 * @param aliases legacy names accepted everywhere the name is
 * @param defaultValue the default, in the normalized form CONFIG GET replies
 * @param mutability whether, and for which clients, CONFIG SET accepts it at runtime
 * @param type how values are checked and normalized
 * @param description one line for the docs and conf/lacewing.conf
 * @param min the smallest value an INTEGER or MEMORY setting takes, as Redis bounds it
 * @param max the largest
 * @param choices the values an ENUM setting takes, in the order Redis's error lists them
 * @param effective false for a setting accepted for redis.conf compatibility that Lacewing does
 *     not act on yet: kept and replied, and logged at start-up as having no effect
 */
public record Setting(String name, List<String> aliases, String defaultValue, Mutability mutability, Type type,
                      String description, long min, long max, List<String> choices, boolean effective) {

    /** A setting Lacewing acts on. */
    public Setting(String name, List<String> aliases, String defaultValue, Mutability mutability, Type type,
                   String description, long min, long max) {
        this(name, aliases, defaultValue, mutability, type, description, min, max, List.of(), true);
    }

    /** A setting without bounds beyond its type's. */
    public Setting(String name, List<String> aliases, String defaultValue, Mutability mutability, Type type,
                   String description) {
        this(name, aliases, defaultValue, mutability, type, description, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** Whether CONFIG SET may change a setting at runtime: Redis's MODIFIABLE, PROTECTED and IMMUTABLE configs. */
    public enum Mutability {
        /** For every client. */
        MUTABLE,
        /**
         * Only for the clients enable-protected-configs allows (Redis's PROTECTED_CONFIG): settings
         * that could make the server write files or load code where a client chooses (Redis's dir
         * and dbfilename).
         */
        PROTECTED,
        /** Never: read at start-up only; CONFIG SET refuses it as immutable. */
        FIXED
    }

    /** Value kinds, each with Redis's parsing. */
    public enum Type {
        STRING, BOOLEAN, INTEGER, MEMORY, WORDS, LOG_LEVEL,
        /** One of the setting's {@link Setting#choices}, case-insensitive, replied in lower case. */
        ENUM,
        /** maxmemory-policy: one of Redis's eight names, case-insensitive, replied in lower case. */
        EVICTION_POLICY,
        /** hz: an integer within the setting's bounds, then clamped to 1..500 as Redis's updateHZ does. */
        HZ,
        /** client-output-buffer-limit: classes and their limits, merged into the value before ({@link OutputBufferLimits}). */
        OUTPUT_BUFFER_LIMITS,
        /** no, yes or local ({@link ProtectedAccess}), case-insensitive, replied in lower case. */
        PROTECTED_ACCESS,
        /**
         * notify-keyspace-events: class characters, kept whole ({@link KeyspaceEvents#canonical}) and
         * replied in Redis's form ({@link KeyspaceEvents#display}).
         */
        KEYSPACE_EVENTS,
        /** save: pairs of seconds and changes, or "" for none (setConfigSaveOption). */
        SAVE_POINTS,
        /** dir: an existing directory, replied as its absolute path, as Redis's getcwd after chdir. */
        DIRECTORY,
        /** dbfilename: a file name, not a path (isValidDBfilename). */
        FILE_NAME,
        /** latency-tracking-info-percentiles: numbers from 0 to 100 ({@link LatencyTracking#normalize}). */
        PERCENTILES,
        /**
         * keyspace-layout: compact, case-insensitive, replied in lower case; objects, the layout
         * removed, is refused with a pointer to why.
         */
        KEYSPACE_LAYOUT;

        /** The value in the form CONFIG GET replies; IllegalArgumentException with Redis's wording if invalid. */
        String normalize(String value) {
            return switch (this) {
                case STRING, WORDS, ENUM -> value;
                case BOOLEAN -> {
                    String lower = value.toLowerCase(Locale.ROOT);
                    if (!lower.equals("yes") && !lower.equals("no")) {
                        throw new IllegalArgumentException("argument must be 'yes' or 'no'");
                    }
                    yield lower;
                }
                case INTEGER, HZ -> {
                    try {
                        yield Long.toString(Long.parseLong(value));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("argument couldn't be parsed into an integer");
                    }
                }
                case MEMORY -> Long.toString(parseMemory(value));
                case EVICTION_POLICY -> EvictionPolicy.named(value).redisName();
                case OUTPUT_BUFFER_LIMITS -> OutputBufferLimits.parse(value).text();
                case PROTECTED_ACCESS -> ProtectedAccess.named(value).redisName();
                case KEYSPACE_EVENTS -> KeyspaceEvents.canonical(value);
                case SAVE_POINTS -> savePoints(value);
                case PERCENTILES -> LatencyTracking.normalize(value);
                case DIRECTORY -> directory(value);
                case FILE_NAME -> {
                    if (value.indexOf('/') >= 0) {
                        throw new IllegalArgumentException("dbfilename can't be a path, just a filename");
                    }
                    yield value;
                }
                case KEYSPACE_LAYOUT -> {
                    String lower = value.toLowerCase(Locale.ROOT);
                    if (!lower.equals("compact")) {
                        throw new IllegalArgumentException("no keyspace layout named '" + value + "'"
                            + (lower.equals("objects") ? " (removed: see docs/architecture.md)" : ""));
                    }
                    yield lower;
                }
                case LOG_LEVEL -> {
                    String lower = value.toLowerCase(Locale.ROOT);
                    if (!List.of("debug", "verbose", "notice", "warning", "nothing").contains(lower)) {
                        throw new IllegalArgumentException("argument(s) must be one of the following: debug, verbose, "
                            + "notice, warning, nothing");
                    }
                    yield lower;
                }
            };
        }
    }

    /** Seconds and changes in pairs, each a non-negative integer, words joined by one space. */
    private static String savePoints(String value) {
        String trimmed = value.strip();
        if (trimmed.isEmpty()) {
            return "";
        }
        String[] words = trimmed.split("\\s+");
        if (words.length % 2 != 0) {
            throw new IllegalArgumentException("Invalid save parameters");
        }
        StringBuilder normalized = new StringBuilder();
        for (String word : words) {
            long number;
            try {
                number = Long.parseLong(word);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Invalid save parameters");
            }
            if (number < 0) {
                throw new IllegalArgumentException("Invalid save parameters");
            }
            normalized.append(normalized.length() == 0 ? "" : " ").append(number);
        }
        return normalized.toString();
    }

    /** The directory's absolute path, its links resolved; chdir's errors otherwise. */
    private static String directory(String value) {
        Path path = Path.of(value).toAbsolutePath();
        if (!Files.exists(path)) {
            throw new IllegalArgumentException("No such file or directory");
        }
        if (!Files.isDirectory(path)) {
            throw new IllegalArgumentException("Not a directory");
        }
        try {
            return path.toRealPath().toString();
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /** Redis's CONFIG_MIN_HZ and CONFIG_MAX_HZ. */
    static final long MIN_HZ = 1;
    static final long MAX_HZ = 500;

    public Setting {
        aliases = List.copyOf(aliases);
        choices = List.copyOf(choices);
    }

    /** The value in the form CONFIG GET replies; IllegalArgumentException with Redis's wording if invalid. */
    public String normalize(String value) {
        String normalized = type.normalize(value);
        if (type == Type.ENUM) {
            String lower = normalized.toLowerCase(Locale.ROOT);
            if (!choices.contains(lower)) {
                throw new IllegalArgumentException("argument(s) must be one of the following: "
                    + String.join(", ", choices));
            }
            return lower;
        }
        if (type == Type.INTEGER || type == Type.MEMORY || type == Type.HZ) {
            long number = Long.parseLong(normalized);
            if (number < min || number > max) {
                throw new IllegalArgumentException("argument must be between " + min + " and " + max + " inclusive");
            }
            if (type == Type.HZ) {
                return Long.toString(Math.max(MIN_HZ, Math.min(MAX_HZ, number)));
            }
        }
        return normalized;
    }

    /** A kept value as CONFIG GET replies it: the value itself, but for notify-keyspace-events. */
    public String display(String value) {
        return type == Type.KEYSPACE_EVENTS ? KeyspaceEvents.display(value) : value;
    }

    /**
     * The value after setting {@code value} over {@code current}: the value itself, normalized,
     * except for settings whose value merges into what was there, as client-output-buffer-limit's
     * classes do.
     */
    public String apply(String current, String value) {
        if (type == Type.OUTPUT_BUFFER_LIMITS) {
            return OutputBufferLimits.parse(current).with(value).text();
        }
        return normalize(value);
    }

    /** Redis's memtoull: a number with an optional k, kb, m, mb, g or gb unit (case-insensitive). */
    public static long parseMemory(String value) {
        String lower = value.toLowerCase(Locale.ROOT);
        long unit = 1;
        String digits = lower;
        String[][] units = {{"kb", "1024"}, {"mb", "1048576"}, {"gb", "1073741824"},
            {"k", "1000"}, {"m", "1000000"}, {"g", "1000000000"}, {"b", "1"}};
        for (String[] candidate : units) {
            if (lower.endsWith(candidate[0])) {
                unit = Long.parseLong(candidate[1]);
                digits = lower.substring(0, lower.length() - candidate[0].length());
                break;
            }
        }
        try {
            long number = Long.parseLong(digits);
            if (number < 0) {
                throw new IllegalArgumentException("argument must be a memory value");
            }
            return Math.multiplyExact(number, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("argument must be a memory value");
        }
    }
}
