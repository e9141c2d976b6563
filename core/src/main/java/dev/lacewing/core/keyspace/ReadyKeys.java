package dev.lacewing.core.keyspace;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keys that became ready for blocked clients during the command the current thread runs, as
 * Redis's server.ready_keys: the command that signals them still holds them, and the connection
 * that runs it serves them before giving the keys up.
 *
 * <p>Thread rule: one instance per thread (a thread local): only its thread touches it. It is
 * a thread's because the one running a command is the one that has exclusive access to its keys,
 * whichever engine granted it.
 */
public final class ReadyKeys {

    /** A ready key: its partition's registry, its database and its bytes. */
    public record Ready(BlockedKeys registry, int database, byte[] key) {
    }

    private static final ThreadLocal<ReadyKeys> CURRENT = ThreadLocal.withInitial(ReadyKeys::new);

    /*
     * Ready keys queued on any thread, so that the command path, which asks after every command,
     * skips the thread-local lookup while no key is ready anywhere (nearly always). A thread sees
     * its own additions in program order; another thread's only make it look, needlessly.
     */
    private static final AtomicInteger QUEUED = new AtomicInteger();

    private final ArrayDeque<Ready> queue = new ArrayDeque<>();

    public static ReadyKeys current() {
        return CURRENT.get();
    }

    /** False when no thread has a ready key queued, so the calling thread has none either. */
    public static boolean anyQueued() {
        return QUEUED.get() != 0;
    }

    public void add(BlockedKeys registry, int database, byte[] key) {
        for (Ready ready : queue) {
            if (ready.registry == registry && ready.database == database && java.util.Arrays.equals(ready.key, key)) {
                return;
            }
        }
        queue.addLast(new Ready(registry, database, key));
        QUEUED.incrementAndGet();
    }

    public boolean isEmpty() {
        return queue.isEmpty();
    }

    public Ready poll() {
        Ready ready = queue.pollFirst();
        if (ready != null) {
            QUEUED.decrementAndGet();
        }
        return ready;
    }
}
