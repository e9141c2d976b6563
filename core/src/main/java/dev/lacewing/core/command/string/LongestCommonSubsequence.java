package dev.lacewing.core.command.string;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;

/**
 * LCS (Redis 7.0's lcsCommand): the longest common subsequence of two strings, its length
 * ({@code LEN}), or the matching ranges of both ({@code IDX}, with {@code MINMATCHLEN} and
 * {@code WITHMATCHLEN}). A missing key is an empty string.
 *
 * <p>The answer is the one Redis gives, not just any longest subsequence: the same dynamic
 * programming table, walked back from its last cell with Redis's tie rule (a mismatch steps back
 * in the first string only when that keeps the strictly longer subsequence), so the string and
 * the ranges, emitted from the last to the first, are Redis's. The table is Redis's too in what it
 * may cost: {@code (len1 + 1) * (len2 + 1)} cells counted at 4 bytes, refused past
 * proto-max-bulk-len with Redis's error. Its cells are {@code char}s here, since a table that fits
 * a Java array has a shorter string of at most 46,340 bytes, so no cell passes 65,535; LEN alone
 * keeps two rows instead of the table, with the same limit checked first.
 *
 * <p>O(len1 * len2) time on the thread that owns the keys, as in Redis (whose documentation says
 * to run it on small strings).
 */
final class LongestCommonSubsequence {

    static final String NOT_STRINGS = "ERR The specified keys must contain string values";
    static final String BOTH_LEN_AND_IDX = "ERR If you want both the length and indexes, please just use IDX.";
    static final String EXCEEDS_LIMIT =
        "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len";
    static final String ALLOCATION_FAILED = "ERR Insufficient memory, failed allocating transient memory for LCS";

    private static final long DEFAULT_PROTO_MAX_BULK_LEN = 512L * 1024 * 1024;
    /** The most elements a Java array is given on every JVM. */
    private static final long MAX_CELLS = Integer.MAX_VALUE - 8;
    private static final byte[] EMPTY = new byte[0];

    private LongestCommonSubsequence() {
    }

    static void lcs(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        Object first = keyspace.get(args.array(), args.offset(1), args.length(1));
        Object second = keyspace.get(args.array(), args.offset(2), args.length(2));
        if (first != null && !(first instanceof byte[]) || second != null && !(second instanceof byte[])) {
            ctx.reply().error(NOT_STRINGS);
            return;
        }
        byte[] a = first == null ? EMPTY : (byte[]) first;
        byte[] b = second == null ? EMPTY : (byte[]) second;
        boolean len = false;
        boolean idx = false;
        boolean withMatchLen = false;
        long minMatchLen = 0;
        for (int i = 3; i < args.count(); i++) {
            if (args.is(i, "IDX")) {
                idx = true;
            } else if (args.is(i, "LEN")) {
                len = true;
            } else if (args.is(i, "WITHMATCHLEN")) {
                withMatchLen = true;
            } else if (args.is(i, "MINMATCHLEN") && i + 1 < args.count()) {
                i++;
                try {
                    minMatchLen = Math.max(0, Numbers.parseLong(args.array(), args.offset(i), args.length(i)));
                } catch (InvalidNumber e) {
                    ctx.reply().error(Errors.NOT_INTEGER);
                    return;
                }
            } else {
                ctx.reply().error(Errors.SYNTAX);
                return;
            }
        }
        if (idx && len) {
            ctx.reply().error(BOTH_LEN_AND_IDX);
            return;
        }
        long cells = (a.length + 1L) * (b.length + 1L);
        long limit = ctx.server().settings().getLong("proto-max-bulk-len", DEFAULT_PROTO_MAX_BULK_LEN);
        if (cells * Integer.BYTES > limit) {
            ctx.reply().error(EXCEEDS_LIMIT);
            return;
        }
        if (cells > MAX_CELLS) {
            ctx.reply().error(ALLOCATION_FAILED);
            return;
        }
        if (len) {
            ctx.reply().integer(length(a, b));
            return;
        }
        char[] table;
        try {
            table = new char[(int) cells];
        } catch (OutOfMemoryError e) {
            // One array refused whole, as Redis's ztrymalloc refuses; nothing else was allocated.
            ctx.reply().error(ALLOCATION_FAILED);
            return;
        }
        fill(table, a, b);
        walkBack(ctx.reply(), table, a, b, idx, minMatchLen, withMatchLen);
    }

    /** LCS(i, j), the length for a[0..i) and b[0..j), in cell {@code i * (b.length + 1) + j}. */
    private static void fill(char[] table, byte[] a, byte[] b) {
        int width = b.length + 1;
        for (int i = 1; i <= a.length; i++) {
            int row = i * width;
            int above = row - width;
            byte ai = a[i - 1];
            for (int j = 1; j < width; j++) {
                table[row + j] = ai == b[j - 1] ? (char) (table[above + j - 1] + 1)
                    : (char) Math.max(table[above + j], table[row + j - 1]);
            }
        }
    }

    /** The same length with two rows of the table. */
    private static int length(byte[] a, byte[] b) {
        int width = b.length + 1;
        int[] above = new int[width];
        int[] row = new int[width];
        for (int i = 1; i <= a.length; i++) {
            byte ai = a[i - 1];
            for (int j = 1; j < width; j++) {
                row[j] = ai == b[j - 1] ? above[j - 1] + 1 : Math.max(above[j], row[j - 1]);
            }
            int[] swap = above;
            above = row;
            row = swap;
        }
        return above[width - 1];
    }

    /**
     * Walks from the last cell to the first, as Redis does: a match is taken and extends the
     * current range backwards; a mismatch goes towards the longer subsequence (back in {@code a}
     * only when strictly longer) and closes the current range. A range is closed also when it
     * reaches the start of either string. Replies the subsequence, or with {@code idx} the ranges
     * at least {@code minMatchLen} long (all when 0), last first, and the length.
     */
    private static void walkBack(ReplyWriter reply, char[] table, byte[] a, byte[] b, boolean idx, long minMatchLen,
                                 boolean withMatchLen) {
        int width = b.length + 1;
        int length = table[table.length - 1];
        byte[] subsequence = new byte[length];
        int[] ranges = new int[idx ? 4 * Math.min(a.length, b.length) : 0];
        int rangeCount = 0;
        int none = a.length;
        int aStart = none;
        int aEnd = 0;
        int bStart = 0;
        int bEnd = 0;
        int i = a.length;
        int j = b.length;
        int next = length;
        while (i > 0 && j > 0) {
            boolean emit = false;
            if (a[i - 1] == b[j - 1]) {
                subsequence[--next] = a[i - 1];
                if (aStart == none) {
                    aStart = i - 1;
                    aEnd = i - 1;
                    bStart = j - 1;
                    bEnd = j - 1;
                } else if (aStart == i && bStart == j) {
                    aStart--;
                    bStart--;
                } else {
                    emit = true;
                }
                if (aStart == 0 || bStart == 0) {
                    emit = true;
                }
                i--;
                j--;
            } else {
                if (table[(i - 1) * width + j] > table[i * width + j - 1]) {
                    i--;
                } else {
                    j--;
                }
                emit = aStart != none;
            }
            if (emit) {
                if (idx && aEnd - aStart + 1 >= minMatchLen) {
                    ranges[rangeCount++] = aStart;
                    ranges[rangeCount++] = aEnd;
                    ranges[rangeCount++] = bStart;
                    ranges[rangeCount++] = bEnd;
                }
                aStart = none;
            }
        }
        if (!idx) {
            reply.bulk(subsequence);
            return;
        }
        reply.map(2);
        reply.bulk("matches");
        reply.array(rangeCount / 4);
        for (int r = 0; r < rangeCount; r += 4) {
            reply.array(withMatchLen ? 3 : 2);
            reply.array(2);
            reply.integer(ranges[r]);
            reply.integer(ranges[r + 1]);
            reply.array(2);
            reply.integer(ranges[r + 2]);
            reply.integer(ranges[r + 3]);
            if (withMatchLen) {
                reply.integer(ranges[r + 1] - ranges[r] + 1);
            }
        }
        reply.bulk("len");
        reply.integer(length);
    }
}
