package dev.lacewing.api;

/** The body of a command: reads {@link CommandContext#arguments()}, writes one reply. */
@FunctionalInterface
public interface CommandHandler {
    void execute(CommandContext context);
}
