package dev.lacewing.launcher;

import dev.lacewing.core.config.Config;
import dev.lacewing.core.config.ConfigSource;
import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.core.server.Plugins;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.ServiceConfigurationError;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * {@code bin/lacewing-server [conf-file] [--name value ...]}: the settings of a redis.conf-style
 * file, overridden by {@code --name value} options, as redis-server takes them. The
 * {@code plugin-mode} setting says how plugins/ ({@code plugins-dir}) is loaded:
 * <ul>
 * <li>{@code jpms} (default): a module layer over the plugin jars, providers found by ServiceLoader;</li>
 * <li>{@code osgi}: an embedded Felix; MODULE LOAD / LIST / UNLOAD then work at runtime;</li>
 * <li>{@code classpath}: the plugin jars are already on the class path
 *     ({@code java -cp 'lib/*:plugins/*' dev.lacewing.launcher.Main}).</li>
 * </ul>
 * A start-up error is one log line on standard error and exit status 1. SHUTDOWN, SIGTERM and
 * SIGINT stop the server cleanly with exit status 0.
 */
public final class Main {

    private static final System.Logger LOG = System.getLogger(Main.class.getName());

    private Main() {
    }

    public static void main(String[] args) {
        RedisStyleLog.install();
        // Handlers first: a signal that arrives once the dataset is loaded (the server is about to
        // open its ports, or has) must find the server, and one during start-up (the dump still
        // loading) exits without saving a half-loaded dataset.
        AtomicReference<Running> started = new AtomicReference<>();
        AtomicReference<LacewingServer> serving = new AtomicReference<>();
        AtomicBoolean signalled = new AtomicBoolean();
        for (String signal : List.of("TERM", "INT")) {
            Signal.handle(new Signal(signal), received -> {
                if (signalled.getAndSet(true)) {
                    LOG.log(System.Logger.Level.WARNING, "You insist... exiting now.");
                    Runtime.getRuntime().halt(1);
                }
                LacewingServer server = serving.get();
                if (server == null) {
                    LOG.log(System.Logger.Level.WARNING, "Received shutdown signal during loading, scheduling shutdown.");
                    System.exit(0);
                }
                LOG.log(System.Logger.Level.WARNING, "Received SIG" + signal + " scheduling shutdown...");
                if (!server.shutdownOnSignal()) {
                    // As Redis: the save failed, so the server keeps running, and a later signal tries again.
                    signalled.set(false);
                    LOG.log(System.Logger.Level.WARNING, "SIG" + signal + " received but errors trying to shut "
                        + "down the server, check the logs for more information");
                }
            });
        }
        // The hook is in place before the server starts: a signal in the moment between the port
        // opening and `started` being set exits through it (System.exit), with nothing left to add.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Running toClose = started.get();
            if (toClose != null) {
                toClose.close();
            }
        }, "lacewing-shutdown"));
        Running running;
        try {
            running = start(args, serving::set);
        } catch (StartupError e) {
            RedisStyleLog.fatal(e.getMessage());
            System.exit(1);
            return;
        }
        started.set(running);
        try {
            running.server().awaitShutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        running.close();
        System.exit(0);
    }

    /**
     * A started server and the plugin framework it runs on (none in JPMS and class-path mode).
     * Closed once, by the main thread after SHUTDOWN or a signal, or by the shutdown hook.
     */
    private static final class Running {

        private final LacewingServer server;
        private final AutoCloseable framework;
        private final PidFile pidFile;
        private boolean closed;

        Running(LacewingServer server, AutoCloseable framework, PidFile pidFile) {
            this.server = server;
            this.framework = framework;
            this.pidFile = pidFile;
        }

        LacewingServer server() {
            return server;
        }

        synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            server.close();
            pidFile.remove();
            if (framework != null) {
                try {
                    framework.close();
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.WARNING, "Plugin framework did not close cleanly: " + e.getMessage());
                }
            }
        }
    }

    /** Why the server cannot start, worded for the one log line. */
    private static final class StartupError extends Exception {

        StartupError(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static Running start(String[] args, Consumer<LacewingServer> onServing)
        throws StartupError {
        List<ConfigSource.Entry> entries;
        try {
            entries = ConfigSource.fromCommandLine(args);
        } catch (NoSuchFileException e) {
            throw new StartupError("Fatal error, can't open config file '" + e.getFile() + "': No such file or directory",
                e);
        } catch (IOException e) {
            throw new StartupError("Fatal error, can't open config file: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new StartupError("Fatal config error: " + e.getMessage(), e);
        }
        // Core's settings are checked here, before any plugin loads, so a typo fails fast; the others once
        // the plugins that may declare them are found (checkSettings); the builder checks them all again.
        Config config = new Config();
        for (ConfigSource.Entry entry : entries) {
            if (!Config.isUserDirective(entry.name()) && config.setting(entry.name()).isPresent()) {
                initialize(config, entry);
            }
        }
        if (config.flag("daemonize")) {
            throw new StartupError("Fatal config error: 'daemonize yes': a JVM cannot fork; run bin/lacewing-server "
                + "in the background (nohup, &) or under a supervisor such as systemd, with daemonize no", null);
        }
        if (!config.value("logfile").isEmpty()) {
            try {
                RedisStyleLog.appendTo(Path.of(config.value("logfile")));
            } catch (IOException e) {
                throw new StartupError("Can't open the log file: " + e.getMessage(), e);
            }
        }
        if (config.flag("syslog-enabled")) {
            openSyslog(config);
        }
        List<String> withoutEffect = config.withoutEffect(entries.stream().map(ConfigSource.Entry::name).toList());
        if (!withoutEffect.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "Configuration directives accepted, no effect (not implemented in "
                + "Lacewing yet): " + String.join(", ", withoutEffect));
        }
        String mode = config.value("plugin-mode").toLowerCase(Locale.ROOT);
        if (!List.of("jpms", "osgi", "classpath").contains(mode)) {
            throw new StartupError("Fatal config error: 'plugin-mode " + mode
                + "': argument must be one of the following: jpms, osgi, classpath", null);
        }
        Path pluginsDirectory = home().resolve(config.value("plugins-dir"));

        LacewingServer.Builder builder = LacewingServer.builder().onServing(onServing);
        entries.forEach(entry -> builder.set(entry.name(), entry.value()));
        if (args.length > 0 && !args[0].startsWith("--")) {
            builder.configFile(Path.of(args[0]));
        }
        EmbeddedFelix felix = null;
        // Written before the server answers anything, so a client that got its first reply finds it
        // (Redis writes it between listening and its event loop's first turn); removed if start fails.
        PidFile pidFile = PidFile.write(config.value("pidfile"));
        try {
            Plugins plugins = switch (mode) {
                case "jpms" -> PluginLayer.load(pluginsDirectory);
                case "osgi" -> {
                    felix = EmbeddedFelix.start(pluginsDirectory);
                    EmbeddedFelix started = felix;
                    builder.moduleLoader(registry -> FelixModuleLoader.open(started.context(), registry));
                    yield felix.plugins();
                }
                default -> Plugins.fromClassPath();
            };
            checkSettings(entries, plugins);
            LacewingServer server = builder.plugins(plugins).start();
            return new Running(server, felix, pidFile);
        } catch (StartupError e) {
            pidFile.remove();
            if (felix != null) {
                felix.close();
            }
            throw e;
        } catch (Exception | ServiceConfigurationError | LinkageError e) {
            // Exception: Netty rethrows checked ones (BindException) unchecked; the errors: a broken plugin
            pidFile.remove();
            if (felix != null) {
                felix.close();
            }
            throw new StartupError("Failed to start Lacewing: " + e.getMessage(), e);
        }
    }

    /**
     * Every setting given, checked against core's and those the found plugins declare: a name no one
     * declares, or a bad value, is a fatal config error as for core's own.
     */
    private static void checkSettings(List<ConfigSource.Entry> entries, Plugins plugins) throws StartupError {
        Config config;
        try {
            config = Config.withPlugins(plugins.settings());
        } catch (IllegalArgumentException e) {
            throw new StartupError("Failed to start Lacewing: " + e.getMessage(), e);
        }
        for (ConfigSource.Entry entry : entries) {
            if (!Config.isUserDirective(entry.name())) {
                initialize(config, entry);
            }
        }
    }

    private static void initialize(Config config, ConfigSource.Entry entry) throws StartupError {
        try {
            config.initialize(entry.name(), entry.value());
        } catch (IllegalArgumentException e) {
            throw new StartupError("Fatal config error: '" + entry.name() + " " + entry.value() + "': "
                + e.getMessage(), e);
        }
    }

    /** The distribution's directory (bin/lacewing-server passes it); relative plugins-dir paths start there. */
    private static Path home() {
        String home = System.getProperty("lacewing.home");
        return Path.of(home != null ? home : "").toAbsolutePath();
    }

    /**
     * syslog-enabled: adds the syslog handler beside the log file or standard output, as Redis
     * logs to both; where it cannot run, one warning says why and the server goes on without it.
     */
    private static void openSyslog(Config config) {
        String path = System.getProperty(SyslogHandler.PATH_PROPERTY, "/dev/log");
        String ident = config.value("syslog-ident");
        String facility = config.value("syslog-facility");
        try {
            java.util.logging.Logger.getLogger("").addHandler(SyslogHandler.open(path, facility, ident));
        } catch (IllegalStateException e) {
            LOG.log(System.Logger.Level.WARNING, "syslog-enabled yes, but syslog cannot be sent from here: "
                + e.getMessage() + "; logging to " + (config.value("logfile").isEmpty() ? "standard output"
                : config.value("logfile")) + " only");
            return;
        }
        if (!java.nio.file.Files.exists(Path.of(path))) {
            LOG.log(System.Logger.Level.WARNING, "syslog-enabled yes, but there is no syslog socket at " + path
                + " (no syslog daemon running?): lines sent there are lost until one listens");
        }
        LOG.log(System.Logger.Level.INFO, "Logging to syslog at " + path + " as " + ident + ", facility " + facility);
    }
}
