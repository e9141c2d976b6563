package dev.lacewing.core.server;

import java.nio.file.Path;
import java.util.List;

/**
 * Loads and unloads command plugins while the server runs (MODULE LOAD / LIST / UNLOAD). The
 * OSGi launcher implements it over Felix; without one, MODULE LOAD is refused with the reason.
 */
public interface ModuleLoader {

    /**
     * Installs and starts the plugin jar; its {@link dev.lacewing.api.CommandProvider} services
     * reach the server through {@link ModuleRegistry}, registering their commands with
     * {@code arguments}. Returns the module's name.
     */
    String load(Path jar, List<String> arguments) throws Exception;

    /** Stops and uninstalls the module; false when no module has that name. */
    boolean unload(String name) throws Exception;

    /** The loaded modules. */
    List<LoadedModule> list();

    /**
     * @param name the plugin's name  @param version its version  @param path the jar it came from
     * @param arguments what MODULE LOAD gave it
     */
    record LoadedModule(String name, String version, String path, List<String> arguments) {
    }
}
