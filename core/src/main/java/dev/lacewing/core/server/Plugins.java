package dev.lacewing.core.server;

import dev.lacewing.api.CommandProvider;
import dev.lacewing.api.ScriptingProvider;
import dev.lacewing.api.StorageEngineProvider;
import dev.lacewing.api.ThreadingStrategy;
import dev.lacewing.api.TransportProvider;
import dev.lacewing.api.storage.StorageProvider;
import dev.lacewing.core.config.Config;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Where the server finds its providers. {@link #fromServiceLoader} serves the class path and
 * JPMS module layers; the launcher's OSGi mode supplies one backed by Felix's service registry.
 *
 * @param scripting the script languages (EVAL); none leaves the scripting commands answering that scripting is not available
 * @param mode what INFO reports as {@code lacewing_plugin_mode}: {@code classpath}, {@code jpms} or {@code osgi}
 */
public record Plugins(String mode, List<StorageEngineProvider> engines, List<StorageProvider> storages,
                      List<TransportProvider> transports, List<ThreadingStrategy> threadingStrategies,
                      List<CommandProvider> commands, List<ScriptingProvider> scripting) {

    public Plugins {
        engines = List.copyOf(engines);
        storages = List.copyOf(storages);
        transports = List.copyOf(transports);
        threadingStrategies = List.copyOf(threadingStrategies);
        commands = List.copyOf(commands);
        scripting = List.copyOf(scripting);
    }

    /**
     * The settings every storage, engine and transport found declares, whether chosen or not, each
     * kind in the order of the plugins' names: what the configuration knows besides core's own, from
     * its first line on.
     */
    public List<Config.Declared> settings() {
        List<Config.Declared> declared = new ArrayList<>();
        storages.stream().sorted(Comparator.comparing(StorageProvider::name))
            .forEach(provider -> declared.add(new Config.Declared("storage", provider.name(), provider.settings())));
        engines.stream().sorted(Comparator.comparing(StorageEngineProvider::name))
            .forEach(provider -> declared.add(new Config.Declared("engine", provider.name(), provider.settings())));
        transports.stream().sorted(Comparator.comparing(TransportProvider::name))
            .forEach(provider -> declared.add(new Config.Declared("transport", provider.name(), provider.settings())));
        return declared;
    }

    /**
     * {@link #settings} of the storages, engines and transports on the class path, loading no other
     * kind of provider: what the generated docs and conf/lacewing.conf list besides core's settings.
     */
    public static List<Config.Declared> settingsOnClassPath() {
        ClassLoader loader = Plugins.class.getClassLoader();
        return new Plugins("classpath", load(ServiceLoader.load(StorageEngineProvider.class, loader)),
            load(ServiceLoader.load(StorageProvider.class, loader)), load(ServiceLoader.load(TransportProvider.class,
            loader)), List.of(), List.of(), List.of()).settings();
    }

    /** Providers visible to the class loader of core (the class path, or core's module layer). */
    public static Plugins fromClassPath() {
        return new Plugins("classpath",
            load(ServiceLoader.load(StorageEngineProvider.class, Plugins.class.getClassLoader())),
            load(ServiceLoader.load(StorageProvider.class, Plugins.class.getClassLoader())),
            load(ServiceLoader.load(TransportProvider.class, Plugins.class.getClassLoader())),
            load(ServiceLoader.load(ThreadingStrategy.class, Plugins.class.getClassLoader())),
            load(ServiceLoader.load(CommandProvider.class, Plugins.class.getClassLoader())),
            load(ServiceLoader.load(ScriptingProvider.class, Plugins.class.getClassLoader())));
    }

    /** Providers of a module layer and its parents (JPMS mode). */
    public static Plugins fromModuleLayer(ModuleLayer layer) {
        return new Plugins("jpms",
            load(ServiceLoader.load(layer, StorageEngineProvider.class)),
            load(ServiceLoader.load(layer, StorageProvider.class)),
            load(ServiceLoader.load(layer, TransportProvider.class)),
            load(ServiceLoader.load(layer, ThreadingStrategy.class)),
            load(ServiceLoader.load(layer, CommandProvider.class)),
            load(ServiceLoader.load(layer, ScriptingProvider.class)));
    }

    private static <T> List<T> load(ServiceLoader<T> loader) {
        List<T> found = new ArrayList<>();
        loader.forEach(found::add);
        return found;
    }
}
