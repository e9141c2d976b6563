package dev.lacewing.api;

import java.util.List;
import java.util.Locale;

/**
 * One setting a plugin declares ({@link DeclaresSettings}): the server then knows it as one of its
 * own, in redis.conf, as {@code --name value}, in CONFIG GET, SET and REWRITE, and in the generated
 * docs. Values reach the plugin through {@link Settings}, normalized as CONFIG GET replies them
 * (a MEMORY value in bytes, an ENUM or BOOLEAN value in lower case).
 *
 * @param name the name, in lower case, as CONFIG GET replies it; no setting of the server's or of
 *     another plugin may have it
 * @param aliases other names accepted everywhere the name is
 * @param defaultValue the default, in the normalized form
 * @param mutability whether CONFIG SET may change it while the server runs
 * @param type how values are checked and normalized, with Redis's parsing and error wording
 * @param description one line for the docs and conf/lacewing.conf
 * @param min the smallest value an INTEGER or MEMORY setting takes
 * @param max the largest
 * @param choices the values an ENUM setting takes, in the order its error lists them
 */
public record SettingSpec(String name, List<String> aliases, String defaultValue, Mutability mutability, Type type,
                          String description, long min, long max, List<String> choices) {

    /** Whether CONFIG SET may change a setting at runtime (Redis's MODIFIABLE, PROTECTED and IMMUTABLE). */
    public enum Mutability {
        /** For every client; read it again after {@link Settings#onChange} tells of a change. */
        MUTABLE,
        /** Only for the clients {@code enable-protected-configs} allows. */
        PROTECTED,
        /** Read at start-up only; CONFIG SET refuses it as immutable. */
        FIXED
    }

    /** Value kinds, each parsed as Redis parses its configs of that kind. */
    public enum Type {
        STRING,
        /** yes or no. */
        BOOLEAN,
        /** A whole number within min..max. */
        INTEGER,
        /** A size with Redis's units (1k = 1000, 1kb = 1024...), replied in bytes, within min..max. */
        MEMORY,
        /** One of {@link SettingSpec#choices}, case-insensitive. */
        ENUM
    }

    public SettingSpec {
        if (name == null || name.isEmpty() || !name.equals(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("a setting's name is not empty and in lower case: " + name);
        }
        aliases = List.copyOf(aliases);
        choices = List.copyOf(choices);
        if (type == Type.ENUM && !choices.contains(defaultValue)) {
            throw new IllegalArgumentException(name + ": the default is not one of " + choices);
        }
        if (min > max) {
            throw new IllegalArgumentException(name + ": min is above max");
        }
    }

    /** A fixed string setting. */
    public static SettingSpec string(String name, String defaultValue, String description) {
        return new SettingSpec(name, List.of(), defaultValue, Mutability.FIXED, Type.STRING, description,
            Long.MIN_VALUE, Long.MAX_VALUE, List.of());
    }

    /** A fixed size in bytes within {@code min..max}. */
    public static SettingSpec memory(String name, String defaultValue, long min, long max, String description) {
        return new SettingSpec(name, List.of(), defaultValue, Mutability.FIXED, Type.MEMORY, description, min, max,
            List.of());
    }

    /** A fixed whole number within {@code min..max}. */
    public static SettingSpec integer(String name, String defaultValue, long min, long max, String description) {
        return new SettingSpec(name, List.of(), defaultValue, Mutability.FIXED, Type.INTEGER, description, min, max,
            List.of());
    }

    /** A fixed yes or no. */
    public static SettingSpec flag(String name, String defaultValue, String description) {
        return new SettingSpec(name, List.of(), defaultValue, Mutability.FIXED, Type.BOOLEAN, description,
            Long.MIN_VALUE, Long.MAX_VALUE, List.of());
    }

    /** A fixed choice among {@code choices}. */
    public static SettingSpec choice(String name, String defaultValue, List<String> choices, String description) {
        return new SettingSpec(name, List.of(), defaultValue, Mutability.FIXED, Type.ENUM, description,
            Long.MIN_VALUE, Long.MAX_VALUE, choices);
    }

    /** This setting with another mutability. */
    public SettingSpec withMutability(Mutability changed) {
        return new SettingSpec(name, aliases, defaultValue, changed, type, description, min, max, choices);
    }

    /** This setting, also known by {@code names}. */
    public SettingSpec withAliases(String... names) {
        return new SettingSpec(name, List.of(names), defaultValue, mutability, type, description, min, max, choices);
    }
}
