package dev.lacewing.api;

import java.util.List;

/** Where command families and command plugins declare their commands. */
public interface CommandRegistry {

    /** Adds a command; a name already taken is refused with {@link IllegalArgumentException}. */
    void register(CommandSpec spec, CommandHandler handler);

    /**
     * The arguments the plugin was loaded with: what followed the jar's path in
     * {@code MODULE LOAD path [arg ...]} (a Redis module's argv). Empty for a plugin found at start.
     */
    default List<String> arguments() {
        return List.of();
    }
}
