package dev.lacewing.core.keyspace;

import dev.lacewing.api.storage.Table;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The clients blocked on keys of one partition (BLPOP and the like), per database and key, each
 * key's in the order they blocked. A client waiting on keys of several partitions is in each of
 * their registries; whichever serves it first claims it ({@link Entry}'s owner decides how), and
 * the others drop it when they next meet it or when its owner's clean-up runs.
 *
 * <p>Waiters that push what they take to a destination (BLMOVE, BRPOPLPUSH: "movers") are also
 * indexed by the key they wait on, in any database, so that an engine can find, before it runs a
 * command, where serving the clients that command may wake could reach ({@link #destinations}); a
 * count of those whose destination lives in another partition makes the common answer, none, one
 * field read.
 *
 * <p>Thread rule: the partition's: touched only by the thread the engine grants the partition to
 * (its shard's worker, the coordinator while the shard is parked, or the holder of its stripe lock),
 * which is the thread running a command over the key concerned.
 */
public final class BlockedKeys {

    /** A blocked client as the registry sees it. */
    public interface Entry {
        /** The key serving it pushes to (a BLMOVE's destination), or null. */
        byte[] destination();

        /** Whether {@link #destination()} lives in another partition than the key it waits on. */
        boolean destinationElsewhere();
    }

    /** A key's bytes in any database: the movers index's key. */
    private record Name(byte[] bytes, int hash) {
        static Name of(byte[] array, int offset, int length) {
            byte[] bytes = Arrays.copyOfRange(array, offset, offset + length);
            return new Name(bytes, Arrays.hashCode(bytes));
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Name name && Arrays.equals(name.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private record Key(int database, byte[] bytes, int hash) {
        static Key of(int database, byte[] array, int offset, int length) {
            byte[] bytes = Arrays.copyOfRange(array, offset, offset + length);
            return new Key(database, bytes, 31 * database + Arrays.hashCode(bytes));
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.database == database && Arrays.equals(key.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private final Map<Key, ArrayDeque<Entry>> byKey = new HashMap<>();
    private final Map<Name, List<Entry>> movers = new HashMap<>();
    /** Movers whose destination lives in another partition. */
    private int moversElsewhere;

    public boolean isEmpty() {
        return byKey.isEmpty();
    }

    /**
     * Adds a blocked client at the end of a key's queue. The caller holds every partition the
     * client waits in, so clients sharing a key are added in the order they blocked.
     */
    public void add(int database, byte[] array, int offset, int length, Entry entry) {
        if (entry.destination() != null) {
            movers.computeIfAbsent(Name.of(array, offset, length), name -> new ArrayList<>(1)).add(entry);
            if (entry.destinationElsewhere()) {
                moversElsewhere++;
            }
        }
        byKey.computeIfAbsent(Key.of(database, array, offset, length), key -> new ArrayDeque<>(2)).addLast(entry);
    }

    /** Removes a blocked client from a key's queue, the key once no one waits on it. */
    public void remove(int database, byte[] array, int offset, int length, Entry entry) {
        Key key = Key.of(database, array, offset, length);
        ArrayDeque<Entry> queue = byKey.get(key);
        if (queue != null) {
            if (queue.remove(entry)) {
                forget(key.bytes(), entry);
            }
            if (queue.isEmpty()) {
                byKey.remove(key);
            }
        }
    }

    /** A key's waiting clients, oldest first, or null when none; iterate and remove through it. */
    public Iterator<Entry> waiters(int database, byte[] key) {
        ArrayDeque<Entry> queue = byKey.get(new Key(database, key, 31 * database + Arrays.hashCode(key)));
        if (queue == null) {
            return null;
        }
        Iterator<Entry> queued = queue.iterator();
        return new Iterator<>() {
            private Entry last;

            @Override
            public boolean hasNext() {
                return queued.hasNext();
            }

            @Override
            public Entry next() {
                last = queued.next();
                return last;
            }

            @Override
            public void remove() {
                queued.remove();
                forget(key, last);
            }
        };
    }

    /** Drops a mover that left the queue of {@code key} from the movers index. */
    private void forget(byte[] key, Entry entry) {
        if (entry.destination() == null) {
            return;
        }
        Name name = new Name(key, Arrays.hashCode(key));
        List<Entry> waiting = movers.get(name);
        if (waiting != null && waiting.remove(entry)) {
            if (waiting.isEmpty()) {
                movers.remove(name);
            }
            if (entry.destinationElsewhere()) {
                moversElsewhere--;
            }
        }
    }

    /** Whether a client here waits to move to another partition's key: false nearly always. */
    public boolean hasMoversElsewhere() {
        return moversElsewhere != 0;
    }

    /** Gives the destination of every mover waiting on {@code key} in any database. */
    public void destinations(byte[] array, int offset, int length, Consumer<byte[]> visitor) {
        if (movers.isEmpty()) {
            return;
        }
        List<Entry> waiting = movers.get(Name.of(array, offset, length));
        if (waiting != null) {
            waiting.forEach(entry -> visitor.accept(entry.destination()));
        }
    }

    /** Forgets a key whose queue the serving loop emptied. */
    public void dropIfEmpty(int database, byte[] key) {
        Key lookup = new Key(database, key, 31 * database + Arrays.hashCode(key));
        ArrayDeque<Entry> queue = byKey.get(lookup);
        if (queue != null && queue.isEmpty()) {
            byKey.remove(lookup);
        }
    }

    /** Signals every waited key of {@code database} that {@code table} holds (after SWAPDB): O(waited keys). */
    public void signalExisting(int database, Table table, long now) {
        for (Key key : byKey.keySet()) {
            if (key.database() == database && table.get(key.bytes(), 0, key.bytes().length, now) != null) {
                ReadyKeys.current().add(this, database, key.bytes());
            }
        }
    }

    /**
     * Redis's signalKeyAsReady: called when a key is created or replaced by an aggregate; when
     * someone waits on it, the key joins the running thread's {@link ReadyKeys}, served once the
     * running command is done.
     */
    public void signal(int database, byte[] array, int offset, int length) {
        if (byKey.isEmpty()) {
            return;
        }
        Key key = Key.of(database, array, offset, length);
        if (byKey.containsKey(key)) {
            ReadyKeys.current().add(this, database, key.bytes());
        }
    }
}
