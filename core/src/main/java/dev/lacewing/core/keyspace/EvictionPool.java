package dev.lacewing.core.keyspace;

import java.util.Arrays;

/**
 * Redis's eviction pool (evict.c): the best eviction candidates seen so far, kept across
 * evictions so that each eviction benefits from earlier samples. Each eviction samples
 * {@code maxmemory-samples} keys per database and inserts those that beat the pool's worst;
 * the victim is the best entry whose key still exists. Sixteen entries, sorted by score
 * ascending, so insertion is at most sixteen moves.
 *
 * <p>Thread rule: belongs to one partition; touched only by the thread the engine grants it to.
 */
final class EvictionPool {

    /** Redis's EVPOOL_SIZE. */
    static final int SIZE = 16;

    private final long[] scores = new long[SIZE];
    private final byte[][] keys = new byte[SIZE][];
    private final int[] databases = new int[SIZE];
    private int count;

    /** Offers one sampled key; copies it only when it enters the pool. */
    void offer(long score, int database, byte[] key, int keyOffset, int keyLength) {
        int k = 0;
        while (k < count && scores[k] < score) {
            k++;
        }
        if (k == 0 && count == SIZE) {
            return;
        }
        if (count < SIZE) {
            System.arraycopy(scores, k, scores, k + 1, count - k);
            System.arraycopy(keys, k, keys, k + 1, count - k);
            System.arraycopy(databases, k, databases, k + 1, count - k);
            count++;
        } else {
            // Full: drop the worst (leftmost) entry to make room just left of k.
            k--;
            System.arraycopy(scores, 1, scores, 0, k);
            System.arraycopy(keys, 1, keys, 0, k);
            System.arraycopy(databases, 1, databases, 0, k);
        }
        scores[k] = score;
        keys[k] = Arrays.copyOfRange(key, keyOffset, keyOffset + keyLength);
        databases[k] = database;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** The best candidate's key; {@link #bestDatabase} tells its database. */
    byte[] bestKey() {
        return keys[count - 1];
    }

    int bestDatabase() {
        return databases[count - 1];
    }

    void removeBest() {
        keys[--count] = null;
    }

    void clear() {
        Arrays.fill(keys, null);
        count = 0;
    }
}
