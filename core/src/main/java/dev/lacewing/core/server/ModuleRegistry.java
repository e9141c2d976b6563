package dev.lacewing.core.server;

import dev.lacewing.api.CommandProvider;
import java.util.List;

/**
 * The running server's side of dynamic plugins: a {@link ModuleLoader} calls it when a command
 * provider appears or goes away (an OSGi service registered or unregistered).
 */
public interface ModuleRegistry {

    /**
     * Adds the provider's commands, registered with the arguments its module was loaded with;
     * refuses (IllegalArgumentException) a name already taken.
     */
    void addCommands(CommandProvider provider, List<String> arguments);

    /** Removes every command the provider added. */
    void removeCommands(CommandProvider provider);
}
