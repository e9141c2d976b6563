package dev.lacewing.api;

import java.util.List;

/**
 * A function a library registered while it loaded ({@code redis.register_function} in Lua): its
 * name, its description or null, and its flags, bit {@code i} standing for {@link #FLAG_NAMES}
 * {@code [i]} as Redis's SCRIPT_FLAG_* do.
 */
public record ScriptFunction(String name, String description, int flags) {

    /** The flags a function may declare, as Redis 7.0 names them; a flag's bit is its index here. */
    public static final List<String> FLAG_NAMES =
        List.of("no-writes", "allow-oom", "allow-stale", "no-cluster", "allow-cross-slot-keys");
}
