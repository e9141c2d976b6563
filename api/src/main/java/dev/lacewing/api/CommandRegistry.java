package dev.lacewing.api;

/** Where command families and command plugins declare their commands. */
public interface CommandRegistry {

    /** Adds a command; a name already taken is refused with {@link IllegalArgumentException}. */
    void register(CommandSpec spec, CommandHandler handler);
}
