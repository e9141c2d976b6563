package dev.lacewing.storage.compact;

import java.util.Arrays;

/**
 * What the tables of a pool hold once between them rather than each its own: the spare pages
 * (dropped shared pages kept for the next pages opened) and the compaction floor (the dead pages
 * a small table may keep, {@link CompactTable}). A table made alone has a pool of its own, which
 * makes it behave as if it held these itself; the multithread engine's lock stripes share one
 * ({@link CompactStorage}), so that their slack no longer grows with the stripe count.
 *
 * <p>Thread rule: any thread, under this object's monitor; a table touches it only when it opens
 * or drops a page (one call per page, not per entry), and reads {@link #tables} racily.
 */
final class PagePool {

    /** The fewest spare pages a pool keeps ({@link #spareLimit}). */
    private static final int MIN_SPARES = 2;

    /**
     * Dropped shared pages, all of one length, kept for the next pages the tables open: at most
     * {@link #spareLimit}. Under churn (eviction, compaction) a table drops pages about as fast
     * as it opens them, but not in turn: with one spare, a fifth of the drops under a 100 MB
     * eviction load found it taken and became garbage. Those arrays have lived long enough to be
     * old, and G1 reclaims old garbage only after a marking cycle and, in a heap sized close to
     * the keyspace, with full collections (9 in that run).
     */
    private byte[][] spares = new byte[0][];
    private int spareCount;
    /** Written under the monitor, read racily by the table that counts the spares. */
    private volatile long spareBytes;
    /** Pages the tables hold, of either kind. */
    private long pages;
    /** Tables holding at least one page: they share the floor. Read racily. */
    private volatile int tables;
    /** Whether a table took the count of the spares ({@link #takeSpareCount}). */
    private boolean spareCountTaken;

    /**
     * Whether the caller, a table being made, is the one whose {@code usedMemory} counts the spares:
     * true for the first caller only. The pool keeps no reference to the table, so no table escapes
     * before it is built.
     */
    synchronized boolean takeSpareCount() {
        boolean first = !spareCountTaken;
        spareCountTaken = true;
        return first;
    }

    /**
     * A shared page of {@code length} for a table that holds {@code held} pages: a spare if the
     * spares have that length (they are let go if not: the tables' pages have a new length).
     */
    synchronized byte[] openShared(int length, int held) {
        opened(held);
        if (spareCount > 0 && spares[0].length != length) {
            Arrays.fill(spares, 0, spareCount, null);
            spareCount = 0;
            spareBytes = 0;
        }
        if (spareCount == 0) {
            return new byte[length];
        }
        byte[] page = spares[--spareCount];
        spares[spareCount] = null;
        spareBytes -= length;
        return page;
    }

    /** Counts a page of an entry's own that a table holding {@code held} pages opened. */
    synchronized void openOwn(int held) {
        opened(held);
    }

    private void opened(int held) {
        if (held == 0) {
            tables++;
        }
        pages++;
    }

    /**
     * Counts a page dropped by a table that now holds {@code held} pages, and keeps it as a spare
     * if it is shared ({@code shared}) and there is room for one.
     */
    synchronized void drop(byte[] page, boolean shared, int held) {
        if (shared && spareCount < spareLimit() && (spareCount == 0 || spares[0].length == page.length)) {
            if (spareCount == spares.length) {
                spares = Arrays.copyOf(spares, Math.max(MIN_SPARES, spareCount * 2));
            }
            spares[spareCount++] = page;
            spareBytes += page.length;
        }
        pages--;
        if (held == 0) {
            left();
        }
    }

    /** A table let go of all of its {@code held} pages at once (it was cleared). */
    synchronized void dropAll(int held) {
        if (held > 0) {
            pages -= held;
            left();
        }
    }

    /** A table holds no page any more: when none does, the spares go too (a flushed keyspace is freed). */
    private void left() {
        tables--;
        if (tables == 0) {
            Arrays.fill(spares, 0, spareCount, null);
            spareCount = 0;
            spareBytes = 0;
        }
    }

    /** The spares kept: a 64th of the pages, at least {@value #MIN_SPARES}. */
    private int spareLimit() {
        return (int) Math.max(MIN_SPARES, pages / 64);
    }

    /** Bytes of the spare pages; racy. */
    long spareBytes() {
        return spareBytes;
    }

    /** Pages the tables hold: for tests. */
    synchronized long pages() {
        return pages;
    }

    /** Tables holding pages, which share the compaction floor; racy. */
    int tables() {
        return tables;
    }
}
