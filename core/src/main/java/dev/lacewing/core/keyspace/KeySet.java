package dev.lacewing.core.keyspace;

import dev.lacewing.core.datatype.TableHash;
import java.util.Arrays;

/**
 * A set of keys that only grows until it is cleared: the keys a snapshot's walk must skip
 * ({@link PartitionSnapshot}). The keys are packed one after another in chunks of 64 KiB (a longer
 * key in a chunk of its own), each as a varint length and its bytes, and found through an
 * open-addressing index of longs, {@code hash:32 | position + 1:32}, kept at most half full; a
 * position is {@code chunk:15 | offset:16}. A key so costs its bytes, a byte or two of length and
 * at most 16 bytes of index, the collector sees a few arrays, and growing copies only the index: a
 * {@code HashSet} of wrapped copies cost over 100 bytes and three objects per key, copied by every
 * young collection while the save ran.
 *
 * <p>Thread rule: not thread-safe; used by the thread holding the partition.
 */
final class KeySet {

    private static final int INITIAL_SLOTS = 16;
    private static final int OFFSET_BITS = 16;
    private static final int CHUNK_BYTES = 1 << OFFSET_BITS;
    /** Positions stay below 2^31, so that position + 1 fits the index's low 32 bits as a positive int. */
    private static final int MAX_CHUNKS = 1 << (31 - OFFSET_BITS);

    private long[] slots = new long[INITIAL_SLOTS];
    private byte[][] chunks = new byte[0][];
    private int chunkCount;
    /** Bytes used in the last chunk. */
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
        int hash = TableHash.of(key, offset, length);
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
        int hash = TableHash.of(key, offset, length);
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
        chunks = new byte[0][];
        chunkCount = 0;
        used = 0;
        size = 0;
    }

    private boolean matches(long slot, int hash, byte[] key, int offset, int length) {
        if ((int) (slot >>> 32) != hash) {
            return false;
        }
        int position = (int) slot - 1;
        byte[] chunk = chunks[position >>> OFFSET_BITS];
        int at = position & CHUNK_BYTES - 1;
        int stored = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = chunk[at++];
            stored |= (b & 0x7f) << shift;
            if (b >= 0) {
                break;
            }
        }
        return stored == length && Arrays.equals(chunk, at, at + length, key, offset, offset + length);
    }

    /** Writes the key's length and bytes after the last key; returns their position. */
    private int append(byte[] key, int offset, int length) {
        int needed = varintSize(length) + length;
        if (chunkCount == 0 || used + needed > chunks[chunkCount - 1].length) {
            if (chunkCount == MAX_CHUNKS) {
                throw new IllegalStateException("key set over 2 GB");
            }
            if (chunkCount == chunks.length) {
                chunks = Arrays.copyOf(chunks, Math.max(4, chunkCount * 2));
            }
            chunks[chunkCount++] = new byte[Math.max(CHUNK_BYTES, needed)];
            used = 0;
        }
        byte[] chunk = chunks[chunkCount - 1];
        int start = used;
        int value = length;
        while (value >= 0x80) {
            chunk[used++] = (byte) (value | 0x80);
            value >>>= 7;
        }
        chunk[used++] = (byte) value;
        System.arraycopy(key, offset, chunk, used, length);
        used += length;
        return (chunkCount - 1) << OFFSET_BITS | start;
    }

    private static int varintSize(int value) {
        return value < 1 << 7 ? 1 : value < 1 << 14 ? 2 : value < 1 << 21 ? 3 : value < 1 << 28 ? 4 : 5;
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
