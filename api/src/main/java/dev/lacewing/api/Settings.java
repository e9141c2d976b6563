package dev.lacewing.api;

import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The server's configuration, read by name as CONFIG GET reads it. Values are the strings
 * CONFIG GET would reply.
 */
public interface Settings {

    Optional<String> get(String name);

    default String get(String name, String fallback) {
        return get(name).orElse(fallback);
    }

    default long getLong(String name, long fallback) {
        return get(name).map(Long::parseLong).orElse(fallback);
    }

    /**
     * Hears every later runtime change (CONFIG SET) as (name, value in CONFIG GET's form), on the
     * thread that made it; for a plugin that keeps a setting in a field instead of reading it per
     * use. Settings that never change need not call back.
     */
    default void onChange(BiConsumer<String, String> listener) {
    }
}
