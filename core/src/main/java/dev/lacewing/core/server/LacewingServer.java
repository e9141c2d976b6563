package dev.lacewing.core.server;

import dev.lacewing.api.CommandProvider;
import dev.lacewing.api.EngineContext;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.Settings;
import dev.lacewing.api.StorageEngine;
import dev.lacewing.api.StorageEngineProvider;
import dev.lacewing.api.ThreadingPlan;
import dev.lacewing.api.ThreadingStrategy;
import dev.lacewing.api.TransportProvider;
import dev.lacewing.api.Workers;
import dev.lacewing.api.storage.Storage;
import dev.lacewing.api.storage.StorageProvider;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.config.Config;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.KeyspaceEngine;
import dev.lacewing.core.keyspace.KeyspaceListener;
import dev.lacewing.core.keyspace.StorageSetup;
import dev.lacewing.core.persistence.aof.AofDeletions;
import dev.lacewing.core.persistence.aof.AppendOnlyFile;
import dev.lacewing.core.persistence.BackgroundSave;
import dev.lacewing.core.threading.PerCoreStrategy;
import dev.lacewing.core.threading.SingleStrategy;
import dev.lacewing.core.transport.NioTransport;
import dev.lacewing.core.transport.TlsContext;
import dev.lacewing.transport.spi.NettyTransport;
import dev.lacewing.transport.spi.SocketWrite;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ThreadPerTaskExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * A running Lacewing server, and the API to start one in-process:
 * <pre>{@code
 * try (LacewingServer server = LacewingServer.builder().set("port", "0").set("engine", "multithread").start()) {
 *     connect to 127.0.0.1:server.port()
 * }
 * }</pre>
 * The launcher of the distribution uses the same builder, with the plugins it loaded.
 *
 * <p>Thread rule: start and close from one thread; {@link #port()} from any.
 */
public final class LacewingServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LacewingServer.class.getName());

    private final ServerState state;
    private final MultiThreadIoEventLoopGroup group;
    /**
     * The one thread that accepts connections on every listener (TCP, TLS, Unix, metrics) and hands
     * each to a worker. Not a worker itself: a worker may run a script for as long as it is busy,
     * and a listener on it would accept nobody meanwhile, not even the client that comes to send
     * SCRIPT KILL (Redis accepts clients during a busy script and answers them BUSY).
     */
    private final MultiThreadIoEventLoopGroup acceptor;
    private final Listeners listeners;
    private final StorageEngine engine;
    private final Workers workers;
    private volatile boolean closed;

    private LacewingServer(ServerState state, MultiThreadIoEventLoopGroup group, MultiThreadIoEventLoopGroup acceptor,
                           Listeners listeners, StorageEngine engine, Workers workers) {
        this.state = state;
        this.group = group;
        this.acceptor = acceptor;
        this.workers = workers;
        this.listeners = listeners;
        this.engine = engine;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The TCP port the server listens on (the chosen one when started with port 0); 0 when
     * tls-port is set and port is 0, which turns plain TCP off.
     */
    public int port() {
        return state.port();
    }

    /** The Unix domain socket's path (unixsocket); null for none. */
    public Path unixSocket() {
        return listeners.unixSocket();
    }

    /** The TLS port (tls-port); 0 for none. */
    public int tlsPort() {
        return state.tlsPort();
    }

    /** The shared state; for server tools and tests in core. */
    public ServerState state() {
        return state;
    }

    /** Blocks until SHUTDOWN is received or {@link #close()} is called. */
    public void awaitShutdown() throws InterruptedException {
        state.shutdownLatch().await();
    }

    /**
     * A signal's shutdown (SIGTERM, SIGINT), as Redis's prepareForShutdown: with a save point
     * configured the dataset is saved first, holding the whole keyspace; when that save fails the
     * server goes on running and false is returned. True once {@link #awaitShutdown()} returns.
     */
    public boolean shutdownOnSignal() {
        boolean ready = KeyspaceTask.run(engine, workers, databases(state), databases -> {
            state.backgroundSave().cancel();
            return state.snapshots().saveBeforeShutdown(databases, false, false, false);
        });
        if (ready) {
            state.requestShutdown();
        }
        return ready;
    }

    private static int databases(ServerState state) {
        return (int) state.settings().longValue("databases");
    }

    /** Stops listening, closes every client, stops the engine and the workers. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        state.backgroundSave().close();
        state.scripts().stopAll();
        listeners.close();
        for (ClientConnection client : List.copyOf(state.clients().values())) {
            client.kill();
        }
        acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        engine.close();
        state.storage().close();
        state.aof().close();
        state.requestShutdown();
        LOG.log(System.Logger.Level.INFO, "Lacewing is now ready to exit, bye bye...");
    }

    /** Configures and starts a server. */
    public static final class Builder {

        /** In the order given: a repeated setting (save, client-output-buffer-limit) adds to or replaces the one before. */
        private final List<Map.Entry<String, String>> settings = new ArrayList<>();
        private Path configFile;
        private Plugins plugins;
        private Function<ModuleRegistry, ModuleLoader> moduleLoader;
        private Consumer<LacewingServer> onServing = server -> { };
        private AppendOnlyFile.IncrWrites aofWrites = AppendOnlyFile.IncrWrites.DIRECT;

        /**
         * Called with the server once its dataset is loaded, just before its ports open: from then on
         * a signal should shut it down as a running server (saving first), as Redis's does.
         */
        public Builder onServing(Consumer<LacewingServer> callback) {
            onServing = callback;
            return this;
        }

        /**
         * For tests only: how the AOF's incr file is written and forced, in place of the file's own
         * write and fsync ({@link AppendOnlyFile.IncrWrites#DIRECT}), to stand for a slow or failing disk.
         */
        public Builder aofIncrWrites(AppendOnlyFile.IncrWrites writes) {
            aofWrites = writes;
            return this;
        }

        /** Any setting by its Redis name or alias; checked when the server starts. */
        public Builder set(String name, String value) {
            settings.add(Map.entry(name, value));
            return this;
        }

        /** The file the settings came from, which INFO reports as config_file. */
        public Builder configFile(Path file) {
            this.configFile = file.toAbsolutePath();
            return this;
        }

        public Builder port(int port) {
            return set("port", Integer.toString(port));
        }

        public Builder engine(String engine) {
            return set("engine", engine);
        }

        public Builder transport(String transport) {
            return set("transport", transport);
        }

        public Builder threading(String threading) {
            return set("threading", threading);
        }

        public Builder threads(int threads) {
            return set("threads", Integer.toString(threads));
        }

        /** Where providers come from; by default the class path. */
        public Builder plugins(Plugins plugins) {
            this.plugins = plugins;
            return this;
        }

        /** Enables MODULE LOAD/UNLOAD with a loader that reports to the server's registry. */
        public Builder moduleLoader(Function<ModuleRegistry, ModuleLoader> factory) {
            this.moduleLoader = factory;
            return this;
        }

        /**
         * Starts the server. IllegalArgumentException (message: the reason) for a bad setting or a
         * plugin that is missing or cannot run here; IllegalStateException when it cannot listen.
         */
        public LacewingServer start() {
            Plugins found = plugins != null ? plugins : Plugins.fromClassPath();
            // Every found plugin's settings are known before the first is read, so their order does not matter.
            Config config = Config.withPlugins(found.settings());
            List<String> users = new ArrayList<>();
            for (Map.Entry<String, String> setting : settings) {
                if (Config.isUserDirective(setting.getKey())) {
                    users.add(setting.getValue());
                    continue;
                }
                try {
                    config.initialize(setting.getKey(), setting.getValue());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("'" + setting.getKey() + " " + setting.getValue() + "': "
                        + e.getMessage(), e);
                }
            }
            if (configFile != null) {
                config.configFile(configFile.toString());
            }
            String engineName = config.value("engine");
            ThreadingStrategy strategy = pick(withBuiltInStrategies(found.threadingStrategies()),
                config.value("threading"), ThreadingStrategy::name, "threading strategy");
            ThreadingPlan plan = strategy.plan((int) config.longValue("threads"), engineName);
            StorageEngineProvider engineProvider = pick(found.engines(), engineName, StorageEngineProvider::name,
                "engine");
            StorageProvider storageProvider = pick(found.storages(), config.value("storage"), StorageProvider::name,
                "storage");
            TransportChoice transport = chooseTransport(withBuiltInTransports(found.transports()),
                config.value("transport"));
            TlsContext tls = TlsContext.start(config);

            ConnectionPlacement placement = new ConnectionPlacement();
            MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(plan.workers(),
                new ThreadPerTaskExecutor(new DefaultThreadFactory("lacewing-worker")), placement,
                transport.transport().ioHandlerFactory(config));
            MultiThreadIoEventLoopGroup acceptor = new ListenerLoopGroup(new DefaultThreadFactory("lacewing-accept"),
                transport.transport().acceptorIoHandlerFactory(config));
            try {
                return start(config, users, found, plan, engineName, engineProvider, storageProvider, transport, tls,
                    group, acceptor, placement);
            } catch (RuntimeException e) {
                acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS);
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
                throw e;
            }
        }

        private LacewingServer start(Config config, List<String> users, Plugins found, ThreadingPlan plan, String engineName,
                                     StorageEngineProvider engineProvider, StorageProvider storageProvider,
                                     TransportChoice transport,
                                     TlsContext tls, MultiThreadIoEventLoopGroup group,
                                     MultiThreadIoEventLoopGroup acceptor, ConnectionPlacement placement) {
            NettyWorkers workers = new NettyWorkers(group);
            ServerState state = new ServerState(config, new CommandTable.Builder<CoreContext>("core").build(), plan, engineName,
                transport.transport().name(), transport.notes(), found.mode(), aofWrites);
            Scripts scripts = new Scripts(found.scripting().isEmpty() ? null : found.scripting().get(0));
            state.scripts(scripts);
            placement.scripts(scripts);
            scripts.busyThreshold(config.longValue("busy-reply-threshold"));
            config.onChange((name, value) -> scripts.busyThreshold(config.longValue("busy-reply-threshold")));
            state.commands(CoreCommands.table(scripts));
            for (CommandProvider provider : found.commands()) {
                state.addCommands(provider);
            }
            state.acl().loadAtStartup(users);
            Storage storage = storageProvider.open(new StorageSetup(config, databases(state), System::currentTimeMillis,
                state.memory(), transport.transport().fileReads()));
            state.storage(storageProvider.name(), storage);
            KeyspaceEngine engine;
            try {
                engine = create(engineProvider, config, workers, plan, storage, state);
            } catch (RuntimeException e) {
                storage.close();
                throw e;
            }
            state.engine(engine);
            try {
                KeyspaceTask.run(engine, workers, databases(state), databases -> {
                    if (config.flag("appendonly")) {
                        state.aof().load(databases, AofReplay.loader(state));
                    } else {
                        state.snapshots().load(databases);
                    }
                    state.aof().start(databases, new AppendOnlyFile.WholeKeyspace() {
                        @Override
                        public <T> T run(Function<List<Keyspace>, T> body) {
                            return KeyspaceTask.run(engine, workers, databases(state), body);
                        }
                    });
                    return null;
                });
            } catch (RuntimeException e) {
                engine.close();
                storage.close();
                throw e;
            }
            // Every database shares the partitions: one view installs the listener in all of them.
            // After loading, so that the keys a dump brings publish no events.
            Database database = engine.keyspace(0);
            int partitions = database.partitionCount();
            byte[][] partitionKeys = new byte[partitions][];
            for (int p = 0; p < partitions; p++) {
                partitionKeys[p] = KeyspaceTask.partitionKey(p, partitions);
            }
            state.backgroundSave().open(new BackgroundSave.Door() {
                @Override
                public void keyspace(Consumer<List<Keyspace>> body) {
                    KeyspaceTask.run(engine, workers, databases(state), databases -> {
                        body.accept(databases);
                        return null;
                    });
                }

                @Override
                public CompletableFuture<Void> partition(int partition, Runnable body) {
                    return KeyspaceTask.submit(engine, workers, partitionKeys[partition], body);
                }
            }, database);
            state.tracking().keyspace(database);
            state.tracking().workers(workers);
            database.listen(KeyspaceListener.both(state.keyspaceEvents(),
                KeyspaceListener.both(state.tracking(), new AofDeletions(state.aof(), state.settings()))));
            if (moduleLoader != null) {
                state.moduleLoader(moduleLoader.apply(state));
            }

            // Read before the port opens: the management beans take a while to start, and a client
            // that connects at once should not meet a server still describing itself.
            String jvm = "JVM " + System.getProperty("java.vm.version") + " flags " + ServerState.jvmFlags()
                + ", collector " + ServerState.collectors();
            int keepAliveSeconds = (int) config.longValue("tcp-keepalive");
            boolean shardWritesReplies = engine.writesRepliesWhereRun();
            NettyTransport connections = transport.transport();
            ChannelInitializer<Channel> plain = new ChannelInitializer<>() {
                @Override
                protected void initChannel(Channel channel) {
                    SocketWrite socketWrite = shardWritesReplies ? connections.socketWrite(channel) : null;
                    if (socketWrite != null) {
                        // The transport then reports the end of input instead of closing the socket
                        // itself, so the close passes ClientConnection first (see its close()).
                        channel.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
                    }
                    channel.pipeline().addLast(new ClientConnection(state, workers.indexOf(channel.eventLoop()), socketWrite));
                }
            };
            ServerBootstrap bootstrap = new ServerBootstrap()
                .channel(transport.transport().serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, (int) config.longValue("tcp-backlog"))
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, keepAliveSeconds > 0)
                .childHandler(plain);
            transport.transport().configureConnections(bootstrap);
            if (keepAliveSeconds > 0) {
                transport.transport().configureKeepAlive(bootstrap, keepAliveSeconds);
            }
            ServerBootstrap tlsBootstrap = bootstrap.clone().childHandler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel channel) {
                    channel.pipeline().addLast(tls.newHandler(channel.alloc()),
                        new ClientConnection(state, workers.indexOf(channel.eventLoop())));
                }
            });
            ServerBootstrap domain = new ServerBootstrap()
                .channel(transport.transport().serverDomainSocketChannelClass())
                .option(ChannelOption.SO_BACKLOG, (int) config.longValue("tcp-backlog"))
                .childHandler(plain);
            Listeners listeners = new Listeners(acceptor, group, config.value("bind"), bootstrap, tlsBootstrap, tls, state);
            LacewingServer server = new LacewingServer(state, group, acceptor, listeners, engine, workers);
            onServing.accept(server);
            try {
                listeners.open(config, transport.transport(), domain,
                    bootstrap.clone().childHandler(MetricsEndpoint.initializer(state)));
            } catch (RuntimeException e) {
                listeners.close();
                engine.close();
                storage.close();
                throw e;
            }
            int port = state.port();
            int tlsPort = state.tlsPort();
            applyLogLevel(config.value("loglevel"));
            config.onChange((name, value) -> {
                if (name.equals("loglevel")) {
                    applyLogLevel(value);
                }
            });
            workers.scheduleRepeating(0, () -> closeIdleClients(state), () -> 1000);
            workers.scheduleRepeating(0, state.backgroundSave()::checkSchedule, () -> 1000);
            workers.scheduleRepeating(0, state::sampleRates, () -> 100);
            LOG.log(System.Logger.Level.INFO, "Lacewing " + ServerState.VERSION + " ready: port " + port
                + (tlsPort == 0 ? "" : ", tls-port " + tlsPort + " (" + TlsContext.provider() + ")") + ", engine "
                + engineName + ", storage " + storageProvider.name() + ", transport " + transport.transport().name() + ", threading " + plan.strategy()
                + " (" + plan.workers() + " threads), plugins " + found.mode()
                + (transport.notes().isEmpty() ? "" : "; " + transport.notes()) + "; " + jvm);
            return server;
        }

        /** The {@code timeout} setting: closes clients idle for longer, as Redis's clientsCron does. */
        private static void closeIdleClients(ServerState state) {
            long timeoutSeconds = state.settings().longValue("timeout");
            if (timeoutSeconds <= 0) {
                return;
            }
            long now = System.currentTimeMillis();
            for (ClientConnection client : state.clients().values()) {
                if (!client.busy() && client.idleMillis(now) > timeoutSeconds * 1000) {
                    LOG.log(System.Logger.Level.DEBUG, "Closing idle client id=" + client.id());
                    client.kill();
                }
            }
        }

        /**
         * Maps Redis's log levels onto java.util.logging for Lacewing's loggers. In System.Logger
         * terms: WARNING is Redis's warning, INFO notice, DEBUG (FINE) verbose and TRACE debug.
         */
        private static void applyLogLevel(String level) {
            java.util.logging.Level mapped = switch (level) {
                case "debug" -> java.util.logging.Level.ALL;
                case "verbose" -> java.util.logging.Level.FINE;
                case "warning" -> java.util.logging.Level.WARNING;
                case "nothing" -> java.util.logging.Level.OFF;
                default -> java.util.logging.Level.INFO;
            };
            java.util.logging.Logger.getLogger("dev.lacewing").setLevel(mapped);
        }

        /**
         * The engine, over the storage opened for it. It must be a {@link KeyspaceEngine}: WATCH,
         * blocked clients, tracking, keyspace events and BGSAVE are core's, applied in core's
         * {@link Database}, so the server takes the engine's databases typed from here on rather than
         * testing what each {@code keyspace(i)} gives. An engine of another kind is a start-up error.
         */
        private static KeyspaceEngine create(StorageEngineProvider provider, Config config, Workers workers,
                                             ThreadingPlan plan, Storage storage, ServerState state) {
            StorageEngine engine = provider.create(new EngineContext() {
                @Override
                public Settings settings() {
                    return config;
                }

                @Override
                public Workers workers() {
                    return workers;
                }

                @Override
                public int databases() {
                    return (int) config.longValue("databases");
                }

                @Override
                public Storage storage() {
                    return storage;
                }

                @Override
                public ThreadingPlan threading() {
                    return plan;
                }

                @Override
                public LongSupplier clientBufferBytes() {
                    return state::clientBufferBytes;
                }
            });
            if (engine instanceof KeyspaceEngine keyspaceEngine) {
                return keyspaceEngine;
            }
            engine.close();
            throw new IllegalArgumentException("engine '" + provider.name() + "' does not extend "
                + KeyspaceEngine.class.getName() + ", which the server's databases need");
        }

        private static List<ThreadingStrategy> withBuiltInStrategies(List<ThreadingStrategy> found) {
            List<ThreadingStrategy> all = new ArrayList<>(List.of(new PerCoreStrategy(), new SingleStrategy()));
            all.addAll(found);
            return all;
        }

        private static List<TransportProvider> withBuiltInTransports(List<TransportProvider> found) {
            List<TransportProvider> all = new ArrayList<>(found);
            all.add(new NioTransport());
            return all;
        }

        /** The first provider of that name; built-ins come first so a plugin cannot shadow them by accident. */
        private static <T> T pick(List<T> providers, String name, Function<T, String> nameOf, String what) {
            for (T provider : providers) {
                if (nameOf.apply(provider).equals(name)) {
                    return provider;
                }
            }
            List<String> names = providers.stream().map(nameOf).distinct().sorted().toList();
            throw new IllegalArgumentException("no " + what + " named '" + name + "'; available: " + names);
        }

        private record TransportChoice(NettyTransport transport, String notes) {
        }

        /**
         * {@code auto} takes the available transport with the highest preference and notes why
         * any preferred one could not load; a named transport that cannot load is an error
         * carrying its reason.
         */
        private static TransportChoice chooseTransport(List<TransportProvider> transports, String requested) {
            List<TransportProvider> candidates = new ArrayList<>();
            for (TransportProvider transport : transports) {
                if (candidates.stream().noneMatch(c -> c.name().equals(transport.name()))) {
                    candidates.add(transport);
                }
            }
            List<String> notes = new ArrayList<>();
            if (!requested.equals("auto")) {
                TransportProvider named = pick(candidates, requested, TransportProvider::name, "transport");
                named.unavailabilityCause().ifPresent(cause -> {
                    throw new IllegalArgumentException("transport " + requested + " cannot run here: " + cause);
                });
                return new TransportChoice(asNetty(named), "");
            }
            candidates.sort(Comparator.comparingInt(TransportProvider::preference).reversed());
            for (TransportProvider candidate : candidates) {
                var cause = candidate.unavailabilityCause();
                if (cause.isEmpty() && candidate instanceof NettyTransport netty) {
                    if (!notes.isEmpty()) {
                        LOG.log(System.Logger.Level.WARNING, "transport auto chose " + candidate.name() + ": "
                            + String.join("; ", notes));
                    }
                    return new TransportChoice(netty, String.join("; ", notes));
                }
                notes.add(candidate.name() + " unavailable: " + cause.orElse("not a Netty transport"));
            }
            throw new IllegalStateException("no transport can run here: " + notes);
        }

        private static NettyTransport asNetty(TransportProvider provider) {
            if (provider instanceof NettyTransport netty) {
                return netty;
            }
            throw new IllegalArgumentException("transport " + provider.name() + " does not implement "
                + NettyTransport.class.getName());
        }
    }
}
