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
 * Offsets are 13 bits (up to 8 KiB back). The compressor is liblzf's greedy single pass, with
 * its hash and its choices, so its output equals Redis's: O(n), and it gives up as soon as the
 * output would pass its limit, so an incompressible input costs one pass and nothing more.
 *
 * <p>Thread-safe: each thread compresses with a 2^16-slot hash table of its own (512 KiB, kept
 * for the thread's life).
 */
public final class Lzf {

    private static final int MAX_LITERAL = 1 << 5;
    private static final int MAX_OFFSET = 1 << 13;
    /** The longest match one reference holds: 7 + 255 + 2. */
    private static final int MAX_MATCH = (1 << 8) + (1 << 3);
    /** liblzf's HSIZE with Redis's HLOG of 16. */
    private static final int HASH_SLOTS = 1 << 16;
    private static final ThreadLocal<HashTable> TABLES = ThreadLocal.withInitial(HashTable::new);

    private Lzf() {
    }

    /**
     * Compresses {@code inLength} bytes of {@code in} into {@code out} from {@code outOffset},
     * writing at most {@code outLimit} bytes; returns the compressed length, or 0 when the result
     * would not fit (or the input is empty, whose compressed form is empty).
     *
     * <p>The output is byte for byte what Redis's lzf_compress writes (HLOG 16, VERY_FAST, a
     * cleared table; Debian's redis-server links liblzf 3.6, whose output this equals too), so RDB strings and DUMP payloads equal redis-server's: the same rolling hash
     * over the last four bytes into 2^16 slots, no match against the input's first byte nor starting
     * in its last two, the same unrolled match extension, and the last two positions of each match
     * hashed afresh.
     */
    public static int compress(byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int outLimit) {
        if (inLength == 0 || outLimit == 0) {
            return 0;
        }
        HashTable table = TABLES.get();
        int generation = table.next();
        int inEnd = inOffset + inLength;
        int outEnd = outOffset + outLimit;
        int ip = inOffset;
        int op = outOffset + 1; // the first literal run's control byte goes before it
        int literals = 0;
        int hash = (in[ip] & 0xFF) << 8 | in[ip + (inLength > 1 ? 1 : 0)] & 0xFF;
        while (ip < inEnd - 2) {
            hash = hash << 8 | in[ip + 2] & 0xFF;
            int slot = slot(hash);
            int reference = table.get(slot, generation);
            table.put(slot, generation, ip);
            int offset = ip - reference - 1;
            if (reference > inOffset && offset < MAX_OFFSET
                    && in[reference] == in[ip] && in[reference + 1] == in[ip + 1] && in[reference + 2] == in[ip + 2]) {
                // Close the literal run (or take back its unused control byte) and write the reference.
                if (literals > 0) {
                    out[op - literals - 1] = (byte) (literals - 1);
                } else {
                    op--;
                }
                if (op + 3 + 1 >= outEnd) {
                    return 0;
                }
                int length = matchLength(in, reference, ip, Math.min(inEnd - ip - 2, MAX_MATCH));
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
                // Hash the match's last two positions afresh, as liblzf's VERY_FAST mode does.
                ip -= 2;
                hash = (in[ip] & 0xFF) << 8 | in[ip + 1] & 0xFF;
                hash = hash << 8 | in[ip + 2] & 0xFF;
                table.put(slot(hash), generation, ip);
                ip++;
                hash = hash << 8 | in[ip + 2] & 0xFF;
                table.put(slot(hash), generation, ip);
                ip++;
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
     * The bytes {@code reference} and {@code ip} have in common, the first three known equal: at
     * most {@code limit}, except that liblzf first compares 16 bytes unrolled when the limit is
     * over 16, which can take a match up to 19 bytes (still within the input).
     */
    private static int matchLength(byte[] in, int reference, int ip, int limit) {
        int length = 2;
        if (limit > 16) {
            for (int i = 0; i < 16; i++) {
                length++;
                if (in[reference + length] != in[ip + length]) {
                    return length;
                }
            }
        }
        do {
            length++;
        } while (length < limit && in[reference + length] == in[ip + length]);
        return length;
    }

    /** liblzf's IDX for HLOG 16 and VERY_FAST. */
    private static int slot(int hash) {
        return ((hash >>> 8) - hash * 5) & (HASH_SLOTS - 1);
    }

    /**
     * liblzf's hash table of last positions, one per thread and reused: a slot holds a position
     * only when stamped with the current call's generation, so no call clears 2^16 slots.
     */
    private static final class HashTable {
        private final int[] positions = new int[HASH_SLOTS];
        private final int[] stamps = new int[HASH_SLOTS];
        private int generation;

        int next() {
            if (++generation == 0) {
                java.util.Arrays.fill(stamps, 0);
                generation = 1;
            }
            return generation;
        }

        int get(int slot, int current) {
            return stamps[slot] == current ? positions[slot] : -1;
        }

        void put(int slot, int current, int position) {
            stamps[slot] = current;
            positions[slot] = position;
        }
    }

    /**
     * The number of bytes a stream decompresses to, read from its control bytes without writing
     * them out, or -1 when the stream is not valid: what a reader checks a claimed length against
     * before it allocates the output. O(runs).
     */
    public static long decompressedLength(byte[] in, int inOffset, int inLength) {
        int ip = inOffset;
        int inEnd = inOffset + inLength;
        long produced = 0;
        while (ip < inEnd) {
            int control = in[ip++] & 0xFF;
            if (control < MAX_LITERAL) {
                ip += control + 1;
                if (ip > inEnd) {
                    return -1;
                }
                produced += control + 1;
                continue;
            }
            int length = control >>> 5;
            if (length == 7) {
                if (ip >= inEnd) {
                    return -1;
                }
                length += in[ip++] & 0xFF;
            }
            if (ip >= inEnd) {
                return -1;
            }
            int offset = ((control & 0x1F) << 8 | in[ip++] & 0xFF) + 1;
            if (offset > produced) {
                return -1;
            }
            produced += length + 2;
        }
        return produced;
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
}
