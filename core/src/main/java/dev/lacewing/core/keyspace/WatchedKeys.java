package dev.lacewing.core.keyspace;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The clients watching this partition's keys (WATCH), as Redis's db->watched_keys: a write to a
 * watched key flags its watchers ({@link #touch}, Redis's touchWatchedKey), and their EXEC
 * then fails. A watcher that stopped watching (UNWATCH, EXEC, DISCARD, a closed connection) is
 * dropped lazily: when its key is touched, or by a sweep once dead entries may outnumber live
 * ones, so stopping never needs the partition.
 *
 * <p>Thread rule: touched only by the thread the engine grants the partition to, as its tables.
 */
public final class WatchedKeys {

    /** One client's watch: flagged when a key it watches is written. */
    public interface Watcher {

        /** False once the client stopped watching, or was flagged already. */
        boolean watching();

        /** A watched key was written; called by the thread writing it. */
        void touched();
    }

    private record Key(int database, ByteBuffer bytes) {
    }

    /*
     * Registrations anywhere, so that the write path, which asks after every write command, skips
     * the registry lookups while nobody watches (nearly always). Racy reads only make it look.
     */
    private static final AtomicInteger REGISTERED = new AtomicInteger();

    private final Map<Key, List<Watcher>> watchers = new HashMap<>();
    private int entries;
    private int sweepAt = 64;

    /** False when no partition has a watcher registered. */
    public static boolean anyWatched() {
        return REGISTERED.get() != 0;
    }

    public void add(int database, byte[] array, int offset, int length, Watcher watcher) {
        List<Watcher> list = watchers.computeIfAbsent(key(database, array, offset, length), k -> new ArrayList<>(2));
        if (list.contains(watcher)) {
            return;
        }
        list.add(watcher);
        entries++;
        REGISTERED.incrementAndGet();
        if (entries >= sweepAt) {
            sweep();
            sweepAt = Math.max(64, entries * 2);
        }
    }

    /** A write to the key: flags its watchers, which need not be kept once flagged. O(1) when none. */
    public void touch(int database, byte[] array, int offset, int length) {
        if (watchers.isEmpty()) {
            return;
        }
        List<Watcher> list = watchers.remove(key(database, array, offset, length));
        if (list != null) {
            flagAll(list);
        }
    }

    /** Touches every watched key of {@code database} that {@code written} accepts (FLUSHDB, SWAPDB). */
    public void touchWhere(int database, Predicate<byte[]> written) {
        for (Iterator<Map.Entry<Key, List<Watcher>>> it = watchers.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, List<Watcher>> entry = it.next();
            if (entry.getKey().database == database && written.test(entry.getKey().bytes.array())) {
                it.remove();
                flagAll(entry.getValue());
            }
        }
    }

    private void flagAll(List<Watcher> list) {
        for (Watcher watcher : list) {
            if (watcher.watching()) {
                watcher.touched();
            }
        }
        entries -= list.size();
        REGISTERED.addAndGet(-list.size());
    }

    /** Drops the watchers that stopped watching: O(entries), run when they may be half of them. */
    private void sweep() {
        for (Iterator<List<Watcher>> it = watchers.values().iterator(); it.hasNext(); ) {
            List<Watcher> list = it.next();
            int before = list.size();
            list.removeIf(watcher -> !watcher.watching());
            entries -= before - list.size();
            REGISTERED.addAndGet(list.size() - before);
            if (list.isEmpty()) {
                it.remove();
            }
        }
    }

    private static Key key(int database, byte[] array, int offset, int length) {
        byte[] copy = new byte[length];
        System.arraycopy(array, offset, copy, 0, length);
        return new Key(database, ByteBuffer.wrap(copy));
    }
}
