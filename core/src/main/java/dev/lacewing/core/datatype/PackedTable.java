package dev.lacewing.core.datatype;

import dev.lacewing.core.keyspace.HomeBucketScan;
import dev.lacewing.core.keyspace.KeyTable;
import java.util.Arrays;
import java.util.random.RandomGenerator;
import java.util.function.IntConsumer;

/**
 * The large form of hashes (field -> value) and sets (member only): Redis's {@code hashtable}
 * encoding, built like the keyspace's compact table so that a million fields cost a handful of
 * Java objects. Entries ({@code varint field length, [varint value length], field, [value]}) are
 * packed by a bump pointer into {@code byte[]} pages that double from 256 bytes to 64 KiB; an entry
 * larger than that gets a page of its own. The index is one {@code long[]}, open addressing with
 * linear probing and backward-shift deletion, load between 1/8 and 3/4; a slot holds the low 24
 * bits of the field's hash (misses rarely touch a page, and the home slot is known without reading
 * the entry while the table has at most 2^24 slots), the page number plus one (so a used slot is
 * never 0) and the offset in the page.
 *
 * <p>A delete, or an overwrite with a value of another length, leaves the old bytes dead and takes
 * them off the page's live count; a same-length overwrite is written in place. An empty page is
 * dropped, and a full page under half live is compacted into the open page at once (its live
 * entries are found through the index), so pages hold at most about twice the live bytes.
 *
 * <p>A position is a slot index, valid until the next change. Lookups, inserts and deletes are
 * O(1) expected; a random entry costs at most 8 probes expected (the load never falls under 1/8);
 * {@link #memoryUsage()} is O(1) and counts every array.
 *
 * <p>Thread rule: belongs to the value holding it, touched only by the thread the engine gives
 * the command on that key.
 */
public final class PackedTable {

    private static final int MIN_CAPACITY = 16;
    private static final int FIRST_PAGE = 256;
    private static final int MAX_PAGE = 1 << 16;
    private static final int TAG_BITS = 24;
    private static final long TAG_MASK = (1L << TAG_BITS) - 1;
    private static final int PAGE_SHIFT = 16;
    private static final long PAGE_MASK = (1L << 24) - 1;
    private static final int OFFSET_MASK = 0xFFFF;
    /** Object header and fields of this object, and the headers of its arrays. */
    private static final long FIXED_BYTES = 48 + 16 * 4;

    private final boolean withValues;
    private long[] slots = new long[MIN_CAPACITY];
    private int size;
    private byte[][] pages = new byte[4][];
    private int[] pageLive = new int[4];
    private int[] pageUsed = new int[4];
    private int[] freePages = new int[4];
    private int freePageCount;
    private int pageCount;
    private int openPage = -1;
    private int nextPageSize = FIRST_PAGE;
    private long pageBytes;
    private boolean compacting;

    /** @param withValues whether each entry carries a value (a hash) or only a member (a set) */
    public PackedTable(boolean withValues) {
        this.withValues = withValues;
    }

    public boolean withValues() {
        return withValues;
    }

    public int size() {
        return size;
    }

    /** Bytes held: the index, the pages and the bookkeeping arrays. O(1). */
    public long memoryUsage() {
        return FIXED_BYTES + slots.length * 8L + pageBytes + pages.length * 8L + pageLive.length * 12L
            + freePages.length * 4L;
    }

    // ---- lookups ---------------------------------------------------------------------------

    /** The position of a field, or -1. */
    public int find(byte[] field, int offset, int length) {
        return find(field, offset, length, KeyTable.hash(field, offset, length));
    }

    private int find(byte[] field, int offset, int length, int hash) {
        int mask = slots.length - 1;
        long tag = hash & TAG_MASK;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            long slot = slots[i];
            if (slot == 0) {
                return -1;
            }
            if ((slot >>> (64 - TAG_BITS)) == tag && fieldEquals(slot, field, offset, length)) {
                return i;
            }
        }
    }

    private boolean fieldEquals(long slot, byte[] field, int offset, int length) {
        byte[] page = pageOf(slot);
        int at = offsetOf(slot);
        int fieldLength = Varint.read(page, at);
        if (fieldLength != length) {
            return false;
        }
        at += Varint.size(fieldLength);
        if (withValues) {
            at += Varint.size(Varint.read(page, at));
        }
        return Arrays.equals(page, at, at + length, field, offset, offset + length);
    }

    /** The page holding the entry at a position. */
    public byte[] page(int position) {
        return pageOf(slots[position]);
    }

    public int fieldLength(int position) {
        long slot = slots[position];
        return Varint.read(pageOf(slot), offsetOf(slot));
    }

    public int fieldOffset(int position) {
        long slot = slots[position];
        byte[] page = pageOf(slot);
        int at = offsetOf(slot);
        at += Varint.size(Varint.read(page, at));
        if (withValues) {
            at += Varint.size(Varint.read(page, at));
        }
        return at;
    }

    public int valueLength(int position) {
        long slot = slots[position];
        byte[] page = pageOf(slot);
        int at = offsetOf(slot);
        return Varint.read(page, at + Varint.size(Varint.read(page, at)));
    }

    public int valueOffset(int position) {
        return fieldOffset(position) + fieldLength(position);
    }

    public byte[] field(int position) {
        int offset = fieldOffset(position);
        return Arrays.copyOfRange(page(position), offset, offset + fieldLength(position));
    }

    public byte[] value(int position) {
        int offset = valueOffset(position);
        return Arrays.copyOfRange(page(position), offset, offset + valueLength(position));
    }

    /** Slot count: positions are 0..capacity-1, those {@link #occupied} hold entries. */
    public int capacity() {
        return slots.length;
    }

    public boolean occupied(int position) {
        return slots[position] != 0;
    }

    /** A uniformly random position (each entry equally likely); the table must not be empty. */
    public int randomPosition(RandomGenerator random) {
        int mask = slots.length - 1;
        while (true) {
            int i = random.nextInt() & mask;
            if (slots[i] != 0) {
                return i;
            }
        }
    }

    /**
     * Visits about {@code count} home buckets from {@code cursor} and returns the next cursor, 0 at
     * the end, with SCAN's guarantee through growth, shrinking and backward shifts
     * ({@link HomeBucketScan}).
     */
    public long scan(long cursor, int count, IntConsumer visit) {
        return HomeBucketScan.scan(slots.length, cursor, count, i -> slots[i] != 0, this::homeOf, visit);
    }

    // ---- changes ---------------------------------------------------------------------------

    /**
     * Sets a field (and its value, for a hash); true when the field is new. A same-length value is
     * overwritten in place.
     */
    public boolean put(byte[] field, int fieldOffset, int fieldLength, byte[] value, int valueOffset,
                       int valueLength) {
        int hash = KeyTable.hash(field, fieldOffset, fieldLength);
        int index = find(field, fieldOffset, fieldLength, hash);
        if (index >= 0) {
            if (withValues) {
                if (valueLength(index) == valueLength) {
                    System.arraycopy(value, valueOffset, page(index), valueOffset(index), valueLength);
                } else {
                    // Writing may compact a page and move the old entry: read its slot afterwards.
                    long fresh = write(hash, field, fieldOffset, fieldLength, value, valueOffset, valueLength);
                    long old = slots[index];
                    slots[index] = fresh;
                    kill(old);
                }
            }
            return false;
        }
        if ((size + 1) * 4L > slots.length * 3L) {
            resize(slots.length * 2);
        }
        insert(hash, write(hash, field, fieldOffset, fieldLength, value, valueOffset, valueLength));
        size++;
        return true;
    }

    /** Adds a member of a set; true when it is new. */
    public boolean add(byte[] member, int offset, int length) {
        return put(member, offset, length, null, 0, 0);
    }

    /** Removes a field; false when it was absent. */
    public boolean remove(byte[] field, int offset, int length) {
        int index = find(field, offset, length);
        if (index < 0) {
            return false;
        }
        removeAt(index);
        return true;
    }

    /** Removes the entry at a position. */
    public void removeAt(int index) {
        long removed = slots[index];
        int mask = slots.length - 1;
        int hole = index;
        for (int i = (index + 1) & mask; slots[i] != 0; i = (i + 1) & mask) {
            int home = homeOf(i, mask);
            boolean movable = hole <= i ? (home <= hole || home > i) : (home <= hole && home > i);
            if (movable) {
                slots[hole] = slots[i];
                hole = i;
            }
        }
        slots[hole] = 0;
        size--;
        kill(removed);
        if (slots.length > MIN_CAPACITY && size * 8L < slots.length) {
            resize(Math.max(MIN_CAPACITY, Integer.highestOneBit(Math.max(size, 1) * 2) * 2));
        }
    }

    /** A deep copy holding the live entries only, packed afresh. */
    public PackedTable copy() {
        PackedTable copy = new PackedTable(withValues);
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != 0) {
                byte[] page = page(i);
                int fieldOffset = fieldOffset(i);
                int fieldLength = fieldLength(i);
                copy.put(page, fieldOffset, fieldLength, page, fieldOffset + fieldLength,
                    withValues ? valueLength(i) : 0);
            }
        }
        return copy;
    }

    private void insert(int hash, long slot) {
        int mask = slots.length - 1;
        int i = hash & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = slot;
    }

    private void resize(int capacity) {
        long[] old = slots;
        slots = new long[capacity];
        int mask = capacity - 1;
        for (long slot : old) {
            if (slot != 0) {
                int i = homeOfSlot(slot, mask);
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = slot;
            }
        }
    }

    private int homeOf(int index, int mask) {
        return homeOfSlot(slots[index], mask);
    }

    private int homeOfSlot(long slot, int mask) {
        if (mask <= TAG_MASK) {
            return (int) (slot >>> (64 - TAG_BITS)) & mask;
        }
        byte[] page = pageOf(slot);
        int at = offsetOf(slot);
        int fieldLength = Varint.read(page, at);
        at += Varint.size(fieldLength);
        if (withValues) {
            at += Varint.size(Varint.read(page, at));
        }
        return KeyTable.hash(page, at, fieldLength) & mask;
    }

    // ---- pages -----------------------------------------------------------------------------

    private byte[] pageOf(long slot) {
        return pages[(int) ((slot >>> PAGE_SHIFT) & PAGE_MASK) - 1];
    }

    private static int offsetOf(long slot) {
        return (int) slot & OFFSET_MASK;
    }

    private static int pageNumberOf(long slot) {
        return (int) ((slot >>> PAGE_SHIFT) & PAGE_MASK) - 1;
    }

    private static int entryLength(int fieldLength, int valueLength, boolean withValues) {
        return Varint.size(fieldLength) + fieldLength + (withValues ? Varint.size(valueLength) + valueLength : 0);
    }

    /** Writes an entry into a page and returns its slot word. */
    private long write(int hash, byte[] field, int fieldOffset, int fieldLength, byte[] value, int valueOffset,
                       int valueLength) {
        int length = entryLength(fieldLength, valueLength, withValues);
        int page = pageFor(length);
        byte[] bytes = pages[page];
        int start = pageUsed[page];
        int at = Varint.write(bytes, start, fieldLength);
        if (withValues) {
            at = Varint.write(bytes, at, valueLength);
        }
        System.arraycopy(field, fieldOffset, bytes, at, fieldLength);
        if (withValues) {
            System.arraycopy(value, valueOffset, bytes, at + fieldLength, valueLength);
        }
        pageUsed[page] = start + length;
        pageLive[page] += length;
        return (hash & TAG_MASK) << (64 - TAG_BITS) | (long) (page + 1) << PAGE_SHIFT | start;
    }

    /** A page with room for {@code length} bytes at its end: the open page, a new one, or one of its own. */
    private int pageFor(int length) {
        if (openPage >= 0 && pageUsed[openPage] + length <= pages[openPage].length) {
            return openPage;
        }
        if (length > MAX_PAGE / 2) {
            return newPage(length);
        }
        int closed = openPage;
        int size = nextPageSize;
        while (size < length) {
            size *= 2;
        }
        nextPageSize = Math.min(MAX_PAGE, size * 2);
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
        pageBytes += size;
        return page;
    }

    /** Takes a dead entry off its page's live bytes; drops an emptied page, compacts a mostly dead one. */
    private void kill(long slot) {
        int page = pageNumberOf(slot);
        byte[] bytes = pages[page];
        int at = offsetOf(slot);
        int fieldLength = Varint.read(bytes, at);
        int valueLength = withValues ? Varint.read(bytes, at + Varint.size(fieldLength)) : 0;
        pageLive[page] -= entryLength(fieldLength, valueLength, withValues);
        if (page == openPage || compacting) {
            return;
        }
        if (pageLive[page] == 0) {
            dropPage(page);
        } else if (pageLive[page] * 2 < pageUsed[page]) {
            compact(page);
        }
    }

    private void dropPage(int page) {
        pageBytes -= pages[page].length;
        pages[page] = null;
        pageLive[page] = 0;
        pageUsed[page] = 0;
        freePages[freePageCount++] = page;
    }

    /** Moves the live entries of a page into the open page and drops it; O(entries of the page). */
    private void compact(int page) {
        compacting = true;
        byte[] bytes = pages[page];
        int end = pageUsed[page];
        for (int at = 0; at < end; ) {
            int fieldLength = Varint.read(bytes, at);
            int fieldAt = at + Varint.size(fieldLength);
            int valueLength = 0;
            if (withValues) {
                valueLength = Varint.read(bytes, fieldAt);
                fieldAt += Varint.size(valueLength);
            }
            int hash = KeyTable.hash(bytes, fieldAt, fieldLength);
            int index = find(bytes, fieldAt, fieldLength, hash);
            if (index >= 0 && pageNumberOf(slots[index]) == page && offsetOf(slots[index]) == at) {
                slots[index] = write(hash, bytes, fieldAt, fieldLength, bytes, fieldAt + fieldLength, valueLength);
            }
            at = fieldAt + fieldLength + valueLength;
        }
        dropPage(page);
        compacting = false;
    }
}
