package dev.lacewing.core.datatype;

/**
 * LZF compression in the format of Marc Lehmann's liblzf, which Redis uses for quicklist nodes
 * and RDB strings. The compressed stream is a sequence of runs, each starting with a control byte:
 *
 * <pre>
 *   000LLLLL                      a literal run: the next L + 1 bytes (1..32) as they are
 *   LLLOOOOO oooooooo             a back reference: copy L + 2 bytes (L 1..6) from
 *                                 (OOOOO oooooooo) + 1 bytes back in the output
 *   111OOOOO llllllll oooooooo    the same with length l + 9 (9..264)
 * </pre>
 *
 * Offsets are 13 bits (up to 8 KiB back). The compressor is a greedy single pass with a hash of
 * the next three bytes, as liblzf's is: O(n), and it gives up as soon as the output would pass its
 * limit, so an incompressible input costs one pass and nothing more.
 *
 * <p>Stateless and thread-safe.
 */
public final class Lzf {

    private static final int MAX_LITERAL = 1 << 5;
    private static final int MAX_OFFSET = 1 << 13;
    /** The longest match one reference holds: 7 + 255 + 2. */
    private static final int MAX_MATCH = (1 << 8) + (1 << 3);
    private static final int MIN_HASH_BITS = 8;
    private static final int MAX_HASH_BITS = 14;

    private Lzf() {
    }

    /**
     * Compresses {@code inLength} bytes of {@code in} into {@code out} from {@code outOffset},
     * writing at most {@code outLimit} bytes; returns the compressed length, or 0 when the result
     * would not fit (or the input is empty, whose compressed form is empty).
     */
    public static int compress(byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int outLimit) {
        if (inLength == 0) {
            return 0;
        }
        int hashBits = Math.max(MIN_HASH_BITS, Math.min(MAX_HASH_BITS, 32 - Integer.numberOfLeadingZeros(inLength)));
        // Positions plus one of the last place each 3-byte hash was seen; 0 is none.
        int[] seen = new int[1 << hashBits];
        int inEnd = inOffset + inLength;
        int outEnd = outOffset + outLimit;
        int ip = inOffset;
        int op = outOffset + 1; // the first literal run's control byte goes before it
        int literals = 0;
        while (ip < inEnd - 2) {
            int slot = hash(in, ip, hashBits);
            int reference = seen[slot] - 1;
            seen[slot] = ip + 1;
            int offset = ip - reference - 1;
            if (reference >= inOffset && offset < MAX_OFFSET
                    && in[reference] == in[ip] && in[reference + 1] == in[ip + 1] && in[reference + 2] == in[ip + 2]) {
                // Close the literal run (or take back its unused control byte) and write the reference.
                int runStart = op - (literals == 0 ? 1 : 0);
                if (runStart + 3 + 1 >= outEnd) {
                    return 0;
                }
                if (literals > 0) {
                    out[op - literals - 1] = (byte) (literals - 1);
                }
                op = runStart;
                int limit = Math.min(inEnd - ip - 2, MAX_MATCH);
                int length = 3;
                while (length < limit && in[reference + length] == in[ip + length]) {
                    length++;
                }
                int code = length - 2;
                if (code < 7) {
                    out[op++] = (byte) ((offset >>> 8) + (code << 5));
                } else {
                    out[op++] = (byte) ((offset >>> 8) + (7 << 5));
                    out[op++] = (byte) (code - 7);
                }
                out[op++] = (byte) offset;
                literals = 0;
                op++;
                ip += length;
                if (ip >= inEnd - 2) {
                    break;
                }
                // Remember the match's last two positions, as liblzf's VERY_FAST mode does.
                seen[hash(in, ip - 2, hashBits)] = ip - 1;
                seen[hash(in, ip - 1, hashBits)] = ip;
            } else {
                if (op >= outEnd) {
                    return 0;
                }
                out[op++] = in[ip++];
                if (++literals == MAX_LITERAL) {
                    out[op - literals - 1] = (byte) (literals - 1);
                    literals = 0;
                    op++;
                }
            }
        }
        // At most two bytes are left, and each may need a control byte before it.
        if (op + 3 > outEnd) {
            return 0;
        }
        while (ip < inEnd) {
            out[op++] = in[ip++];
            if (++literals == MAX_LITERAL) {
                out[op - literals - 1] = (byte) (literals - 1);
                literals = 0;
                op++;
            }
        }
        if (literals > 0) {
            out[op - literals - 1] = (byte) (literals - 1);
        } else {
            op--;
        }
        return op - outOffset;
    }

    /**
     * Decompresses {@code inLength} bytes of {@code in} into {@code out} from {@code outOffset},
     * at most {@code outLength} bytes; returns the decompressed length.
     *
     * @throws IllegalArgumentException when the input is not a valid stream or decompresses to more
     *     than {@code outLength} bytes
     */
    public static int decompress(byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int outLength) {
        int ip = inOffset;
        int inEnd = inOffset + inLength;
        int op = outOffset;
        int outEnd = outOffset + outLength;
        while (ip < inEnd) {
            int control = in[ip++] & 0xFF;
            if (control < MAX_LITERAL) {
                int length = control + 1;
                if (ip + length > inEnd) {
                    throw new IllegalArgumentException("LZF literal run past the end of the input");
                }
                if (op + length > outEnd) {
                    throw new IllegalArgumentException("LZF output longer than " + outLength + " bytes");
                }
                System.arraycopy(in, ip, out, op, length);
                ip += length;
                op += length;
                continue;
            }
            int length = control >>> 5;
            if (length == 7) {
                if (ip >= inEnd) {
                    throw new IllegalArgumentException("LZF reference length past the end of the input");
                }
                length += in[ip++] & 0xFF;
            }
            if (ip >= inEnd) {
                throw new IllegalArgumentException("LZF reference offset past the end of the input");
            }
            int reference = op - ((control & 0x1F) << 8 | in[ip++] & 0xFF) - 1;
            length += 2;
            if (reference < outOffset) {
                throw new IllegalArgumentException("LZF reference before the start of the output");
            }
            if (op + length > outEnd) {
                throw new IllegalArgumentException("LZF output longer than " + outLength + " bytes");
            }
            if (op - reference >= length) {
                System.arraycopy(out, reference, out, op, length);
                op += length;
            } else {
                // An overlapping reference repeats the bytes it has just written.
                for (int i = 0; i < length; i++) {
                    out[op++] = out[reference++];
                }
            }
        }
        return op - outOffset;
    }

    private static int hash(byte[] in, int at, int bits) {
        int next3 = (in[at] & 0xFF) << 16 | (in[at + 1] & 0xFF) << 8 | in[at + 2] & 0xFF;
        return next3 * 0x9E3779B1 >>> (32 - bits);
    }
}
