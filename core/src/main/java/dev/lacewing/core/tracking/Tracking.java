package dev.lacewing.core.tracking;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Workers;
import dev.lacewing.core.config.Config;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.KeyspaceListener;
import dev.lacewing.core.keyspace.TrackedKeys;
import dev.lacewing.core.server.ClientConnection;
import io.netty.util.concurrent.FastThreadLocal;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Client-side caching (CLIENT TRACKING), as Redis's tracking.c. In the default mode the keys a
 * tracking client reads are remembered in their partition's {@link TrackedKeys}; a write to one takes
 * its entry and sends each client an invalidation. In BCAST mode nothing is remembered: every write
 * to a key under a client's prefix is sent to it, batched per pass as Redis's beforeSleep sends them
 * (trackingBroadcastInvalidationMessages): one message per prefix with every key, sorted, none to
 * a NOLOOP client for its own writes. The keys a client's commands wrote go out at the
 * end of its pass, just before its replies ({@link #passEnded}), as beforeSleep queues them before
 * it writes the replies; those no client's command wrote (active expiry, eviction in the background,
 * a blocked client served) at the end of the event-loop pass of the worker that deleted them, by an
 * after-I/O task ({@link WorkerPass}). A key deleted because its
 * time passed or evicted is invalidated as a write ({@link KeyspaceListener}). FLUSHDB and FLUSHALL
 * send every tracking client a null invalidation.
 *
 * <p>The write path (the central write hook, {@code Watch.written}) asks {@link #active()} first, so
 * while no client tracks a write pays one volatile read. Invalidations reach a client on any thread
 * the way published messages do ({@link ClientConnection#pushTracking}): written at once on its own
 * thread, else in a task on its event loop, so one writer's invalidations arrive in write order; for
 * the client whose command made them they follow that command's reply, as in Redis.
 *
 * <p>Thread rule: the counters and the prefix registry are concurrent; the prefix arrays are replaced
 * (copy on write) by their clients' home threads; the tables belong to their partitions' threads;
 * each worker's pass is that worker's.
 */
public final class Tracking implements KeyspaceListener {

    private static final byte[] INVALIDATE_PUSH = ascii(">2\r\n$10\r\ninvalidate\r\n");
    private static final byte[] INVALIDATE_MESSAGE = ascii("*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n");
    private static final byte[] NULL_RESP2 = ascii("$-1\r\n");
    private static final byte[] NULL_RESP3 = ascii("_\r\n");
    private static final Comparator<byte[]> BYTES = Arrays::compareUnsigned;

    private final Map<Long, ClientConnection> clients;
    private final AtomicInteger trackingClients = new AtomicInteger();
    /** Keys in every partition's table, which {@code tracking-table-max-keys} bounds. */
    private final AtomicLong trackedKeys = new AtomicLong();
    /** BCAST: each prefix any client registered, with its clients (Redis's PrefixTable). */
    private final Map<ByteBuffer, ClientConnection[]> prefixes = new ConcurrentHashMap<>();
    private volatile long maxKeys;
    /** The keyspace, whose partitions hold the tables; set before clients connect. */
    private volatile Database keyspace;
    /** Where BCAST keys wait for the end of their worker's pass; none (sent at once) until set. */
    private volatile Workers workers;
    private volatile WorkerPass[] passes = new WorkerPass[0];

    public Tracking(Map<Long, ClientConnection> clients, Config config) {
        this.clients = clients;
        this.maxKeys = config.longValue("tracking-table-max-keys");
        config.onChange((name, value) -> maxKeys = config.longValue("tracking-table-max-keys"));
    }

    /** Set once the engine is up: expired and evicted keys are looked up in its partitions. */
    public void keyspace(Database database) {
        keyspace = database;
    }

    /** Set before clients connect: BCAST keys are sent once per pass of the worker that has them. */
    public void workers(Workers workers) {
        WorkerPass[] each = new WorkerPass[workers.count()];
        for (int i = 0; i < each.length; i++) {
            each[i] = new WorkerPass(workers, i);
        }
        passes = each;
        this.workers = workers;
    }

    /** Whether any client tracks: false nearly always, and then the write path does nothing more. */
    public boolean active() {
        return trackingClients.get() != 0;
    }

    /** INFO's tracking_clients. */
    public int clients() {
        return trackingClients.get();
    }

    /** INFO's tracking_total_keys. */
    public long keys() {
        return trackedKeys.get();
    }

    /** INFO's tracking_total_prefixes: distinct BCAST prefixes. */
    public int prefixCount() {
        return prefixes.size();
    }

    // ---- CLIENT TRACKING ---------------------------------------------------------------------

    /**
     * Redis's enableTracking, on the client's home thread, options already checked: the new mode
     * replaces the old one, except that BCAST prefixes add to those registered (none given: the empty
     * prefix, every key).
     */
    public void enable(ClientConnection client, long redirect, boolean broadcast, boolean optIn, boolean optOut,
                       boolean noLoop, List<byte[]> newPrefixes) {
        TrackingMode old = client.tracking();
        TreeSet<byte[]> all = new TreeSet<>(BYTES);
        if (broadcast) {
            if (old != null) {
                all.addAll(old.prefixes());
            }
            all.addAll(newPrefixes.isEmpty() ? List.of(new byte[0]) : newPrefixes);
            for (byte[] prefix : all) {
                if (old == null || !contains(old.prefixes(), prefix)) {
                    prefixes.compute(ByteBuffer.wrap(prefix), (key, current) -> with(current, client));
                }
            }
        }
        client.tracking(new TrackingMode(redirect, broadcast, optIn, optOut, noLoop, List.copyOf(all)));
        client.trackingRedirectBroken(false);
        if (old == null) {
            trackingClients.incrementAndGet();
        }
    }

    /** Redis's disableTracking, on the client's home thread: CLIENT TRACKING OFF, RESET, a closed connection. */
    public void disable(ClientConnection client) {
        TrackingMode old = client.tracking();
        if (old == null) {
            return;
        }
        for (byte[] prefix : old.prefixes()) {
            prefixes.computeIfPresent(ByteBuffer.wrap(prefix), (key, current) -> without(current, client));
        }
        client.tracking(null);
        client.trackingRedirectBroken(false);
        client.cachingGiven(false);
        trackingClients.decrementAndGet();
    }

    private static boolean contains(List<byte[]> list, byte[] value) {
        for (byte[] element : list) {
            if (Arrays.equals(element, value)) {
                return true;
            }
        }
        return false;
    }

    private static ClientConnection[] with(ClientConnection[] current, ClientConnection client) {
        if (current == null) {
            return new ClientConnection[] {client};
        }
        ClientConnection[] next = Arrays.copyOf(current, current.length + 1);
        next[current.length] = client;
        return next;
    }

    private static ClientConnection[] without(ClientConnection[] current, ClientConnection client) {
        ClientConnection[] next = Arrays.stream(current).filter(c -> c != client).toArray(ClientConnection[]::new);
        return next.length == 0 ? null : next;
    }

    // ---- keys read ---------------------------------------------------------------------------

    /**
     * Redis's trackingRememberKeys: a read-only command of a tracking client ran (not in BCAST mode;
     * in OPTIN mode only after CLIENT CACHING YES, in OPTOUT mode unless after CLIENT CACHING NO), and
     * its keys are remembered for it ({@code client}, null where no client sent the command). Called
     * by the thread holding the keys.
     */
    public void read(CommandSpec spec, Arguments args, ClientConnection client, Database database) {
        if (client == null) {
            return;
        }
        TrackingMode mode = client.tracking();
        if (mode == null || mode.broadcast()) {
            return;
        }
        boolean caching = client.cachingGiven();
        if ((mode.optIn() && !caching) || (mode.optOut() && caching)) {
            return;
        }
        long max = maxKeys;
        for (int i = 0, keys = spec.keyCount(args); i < keys; i++) {
            int argument = spec.keyArgument(args, i);
            byte[] array = args.array();
            int offset = args.offset(argument);
            int length = args.length(argument);
            database.trackedKeys(array, offset, length).remember(array, offset, length, client.id(), trackedKeys, max,
                (key, ids) -> invalidate(ids, key, client, false));
        }
    }

    // ---- keys written ------------------------------------------------------------------------

    /**
     * The writes of one command, for the write hook, while {@link #active()}: {@code writer} is the
     * client whose command it is (NOLOOP's), null for none (a blocked client served: its reply goes
     * apart).
     */
    public Writes writes(ClientConnection writer) {
        return new Writes(writer);
    }

    /**
     * The keys one command wrote: each one's tracking clients are invalidated as it is written
     * (Redis's trackingInvalidateKey), and the BCAST clients once the command is done ({@link #done}).
     */
    public final class Writes {

        private final ClientConnection writer;
        private List<byte[]> written;

        private Writes(ClientConnection writer) {
            this.writer = writer;
        }

        public void written(Database database, byte[] array, int offset, int length) {
            long[] ids = database.trackedKeys(array, offset, length).take(array, offset, length, trackedKeys);
            if (ids == null && prefixes.isEmpty()) {
                return;
            }
            byte[] key = Arrays.copyOfRange(array, offset, offset + length);
            if (ids != null) {
                invalidate(ids, key, writer, true);
            }
            if (!prefixes.isEmpty()) {
                if (written == null) {
                    written = new ArrayList<>();
                }
                written.add(key);
            }
        }

        /**
         * The command is done: its BCAST keys join the pass of its client, or of the client whose
         * command deleted them (a key found expired or evicted, {@link #running}), and go out at the
         * pass's end ({@link #passEnded}); those of no client's command (active expiry, eviction in
         * the background, a blocked client served) at the end of this worker's event-loop pass.
         */
        public void done() {
            if (written == null) {
                return;
            }
            ClientConnection pass = writer != null ? writer : RUNNING.get();
            if (pass != null) {
                pass.passWrites().addAll(written);
                return;
            }
            joinPass(written);
        }
    }

    /**
     * The client whose command runs on this thread while tracking is on, so that a key the command
     * finds expired, or evicts, joins that client's pass as Redis's deletion joins the event-loop
     * pass (a write over a key whose time passed sends BCAST clients the key once); set and cleared
     * around the command by the thread running it.
     */
    private static final FastThreadLocal<ClientConnection> RUNNING = new FastThreadLocal<>();

    /** {@code client}'s command runs on this thread from now on; null: none does. */
    public static void running(ClientConnection client) {
        RUNNING.set(client);
    }

    /**
     * Redis's trackingBroadcastInvalidationMessages for {@code connection}'s pass, before its replies
     * go out, on its home thread: the keys its commands wrote since its last replies
     * ({@link ClientConnection#passWrites}); a NOLOOP client is not sent its own.
     */
    public void passEnded(ClientConnection connection) {
        Queue<byte[]> pending = connection.passWrites();
        if (pending.isEmpty()) {
            return;
        }
        TreeSet<byte[]> keys = new TreeSet<>(BYTES);
        byte[] key;
        while ((key = pending.poll()) != null) {
            keys.add(key);
        }
        broadcast(keys, connection);
    }

    /**
     * Keys no client's command wrote join the calling worker's event-loop pass ({@link WorkerPass});
     * sent at once where the caller is no worker (or before the workers are set).
     */
    private void joinPass(List<byte[]> keys) {
        Workers known = workers;
        int worker = known == null ? -1 : known.currentIndex();
        if (worker >= 0) {
            passes[worker].add(keys);
            return;
        }
        TreeSet<byte[]> alone = new TreeSet<>(BYTES);
        alone.addAll(keys);
        broadcast(alone, null);
    }

    /**
     * The BCAST keys no client's command wrote in one event-loop pass of a worker (its active
     * expiry, its background eviction, the blocked clients it served): the first key of a pass
     * queues {@link #run} after the worker's I/O, which sends them all, as Redis's beforeSleep sends
     * what its cron and timers deleted. Thread rule: its worker's only.
     */
    private final class WorkerPass implements Runnable {

        private final Workers workers;
        private final int worker;
        private TreeSet<byte[]> keys = new TreeSet<>(BYTES);
        private boolean queued;

        WorkerPass(Workers workers, int worker) {
            this.workers = workers;
            this.worker = worker;
        }

        void add(List<byte[]> written) {
            keys.addAll(written);
            if (!queued) {
                queued = true;
                workers.executeAfterIo(worker, this);
            }
        }

        @Override
        public void run() {
            TreeSet<byte[]> sent = keys;
            keys = new TreeSet<>(BYTES);
            queued = false;
            broadcast(sent, null);
        }
    }

    /**
     * For each prefix in order, its keys among {@code keys}, sorted and once each, in one message to
     * each of its clients but a NOLOOP {@code writer} (null: no client wrote them).
     */
    private void broadcast(TreeSet<byte[]> keys, ClientConnection writer) {
        TreeMap<byte[], ClientConnection[]> matched = new TreeMap<>(BYTES);
        for (Map.Entry<ByteBuffer, ClientConnection[]> entry : prefixes.entrySet()) {
            matched.put(entry.getKey().array(), entry.getValue());
        }
        for (Map.Entry<byte[], ClientConnection[]> entry : matched.entrySet()) {
            byte[] prefix = entry.getKey();
            List<byte[]> under = new ArrayList<>();
            for (byte[] key : keys.tailSet(prefix, true)) {
                if (key.length < prefix.length || !Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)) {
                    break;
                }
                under.add(key);
            }
            if (under.isEmpty()) {
                continue;
            }
            byte[] payload = keyArray(under);
            for (ClientConnection client : entry.getValue()) {
                TrackingMode mode = client.tracking();
                if (mode != null && mode.broadcast() && !(mode.noLoop() && client == writer)) {
                    send(client, mode, payload, writer);
                }
            }
        }
    }

    // ---- keys deleted outside commands' writes ------------------------------------------------

    @Override
    public void created(int database, byte[] key, int offset, int length) {
    }

    /**
     * A key's time passed (lazily or by active expiry): invalidated as a write by nobody, as Redis's
     * deleteExpiredKeyAndPropagate signals it. On the thread holding its partition. A client whose
     * own read found the key expired gets the invalidation before that read's reply (Redis sends it after).
     */
    @Override
    public void expired(int database, byte[] key, int offset, int length) {
        deleted(key, offset, length);
    }

    /** A key evicted over maxmemory: invalidated as a write by nobody. */
    @Override
    public void evicted(int database, byte[] key, int offset, int length) {
        deleted(key, offset, length);
    }

    private void deleted(byte[] key, int offset, int length) {
        Database database = keyspace;
        if (!active() || database == null) {
            return;
        }
        Writes writes = new Writes(null);
        writes.written(database, key, offset, length);
        writes.done();
    }

    /**
     * The clients that tracked a key written ({@code byWriter}) or given up to the bound: each still
     * tracking in the default mode is sent the key, but a NOLOOP client its own write.
     */
    private void invalidate(long[] ids, byte[] key, ClientConnection writer, boolean byWriter) {
        byte[] payload = null;
        for (long id : ids) {
            ClientConnection target = clients.get(id);
            TrackingMode mode = target == null ? null : target.tracking();
            if (mode == null || mode.broadcast() || (byWriter && mode.noLoop() && target == writer)) {
                continue;
            }
            if (payload == null) {
                payload = keyArray(List.of(key));
            }
            send(target, mode, payload, writer);
        }
    }

    /**
     * FLUSHDB or FLUSHALL ran, holding every partition, and emptied the tables: a null invalidation to
     * every tracking client; {@code writer} is the client that flushed (NOLOOP's), null for none.
     */
    public void flushed(ClientConnection writer) {
        trackedKeys.set(0);
        for (ClientConnection client : clients.values()) {
            TrackingMode mode = client.tracking();
            if (mode != null) {
                send(client, mode, client.protocol() == 3 ? NULL_RESP3 : NULL_RESP2, writer);
            }
        }
    }

    /**
     * Redis's sendTrackingMessage: to the client, or to its redirect client; one that has gone marks
     * the redirect broken and tells a RESP3 client so. The form is the recipient's: a push in RESP3,
     * a message on {@code __redis__:invalidate} to a redirect client subscribed in RESP2, else nothing.
     */
    private void send(ClientConnection target, TrackingMode mode, byte[] payload, ClientConnection writer) {
        if (mode.redirect() == 0) {
            target.pushTracking(message(payload, false), writer);
            return;
        }
        ClientConnection recipient = clients.get(mode.redirect());
        if (recipient == null) {
            target.trackingRedirectBroken(true);
            byte[] broken = ascii(">2\r\n$21\r\ntracking-redir-broken\r\n:" + mode.redirect() + "\r\n");
            target.pushTracking(client -> client.protocol() == 3 ? broken : null, writer);
            return;
        }
        recipient.pushTracking(message(payload, true), writer);
    }

    private static Function<ClientConnection, byte[]> message(byte[] payload, boolean redirected) {
        return client -> {
            byte[] head;
            if (client.protocol() == 3) {
                head = INVALIDATE_PUSH;
            } else if (redirected && client.subscribed()) {
                head = INVALIDATE_MESSAGE;
            } else {
                return null;
            }
            byte[] message = Arrays.copyOf(head, head.length + payload.length);
            System.arraycopy(payload, 0, message, head.length, payload.length);
            return message;
        };
    }

    private static byte[] keyArray(Collection<byte[]> keys) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ascii("*" + keys.size() + "\r\n"));
        for (byte[] key : keys) {
            out.writeBytes(ascii("$" + key.length + "\r\n"));
            out.writeBytes(key);
            out.writeBytes(ascii("\r\n"));
        }
        return out.toByteArray();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
