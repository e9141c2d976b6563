package dev.lacewing.api;

import java.util.Optional;

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
}
