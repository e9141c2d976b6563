package dev.lacewing.core.server;

import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandProvider;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Server;
import dev.lacewing.api.ThreadingPlan;
import dev.lacewing.api.storage.Storage;
import dev.lacewing.core.acl.Acl;
import dev.lacewing.core.acl.AclUser;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.config.Config;
import dev.lacewing.core.config.OutputBufferLimits;
import dev.lacewing.core.diagnostics.ErrorStats;
import dev.lacewing.core.diagnostics.InstantaneousMetric;
import dev.lacewing.core.diagnostics.LatencyMonitor;
import dev.lacewing.core.diagnostics.LatencyTracking;
import dev.lacewing.core.diagnostics.SlowLog;
import dev.lacewing.core.keyspace.KeyspaceEngine;
import dev.lacewing.core.keyspace.MemoryPolicy;
import dev.lacewing.core.persistence.BackgroundSave;
import dev.lacewing.core.persistence.Snapshots;
import dev.lacewing.core.persistence.aof.AppendOnlyFile;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import dev.lacewing.core.pubsub.PubSub;
import dev.lacewing.core.tracking.Tracking;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * What every connection and server command shares: configuration, the command table, the
 * engine, the clients, the counters INFO reports.
 *
 * <p>Thread rule: read by every worker; the command table is replaced atomically (copy on
 * write) when plugins come and go; counters are concurrent.
 */
public final class ServerState implements Server, ModuleRegistry {

    public static final String VERSION = "0.1.0";
    /** The Redis version Lacewing answers as, for clients that check it. */
    public static final String REDIS_VERSION = "7.0.15";

    private final Config config;
    private volatile CommandTable<CoreContext> commands;
    private KeyspaceEngine engine;
    private final ThreadingPlan threading;
    private final String transport;
    private final String transportNotes;
    private final String pluginMode;
    private final String engineName;
    private String storageName;
    private Storage storage;
    /** {@link Storage#alwaysResident}, read before every read-only command. */
    private boolean alwaysResident;
    private volatile ModuleLoader moduleLoader;
    private volatile Scripts scripts = new Scripts(null);
    private final Map<Long, ClientConnection> clients = new ConcurrentHashMap<>();
    private final PubSub pubSub = new PubSub();
    private final Tracking tracking;
    /** The memory settings as typed fields, kept current by CONFIG SET: read per command, never parsed there. */
    private final MemoryPolicy memory;
    private final KeyspaceEvents keyspaceEvents = new KeyspaceEvents(pubSub);
    private final Snapshots snapshots;
    private final AppendOnlyFile aof;
    private final BackgroundSave backgroundSave;
    private final SlowLog slowLog;
    private final LatencyMonitor latencyMonitor;
    private final LatencyTracking latencyTracking;
    private final Monitors monitors = new Monitors();
    private final ErrorStats errorStats = new ErrorStats();
    private final InstantaneousMetric commandRate = new InstantaneousMetric();
    private final InstantaneousMetric inputRate = new InstantaneousMetric();
    private final InstantaneousMetric outputRate = new InstantaneousMetric();
    /** INFO's run_id: 40 random hex characters, new at every start, as Redis's. */
    private final String runId = randomHex(20);
    private final AtomicLong nextClientId = new AtomicLong(1);
    /** CLIENT PAUSE: when it ends (0: no pause), and whether it holds every command or only writes. */
    private volatile long pausedUntil;
    private volatile boolean pausedAll;
    /** Clients whose command waits for the pause to end, told at CLIENT UNPAUSE (their timers tell them at the end). */
    private final Queue<ClientConnection> postponed = new ConcurrentLinkedQueue<>();
    private final long startMillis = System.currentTimeMillis();
    private final long startNanos = System.nanoTime();
    private final CountDownLatch shutdown = new CountDownLatch(1);
    private volatile int port;
    private volatile int tlsPort;

    final LongAdder connectionsReceived = new LongAdder();
    final LongAdder rejectedConnections = new LongAdder();
    final LongAdder commandsProcessed = new LongAdder();
    final LongAdder errorReplies = new LongAdder();
    final LongAdder netInputBytes = new LongAdder();
    final LongAdder netOutputBytes = new LongAdder();
    /** Reads from clients' sockets and flushes to them (INFO's total_reads_processed, total_writes_processed). */
    final LongAdder readsProcessed = new LongAdder();
    final LongAdder writesProcessed = new LongAdder();
    /** Lookups of read-only commands that found their key, and that did not (Redis's lookupKeyRead). */
    final LongAdder keyspaceHits = new LongAdder();
    final LongAdder keyspaceMisses = new LongAdder();
    /** What every connection's buffers hold, each connection adding its changes. */
    final LongAdder clientBuffers = new LongAdder();
    /** Clients closed for passing their output buffer limits. */
    final LongAdder outputLimitDisconnections = new LongAdder();
    /** Clients whose command is blocked (BLPOP...), for INFO's blocked_clients. */
    final LongAdder blockedClients = new LongAdder();

    /*
     * The limits every read batch checks, kept as fields: a profile of GET at pipeline 1 showed a
     * settings lookup (map get and Long.parseLong) per batch costing 6% of the server's Java time.
     */
    private volatile long protoMaxBulkLength;
    private volatile long clientQueryBufferLimit;
    private volatile OutputBufferLimits outputBufferLimits;
    private final Acl acl;

    ServerState(Config config, CommandTable<CoreContext> commands, ThreadingPlan threading, String engineName, String transport,
                String transportNotes, String pluginMode, AppendOnlyFile.IncrWrites aofWrites) {
        this.config = config;
        this.commands = commands;
        this.threading = threading;
        this.engineName = engineName;
        this.transport = transport;
        this.transportNotes = transportNotes;
        this.pluginMode = pluginMode;
        this.tracking = new Tracking(clients, config);
        this.memory = MemoryPolicy.of(config);
        this.acl = new Acl(this::commands, config.value("acl-pubsub-default").equals("allchannels"),
            config.longValue("acllog-max-len"), config.value("aclfile"));
        acl.defaultPassword(config.value("requirepass"));
        this.snapshots = new Snapshots(config, REDIS_VERSION, this::usedMemory, this::scripts);
        this.backgroundSave = new BackgroundSave(config, snapshots, REDIS_VERSION, this::usedMemory, this::scripts);
        this.aof = new AppendOnlyFile(config, snapshots, backgroundSave, aofWrites);
        backgroundSave.rewriting(aof::rewriteInProgress);
        this.slowLog = new SlowLog(config.longValue("slowlog-log-slower-than"), config.longValue("slowlog-max-len"));
        this.latencyMonitor = new LatencyMonitor(config.longValue("latency-monitor-threshold"));
        this.latencyTracking = new LatencyTracking(config.value("latency-tracking").equals("yes"),
            config.value("latency-tracking-info-percentiles"));
        readInputLimits();
        keyspaceEvents.configure(config.value("notify-keyspace-events"));
        config.onChange((name, value) -> {
            readInputLimits();
            switch (name) {
                case "requirepass" -> acl.defaultPassword(value);
                case "acl-pubsub-default" -> acl.allChannelsByDefault(value.equals("allchannels"));
                case "acllog-max-len" -> acl.logMaxLength(config.longValue("acllog-max-len"));
                default -> {
                }
            }
            if (name.equals("notify-keyspace-events")) {
                keyspaceEvents.configure(value);
            }
        });
    }

    private void readInputLimits() {
        protoMaxBulkLength = config.longValue("proto-max-bulk-len");
        clientQueryBufferLimit = config.longValue("client-query-buffer-limit");
        outputBufferLimits = OutputBufferLimits.parse(config.value("client-output-buffer-limit"));
        slowLog.configure(config.longValue("slowlog-log-slower-than"), config.longValue("slowlog-max-len"));
        latencyMonitor.threshold(config.longValue("latency-monitor-threshold"));
        latencyTracking.configure(config.value("latency-tracking").equals("yes"),
            config.value("latency-tracking-info-percentiles"));
    }

    /** {@code proto-max-bulk-len}, as of the last CONFIG SET. */
    long protoMaxBulkLength() {
        return protoMaxBulkLength;
    }

    /** {@code client-query-buffer-limit}, as of the last CONFIG SET. */
    long clientQueryBufferLimit() {
        return clientQueryBufferLimit;
    }

    /** {@code client-output-buffer-limit}, as of the last CONFIG SET. */
    OutputBufferLimits outputBufferLimits() {
        return outputBufferLimits;
    }

    /**
     * Whether a connection that has not authenticated must (Redis's authRequired): the default
     * user has a password or is off. Such a connection is held to the limits before AUTH.
     */
    boolean passwordRequired() {
        return acl.defaultNeedsAuth();
    }

    public Acl acl() {
        return acl;
    }

    /**
     * Closes the clients of removed ACL users (ACL DELUSER, ACL LOAD), as Redis's
     * ACLFreeUserAndKillClients: {@code current}, the one that ran the command, after its reply.
     */
    public void disconnect(List<AclUser> users, ClientConnection current) {
        if (users.isEmpty()) {
            return;
        }
        for (ClientConnection client : clients.values()) {
            if (users.contains(client.user())) {
                client.loseUser(client == current);
            }
        }
    }

    void commands(CommandTable<CoreContext> table) {
        this.commands = table;
    }

    void engine(KeyspaceEngine engine) {
        this.engine = engine;
    }

    void scripts(Scripts scripts) {
        this.scripts = scripts;
    }

    /** The scripts EVAL and SCRIPT LOAD stored, and each thread's runtime. */
    public Scripts scripts() {
        return scripts;
    }

    void moduleLoader(ModuleLoader loader) {
        this.moduleLoader = loader;
    }

    void port(int port) {
        this.port = port;
    }

    void tlsPort(int tlsPort) {
        this.tlsPort = tlsPort;
    }

    @Override
    public Config settings() {
        return config;
    }

    @Override
    public String version() {
        return VERSION;
    }

    public CommandTable<CoreContext> commands() {
        return commands;
    }

    public KeyspaceEngine engine() {
        return engine;
    }

    /** Set once at start-up, before the engine is made. */
    void storage(String name, Storage storage) {
        this.storageName = name;
        this.storage = storage;
        this.alwaysResident = storage.alwaysResident();
    }

    /** The {@code storage} setting's provider, as INFO reports it. */
    public String storageName() {
        return storageName;
    }

    /** Whether no value can be cold, so a read need not ask first ({@link Storage#alwaysResident}). */
    boolean alwaysResident() {
        return alwaysResident;
    }

    /** The storage the keyspace's tables come from. */
    public Storage storage() {
        return storage;
    }

    /** The RDB file: SAVE, LASTSAVE, SHUTDOWN's save and INFO persistence. */
    public Snapshots snapshots() {
        return snapshots;
    }

    /** The append-only file: propagation, BGREWRITEAOF and INFO persistence. */
    public AppendOnlyFile aof() {
        return aof;
    }

    /** BGSAVE, the save schedule and stop-writes-on-bgsave-error. */
    public BackgroundSave backgroundSave() {
        return backgroundSave;
    }

    /**
     * Redis's writeCommandsDeniedByDiskError with its message: the MISCONF error that writes and
     * PING get (queued ones in MULTI, EXEC of a transaction with a write, a script's writes) after a
     * failed BGSAVE under {@code stop-writes-on-bgsave-error}, or while the AOF's last write or
     * fsync failed; null while neither stops writes. Two volatile reads while the disk is healthy.
     */
    public String diskErrorRefusal() {
        return backgroundSave.refusesWrites() ? BackgroundSave.MISCONF : aof.refusal();
    }

    /**
     * INFO's used_memory, what maxmemory is held against: {@link #keyspaceMemory} plus the clients'
     * buffers.
     */
    public long usedMemory() {
        return keyspaceMemory() + clientBufferBytes();
    }

    /**
     * INFO's lacewing_used_memory_keyspace: the keyspace as the engine counts it, or the heap in use
     * where it cannot.
     */
    public long keyspaceMemory() {
        long keyspace = engine.usedMemory();
        return keyspace >= 0 ? keyspace
            : java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    public ThreadingPlan threading() {
        return threading;
    }

    public String engineName() {
        return engineName;
    }

    public String transport() {
        return transport;
    }

    /** Why transports that were not chosen could not load, empty when all could. */
    public String transportNotes() {
        return transportNotes;
    }

    public String pluginMode() {
        return pluginMode;
    }

    public ModuleLoader moduleLoader() {
        return moduleLoader;
    }

    /** The pub/sub registry: who is subscribed to what, for every worker. */
    /** LATENCY's events, added to from every thread. */
    public LatencyMonitor latencyMonitor() {
        return latencyMonitor;
    }

    /** latency-tracking: per-command histograms for LATENCY HISTOGRAM and INFO latencystats. */
    public LatencyTracking latencyTracking() {
        return latencyTracking;
    }

    /** SLOWLOG's entries, added to from every thread. */
    public SlowLog slowLog() {
        return slowLog;
    }

    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        new java.security.SecureRandom().nextBytes(random);
        return java.util.HexFormat.of().formatHex(random);
    }

    public String runId() {
        return runId;
    }

    /** Samples the instantaneous_* rates; every 100 ms on one worker, as Redis's serverCron. */
    void sampleRates() {
        long now = System.currentTimeMillis();
        commandRate.sample(commandsProcessed.sum(), now);
        inputRate.sample(netInputBytes.sum(), now);
        outputRate.sample(netOutputBytes.sum(), now);
    }

    /** instantaneous_ops_per_sec. */
    public long commandsPerSecond() {
        return commandRate.perSecond();
    }

    /** instantaneous_input_kbps. */
    public double inputKilobytesPerSecond() {
        return inputRate.perSecond() / 1024.0;
    }

    /** instantaneous_output_kbps. */
    public double outputKilobytesPerSecond() {
        return outputRate.perSecond() / 1024.0;
    }

    /** INFO errorstats' counters, which every connection's reply writer adds to. */
    public ErrorStats errorStats() {
        return errorStats;
    }

    /** A new read-only view of a database that counts its lookups as keyspace hits and misses. */
    ReadLookups readLookups() {
        return new ReadLookups(keyspaceHits, keyspaceMisses, keyspaceEvents);
    }

    public long readsProcessed() {
        return readsProcessed.sum();
    }

    public long writesProcessed() {
        return writesProcessed.sum();
    }

    public long keyspaceHits() {
        return keyspaceHits.sum();
    }

    public long keyspaceMisses() {
        return keyspaceMisses.sum();
    }

    /** The clients in MONITOR mode. */
    Monitors monitors() {
        return monitors;
    }

    public PubSub pubSub() {
        return pubSub;
    }

    /** Client-side caching: the tracking clients and their BCAST prefixes. */
    public Tracking tracking() {
        return tracking;
    }

    /** {@code maxmemory} and the eviction settings, typed. */
    public MemoryPolicy memory() {
        return memory;
    }

    /** Keyspace notifications, publishing through {@link #pubSub()}. */
    @Override
    public int keyspaceEventClasses() {
        return keyspaceEvents.classes();
    }

    @Override
    public void notifyKeyspaceEvent(int type, String event, int database, byte[] key, int offset, int length) {
        keyspaceEvents.publishIfEnabled(type, event, database, key, offset, length);
    }

    public KeyspaceEvents keyspaceEvents() {
        return keyspaceEvents;
    }

    /**
     * CLIENT PAUSE, as Redis's pauseClients: a pause in effect is extended, never shortened, and
     * WRITE does not narrow an ALL pause in effect.
     */
    public synchronized void pause(long untilMillis, boolean all) {
        boolean active = pausedUntil > System.currentTimeMillis();
        pausedAll = all || (active && pausedAll);
        pausedUntil = Math.max(untilMillis, active ? pausedUntil : 0);
    }

    /** CLIENT UNPAUSE: the pause ends, and the clients it held go on. */
    public synchronized void unpause() {
        pausedUntil = 0;
        pausedAll = false;
        for (ClientConnection client = postponed.poll(); client != null; client = postponed.poll()) {
            ClientConnection held = client;
            held.onHomeThread(held::retryPostponed);
        }
    }

    /**
     * When the pause that holds this command ends, or 0 when none does: under ALL every command, under
     * WRITE those that write or may replicate, and EXEC of a transaction holding one (Redis's
     * is_may_replicate_command). One volatile read while nothing is paused.
     */
    long pausedUntil(CommandSpec spec, boolean execWrites) {
        long until = pausedUntil;
        if (until == 0 || until <= System.currentTimeMillis()) {
            return 0;
        }
        boolean held = pausedAll || spec.has(CommandFlag.WRITE) || spec.has(CommandFlag.MAY_REPLICATE) || execWrites;
        return held ? until : 0;
    }

    /**
     * Holds the client until UNPAUSE; false when the pause has already ended (an UNPAUSE between
     * the client's pause check and this call, which found nobody to let go), so the caller goes on
     * at once. Under the pause's lock, so no UNPAUSE is missed.
     */
    synchronized boolean postpone(ClientConnection client) {
        if (pausedUntil == 0 || pausedUntil <= System.currentTimeMillis()) {
            return false;
        }
        postponed.add(client);
        return true;
    }

    public Map<Long, ClientConnection> clients() {
        return clients;
    }

    long nextClientId() {
        return nextClientId.getAndIncrement();
    }

    public long startMillis() {
        return startMillis;
    }

    public long uptimeSeconds() {
        return (System.nanoTime() - startNanos) / 1_000_000_000L;
    }

    /** The plain TCP port; 0 when only tls-port listens. */
    public int port() {
        return port;
    }

    /** The TLS port; 0 for none. */
    public int tlsPort() {
        return tlsPort;
    }

    public long blockedClients() {
        return blockedClients.sum();
    }

    /**
     * The bytes of the clients' buffers, for used_memory and the maxmemory check (Redis 7.0 counts
     * client buffers there, not replica output buffers or the AOF buffer): each connection's query
     * buffer, the replies not yet taken by its socket and input held while a command is away, as
     * of its last read batch or drain ({@link ClientConnection}'s accounting).
     */
    public long clientBufferBytes() {
        return clientBuffers.sum();
    }

    public long connectionsReceived() {
        return connectionsReceived.sum();
    }

    public long rejectedConnections() {
        return rejectedConnections.sum();
    }

    public long commandsProcessed() {
        return commandsProcessed.sum();
    }

    public long outputLimitDisconnections() {
        return outputLimitDisconnections.sum();
    }

    public long errorReplies() {
        return errorReplies.sum();
    }

    public long netInputBytes() {
        return netInputBytes.sum();
    }

    public long netOutputBytes() {
        return netOutputBytes.sum();
    }

    /** CONFIG RESETSTAT. */
    public void resetStats() {
        connectionsReceived.reset();
        rejectedConnections.reset();
        commandsProcessed.reset();
        errorReplies.reset();
        outputLimitDisconnections.reset();
        netInputBytes.reset();
        netOutputBytes.reset();
        commands.commands().forEach(Command::resetStats);
        errorStats.reset();
        keyspaceHits.reset();
        readsProcessed.reset();
        writesProcessed.reset();
        keyspaceMisses.reset();
    }

    /** Asks the server to stop (SHUTDOWN); {@link LacewingServer#awaitShutdown()} returns. */
    public void requestShutdown() {
        shutdown.countDown();
    }

    CountDownLatch shutdownLatch() {
        return shutdown;
    }

    /** Adds the commands of a provider found at start, which has no load arguments. */
    public synchronized void addCommands(CommandProvider provider) {
        addCommands(provider, List.of());
    }

    @Override
    public synchronized void addCommands(CommandProvider provider, List<String> arguments) {
        CommandTable.Builder<CoreContext> builder = new CommandTable.Builder<>(provider.name(), arguments);
        provider.registerCommands(builder);
        commands = commands.with(builder);
    }

    @Override
    public synchronized void removeCommands(CommandProvider provider) {
        commands = commands.without(command -> command.owner().equals(provider.name()));
    }

    /**
     * The JVM's -X options (heap, collector, object headers) as it was started with them: the
     * launcher's choice and the user's, or "none" when the JVM runs on its defaults.
     */
    public static String jvmFlags() {
        String flags = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(argument -> argument.startsWith("-X"))
            .collect(Collectors.joining(" "));
        return flags.isEmpty() ? "none" : flags;
    }

    /** The collectors' names as the JVM reports them, e.g. "G1 Young Generation,G1 Old Generation". */
    public static String collectors() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
            .map(GarbageCollectorMXBean::getName)
            .collect(Collectors.joining(","));
    }
}
