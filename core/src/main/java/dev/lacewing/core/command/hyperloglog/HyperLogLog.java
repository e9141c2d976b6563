package dev.lacewing.core.command.hyperloglog;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Redis's HyperLogLog string value, byte for byte (hyperloglog.c), so that a value written by
 * redis-server and stored here with SET (or the other way round) keeps its count.
 *
 * <p>Layout: a 16-byte header ({@code "HYLL"}, the encoding byte, three zero bytes, the cached
 * cardinality as 8 bytes little-endian whose top bit set means "stale") followed by the registers,
 * 16384 of 6 bits each, in one of two encodings:
 * <ul>
 *   <li>dense (0): the registers packed from each byte's least significant bit up, 12288 bytes,
 *       12304 in all;</li>
 *   <li>sparse (1): run lengths: {@code 00xxxxxx} ZERO (1-64 zero registers), {@code 01xxxxxx
 *       yyyyyyyy} XZERO (1-16384 zero registers), {@code 1vvvvvxx} VAL (1-4 registers holding
 *       1-32). A new HyperLogLog is sparse ({@code 7f ff}: one XZERO of 16384), and turns dense for
 *       good when a register needs more than 32 or the sparse form would exceed
 *       {@code hll-sparse-max-bytes}.</li>
 * </ul>
 * Elements are hashed with MurmurHash64A (seed {@code 0xadc83b19}); the low 14 bits choose the
 * register, and one plus the number of trailing zeros of the other 50 is its candidate value.
 * The count is Otmar Ertl's improved estimator over the register histogram, as Redis 5+ computes it.
 *
 * <p>An instance is a working copy that one command edits and then stores as a new string; it is
 * touched only by the thread running that command. Cost: an add is O(1) dense and O(sparse length)
 * sparse (at most {@code hll-sparse-max-bytes}); a count is O(16384).
 */
public final class HyperLogLog {

    public static final int HEADER_SIZE = 16;
    public static final int REGISTERS = 1 << 14;
    public static final int DENSE_SIZE = HEADER_SIZE + REGISTERS * 6 / 8;
    public static final long DEFAULT_SPARSE_MAX_BYTES = 3000;

    static final int DENSE = 0;
    static final int SPARSE = 1;

    private static final int P = 14;
    private static final int Q = 64 - P;
    private static final int REGISTER_MAX = 63;
    private static final int VAL_MAX_VALUE = 32;
    private static final int VAL_MAX_LENGTH = 4;
    private static final int ZERO_MAX_LENGTH = 64;
    private static final int XZERO_MAX_LENGTH = 16384;
    private static final long SEED = 0xadc83b19L;
    private static final double ALPHA_INF = 0.721347520444481703680;
    private static final VarHandle LITTLE_ENDIAN_LONG =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The value bytes; {@code [0, length)} is the value, the rest spare room for sparse splits. */
    private byte[] bytes;
    private int length;

    private HyperLogLog(byte[] bytes, int length) {
        this.bytes = bytes;
        this.length = length;
    }

    /** An empty HyperLogLog as PFADD creates it: sparse, one XZERO covering every register. */
    public static HyperLogLog empty() {
        byte[] bytes = new byte[HEADER_SIZE + 2 + 8];
        bytes[0] = 'H';
        bytes[1] = 'Y';
        bytes[2] = 'L';
        bytes[3] = 'L';
        bytes[4] = SPARSE;
        int run = XZERO_MAX_LENGTH - 1;
        bytes[HEADER_SIZE] = (byte) (run >> 8 | 0x40);
        bytes[HEADER_SIZE + 1] = (byte) run;
        return new HyperLogLog(bytes, HEADER_SIZE + 2);
    }

    /** A working copy of a stored value that {@link #isValid} accepted. */
    public static HyperLogLog copyOf(byte[] array, int offset, int length) {
        byte[] bytes = new byte[length + 8];
        System.arraycopy(array, offset, bytes, 0, length);
        return new HyperLogLog(bytes, length);
    }

    /**
     * Whether a string is a HyperLogLog as isHLLObjectOrReply judges it: the magic, a known
     * encoding, and exactly {@link #DENSE_SIZE} bytes when dense. A sparse body is checked only
     * when it is read.
     */
    public static boolean isValid(byte[] array, int offset, int length) {
        return length >= HEADER_SIZE && array[offset] == 'H' && array[offset + 1] == 'Y'
            && array[offset + 2] == 'L' && array[offset + 3] == 'L'
            && (array[offset + 4] & 0xff) <= SPARSE
            && (array[offset + 4] != DENSE || length == DENSE_SIZE);
    }

    /** Whether the cached cardinality of a valid value may be used (its top bit is clear). */
    public static boolean hasValidCache(byte[] array, int offset) {
        return (array[offset + 15] & 0x80) == 0;
    }

    /** The cached cardinality of a valid value. */
    public static long cachedCount(byte[] array, int offset) {
        return (long) LITTLE_ENDIAN_LONG.get(array, offset + 8);
    }

    /** The value as a new array of its exact length. */
    public byte[] toBytes() {
        return Arrays.copyOf(bytes, length);
    }

    int encoding() {
        return bytes[4];
    }

    /**
     * Adds an element (hllAdd): 1 when a register grew, 0 when none did, -1 when the sparse body
     * is corrupt. The cached cardinality is invalidated by the caller, once per command.
     */
    public int add(byte[] element, int offset, int length, long sparseMaxBytes) {
        long hash = murmurHash64A(element, offset, length, SEED);
        int index = (int) (hash & (REGISTERS - 1));
        hash >>>= P;
        hash |= 1L << Q;
        int count = Long.numberOfTrailingZeros(hash) + 1;
        return set(index, count, sparseMaxBytes);
    }

    /** Raises register {@code index} to {@code count} if lower: 1 if it changed, 0 if not, -1 if corrupt. */
    int set(int index, int count, long sparseMaxBytes) {
        if (encoding() == DENSE) {
            return denseSet(index, count);
        }
        return sparseSet(index, count, sparseMaxBytes);
    }

    /** Marks the cached cardinality stale (HLL_INVALIDATE_CACHE). */
    public void invalidateCache() {
        bytes[15] |= (byte) 0x80;
    }

    /** Stores a computed cardinality in the header, which makes the cache valid. */
    public void cacheCount(long count) {
        LITTLE_ENDIAN_LONG.set(bytes, 8, count);
    }

    // ---- dense --------------------------------------------------------------------------------

    private int register(int index) {
        return register(bytes, 0, length, index);
    }

    /** Register {@code index} of the dense value at {@code array[offset, offset + length)}. */
    private static int register(byte[] array, int offset, int length, int index) {
        int at = HEADER_SIZE + index * 6 / 8;
        int shift = index * 6 & 7;
        int b0 = array[offset + at] & 0xff;
        int b1 = at + 1 < length ? array[offset + at + 1] & 0xff : 0;
        return ((b0 >>> shift) | (b1 << (8 - shift))) & REGISTER_MAX;
    }

    private void setRegister(int index, int value) {
        int at = HEADER_SIZE + index * 6 / 8;
        int shift = index * 6 & 7;
        bytes[at] = (byte) ((bytes[at] & ~(REGISTER_MAX << shift)) | (value << shift));
        if (at + 1 < length) {
            int rest = 8 - shift;
            bytes[at + 1] = (byte) ((bytes[at + 1] & ~(REGISTER_MAX >>> rest)) | (value >>> rest));
        }
    }

    private int denseSet(int index, int count) {
        if (count > register(index)) {
            setRegister(index, count);
            return 1;
        }
        return 0;
    }

    /**
     * Converts a sparse body to dense (hllSparseToDense), keeping the header; false when the body
     * does not cover exactly 16384 registers.
     */
    boolean toDense() {
        if (encoding() == DENSE) {
            return true;
        }
        HyperLogLog dense = new HyperLogLog(new byte[DENSE_SIZE], DENSE_SIZE);
        System.arraycopy(bytes, 0, dense.bytes, 0, HEADER_SIZE);
        dense.bytes[4] = DENSE;
        int index = 0;
        int p = HEADER_SIZE;
        while (p < length) {
            int op = bytes[p] & 0xff;
            if ((op & 0xc0) == 0) {
                index += (op & 0x3f) + 1;
                p++;
            } else if ((op & 0x80) == 0) {
                index += xzeroLength(p);
                p += 2;
            } else {
                int run = (op & 3) + 1;
                int value = (op >>> 2 & 0x1f) + 1;
                if (run + index > REGISTERS) {
                    break;
                }
                for (int i = 0; i < run; i++) {
                    dense.setRegister(index++, value);
                }
                p++;
            }
        }
        if (index != REGISTERS) {
            return false;
        }
        bytes = dense.bytes;
        length = DENSE_SIZE;
        return true;
    }

    // ---- sparse -------------------------------------------------------------------------------

    private int at(int position) {
        return position < length ? bytes[position] & 0xff : 0;
    }

    private int xzeroLength(int position) {
        return ((at(position) & 0x3f) << 8 | at(position + 1)) + 1;
    }

    private static int writeZeros(byte[] sequence, int n, int run) {
        if (run > ZERO_MAX_LENGTH) {
            sequence[n] = (byte) ((run - 1) >> 8 | 0x40);
            sequence[n + 1] = (byte) (run - 1);
            return n + 2;
        }
        sequence[n] = (byte) (run - 1);
        return n + 1;
    }

    private static byte val(int value, int run) {
        return (byte) ((value - 1) << 2 | (run - 1) | 0x80);
    }

    /**
     * hllSparseSet: finds the opcode covering {@code index}; if the register must grow, splits that
     * opcode into at most three (zeros, the new VAL, zeros or VALs around it), then merges adjacent
     * equal VALs near the change. Promotes to dense when the value exceeds 32 or the value would
     * grow past {@code sparseMaxBytes}. Kept step for step as Redis has it, so both produce the same
     * bytes from the same additions.
     */
    private int sparseSet(int index, int count, long sparseMaxBytes) {
        if (count > VAL_MAX_VALUE) {
            return promoteAndSet(index, count);
        }
        if (bytes.length < length + 3) {
            bytes = Arrays.copyOf(bytes, Math.max(length + 3, length * 2));
        }
        int p = HEADER_SIZE;
        int end = length;
        int first = 0;
        int prev = -1;
        int span = 0;
        while (p < end) {
            int op = bytes[p] & 0xff;
            int opLength = 1;
            if ((op & 0xc0) == 0) {
                span = (op & 0x3f) + 1;
            } else if ((op & 0x80) != 0) {
                span = (op & 3) + 1;
            } else {
                span = xzeroLength(p);
                opLength = 2;
            }
            if (index <= first + span - 1) {
                break;
            }
            prev = p;
            p += opLength;
            first += span;
        }
        if (span == 0 || p >= end) {
            return -1;
        }
        int op = bytes[p] & 0xff;
        boolean isZero = (op & 0xc0) == 0;
        boolean isXzero = (op & 0xc0) == 0x40;
        boolean isVal = (op & 0x80) != 0;
        int next = isXzero ? p + 2 : p + 1;
        int runLength = isZero ? (op & 0x3f) + 1 : isXzero ? xzeroLength(p) : (op & 3) + 1;
        boolean simple = false;
        if (isVal) {
            if ((op >>> 2 & 0x1f) + 1 >= count) {
                return 0;
            }
            simple = runLength == 1;
        } else {
            simple = isZero && runLength == 1;
        }
        if (simple) {
            bytes[p] = val(count, 1);
        } else {
            byte[] sequence = new byte[5];
            int n = 0;
            int last = first + span - 1;
            if (isVal) {
                int current = (op >>> 2 & 0x1f) + 1;
                if (index != first) {
                    sequence[n++] = val(current, index - first);
                }
                sequence[n++] = val(count, 1);
                if (index != last) {
                    sequence[n++] = val(current, last - index);
                }
            } else {
                if (index != first) {
                    n = writeZeros(sequence, n, index - first);
                }
                sequence[n++] = val(count, 1);
                if (index != last) {
                    n = writeZeros(sequence, n, last - index);
                }
            }
            int delta = n - (isXzero ? 2 : 1);
            if (delta > 0 && length + delta > sparseMaxBytes) {
                return promoteAndSet(index, count);
            }
            if (delta != 0 && next < end) {
                System.arraycopy(bytes, next, bytes, next + delta, end - next);
            }
            length += delta;
            System.arraycopy(sequence, 0, bytes, p, n);
            end += delta;
        }
        mergeAdjacentValues(prev >= 0 ? prev : HEADER_SIZE, end);
        invalidateCache();
        return 1;
    }

    /** Step 4 of hllSparseSet: up to five opcodes from {@code p}, adjacent equal VALs merged. */
    private void mergeAdjacentValues(int p, int end) {
        int scan = 5;
        while (p < end && scan-- > 0) {
            int op = bytes[p] & 0xff;
            if ((op & 0xc0) == 0x40) {
                p += 2;
                continue;
            } else if ((op & 0xc0) == 0) {
                p++;
                continue;
            }
            if (p + 1 < end && (bytes[p + 1] & 0x80) != 0) {
                int next = bytes[p + 1] & 0xff;
                int value = (op >>> 2 & 0x1f) + 1;
                if (value == (next >>> 2 & 0x1f) + 1) {
                    int run = (op & 3) + 1 + (next & 3) + 1;
                    if (run <= VAL_MAX_LENGTH) {
                        bytes[p + 1] = val(value, run);
                        System.arraycopy(bytes, p + 1, bytes, p, end - p - 1);
                        length--;
                        end--;
                        continue;
                    }
                }
            }
            p++;
        }
    }

    private int promoteAndSet(int index, int count) {
        if (!toDense()) {
            return -1;
        }
        return denseSet(index, count);
    }

    // ---- counting -----------------------------------------------------------------------------

    /**
     * Raises {@code max[i]} to each register of a stored value (hllMerge); false when a sparse
     * body is corrupt.
     */
    public static boolean mergeInto(byte[] max, byte[] array, int offset, int length) {
        if (array[offset + 4] == DENSE) {
            for (int i = 0; i < REGISTERS; i++) {
                int value = register(array, offset, length, i);
                if (value > max[i]) {
                    max[i] = (byte) value;
                }
            }
            return true;
        }
        int index = 0;
        int end = offset + length;
        int p = offset + HEADER_SIZE;
        while (p < end) {
            int op = array[p] & 0xff;
            if ((op & 0xc0) == 0) {
                index += (op & 0x3f) + 1;
                p++;
            } else if ((op & 0x80) == 0) {
                int low = p + 1 < end ? array[p + 1] & 0xff : 0;
                index += ((op & 0x3f) << 8 | low) + 1;
                p += 2;
            } else {
                int run = (op & 3) + 1;
                int value = (op >>> 2 & 0x1f) + 1;
                if (run + index > REGISTERS) {
                    break;
                }
                for (int i = 0; i < run; i++, index++) {
                    if (value > max[index]) {
                        max[index] = (byte) value;
                    }
                }
                p++;
            }
        }
        return index == REGISTERS;
    }

    /** The cardinality of a stored value (hllCount), or -1 when its sparse body is corrupt. */
    public static long count(byte[] array, int offset, int length) {
        int[] histogram = new int[64];
        if (array[offset + 4] == DENSE) {
            for (int i = 0; i < REGISTERS; i++) {
                histogram[register(array, offset, length, i)]++;
            }
        } else {
            int index = 0;
            int end = offset + length;
            int p = offset + HEADER_SIZE;
            while (p < end) {
                int op = array[p] & 0xff;
                if ((op & 0xc0) == 0) {
                    int run = (op & 0x3f) + 1;
                    index += run;
                    histogram[0] += run;
                    p++;
                } else if ((op & 0x80) == 0) {
                    int low = p + 1 < end ? array[p + 1] & 0xff : 0;
                    int run = ((op & 0x3f) << 8 | low) + 1;
                    index += run;
                    histogram[0] += run;
                    p += 2;
                } else {
                    int run = (op & 3) + 1;
                    index += run;
                    histogram[(op >>> 2 & 0x1f) + 1] += run;
                    p++;
                }
            }
            if (index != REGISTERS) {
                return -1;
            }
        }
        return estimate(histogram);
    }

    /** The cardinality of raw registers, one byte each, as {@link #mergeInto} fills them. */
    public static long countRegisters(byte[] registers) {
        int[] histogram = new int[64];
        for (int i = 0; i < REGISTERS; i++) {
            histogram[registers[i]]++;
        }
        return estimate(histogram);
    }

    /**
     * Ertl's improved raw estimator ("New cardinality estimation algorithms for HyperLogLog
     * sketches", arXiv:1702.01284), in the operation order of Redis's hllCount so that the
     * doubles, and so the rounded counts, are the same.
     */
    static long estimate(int[] histogram) {
        double m = REGISTERS;
        double z = m * tau((m - histogram[Q + 1]) / m);
        for (int j = Q; j >= 1; --j) {
            z += histogram[j];
            z *= 0.5;
        }
        z += m * sigma(histogram[0] / m);
        return Math.round(ALPHA_INF * m * m / z);
    }

    private static double sigma(double x) {
        if (x == 1.0) {
            return Double.POSITIVE_INFINITY;
        }
        double previous;
        double y = 1;
        double z = x;
        do {
            x *= x;
            previous = z;
            z += x * y;
            y += y;
        } while (previous != z);
        return z;
    }

    private static double tau(double x) {
        if (x == 0.0 || x == 1.0) {
            return 0.0;
        }
        double previous;
        double y = 1.0;
        double z = 1 - x;
        do {
            x = Math.sqrt(x);
            previous = z;
            y *= 0.5;
            z -= (1 - x) * (1 - x) * y;
        } while (previous != z);
        return z / 3;
    }

    /** MurmurHash2, 64-bit version (MurmurHash64A), reading 8-byte blocks little-endian as Redis does. */
    static long murmurHash64A(byte[] key, int offset, int length, long seed) {
        final long m = 0xc6a4a7935bd1e995L;
        final int r = 47;
        long h = seed ^ (length * m);
        int end = offset + (length - (length & 7));
        for (int i = offset; i < end; i += 8) {
            long k = (long) LITTLE_ENDIAN_LONG.get(key, i);
            k *= m;
            k ^= k >>> r;
            k *= m;
            h ^= k;
            h *= m;
        }
        int tail = length & 7;
        if (tail > 0) {
            for (int i = tail - 1; i >= 0; i--) {
                h ^= (long) (key[end + i] & 0xff) << (8 * i);
            }
            h *= m;
        }
        h ^= h >>> r;
        h *= m;
        h ^= h >>> r;
        return h;
    }
}
