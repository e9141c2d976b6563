package dev.lacewing.core.keyspace;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The keys of this partition that tracking clients read (CLIENT TRACKING's default mode), with the
 * ids of those clients, as Redis's TrackingTable. A write to a key takes its entry ({@link #take})
 * and the caller sends each client an invalidation; the key is tracked again once a client reads it
 * anew. Keys are not per database, as in Redis: a write to "k" in any database invalidates "k".
 *
 * <p>Bounded: {@code total} counts the keys tracked in every partition, and while it is over
 * {@code tracking-table-max-keys} {@link #remember} gives up this partition's oldest keys (Redis gives
 * up random ones, from the whole table), whose clients are invalidated as though the keys were
 * written; the key just read is one of them when it is the partition's only one. The ids of closed clients are not removed when they
 * close: they go when their key is written or given up, and the sender skips ids with no client, so
 * the bound caps what they hold.
 *
 * <p>Thread rule: touched only by the thread the engine grants the partition to; {@link #keys()}
 * and {@link #items()} are read without synchronization by INFO, which tolerates stale values.
 */
public final class TrackedKeys {

    /** A key given up to stay under the bound, and the clients to invalidate. */
    public interface GivenUp {
        void givenUp(byte[] key, long[] clients);
    }

    /** In insertion order, so that the oldest key is the first. */
    private final LinkedHashMap<ByteBuffer, Set<Long>> clients = new LinkedHashMap<>();
    private long items;

    /**
     * The client read the key. While {@code total} is over {@code maxKeys} (0: no bound), this
     * partition's oldest keys are given up to {@code givenUp}.
     */
    public void remember(byte[] array, int offset, int length, long client, AtomicLong total, long maxKeys,
                         GivenUp givenUp) {
        Set<Long> ids = clients.get(ByteBuffer.wrap(array, offset, length));
        if (ids == null) {
            byte[] copy = new byte[length];
            System.arraycopy(array, offset, copy, 0, length);
            ids = new HashSet<>(2);
            clients.put(ByteBuffer.wrap(copy), ids);
            total.incrementAndGet();
        }
        if (ids.add(client)) {
            items++;
        }
        while (maxKeys > 0 && total.get() > maxKeys && !clients.isEmpty()) {
            Iterator<Map.Entry<ByteBuffer, Set<Long>>> oldest = clients.entrySet().iterator();
            Map.Entry<ByteBuffer, Set<Long>> entry = oldest.next();
            oldest.remove();
            total.decrementAndGet();
            givenUp.givenUp(entry.getKey().array(), taken(entry.getValue()));
        }
    }

    /** The key was written: the clients that tracked it, no longer tracking it; null when none did. */
    public long[] take(byte[] array, int offset, int length, AtomicLong total) {
        if (clients.isEmpty()) {
            return null;
        }
        Set<Long> ids = clients.remove(ByteBuffer.wrap(array, offset, length));
        if (ids == null) {
            return null;
        }
        total.decrementAndGet();
        return taken(ids);
    }

    private long[] taken(Set<Long> ids) {
        items -= ids.size();
        long[] result = new long[ids.size()];
        int i = 0;
        for (long id : ids) {
            result[i++] = id;
        }
        return result;
    }

    /**
     * FLUSHDB and FLUSHALL forget every tracked key (their clients get a null invalidation, and the
     * total is reset with every partition held).
     */
    public void clear() {
        clients.clear();
        items = 0;
    }

    /** Client ids over all keys: INFO's tracking_total_items, summed over partitions. */
    public long items() {
        return items;
    }
}
