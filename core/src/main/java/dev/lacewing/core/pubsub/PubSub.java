package dev.lacewing.core.pubsub;

import dev.lacewing.core.command.Glob;
import dev.lacewing.core.server.ClientConnection;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.internal.ThreadExecutorMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's pub/sub registry: for each channel, pattern and shard channel, the connections
 * subscribed to it. One registry for every worker, not one per worker: a PUBLISH then finds its
 * receivers with one lookup (and one pass over the patterns, as Redis makes) on whatever thread
 * it runs, and its reply, the number of receivers, is known at once without asking the others.
 *
 * <p>Each entry is an immutable array of subscribers, grouped by home worker, that a subscribe or
 * unsubscribe replaces (copy on write, under the map's per-key lock): publishing reads a snapshot
 * without locking. A PUBLISH encodes its message once per channel or matching pattern and hands
 * each worker that has receivers one task that writes it into each of its receivers' connections
 * ({@link ClientConnection#push}); receivers on the publisher's own thread get it at once. So a
 * PUBLISH costs one map lookup, one pass over the patterns, one encoding, one task per other
 * worker with receivers, and one buffer write per receiver. A publisher's tasks reach a worker in
 * the order they were posted, so one publisher's messages arrive in publish order everywhere.
 *
 * <p>Thread rule: the maps are concurrent; an entry is replaced by its subscriber's home thread,
 * which also keeps that connection's {@link Subscriptions} in step, or by a CLIENT KILL of it on
 * the killer's thread ({@link #withdraw}), after which its home thread only removes.
 */
public final class PubSub {

    private final Map<ChannelName, ClientConnection[]> channels = new ConcurrentHashMap<>();
    private final Map<ChannelName, ClientConnection[]> patterns = new ConcurrentHashMap<>();
    private final Map<ChannelName, ClientConnection[]> shardChannels = new ConcurrentHashMap<>();
    /** Per worker, the deliveries queued on it and not yet run ({@link #queuedDeliveries}); grown, never shrunk. */
    private volatile AtomicInteger[] queued = new AtomicInteger[0];

    private Map<ChannelName, ClientConnection[]> registry(SubscriptionKind kind) {
        return switch (kind) {
            case CHANNEL -> channels;
            case PATTERN -> patterns;
            case SHARD -> shardChannels;
        };
    }

    /** Subscribes a connection on its home thread; false when it already was. */
    public boolean subscribe(ClientConnection connection, SubscriptionKind kind, ChannelName name) {
        if (!connection.subscriptions().add(kind, name)) {
            return false;
        }
        // A killed connection is withdrawn from the registry by its killer; one whose subscribe
        // was already running then stays out (the check is under the entry's lock, after the kill
        // mark, so either the killer's withdrawal or this check sees the other).
        registry(kind).compute(name, (key, current) -> connection.killed() ? current : current == null
            ? new ClientConnection[] {connection} : inserted(current, connection));
        return true;
    }

    /** Unsubscribes a connection on its home thread; false when it was not subscribed. */
    public boolean unsubscribe(ClientConnection connection, SubscriptionKind kind, ChannelName name) {
        if (!connection.subscriptions().remove(kind, name)) {
            return false;
        }
        registry(kind).computeIfPresent(name, (key, current) -> removed(current, connection));
        return true;
    }

    /** Leaves every channel, pattern and shard channel, without confirmations (RESET, disconnection). */
    public void unsubscribeAll(ClientConnection connection) {
        for (SubscriptionKind kind : SubscriptionKind.values()) {
            for (ChannelName name : connection.subscriptions().names(kind)) {
                unsubscribe(connection, kind, name);
            }
        }
    }

    /**
     * Takes a killed connection out of every channel, pattern and shard channel at once, from the
     * killing thread, so that a PUBLISH that follows CLIENT KILL's reply no longer counts it, as in
     * Redis, whose freeClient unsubscribes before the reply. Its {@link Subscriptions} stay as they
     * are until its home thread closes it ({@link #unsubscribeAll}). The connection's names are its
     * home thread's, so every entry is looked at: O(channels + patterns), for a rare command.
     */
    public void withdraw(ClientConnection connection) {
        for (SubscriptionKind kind : SubscriptionKind.values()) {
            Map<ChannelName, ClientConnection[]> registry = registry(kind);
            for (ChannelName name : registry.keySet()) {
                registry.computeIfPresent(name, (key, current) -> removed(current, connection));
            }
        }
    }

    /** Keeps the array grouped by home worker: the new subscriber goes after the last of its worker. */
    private static ClientConnection[] inserted(ClientConnection[] current, ClientConnection connection) {
        int at = current.length;
        for (int i = current.length - 1; i >= 0 && current[i].homeWorker() > connection.homeWorker(); i--) {
            at = i;
        }
        ClientConnection[] next = new ClientConnection[current.length + 1];
        System.arraycopy(current, 0, next, 0, at);
        next[at] = connection;
        System.arraycopy(current, at, next, at + 1, current.length - at);
        return next;
    }

    /** The array without the connection, or null (the entry goes) when it was the last. */
    private static ClientConnection[] removed(ClientConnection[] current, ClientConnection connection) {
        int at = -1;
        for (int i = 0; i < current.length && at < 0; i++) {
            at = current[i] == connection ? i : -1;
        }
        if (at < 0) {
            return current;
        }
        if (current.length == 1) {
            return null;
        }
        ClientConnection[] next = new ClientConnection[current.length - 1];
        System.arraycopy(current, 0, next, 0, at);
        System.arraycopy(current, at + 1, next, at, current.length - at - 1);
        return next;
    }

    // ---- publishing -----------------------------------------------------------------------

    /**
     * PUBLISH (kind {@link SubscriptionKind#CHANNEL}) or SPUBLISH ({@link SubscriptionKind#SHARD}):
     * delivers the message to the channel's subscribers, then, for PUBLISH, to the subscribers of
     * each matching pattern, and returns how many deliveries that made (a connection subscribed to
     * the channel and to two matching patterns counts three times, as in Redis). From any thread.
     */
    public long publish(SubscriptionKind kind, ChannelName name, byte[] message) {
        return publish(kind, name, message, 0, message.length);
    }

    /**
     * {@link #publish(SubscriptionKind, ChannelName, byte[])} of the message at {@code offset} in
     * {@code array} (a request's own buffer): it is read only while encoding, so PUBLISH copies
     * its message once, into each encoded frame, not into an array of its own first.
     */
    public long publish(SubscriptionKind kind, ChannelName name, byte[] array, int offset, int length) {
        byte[] channel = name.bytes();
        long receivers = 0;
        ClientConnection[] subscribers = registry(kind).get(name);
        if (subscribers != null) {
            deliver(registry(kind), name, kind, encode(kind, null, channel, array, offset, length), subscribers);
            receivers += subscribers.length;
        }
        if (kind == SubscriptionKind.CHANNEL && !patterns.isEmpty()) {
            for (Map.Entry<ChannelName, ClientConnection[]> entry : patterns.entrySet()) {
                byte[] pattern = entry.getKey().bytes();
                if (Glob.matches(pattern, channel, false)) {
                    ClientConnection[] matched = entry.getValue();
                    deliver(patterns, entry.getKey(), SubscriptionKind.PATTERN, encode(SubscriptionKind.PATTERN,
                        pattern, channel, array, offset, length), matched);
                    receivers += matched.length;
                }
            }
        }
        return receivers;
    }

    /**
     * Hands the message to each run of subscribers of one worker: written at once on the current
     * thread's own, in one task for each other worker.
     */
    private void deliver(Map<ChannelName, ClientConnection[]> registry, ChannelName name,
                         SubscriptionKind kind, byte[] message, ClientConnection[] subscribers) {
        int from = 0;
        while (from < subscribers.length) {
            int worker = subscribers[from].homeWorker();
            int to = from + 1;
            while (to < subscribers.length && subscribers[to].homeWorker() == worker) {
                to++;
            }
            if (subscribers[from].inHomeThread()) {
                for (int i = from; i < to; i++) {
                    subscribers[i].push(message);
                }
            } else {
                AtomicInteger queuedOnWorker = queuedDeliveries(worker);
                queuedOnWorker.incrementAndGet();
                Delivery delivery = new Delivery(registry, name, kind, message, subscribers, from, to, queuedOnWorker);
                Wakeups wakeups = Wakeups.ofCurrentLoop();
                if (wakeups == null) {
                    subscribers[from].onHomeThread(delivery);
                } else {
                    subscribers[from].onHomeThreadLazily(delivery);
                    wakeups.add(worker, subscribers[from].homeThread());
                }
            }
            from = to;
        }
    }

    /**
     * The number of deliveries queued on a worker and not yet run. A connection reads it before it
     * runs the requests it has just read, and while it is not zero runs them after the queued tasks
     * instead ({@link ClientConnection}): Redis has written a message into every subscriber's
     * output before PUBLISH replies, so a subscriber that sends a command after the publisher saw
     * that reply gets the message before the command's reply, here as there. One read per read
     * batch; one increment and one decrement per delivery to another worker.
     */
    public AtomicInteger queuedDeliveries(int worker) {
        AtomicInteger[] current = queued;
        if (worker < current.length) {
            return current[worker];
        }
        synchronized (this) {
            current = queued;
            if (worker >= current.length) {
                AtomicInteger[] grown = Arrays.copyOf(current, worker + 1);
                for (int i = current.length; i < grown.length; i++) {
                    grown[i] = new AtomicInteger();
                }
                queued = grown;
                current = grown;
            }
            return current[worker];
        }
    }

    /**
     * The other workers an event loop has queued deliveries on without waking them, woken once
     * when the loop has run what it is running (a batch of pipelined PUBLISH, say). A worker
     * woken for each message would run each alone and flush each subscriber's socket once per
     * message; woken once, it writes the batch and flushes once. The deliveries sit in the
     * worker's ordinary task queue, so they keep their order among the other tasks this loop
     * posts there (command replies, other deliveries).
     *
     * <p>Thread rule: one per event loop thread, touched only by it.
     */
    private static final class Wakeups implements Runnable {

        private static final FastThreadLocal<Wakeups> OF_LOOP = new FastThreadLocal<>();
        private static final Runnable WAKE = () -> { };

        private final EventExecutor loop;
        private EventExecutor[] pending = new EventExecutor[8];
        private boolean scheduled;

        private Wakeups(EventExecutor loop) {
            this.loop = loop;
        }

        /** The current thread's, or null when it is not an event loop's (the deliveries then wake at once). */
        static Wakeups ofCurrentLoop() {
            Wakeups wakeups = OF_LOOP.getIfExists();
            if (wakeups == null) {
                EventExecutor loop = ThreadExecutorMap.currentExecutor();
                if (loop == null || !loop.inEventLoop()) {
                    return null;
                }
                wakeups = new Wakeups(loop);
                OF_LOOP.set(wakeups);
            }
            return wakeups;
        }

        void add(int worker, EventExecutor target) {
            if (worker >= pending.length) {
                pending = Arrays.copyOf(pending, Math.max(worker + 1, pending.length * 2));
            }
            pending[worker] = target;
            if (!scheduled) {
                scheduled = true;
                loop.execute(this);
            }
        }

        @Override
        public void run() {
            scheduled = false;
            for (int i = 0; i < pending.length; i++) {
                if (pending[i] != null) {
                    pending[i].execute(WAKE);
                    pending[i] = null;
                }
            }
        }
    }

    /**
     * One message for the subscribers of one worker, run on that worker. A subscriber that left
     * the channel since the message was published does not get it: to it the message came after
     * its unsubscribe, and a RESP2 connection that left every channel reads only replies again.
     * Leaving replaces the channel's array, so while the registry still holds the array the
     * message was published to, nobody left and one map lookup stands for a check per subscriber.
     */
    private record Delivery(Map<ChannelName, ClientConnection[]> registry, ChannelName name, SubscriptionKind kind,
                            byte[] message, ClientConnection[] subscribers, int from, int to,
                            AtomicInteger queuedOnWorker) implements Runnable {

        @Override
        public void run() {
            boolean unchanged = registry.get(name) == subscribers;
            for (int i = from; i < to; i++) {
                ClientConnection subscriber = subscribers[i];
                if (unchanged || subscriber.subscriptions().contains(kind, name)) {
                    subscriber.push(message);
                }
            }
            queuedOnWorker.decrementAndGet();
        }
    }

    /**
     * The message as a RESP2 array: {@code message channel payload}, or {@code pmessage pattern
     * channel payload}. A RESP3 connection sends it as a push, the same bytes but the first.
     * The payload is {@code length} bytes at {@code offset} in {@code array}. Written straight into an
     * array of its exact size: this runs once per PUBLISH.
     */
    static byte[] encode(SubscriptionKind kind, byte[] pattern, byte[] channel, byte[] array, int offset, int length) {
        byte[] type = kind.messageType();
        int size = 4 + bulkSize(type.length) + bulkSize(channel.length) + bulkSize(length)
            + (pattern == null ? 0 : bulkSize(pattern.length));
        byte[] out = new byte[size];
        out[0] = '*';
        out[1] = (byte) (pattern == null ? '3' : '4');
        out[2] = '\r';
        out[3] = '\n';
        int at = bulk(out, 4, type);
        if (pattern != null) {
            at = bulk(out, at, pattern);
        }
        at = bulk(out, at, channel);
        bulk(out, at, array, offset, length);
        return out;
    }

    private static int bulkSize(int length) {
        return 1 + digits(length) + 2 + length + 2;
    }

    private static int digits(int value) {
        int digits = 1;
        for (int rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        return digits;
    }

    private static int bulk(byte[] out, int at, byte[] value) {
        return bulk(out, at, value, 0, value.length);
    }

    /** Writes {@code $<length>\r\n<bytes>\r\n} at {@code at}; returns where it ends. */
    private static int bulk(byte[] out, int at, byte[] array, int offset, int length) {
        out[at] = '$';
        int digits = digits(length);
        for (int i = digits, rest = length; i > 0; i--, rest /= 10) {
            out[at + i] = (byte) ('0' + rest % 10);
        }
        at += 1 + digits;
        out[at++] = '\r';
        out[at++] = '\n';
        System.arraycopy(array, offset, out, at, length);
        at += length;
        out[at++] = '\r';
        out[at++] = '\n';
        return at;
    }

    // ---- PUBSUB introspection -------------------------------------------------------------

    /** PUBSUB CHANNELS / SHARDCHANNELS: the active names of one kind matching the pattern (all when null). */
    public List<ChannelName> active(SubscriptionKind kind, byte[] pattern) {
        List<ChannelName> names = new ArrayList<>();
        for (ChannelName name : registry(kind).keySet()) {
            if (pattern == null || Glob.matches(pattern, name.bytes(), false)) {
                names.add(name);
            }
        }
        return names;
    }

    /** PUBSUB NUMSUB / SHARDNUMSUB: the subscribers of one name. */
    public int subscribers(SubscriptionKind kind, ChannelName name) {
        ClientConnection[] subscribers = registry(kind).get(name);
        return subscribers == null ? 0 : subscribers.length;
    }

    /**
     * Whether a PUBLISH could reach anyone: some channel or pattern has a subscriber. Keyspace
     * notifications skip building their channel names while nobody listens.
     */
    public boolean hasSubscribers() {
        return !channels.isEmpty() || !patterns.isEmpty();
    }

    /** INFO's pubsub_channels and pubsubshard_channels: the names of one kind with subscribers. */
    public int channels(SubscriptionKind kind) {
        return registry(kind).size();
    }

    /** PUBSUB NUMPAT: the patterns subscribed to, each counted once however many clients share it. */
    public int patterns() {
        return patterns.size();
    }
}
