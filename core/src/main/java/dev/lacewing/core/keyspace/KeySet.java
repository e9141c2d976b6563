package dev.lacewing.core.keyspace;

import java.util.Arrays;

/**
 * A set of keys that only grows until it is cleared: the keys a snapshot's walk must skip
 * ({@link PartitionSnapshot}). The keys are packed one after another in one byte array, each as a
 * varint length and its bytes, and found through an open-addressing index of longs,
 * {@code hash:32 | position + 1:32}, kept at most half full. A key so costs its bytes, a byte or
 * two of length and at most 16 bytes of index, and the collector sees two arrays: a
 * {@code HashSet} of wrapped copies cost over 100 bytes and three objects per key, copied by every
 * young collection while the save ran.
 *
 * <p>Thread rule: not thread-safe; used by the thread holding the partition.
 */
final class KeySet {

    private static final int INITIAL_SLOTS = 16;
    private static final int INITIAL_BYTES = 256;

    private long[] slots = new long[INITIAL_SLOTS];
    private byte[] bytes = new byte[INITIAL_BYTES];
    private int used;
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** Adds the key; false when it was there already. */
    boolean add(byte[] key, int offset, int length) {
        int hash = KeyTable.hash(key, offset, length);
        int mask = slots.length - 1;
        int i = hash & mask;
        for (; slots[i] != 0; i = (i + 1) & mask) {
            if (matches(slots[i], hash, key, offset, length)) {
                return false;
            }
        }
        int position = append(key, offset, length);
        slots[i] = (long) hash << 32 | (position + 1L);
        if (++size * 2 > slots.length) {
            grow();
        }
        return true;
    }

    boolean contains(byte[] key, int offset, int length) {
        if (size == 0) {
            return false;
        }
        int hash = KeyTable.hash(key, offset, length);
        int mask = slots.length - 1;
        for (int i = hash & mask; slots[i] != 0; i = (i + 1) & mask) {
            if (matches(slots[i], hash, key, offset, length)) {
                return true;
            }
        }
        return false;
    }

    /** Empties the set and lets its arrays go. */
    void clear() {
        slots = new long[INITIAL_SLOTS];
        bytes = new byte[INITIAL_BYTES];
        used = 0;
        size = 0;
    }

    private boolean matches(long slot, int hash, byte[] key, int offset, int length) {
        if ((int) (slot >>> 32) != hash) {
            return false;
        }
        int position = (int) slot - 1;
        int stored = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = bytes[position++];
            stored |= (b & 0x7f) << shift;
            if (b >= 0) {
                break;
            }
        }
        return stored == length && Arrays.equals(bytes, position, position + length, key, offset, offset + length);
    }

    /** Writes the key's length and bytes at the end of the byte array; returns where they start. */
    private int append(byte[] key, int offset, int length) {
        long needed = (long) used + 5 + length;
        if (needed > bytes.length) {
            if (needed > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("key set over 2 GB");
            }
            bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(needed, 2L * bytes.length)));
        }
        int start = used;
        int value = length;
        while (value >= 0x80) {
            bytes[used++] = (byte) (value | 0x80);
            value >>>= 7;
        }
        bytes[used++] = (byte) value;
        System.arraycopy(key, offset, bytes, used, length);
        used += length;
        return start;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        int mask = slots.length - 1;
        for (long slot : old) {
            if (slot != 0) {
                int i = (int) (slot >>> 32) & mask;
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = slot;
            }
        }
    }
}
