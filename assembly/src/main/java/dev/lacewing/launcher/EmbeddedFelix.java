package dev.lacewing.launcher;

import dev.lacewing.api.CommandProvider;
import dev.lacewing.api.ScriptingProvider;
import dev.lacewing.api.StorageEngineProvider;
import dev.lacewing.api.ThreadingStrategy;
import dev.lacewing.api.TransportProvider;
import dev.lacewing.api.storage.StorageProvider;
import dev.lacewing.core.server.Plugins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;

/**
 * OSGi plugin mode: an embedded Apache Felix whose bundles are the jars of plugins/ and whose
 * services are the providers.
 *
 * <p>The system bundle exports every package the jars of lib/ export (the API, core, Netty),
 * each with the version and {@code uses} of that jar's own Export-Package header, so bundles
 * import exactly the classes the server runs with. That includes Netty's epoll and io_uring
 * classes: their native libraries must be loaded by the loader of netty-common (see
 * {@link PluginLayer}). The framework keeps its storage in a temporary directory, removed on close.
 *
 * <p>Thread rule: started and closed by the launcher; the framework calls back on its own threads.
 */
final class EmbeddedFelix implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(EmbeddedFelix.class.getName());
    private static final long STOP_TIMEOUT_MILLIS = 10_000;

    private final Framework framework;
    private final Path storage;

    private EmbeddedFelix(Framework framework, Path storage) {
        this.framework = framework;
        this.storage = storage;
    }

    /**
     * Starts the framework and every bundle in {@code directory}. A bundle that does not start is
     * logged and left installed; a bundle that cannot be installed stops the launch.
     */
    static EmbeddedFelix start(Path directory) {
        List<Path> jars = PluginJars.in(directory);
        Path storage;
        try {
            storage = Files.createTempDirectory("lacewing-felix-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the OSGi framework storage: " + e.getMessage(), e);
        }
        FrameworkFactory factory = ServiceLoader.load(FrameworkFactory.class, EmbeddedFelix.class.getClassLoader())
            .findFirst().orElseThrow(() -> new IllegalStateException("no OSGi framework in lib/"));
        Framework framework = factory.newFramework(Map.of(
            Constants.FRAMEWORK_STORAGE, storage.toString(),
            Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT,
            Constants.FRAMEWORK_SYSTEMPACKAGES_EXTRA, String.join(",", libraryExports())));
        EmbeddedFelix felix = new EmbeddedFelix(framework, storage);
        try {
            framework.init();
            framework.start();
            BundleContext context = framework.getBundleContext();
            List<Bundle> bundles = new ArrayList<>();
            for (Path jar : jars) {
                try {
                    bundles.add(context.installBundle(jar.toUri().toString()));
                } catch (BundleException e) {
                    throw new IllegalArgumentException("plugin " + jar + " is not a bundle that can be installed: "
                        + e.getMessage(), e);
                }
            }
            for (Bundle bundle : bundles) {
                if (bundle.getHeaders().get(Constants.FRAGMENT_HOST) != null) {
                    continue;
                }
                try {
                    bundle.start();
                    LOG.log(System.Logger.Level.DEBUG, "Bundle " + bundle.getSymbolicName() + " " + bundle.getVersion()
                        + " started");
                } catch (BundleException | RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "Bundle " + bundle.getSymbolicName() + " (" + bundle.getLocation()
                        + ") did not start: " + describe(e));
                }
            }
            return felix;
        } catch (BundleException | RuntimeException e) {
            felix.close();
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("the OSGi framework did not start: " + e.getMessage(), e);
        }
    }

    BundleContext context() {
        return framework.getBundleContext();
    }

    /**
     * Engines, storages, transports, threading strategies and script languages registered as services. Command providers are
     * left to {@link FelixModuleLoader}, which follows them as they come and go.
     */
    Plugins plugins() {
        return new Plugins("osgi", services(StorageEngineProvider.class), services(StorageProvider.class),
            services(TransportProvider.class), services(ThreadingStrategy.class), List.<CommandProvider>of(),
            services(ScriptingProvider.class));
    }

    private <T> List<T> services(Class<T> type) {
        BundleContext context = context();
        try {
            List<ServiceReference<T>> references = new ArrayList<>(context.getServiceReferences(type, null));
            references.sort(Comparator.reverseOrder());
            List<T> services = new ArrayList<>();
            for (ServiceReference<T> reference : references) {
                T service = context.getService(reference);
                if (service != null) {
                    services.add(service);
                }
            }
            return services;
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Stops the framework (bundles stop, services go away) and deletes its storage. */
    @Override
    public void close() {
        try {
            framework.stop();
            framework.waitForStop(STOP_TIMEOUT_MILLIS);
        } catch (BundleException e) {
            LOG.log(System.Logger.Level.WARNING, "OSGi framework did not stop cleanly: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteRecursively(storage);
    }

    /**
     * The Export-Package headers of the jars the launcher runs with (the boot module layer, or the
     * class path when started that way), except the framework's own jar.
     */
    private static Set<String> libraryExports() {
        Set<String> exports = new LinkedHashSet<>();
        for (Path jar : launcherJars()) {
            try (JarFile file = new JarFile(jar.toFile())) {
                var manifest = file.getManifest();
                if (manifest == null) {
                    continue;
                }
                var attributes = manifest.getMainAttributes();
                String symbolicName = attributes.getValue(Constants.BUNDLE_SYMBOLICNAME);
                String exported = attributes.getValue(Constants.EXPORT_PACKAGE);
                if (exported != null && (symbolicName == null || !symbolicName.startsWith("org.apache.felix.framework"))) {
                    exports.add(exported);
                }
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot read the manifest of " + jar + ": " + e.getMessage());
            }
        }
        return exports;
    }

    private static List<Path> launcherJars() {
        List<Path> jars = new ArrayList<>();
        if (EmbeddedFelix.class.getModule().isNamed()) {
            for (var module : ModuleLayer.boot().configuration().modules()) {
                module.reference().location().filter(uri -> uri.getScheme().equals("file")).map(Path::of)
                    .filter(path -> path.toString().endsWith(".jar")).ifPresent(jars::add);
            }
        } else {
            for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                if (entry.endsWith(".jar")) {
                    jars.add(Path.of(entry));
                }
            }
        }
        jars.sort(Comparator.naturalOrder());
        return jars;
    }

    private static String describe(Throwable e) {
        Throwable cause = e.getCause();
        return e.getMessage() + (cause != null && cause != e ? " (" + cause + ")" : "");
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot delete " + root + ": " + e.getMessage());
        }
    }
}
