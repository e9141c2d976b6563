package dev.lacewing.storage.compact;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The hash of a key in {@link CompactTable}: eight bytes at a time, each word multiplied into the
 * state and rotated, the last zero to seven bytes read as one word (two overlapping ints, or a
 * byte's spread), then murmur3's 64-bit finalizer, so that the low bits the index masks with and
 * the tag keeps are well mixed. A byte at a time (FNV-1a, as core's TableHash) is a chain of one
 * multiply per byte: a 16-byte key's 16 multiplies were most of the hashing a SET pays, two here.
 * A snapshot's walk does not depend on the function ({@link CompactTable#visited}); SCAN's order
 * does, within one server's life. Stateless.
 */
final class KeyHash {

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long MULTIPLIER = 0x9e3779b97f4a7c15L;

    private KeyHash() {
    }

    static int of(byte[] key, int offset, int length) {
        long h = 0x9747b28c0f0a6e4dL ^ length * MULTIPLIER;
        int end = offset + length;
        int i = offset;
        for (; end - i >= 8; i += 8) {
            h = Long.rotateLeft((h ^ (long) LONG.get(key, i)) * MULTIPLIER, 29);
        }
        int rest = end - i;
        long last;
        if (rest >= 4) {
            last = (int) INT.get(key, i) & 0xffffffffL | (long) (int) INT.get(key, end - 4) << 32;
        } else if (rest > 0) {
            last = (key[i] & 0xffL) | (key[i + (rest >> 1)] & 0xffL) << 8 | (key[end - 1] & 0xffL) << 16;
        } else {
            last = 0;
        }
        h = (h ^ last) * MULTIPLIER;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h;
    }
}
