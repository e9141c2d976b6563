package dev.lacewing.launcher;

import dev.lacewing.api.CommandProvider;
import dev.lacewing.core.server.ModuleLoader;
import dev.lacewing.core.server.ModuleRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.util.tracker.ServiceTracker;
import org.osgi.util.tracker.ServiceTrackerCustomizer;

/**
 * MODULE LOAD / LIST / UNLOAD over the embedded Felix. A module is a {@link CommandProvider}
 * service: whenever one is registered (a bundle of plugins/ at start-up, or one MODULE LOAD
 * installs) its commands join the server's table, and when it goes away (MODULE UNLOAD stops and
 * uninstalls its bundle) they leave it. MODULE LIST shows the provider's name, its bundle's
 * version and the jar it came from.
 *
 * <p>Thread rule: LOAD and UNLOAD run one at a time on the worker that executes the command;
 * service events arrive on the thread that registers or unregisters the service (that worker,
 * or Felix's during shutdown), so the module map is concurrent.
 */
final class FelixModuleLoader implements ModuleLoader, ServiceTrackerCustomizer<CommandProvider, CommandProvider> {

    private static final System.Logger LOG = System.getLogger(FelixModuleLoader.class.getName());

    private record Module(CommandProvider provider, Bundle bundle, List<String> arguments) {
    }

    private final BundleContext context;
    private final ModuleRegistry registry;
    private final ServiceTracker<CommandProvider, CommandProvider> tracker;
    private final Map<String, Module> modules = new ConcurrentHashMap<>();
    /** Why a bundle's provider was refused (a command name already taken), by bundle id; read by {@link #load}. */
    private final Map<Long, String> refusals = new ConcurrentHashMap<>();
    /** MODULE LOAD's arguments for the bundle it is starting, by bundle id, until its provider is added. */
    private final Map<Long, List<String>> pendingArguments = new ConcurrentHashMap<>();

    private FelixModuleLoader(BundleContext context, ModuleRegistry registry) {
        this.context = context;
        this.registry = registry;
        this.tracker = new ServiceTracker<>(context, CommandProvider.class, this);
    }

    /** A loader that has already added the command providers the bundles of plugins/ registered. */
    static FelixModuleLoader open(BundleContext context, ModuleRegistry registry) {
        FelixModuleLoader loader = new FelixModuleLoader(context, registry);
        loader.tracker.open();
        return loader;
    }

    @Override
    public synchronized String load(Path jar, List<String> arguments) throws Exception {
        Path file = jar.toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no such file: " + file);
        }
        String location = file.toUri().toString();
        for (Bundle installed : context.getBundles()) {
            if (installed.getLocation().equals(location)) {
                throw new IllegalArgumentException(file + " is already loaded as bundle " + installed.getSymbolicName());
            }
        }
        Bundle bundle = context.installBundle(location);
        pendingArguments.put(bundle.getBundleId(), List.copyOf(arguments));
        try {
            bundle.start();
        } catch (BundleException | RuntimeException e) {
            pendingArguments.remove(bundle.getBundleId());
            uninstall(bundle);
            throw new IllegalArgumentException("bundle " + bundle.getSymbolicName() + " did not start: " + e.getMessage()
                + (e.getCause() != null ? " (" + e.getCause() + ")" : ""), e);
        }
        pendingArguments.remove(bundle.getBundleId());
        List<String> names = new ArrayList<>();
        modules.forEach((name, module) -> {
            if (module.bundle().getBundleId() == bundle.getBundleId()) {
                names.add(name);
            }
        });
        String refusal = refusals.remove(bundle.getBundleId());
        if (names.isEmpty() || refusal != null) {
            uninstall(bundle);
            throw new IllegalArgumentException(refusal != null ? refusal
                : "bundle " + bundle.getSymbolicName() + " registered no " + CommandProvider.class.getName() + " service");
        }
        return String.join(",", names);
    }

    @Override
    public synchronized boolean unload(String name) throws BundleException {
        Module module = modules.get(name);
        if (module == null) {
            return false;
        }
        uninstall(module.bundle());
        return true;
    }

    @Override
    public List<LoadedModule> list() {
        List<LoadedModule> loaded = new ArrayList<>();
        modules.forEach((name, module) -> loaded.add(new LoadedModule(name, module.bundle().getVersion().toString(),
            pathOf(module.bundle()), module.arguments())));
        loaded.sort(Comparator.comparing(LoadedModule::name));
        return loaded;
    }

    @Override
    public CommandProvider addingService(ServiceReference<CommandProvider> reference) {
        CommandProvider provider = context.getService(reference);
        if (provider == null) {
            return null;
        }
        Bundle bundle = reference.getBundle();
        List<String> arguments = pendingArguments.getOrDefault(bundle.getBundleId(), List.of());
        String refusal = null;
        if (modules.containsKey(provider.name())) {
            refusal = "a module named '" + provider.name() + "' is already loaded";
        } else {
            try {
                registry.addCommands(provider, arguments);
            } catch (RuntimeException e) { // a command name already taken, or a broken plugin
                refusal = "module '" + provider.name() + "' of bundle " + bundle.getSymbolicName() + " refused: "
                    + e;
            }
        }
        if (refusal != null) {
            LOG.log(System.Logger.Level.WARNING, refusal);
            refusals.put(bundle.getBundleId(), refusal);
            context.ungetService(reference);
            return null;
        }
        modules.put(provider.name(), new Module(provider, bundle, arguments));
        LOG.log(System.Logger.Level.DEBUG, "Module '" + provider.name() + "' added from " + bundle.getLocation());
        return provider;
    }

    @Override
    public void modifiedService(ServiceReference<CommandProvider> reference, CommandProvider provider) {
    }

    @Override
    public void removedService(ServiceReference<CommandProvider> reference, CommandProvider provider) {
        modules.remove(provider.name());
        registry.removeCommands(provider);
        context.ungetService(reference);
    }

    /** Stops and uninstalls a bundle, then lets the framework drop its class loader. */
    private void uninstall(Bundle bundle) throws BundleException {
        bundle.uninstall();
        context.getBundle(0).adapt(FrameworkWiring.class).refreshBundles(List.of(bundle));
    }

    private static String pathOf(Bundle bundle) {
        String location = bundle.getLocation();
        return location.startsWith("file:") ? Path.of(java.net.URI.create(location)).toString() : location;
    }
}
