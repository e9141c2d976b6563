package dev.lacewing.api;

/**
 * A plugin that adds commands. Found with {@link java.util.ServiceLoader} in JPMS and class-path
 * mode, or as an OSGi service in OSGi mode; {@link #name()} is what MODULE LIST shows.
 */
public interface CommandProvider {

    String name();

    void registerCommands(CommandRegistry registry);
}
