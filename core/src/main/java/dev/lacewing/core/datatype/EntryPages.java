package dev.lacewing.core.datatype;

import java.util.Arrays;

/**
 * The byte pages that the large packed forms ({@link PackedTable} for hashes and sets,
 * {@link MemberStore} for sorted sets) write their entries into, so that a million entries cost a
 * few dozen arrays instead of a million objects.
 * Entries are placed by a bump pointer in the open page. A new page is sized by the live bytes, half
 * of them rounded down to a power of two, from 256 bytes to 64 KiB: pages double while entries only
 * arrive, and a table whose entries come and go does not keep opening ever larger pages, so the open
 * page's free tail stays within about half the live bytes. An entry over 32 KiB gets a page of its
 * own size. A position is {@code page << 32 | offset}, so
 * neither the page count nor a page's size is capped below what Java arrays allow.
 *
 * <p>The owner writes an entry at the position {@link #allocate} gives, and {@link #release}s its
 * bytes when the entry dies (deleted, or rewritten elsewhere). Released bytes come off the page's
 * live count: an empty page is dropped, and a closed page under half live is compacted at once,
 * the owner's {@link Compactor} moving its live entries into the open page (each entry moved is
 * allocated again, and the old page is dropped after), so the pages hold at most about twice the
 * live bytes. A compaction may run inside any {@link #allocate} or {@link #release}: an owner reads
 * the positions of its other entries afresh after either.
 *
 * <p>{@link #memoryUsage()} is O(1) and counts every page and bookkeeping array.
 *
 * <p>Thread rule: belongs to the value holding it, touched only by the thread the engine gives the
 * command on that key.
 */
final class EntryPages {

    /** Moves the live entries of a page being compacted: allocates each again here and writes it there. */
    interface Compactor {
        void moveLiveEntries(byte[] page, int used, int pageNumber);
    }

    private static final int FIRST_PAGE = 256;
    /**
     * The largest page shared by entries: its offsets fit 16 bits, which MemberStore and
     * PackedTable rely on.
     */
    static final int MAX_PAGE = 1 << 16;
    private static final long ARRAY_HEADER = 16;
    /** This object (header and fields, 65 bytes, aligned) and its four arrays' headers. */
    private static final long FIXED_BYTES = 72 + 4 * ARRAY_HEADER;

    private final Compactor compactor;
    private final int maxPage;
    private byte[][] pages = new byte[4][];
    private int[] pageLive = new int[4];
    private int[] pageUsed = new int[4];
    private int[] freePages = new int[4];
    private int freePageCount;
    private int pageCount;
    private int openPage = -1;
    private long liveBytes;
    /** The pages' arrays, headers included. */
    private long pageBytes;
    private boolean compacting;

    EntryPages(Compactor compactor) {
        this(compactor, MAX_PAGE);
    }

    /**
     * Tests shrink the largest shared page, so that a few megabytes of entries fill many pages.
     *
     * @param maxPage the largest shared page, a power of two from 256 bytes to 64 KiB; an entry over
     *                half of it gets a page of its own
     */
    EntryPages(Compactor compactor, int maxPage) {
        if (Integer.bitCount(maxPage) != 1 || maxPage < FIRST_PAGE || maxPage > MAX_PAGE) {
            throw new IllegalArgumentException("maxPage " + maxPage);
        }
        this.compactor = compactor;
        this.maxPage = maxPage;
    }

    int maxPage() {
        return maxPage;
    }

    /** The position of the entry at {@code offset} in page {@code page}. */
    static long position(int page, int offset) {
        return (long) page << 32 | offset;
    }

    static int pageOf(long position) {
        return (int) (position >>> 32);
    }

    static int offsetOf(long position) {
        return (int) position;
    }

    byte[] page(int number) {
        return pages[number];
    }

    /** The page an entry is at. */
    byte[] pageAt(long position) {
        return pages[pageOf(position)];
    }

    /** Bytes of live entries. */
    long liveBytes() {
        return liveBytes;
    }

    /** Bytes of the pages' arrays, headers included. */
    long pageBytes() {
        return pageBytes;
    }

    /** Bytes held: the pages and the bookkeeping arrays. O(1). */
    long memoryUsage() {
        return FIXED_BYTES + pageBytes + pages.length * 4L + pageLive.length * 12L;
    }

    /**
     * Room for an entry of {@code length} bytes: its position, counted live from now on. May first
     * compact the page it closes.
     */
    long allocate(int length) {
        int page = pageFor(length);
        int start = pageUsed[page];
        pageUsed[page] = start + length;
        pageLive[page] += length;
        liveBytes += length;
        return position(page, start);
    }

    /** Takes a dead entry's bytes off its page; drops an emptied page, compacts a mostly dead one. */
    void release(long position, int length) {
        int page = pageOf(position);
        pageLive[page] -= length;
        liveBytes -= length;
        if (page == openPage || compacting) {
            return;
        }
        if (pageLive[page] == 0) {
            dropPage(page);
        } else if (pageLive[page] * 2 < pageUsed[page]) {
            compact(page);
        }
    }

    /** A page with room for {@code length} bytes at its end: the open page, a new one, or one of its own. */
    private int pageFor(int length) {
        if (openPage >= 0 && pageUsed[openPage] + length <= pages[openPage].length) {
            return openPage;
        }
        if (length > maxPage / 2) {
            return newPage(length);
        }
        int closed = openPage;
        int size = (int) Math.max(FIRST_PAGE, Math.min(maxPage, Long.highestOneBit(liveBytes / 2)));
        while (size < length) {
            size *= 2;
        }
        openPage = newPage(size);
        if (closed >= 0 && !compacting && pageLive[closed] * 2 < pageUsed[closed]) {
            // The compaction fills the new open page; look again for room.
            compact(closed);
            return pageFor(length);
        }
        return openPage;
    }

    private int newPage(int size) {
        int page;
        if (freePageCount > 0) {
            page = freePages[--freePageCount];
        } else {
            if (pageCount == pages.length) {
                int grown = pages.length * 2;
                pages = Arrays.copyOf(pages, grown);
                pageLive = Arrays.copyOf(pageLive, grown);
                pageUsed = Arrays.copyOf(pageUsed, grown);
                freePages = Arrays.copyOf(freePages, grown);
            }
            page = pageCount++;
        }
        pages[page] = new byte[size];
        pageLive[page] = 0;
        pageUsed[page] = 0;
        pageBytes += arrayBytes(size);
        return page;
    }

    private static long arrayBytes(int length) {
        return (ARRAY_HEADER + length + 7) & ~7L;
    }

    private void dropPage(int page) {
        pageBytes -= arrayBytes(pages[page].length);
        pages[page] = null;
        pageLive[page] = 0;
        pageUsed[page] = 0;
        freePages[freePageCount++] = page;
    }

    /** Has the owner move a page's live entries into the open page, then drops it; O(bytes of the page). */
    private void compact(int page) {
        compacting = true;
        compactor.moveLiveEntries(pages[page], pageUsed[page], page);
        // The moved entries were counted live again where they went.
        liveBytes -= pageLive[page];
        dropPage(page);
        compacting = false;
    }
}
