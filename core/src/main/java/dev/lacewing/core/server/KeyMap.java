package dev.lacewing.core.server;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The few keys a gathered command or an EXEC names, each once, with a value per key, in the order
 * added: up to {@link #LISTED_UP_TO} keys a lookup compares each (no map, no key wrapper per
 * lookup: nearly every transaction names a key or two); past it, the keys are hashed as well. A key
 * is a slice of an array the caller leaves unchanged while the map is in use; nothing is copied.
 * Used by {@link GatheredExec#widenWritten} and {@link GatheredKeyspace}'s gathered entries.
 *
 * <p>Thread rule: one thread at a time; its users' hand-overs order the accesses.
 */
final class KeyMap<V> {

    /** Up to this many keys, lookups compare each; past it, they are hashed. */
    static final int LISTED_UP_TO = 16;

    private byte[][] arrays;
    private int[] offsets;
    private int[] lengths;
    private Object[] values;
    private int size;
    /** The same keys, made only past {@link #LISTED_UP_TO}. */
    private Map<ByteBuffer, V> hashed;

    /** Room for {@code expected} keys before the first growth. */
    KeyMap(int expected) {
        int capacity = Math.max(1, expected);
        arrays = new byte[capacity][];
        offsets = new int[capacity];
        lengths = new int[capacity];
        values = new Object[capacity];
    }

    int size() {
        return size;
    }

    /** The value of the {@code index}th key added. */
    @SuppressWarnings("unchecked")
    V value(int index) {
        return (V) values[index];
    }

    /** The value of the key equal to {@code key[offset, offset + length)}, or null. */
    @SuppressWarnings("unchecked")
    V get(byte[] key, int offset, int length) {
        if (hashed != null) {
            return hashed.get(ByteBuffer.wrap(key, offset, length));
        }
        for (int i = 0; i < size; i++) {
            if (Arrays.equals(arrays[i], offsets[i], offsets[i] + lengths[i], key, offset, offset + length)) {
                return (V) values[i];
            }
        }
        return null;
    }

    /** Adds the key with {@code value} unless it is there already; the value it had, or null when added. */
    V putIfAbsent(byte[] key, int offset, int length, V value) {
        V present = get(key, offset, length);
        if (present != null) {
            return present;
        }
        if (size == arrays.length) {
            int capacity = size * 2;
            arrays = Arrays.copyOf(arrays, capacity);
            offsets = Arrays.copyOf(offsets, capacity);
            lengths = Arrays.copyOf(lengths, capacity);
            values = Arrays.copyOf(values, capacity);
        }
        arrays[size] = key;
        offsets[size] = offset;
        lengths[size] = length;
        values[size] = value;
        size++;
        if (hashed != null) {
            hashed.put(ByteBuffer.wrap(key, offset, length), value);
        } else if (size > LISTED_UP_TO) {
            hashed = new HashMap<>();
            for (int i = 0; i < size; i++) {
                hashed.put(ByteBuffer.wrap(arrays[i], offsets[i], lengths[i]), value(i));
            }
        }
        return null;
    }
}
