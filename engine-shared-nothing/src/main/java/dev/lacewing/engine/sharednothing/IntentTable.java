package dev.lacewing.engine.sharednothing;

/**
 * A shard's claimed intents ({@link TransactionQueue#intent} hashes) to their claimants: open
 * addressing over a {@code long[]}, linear probing, deletion by shifting back, so a claim or a
 * release allocates nothing (a {@code HashMap<Long, Object>} made a node and a boxed key per key
 * of every transaction, the largest share of an MSET load's allocation). Intents are already
 * well mixed, so their low bits index the table. An empty slot is one whose value is null; values
 * are never null.
 *
 * <p>Thread rule: its shard's thread only, as its {@link TransactionQueue}.
 */
final class IntentTable {

    private long[] keys = new long[16];
    private Object[] values = new Object[16];
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** The claimant of {@code key}, or null. */
    Object get(long key) {
        int mask = keys.length - 1;
        for (int i = (int) key & mask; ; i = (i + 1) & mask) {
            Object value = values[i];
            if (value == null || keys[i] == key) {
                return value;
            }
        }
    }

    boolean containsKey(long key) {
        return get(key) != null;
    }

    /** Maps {@code key} to {@code value} unless it is mapped already; returns what it was mapped to, or null. */
    Object putIfAbsent(long key, Object value) {
        int mask = keys.length - 1;
        int i = (int) key & mask;
        for (; values[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return values[i];
            }
        }
        keys[i] = key;
        values[i] = value;
        if (++size > keys.length >> 1) {
            grow();
        }
        return null;
    }

    /** Maps {@code key}, which is mapped, to {@code value}. */
    void replace(long key, Object value) {
        int mask = keys.length - 1;
        for (int i = (int) key & mask; ; i = (i + 1) & mask) {
            if (keys[i] == key && values[i] != null) {
                values[i] = value;
                return;
            }
        }
    }

    /** Unmaps {@code key}, when mapped; later entries of its probe run move back into the gap. */
    void remove(long key) {
        int mask = keys.length - 1;
        int gap = (int) key & mask;
        while (values[gap] != null && keys[gap] != key) {
            gap = (gap + 1) & mask;
        }
        if (values[gap] == null) {
            return;
        }
        size--;
        for (int next = (gap + 1) & mask; values[next] != null; next = (next + 1) & mask) {
            int home = (int) keys[next] & mask;
            // The entry at next may fill the gap when its home is not in (gap, next], cyclically.
            if (((next - home) & mask) >= ((next - gap) & mask)) {
                keys[gap] = keys[next];
                values[gap] = values[next];
                gap = next;
            }
        }
        values[gap] = null;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length << 1];
        values = new Object[oldKeys.length << 1];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldValues[j] != null) {
                int i = (int) oldKeys[j] & mask;
                while (values[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }
}
