package dev.lacewing.launcher;

import dev.lacewing.core.server.Plugins;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.module.ResolutionException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * JPMS plugin mode: one module layer over the plugin jars, above the boot layer that holds the
 * API, core, Netty and the launcher (lib/). Providers are found with ServiceLoader over the layer.
 *
 * <p>Each plugin gets its own class loader, so two plugins may hold packages of the same name.
 * Netty's native transports cannot live here: the JNI_OnLoad of Netty's native libraries finds
 * their Java classes through the loader of netty-common, which is the boot layer's, so
 * netty-transport-classes-* and the native jars ship in lib/ (the plugins that use them stay here).
 *
 * <p>Thread rule: used once, by the launcher's main thread.
 */
final class PluginLayer {

    private static final System.Logger LOG = System.getLogger(PluginLayer.class.getName());

    private PluginLayer() {
    }

    /** The providers of every module in {@code directory}; IllegalArgumentException when the modules do not resolve. */
    static Plugins load(Path directory) {
        ModuleLayer boot = ModuleLayer.boot();
        if (boot.findModule("dev.lacewing.core").isEmpty()) {
            throw new IllegalArgumentException("plugin-mode jpms needs lib/ on the module path "
                + "(java -p lib --add-modules ALL-MODULE-PATH -m dev.lacewing.launcher), as bin/lacewing-server starts it");
        }
        List<Path> jars = new ArrayList<>();
        Set<String> roots = new LinkedHashSet<>();
        for (Path jar : PluginJars.in(directory)) {
            Optional<String> name = moduleName(jar);
            if (name.isEmpty()) {
                continue;
            }
            if (boot.findModule(name.get()).isPresent()) {
                LOG.log(System.Logger.Level.WARNING, "Skipping plugin " + jar + ": module " + name.get()
                    + " is already loaded from lib/");
                continue;
            }
            jars.add(jar);
            roots.add(name.get());
        }
        try {
            Configuration configuration = boot.configuration()
                .resolveAndBind(ModuleFinder.of(jars.toArray(Path[]::new)), ModuleFinder.of(), roots);
            ModuleLayer layer = boot.defineModulesWithManyLoaders(configuration, ClassLoader.getSystemClassLoader());
            layer.modules().forEach(module -> LOG.log(System.Logger.Level.DEBUG, "Plugin module " + module.getName()
                + " loaded"));
            return Plugins.fromModuleLayer(layer);
        } catch (FindException | ResolutionException | LayerInstantiationException e) {
            throw new IllegalArgumentException("plugins in " + directory + " do not resolve: " + e.getMessage(), e);
        }
    }

    private static Optional<String> moduleName(Path jar) {
        try {
            return ModuleFinder.of(jar).findAll().stream().findFirst().map(ModuleReference::descriptor)
                .map(descriptor -> descriptor.name());
        } catch (FindException e) {
            LOG.log(System.Logger.Level.WARNING, "Skipping plugin " + jar + ": not a module: " + e.getMessage());
            return Optional.empty();
        }
    }
}
