package dev.lacewing.core.datatype;

import java.util.Arrays;
import java.util.function.IntBinaryOperator;

/**
 * The members of a large sorted set by id, for {@link ScoreTree}: each id's score and member bytes,
 * and an index from member bytes to id.
 *
 * <p>Layout, and why: a member's bytes are an entry ({@code varint length, bytes}) packed in
 * {@link EntryPages}, not an array of its own (which would cost 16 bytes of header and up to 7 of
 * padding). Per id, in fixed-size chunks: the score, and the entry's position as an {@code int}
 * ({@code page << 16 | offset}: a page of shared entries is at most 64 KiB, an entry with a page of
 * its own is at offset 0) while every page number is under 2^16, that is while the pages hold
 * under 4 GiB; past that the positions widen, once and for good, to {@code long}s ({@code page <<
 * 32 | offset}), so no size is capped. Chunks are 1024 ids (8 KiB of scores, never a humongous
 * object for G1) except the first, which doubles from 16 ids up to that, so a set just past the
 * listpack threshold stays small and a large one wastes at most one chunk: growth copies at most a
 * chunk, never the whole table. The index is an {@code int[]} of id + 1 (0 empty), open addressing
 * with linear probing and backward-shift deletion, load between 1/8 and 2/3 of its capacity, a power
 * of two; the array is {@link #MISSING_SLOTS} short of it, so that with its header it is exactly a
 * power of two bytes (as the keyspace's index: G1 would give a humongous array's header a region of
 * its own), and the homes of the missing slots wrap to the first ones. For a 13-byte member that is
 * 14 bytes of entry, 12 of chunks and about 8 of index slot at a million members.
 *
 * <p>An entry carries no id: compacting a page finds each entry's id through the index (hash the
 * bytes, probe for the id whose position is this entry's), and an entry no indexed id points at is
 * dead. So compaction is O(entries of the page) expected, as each probe is O(1) expected.
 *
 * <p>Ids of removed members are reused; the chunks do not shrink. A slice handed out (page,
 * offset, length) is valid until the next change to the store.
 *
 * <p>Thread rule: belongs to the sorted set holding it, touched only by the thread the engine
 * gives that key's commands.
 */
final class MemberStore {

    private static final int MIN_INDEX_CAPACITY = 16;
    /** Members a resize reads ahead before hashing them ({@link #resizeIndex}). */
    private static final int REHASH_BATCH = 32;
    /** Slots the index array lacks of its capacity: its 16-byte header's worth of ints. */
    private static final int MISSING_SLOTS = 4;
    private static final int FIRST_CHUNK_IDS = 16;
    private static final int CHUNK_SHIFT = 10;
    private static final int CHUNK_IDS = 1 << CHUNK_SHIFT;
    private static final int CHUNK_MASK = CHUNK_IDS - 1;
    /** Page numbers below this fit an int position's 16 bits. */
    private static final int NARROW_PAGES = 1 << 16;
    private static final long ARRAY_HEADER = 16;
    /**
     * This object (header and fields), its page compactor (a lambda) and the headers of slots and
     * freeIds.
     */
    private static final long FIXED_BYTES = 72 + 16 + 2 * ARRAY_HEADER;

    /** Scores by id: chunk id / 1024, index id mod 1024. */
    private double[][] scores = {new double[FIRST_CHUNK_IDS]};
    /** Entry positions by id as ints ({@code page << 16 | offset}), until widened: then null. */
    private int[][] positions = {new int[FIRST_CHUNK_IDS]};
    /** Entry positions by id as longs ({@code page << 32 | offset}) once widened; null before. */
    private long[][] widePositions;
    /** The first page number an int position cannot hold; a parameter so tests can widen small sets. */
    private final int narrowPages;
    /** The chunks' arrays, headers included. */
    private long chunkBytes = 2 * ARRAY_HEADER + 12L * FIRST_CHUNK_IDS;
    private int idCapacity = FIRST_CHUNK_IDS;
    private int idLimit;
    private int[] freeIds = new int[0];
    private int freeCount;

    /** id + 1 per slot; 0 is an empty slot. {@code capacity - MISSING_SLOTS} slots; probes wrap at the end. */
    private int[] slots = new int[MIN_INDEX_CAPACITY - MISSING_SLOTS];
    /** The index's capacity less one: a member's home is its hash under this mask ({@link #slotOf}). */
    private int mask = MIN_INDEX_CAPACITY - 1;
    private int size;

    private final EntryPages pages = new EntryPages(this::moveLiveEntries);

    MemberStore() {
        this(NARROW_PAGES);
    }

    /** A store whose positions widen once a page number reaches {@code narrowPages} (at most 2^16). */
    MemberStore(int narrowPages) {
        this.narrowPages = Math.min(narrowPages, NARROW_PAGES);
    }

    int size() {
        return size;
    }

    /** The pages the members are packed in. */
    EntryPages pages() {
        return pages;
    }

    /** Bytes held: chunks, index, free ids and pages. O(1). */
    long memoryUsage() {
        long chunkArrays = (ARRAY_HEADER + 4L * scores.length + 7) & ~7L;
        return FIXED_BYTES + 2 * chunkArrays + chunkBytes + 4L * slots.length + 4L * freeIds.length
            + pages.memoryUsage();
    }

    // ---- per id ------------------------------------------------------------------------------

    double score(int id) {
        return scores[id >>> CHUNK_SHIFT][id & CHUNK_MASK];
    }

    void setScore(int id, double score) {
        scores[id >>> CHUNK_SHIFT][id & CHUNK_MASK] = score;
    }

    private long position(int id) {
        if (widePositions != null) {
            return widePositions[id >>> CHUNK_SHIFT][id & CHUNK_MASK];
        }
        int narrow = positions[id >>> CHUNK_SHIFT][id & CHUNK_MASK];
        return EntryPages.position(narrow >>> 16, narrow & 0xFFFF);
    }

    private void setPosition(int id, long position) {
        if (widePositions == null && EntryPages.pageOf(position) >= narrowPages) {
            widen();
        }
        if (widePositions != null) {
            widePositions[id >>> CHUNK_SHIFT][id & CHUNK_MASK] = position;
        } else {
            positions[id >>> CHUNK_SHIFT][id & CHUNK_MASK] = EntryPages.pageOf(position) << 16
                | EntryPages.offsetOf(position);
        }
    }

    /** Whether positions are longs: the pages have needed a page number of 2^16 or more. */
    boolean wide() {
        return widePositions != null;
    }

    /** Turns every int position into a long one; O(ids), once. */
    private void widen() {
        widePositions = new long[positions.length][];
        for (int chunk = 0; chunk < positions.length && positions[chunk] != null; chunk++) {
            int[] narrow = positions[chunk];
            long[] wide = new long[narrow.length];
            for (int i = 0; i < narrow.length; i++) {
                wide[i] = EntryPages.position(narrow[i] >>> 16, narrow[i] & 0xFFFF);
            }
            widePositions[chunk] = wide;
            chunkBytes += 4L * narrow.length;
        }
        positions = null;
    }

    /** The page holding a member's bytes; with {@link #memberOffset} and {@link #memberLength}, its slice. */
    byte[] page(int id) {
        return pages.pageAt(position(id));
    }

    int memberOffset(int id) {
        long position = position(id);
        int at = EntryPages.offsetOf(position);
        return at + Varint.size(Varint.read(pages.pageAt(position), at));
    }

    int memberLength(int id) {
        long position = position(id);
        return Varint.read(pages.pageAt(position), EntryPages.offsetOf(position));
    }

    byte[] member(int id) {
        int offset = memberOffset(id);
        return Arrays.copyOfRange(page(id), offset, offset + memberLength(id));
    }

    /** Hands a member's slice and score to a visitor. */
    void visit(int id, SortedSet.Visitor visitor) {
        long position = position(id);
        byte[] page = pages.pageAt(position);
        int at = EntryPages.offsetOf(position);
        int length = Varint.read(page, at);
        visitor.visit(page, at + Varint.size(length), length, score(id));
    }

    /** Compares member {@code id}'s bytes, unsigned, with a slice. */
    int compareMember(int id, byte[] array, int offset, int length) {
        long position = position(id);
        byte[] page = pages.pageAt(position);
        int at = EntryPages.offsetOf(position);
        int memberLength = Varint.read(page, at);
        at += Varint.size(memberLength);
        return Arrays.compareUnsigned(page, at, at + memberLength, array, offset, offset + length);
    }

    private int hashOf(int id) {
        long position = position(id);
        byte[] page = pages.pageAt(position);
        int at = EntryPages.offsetOf(position);
        int length = Varint.read(page, at);
        return TableHash.of(page, at + Varint.size(length), length);
    }

    // ---- adding and removing -------------------------------------------------------------------

    /** The id of a member, or -1. */
    int find(byte[] array, int offset, int length) {
        for (int i = slotOf(TableHash.of(array, offset, length) & mask); slots[i] != 0; i = next(i)) {
            int id = slots[i] - 1;
            if (equalsMember(id, array, offset, length)) {
                return id;
            }
        }
        return -1;
    }

    private boolean equalsMember(int id, byte[] array, int offset, int length) {
        return compareMember(id, array, offset, length) == 0;
    }

    /** Stores a new member (copied from the slice) with its score; returns its id. */
    int add(byte[] array, int offset, int length, double score) {
        long position = write(array, offset, length);
        int id = allocateId();
        setScore(id, score);
        setPosition(id, position);
        if ((size + 1) * 3L > (mask + 1L) * 2) {
            resizeIndex((mask + 1) * 2);
        }
        insertSlot(id, TableHash.of(array, offset, length));
        size++;
        return id;
    }

    /** Removes a member by id; its id may be handed out again. */
    void remove(int id) {
        indexRemove(id);
        size--;
        long position = position(id);
        pages.release(position, entryLength(memberLength(id)));
        if (freeCount == freeIds.length) {
            freeIds = Arrays.copyOf(freeIds, Math.max(16, freeIds.length * 2));
        }
        freeIds[freeCount++] = id;
        if (mask + 1 > MIN_INDEX_CAPACITY && size * 8L < mask + 1L) {
            resizeIndex((mask + 1) / 2);
        }
    }

    private static int entryLength(int memberLength) {
        return Varint.size(memberLength) + memberLength;
    }

    /** Writes an entry into the pages and returns its position. */
    private long write(byte[] array, int offset, int length) {
        long position = pages.allocate(entryLength(length));
        byte[] page = pages.pageAt(position);
        int at = Varint.write(page, EntryPages.offsetOf(position), length);
        System.arraycopy(array, offset, page, at, length);
        return position;
    }

    private int allocateId() {
        if (freeCount > 0) {
            return freeIds[--freeCount];
        }
        if (idLimit == idCapacity) {
            growIds();
        }
        return idLimit++;
    }

    /** Doubles the first chunk up to full size, then adds full chunks. */
    private void growIds() {
        int chunk = idCapacity >>> CHUNK_SHIFT;
        int ids = Math.min(CHUNK_IDS, idCapacity * 2);
        if (chunk == 0) {
            scores[0] = Arrays.copyOf(scores[0], ids);
            if (widePositions != null) {
                widePositions[0] = Arrays.copyOf(widePositions[0], ids);
            } else {
                positions[0] = Arrays.copyOf(positions[0], ids);
            }
            chunkBytes += idBytes() * (ids - idCapacity);
            idCapacity = ids;
            return;
        }
        if (chunk == scores.length) {
            scores = Arrays.copyOf(scores, chunk * 2);
            if (widePositions != null) {
                widePositions = Arrays.copyOf(widePositions, chunk * 2);
            } else {
                positions = Arrays.copyOf(positions, chunk * 2);
            }
        }
        scores[chunk] = new double[CHUNK_IDS];
        if (widePositions != null) {
            widePositions[chunk] = new long[CHUNK_IDS];
        } else {
            positions[chunk] = new int[CHUNK_IDS];
        }
        chunkBytes += 2 * ARRAY_HEADER + idBytes() * CHUNK_IDS;
        idCapacity += CHUNK_IDS;
    }

    /** Chunk bytes per id: a score and a position. */
    private long idBytes() {
        return widePositions != null ? 16 : 12;
    }

    /** Moves a compacting page's live entries (those an indexed id points at) to fresh positions. */
    private void moveLiveEntries(byte[] page, int used, int pageNumber) {
        for (int at = 0; at < used; ) {
            int length = Varint.read(page, at);
            int memberAt = at + Varint.size(length);
            int id = idAt(EntryPages.position(pageNumber, at), TableHash.of(page, memberAt, length));
            if (id >= 0) {
                setPosition(id, write(page, memberAt, length));
            }
            at = memberAt + length;
        }
    }

    /** The indexed id whose entry is at {@code position}, or -1 when that entry is dead. */
    private int idAt(long position, int hash) {
        for (int i = slotOf(hash & mask); slots[i] != 0; i = next(i)) {
            if (position(slots[i] - 1) == position) {
                return slots[i] - 1;
            }
        }
        return -1;
    }

    // ---- the index -----------------------------------------------------------------------------

    /** The slot a home under {@link #mask} starts probing at: the missing last slots wrap to the first. */
    private int slotOf(int home) {
        return home < slots.length ? home : home - slots.length;
    }

    /** The slot after {@code index}, wrapping at the index's end. */
    private int next(int index) {
        return ++index == slots.length ? 0 : index;
    }

    private void insertSlot(int id, int hash) {
        int i = slotOf(hash & mask);
        while (slots[i] != 0) {
            i = next(i);
        }
        slots[i] = id + 1;
    }

    /** Backward-shift deletion: keeps every probe run unbroken without tombstones. */
    private void indexRemove(int id) {
        int hole = slotOf(hashOf(id) & mask);
        while (slots[hole] != id + 1) {
            hole = next(hole);
        }
        slots[hole] = 0;
        for (int i = next(hole); slots[i] != 0; i = next(i)) {
            int home = slotOf(hashOf(slots[i] - 1) & mask);
            boolean movable = hole <= i ? (home <= hole || home > i) : (home <= hole && home > i);
            if (movable) {
                slots[hole] = slots[i];
                slots[i] = 0;
                hole = i;
            }
        }
    }

    /**
     * Rebuilds the index at another capacity, hashing every member again: each a read of its
     * position and of its page, most often cache misses. The members go in batches: the first pass
     * reads each one's position and length, loads that do not depend on one another, so the
     * processor has many misses in flight at once; the second hashes them, in cache by then, and
     * inserts them.
     */
    private void resizeIndex(int capacity) {
        int[] old = slots;
        slots = new int[capacity - MISSING_SLOTS];
        mask = capacity - 1;
        int[] ids = new int[REHASH_BATCH];
        long[] batchPositions = new long[REHASH_BATCH];
        int[] lengths = new int[REHASH_BATCH];
        int batched = 0;
        for (int entry : old) {
            if (entry != 0) {
                long position = position(entry - 1);
                ids[batched] = entry - 1;
                batchPositions[batched] = position;
                lengths[batched++] = Varint.read(pages.pageAt(position), EntryPages.offsetOf(position));
                if (batched == REHASH_BATCH) {
                    insertRehashed(ids, batchPositions, lengths, batched);
                    batched = 0;
                }
            }
        }
        insertRehashed(ids, batchPositions, lengths, batched);
    }

    private void insertRehashed(int[] ids, long[] batchPositions, int[] lengths, int count) {
        for (int j = 0; j < count; j++) {
            byte[] page = pages.pageAt(batchPositions[j]);
            int at = EntryPages.offsetOf(batchPositions[j]);
            insertSlot(ids[j], TableHash.of(page, at + Varint.size(lengths[j]), lengths[j]));
        }
    }

    /**
     * For ZSCAN ({@code HomeBucketScan}): the index's capacity and its array's length, whether a slot
     * holds a member, a slot's home under a mask and its id.
     */
    int indexCapacity() {
        return mask + 1;
    }

    int indexLength() {
        return slots.length;
    }

    boolean slotOccupied(int slot) {
        return slots[slot] != 0;
    }

    IntBinaryOperator slotHome() {
        return (slot, mask) -> hashOf(slots[slot] - 1) & mask;
    }

    int slotId(int slot) {
        return slots[slot] - 1;
    }
}
