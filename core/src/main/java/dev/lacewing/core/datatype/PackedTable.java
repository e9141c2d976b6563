package dev.lacewing.core.datatype;

import java.util.Arrays;
import java.util.random.RandomGenerator;
import java.util.function.IntConsumer;

/**
 * The large form of hashes (field -> value) and sets (member only): Redis's {@code hashtable}
 * encoding, built like the keyspace's compact table so that a million fields cost a handful of
 * Java objects. Entries ({@code varint field length, [varint value length], field, [value]}) are
 * packed in {@link EntryPages}: pages of at most 64 KiB, so an offset fits 16 bits, and an entry over
 * 32 KiB in a page of its own.
 *
 * <p>The index is open addressing with linear probing and backward-shift deletion, load between
 * 1/8 and 3/4 of a power-of-two capacity; the slot array is {@link #MISSING_SLOTS} short of it, and
 * the homes of the missing slots start their probe runs at the first slots. A slot is a word
 * {@code displacement | tag | page + 1 | offset}: the offset of the entry in its page (16 bits);
 * the page number plus one (a used slot is never 0) in as few bits as the page count needs; the
 * top bits of the field's hash, so that most probes past other fields skip reading their page; and
 * the entry's distance in probe steps from its home, 0 to 2, or 3 for farther (2 bits), so that
 * backward shifts, shrinking and scans know most homes without hashing the field again. The
 * narrow form packs the word in an {@code int} (4 bytes a slot, about 8 bytes a field at a million
 * fields): with b page bits the tag has 14 - b, and each time the page count needs one bit more
 * the tag gives up its lowest bit, then, once the tag is gone, the displacement does (words
 * re-encoded in one pass, no page read). Past {@code maxNarrowPages} pages (65,535 by default,
 * about 4 GiB of entries) the index turns into the wide form, for good: a {@code long} a slot with
 * 24 bits of page, 22 of tag and 2 of displacement. Growing hashes every field again (the new home
 * needs a bit no word keeps).
 *
 * <p>A delete, or an overwrite with a value of another length, releases the old bytes; a
 * same-length overwrite is written in place. A page compacted finds its live entries through the
 * index (an entry is live when the slot its field hashes to points at it). A page number the words
 * cannot hold yet, which only a write brings (the pages hand out numbers one at a time), widens
 * the page field before the word is made.
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
    /** Entries a growth reads ahead before hashing them ({@link #rehashAll}). */
    private static final int REHASH_BATCH = 32;
    /**
     * Slots the index array lacks of its capacity (past {@link #MIN_CAPACITY}), so that a narrow
     * array with its 16-byte header is exactly a power of two bytes: from half a region (512 KiB in
     * the launcher's 1 MiB G1 regions) an array is humongous, and a full power of two of slots would take a
     * whole region more for its header alone. Homes of the missing slots wrap to the first ones.
     */
    private static final int MISSING_SLOTS = 4;
    private static final int OFFSET_BITS = 16;
    private static final int OFFSET_MASK = (1 << OFFSET_BITS) - 1;
    private static final int NARROW_WORD_BITS = Integer.SIZE;
    private static final int WIDE_WORD_BITS = Long.SIZE;
    /** The most pages a narrow slot can name: its page field has at most 16 bits. */
    static final int MAX_NARROW_PAGES = (1 << (NARROW_WORD_BITS - OFFSET_BITS)) - 1;
    private static final int WIDE_PAGE_BITS = 24;
    /** Bits of a word that hold the entry's distance from its home slot, while the page leaves room. */
    private static final int DISPLACEMENT_BITS = 2;
    private static final int MAX_WIDE_PAGES = (1 << WIDE_PAGE_BITS) - 1;
    /**
     * This object (header and fields, 49 bytes, aligned), its page compactor (a lambda) and the
     * header of its index array.
     */
    private static final long FIXED_BYTES = 56 + 16 + 16;

    private final boolean withValues;
    private final int maxNarrowPages;
    /** The index in the narrow form, or null once it is wide. */
    private int[] narrowSlots = new int[MIN_CAPACITY];
    /** The index in the wide form, or null while it is narrow. */
    private long[] wideSlots;
    /** The capacity less one, a power of two less one: a field's home is its hash under this mask. */
    private int mask = MIN_CAPACITY - 1;
    /** Bits of a slot word that hold the page number plus one, the hash tag, the displacement. */
    private int pageBits;
    private int tagBits = NARROW_WORD_BITS - OFFSET_BITS - DISPLACEMENT_BITS;
    private int displacementBits = DISPLACEMENT_BITS;
    private int size;
    private final EntryPages pages;

    /** @param withValues whether each entry carries a value (a hash) or only a member (a set) */
    public PackedTable(boolean withValues) {
        this(withValues, EntryPages.MAX_PAGE, MAX_NARROW_PAGES);
    }

    /**
     * Tests shrink the pages or the narrow form's page limit, to reach the wide form, or the narrow
     * words' last page bits, without gigabytes of entries.
     *
     * @param maxPage        the largest shared page, a power of two from 256 bytes to 64 KiB
     * @param maxNarrowPages the page count past which the index turns wide, at most 65,535
     */
    PackedTable(boolean withValues, int maxPage, int maxNarrowPages) {
        if (maxNarrowPages < 1 || maxNarrowPages > MAX_NARROW_PAGES) {
            throw new IllegalArgumentException("maxNarrowPages " + maxNarrowPages);
        }
        this.withValues = withValues;
        this.maxNarrowPages = maxNarrowPages;
        this.pages = new EntryPages(this::moveLiveEntries, maxPage);
    }

    public boolean withValues() {
        return withValues;
    }

    public int size() {
        return size;
    }

    /** Bytes held: the index, the pages and the bookkeeping arrays. O(1). */
    public long memoryUsage() {
        return FIXED_BYTES + indexBytes() + pages.memoryUsage();
    }

    /** Bytes of the index's slot array. */
    long indexBytes() {
        return wideSlots == null ? narrowSlots.length * 4L : wideSlots.length * 8L;
    }

    /** Whether the index has turned into its wide form. */
    boolean wide() {
        return wideSlots != null;
    }

    // ---- lookups ---------------------------------------------------------------------------

    /** The position of a field, or -1. */
    public int find(byte[] field, int offset, int length) {
        return find(field, offset, length, TableHash.of(field, offset, length));
    }

    private int find(byte[] field, int offset, int length, int hash) {
        long tagField = ((1L << tagBits) - 1) << (OFFSET_BITS + pageBits);
        long tag = tagOf(hash) << (OFFSET_BITS + pageBits);
        int slots = capacity();
        for (int i = slotOf(hash & mask); ; i = i + 1 == slots ? 0 : i + 1) {
            long word = word(i);
            if (word == 0) {
                return -1;
            }
            if ((word & tagField) == tag && fieldEquals(word, field, offset, length)) {
                return i;
            }
        }
    }

    private boolean fieldEquals(long word, byte[] field, int offset, int length) {
        byte[] page = pageOf(word);
        int at = offsetOf(word);
        if (Varint.read(page, at) != length) {
            return false;
        }
        at = fieldStart(page, at);
        return Arrays.equals(page, at, at + length, field, offset, offset + length);
    }

    /** The offset of the field of the entry at {@code at}: past its one or two length varints. */
    private int fieldStart(byte[] page, int at) {
        at += Varint.size(Varint.read(page, at));
        if (withValues) {
            at += Varint.size(Varint.read(page, at));
        }
        return at;
    }

    /** The page holding the entry at a position. */
    public byte[] page(int position) {
        return pageOf(word(position));
    }

    public int fieldLength(int position) {
        long word = word(position);
        return Varint.read(pageOf(word), offsetOf(word));
    }

    public int fieldOffset(int position) {
        long word = word(position);
        return fieldStart(pageOf(word), offsetOf(word));
    }

    public int valueLength(int position) {
        long word = word(position);
        byte[] page = pageOf(word);
        int at = offsetOf(word);
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

    /**
     * Slot count: positions are 0..capacity-1, those {@link #occupied} hold entries. A few short of
     * the power of two the homes are taken under ({@link #MISSING_SLOTS}).
     */
    public int capacity() {
        return wideSlots == null ? narrowSlots.length : wideSlots.length;
    }

    public boolean occupied(int position) {
        return word(position) != 0;
    }

    /** A uniformly random position (each entry equally likely); the table must not be empty. */
    public int randomPosition(RandomGenerator random) {
        while (true) {
            int i = random.nextInt(capacity());
            if (word(i) != 0) {
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
        return HomeBucketScan.scan(mask + 1, capacity(), cursor, count, this::occupied, this::homeOf, visit);
    }

    // ---- changes ---------------------------------------------------------------------------

    /**
     * Sets a field (and its value, for a hash); true when the field is new. A same-length value is
     * overwritten in place.
     */
    public boolean put(byte[] field, int fieldOffset, int fieldLength, byte[] value, int valueOffset,
                       int valueLength) {
        int hash = TableHash.of(field, fieldOffset, fieldLength);
        int index = find(field, fieldOffset, fieldLength, hash);
        if (index >= 0) {
            if (withValues) {
                if (valueLength(index) == valueLength) {
                    System.arraycopy(value, valueOffset, page(index), valueOffset(index), valueLength);
                } else {
                    // Writing may compact a page and move the old entry, or re-encode every word:
                    // read the old word afterwards.
                    long fresh = write(hash, field, fieldOffset, fieldLength, value, valueOffset, valueLength);
                    long old = word(index);
                    replace(index, fresh);
                    kill(old);
                }
            }
            return false;
        }
        if ((size + 1) * 4L > (mask + 1L) * 3L) {
            resize((mask + 1) * 2);
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
        long removed = word(index);
        int hole = index;
        for (int i = next(index); word(i) != 0; i = next(i)) {
            int start = startOf(i);
            boolean movable = hole <= i ? (start <= hole || start > i) : (start <= hole && start > i);
            if (movable) {
                setWord(hole, withDisplacement(word(i), distance(start, hole)));
                hole = i;
            }
        }
        setWord(hole, 0);
        size--;
        kill(removed);
        if (mask + 1 > MIN_CAPACITY && size * 8L < mask + 1L) {
            resize(Math.max(MIN_CAPACITY, Integer.highestOneBit(Math.max(size, 1) * 2) * 2));
        }
    }

    /** A deep copy holding the live entries only, packed afresh. */
    public PackedTable copy() {
        PackedTable copy = new PackedTable(withValues, pages.maxPage(), maxNarrowPages);
        for (int i = 0; i < capacity(); i++) {
            if (occupied(i)) {
                byte[] page = page(i);
                int fieldOffset = fieldOffset(i);
                int fieldLength = fieldLength(i);
                copy.put(page, fieldOffset, fieldLength, page, fieldOffset + fieldLength,
                    withValues ? valueLength(i) : 0);
            }
        }
        return copy;
    }

    // ---- the index -------------------------------------------------------------------------

    /** The word in a slot, 0 when the slot is free. */
    private long word(int index) {
        return wideSlots == null ? Integer.toUnsignedLong(narrowSlots[index]) : wideSlots[index];
    }

    private void setWord(int index, long word) {
        if (wideSlots == null) {
            narrowSlots[index] = (int) word;
        } else {
            wideSlots[index] = word;
        }
    }

    /** The hash bits a word keeps: its top {@code tagBits}. */
    private long tagOf(int hash) {
        return tagBits == 0 ? 0 : Integer.toUnsignedLong(hash) >>> (Integer.SIZE - tagBits);
    }

    /** A word without its displacement: {@link #insert} and {@link #replace} add that. */
    private long wordOf(int hash, int page, int offset) {
        return tagOf(hash) << (OFFSET_BITS + pageBits) | (long) (page + 1) << OFFSET_BITS | offset;
    }

    private int displacementShift() {
        return OFFSET_BITS + pageBits + tagBits;
    }

    /** The largest displacement field, which stands for "too far to keep": read the hash again. */
    private int farDisplacement() {
        return (1 << displacementBits) - 1;
    }

    private long withDisplacement(long word, int displacement) {
        long far = farDisplacement();
        int shift = displacementShift();
        return word & ~(far << shift) | Math.min(displacement, far) << shift;
    }

    /** Puts a moved entry's new word in a slot, keeping the slot's displacement. */
    private void replace(int index, long word) {
        int shift = displacementShift();
        setWord(index, word | word(index) & ((long) farDisplacement() << shift));
    }

    /** The slot count of an index array for a capacity. */
    private static int slotCount(int capacity) {
        return capacity > MIN_CAPACITY ? capacity - MISSING_SLOTS : capacity;
    }

    /** The slot a home's probe run starts at: the homes of the missing last slots wrap to the first. */
    private int slotOf(int home) {
        int slots = capacity();
        return home < slots ? home : home - slots;
    }

    /** The slot after {@code index}, wrapping at the array's end. */
    private int next(int index) {
        return ++index == capacity() ? 0 : index;
    }

    /** Probe steps from slot {@code from} to slot {@code to}. */
    private int distance(int from, int to) {
        int steps = to - from;
        return steps < 0 ? steps + capacity() : steps;
    }

    /** The slot the probe run of the entry in a slot starts at: from its displacement or its hash. */
    private int startOf(int index) {
        long word = word(index);
        int displacement = displacementOf(word);
        if (displacement < farDisplacement()) {
            int start = index - displacement;
            return start < 0 ? start + capacity() : start;
        }
        return slotOf(hashOf(word) & mask);
    }

    /**
     * The home of the entry in a slot, under {@code homeMask} (the table's, as {@link HomeBucketScan}
     * passes it): from its displacement where that is kept and the start slot is not one a missing
     * slot's home wraps to, or else from its field's hash.
     */
    private int homeOf(int index, int homeMask) {
        return homeOf(index, word(index), capacity(), homeMask);
    }

    /** {@link #homeOf(int, int)} for a word of an array of {@code slots} slots. */
    private int homeOf(int index, long word, int slots, int homeMask) {
        int displacement = displacementOf(word);
        if (displacement < farDisplacement()) {
            int start = index - displacement;
            start = start < 0 ? start + slots : start;
            if (start >= homeMask + 1 - slots) {
                return start;
            }
        }
        return hashOf(word) & homeMask;
    }

    private int displacementOf(long word) {
        return (int) (word >>> displacementShift()) & farDisplacement();
    }

    /** The hash of the field of the entry a word names, read again from its page. */
    private int hashOf(long word) {
        byte[] page = pageOf(word);
        int at = offsetOf(word);
        return TableHash.of(page, fieldStart(page, at), Varint.read(page, at));
    }

    private void insert(int hash, long word) {
        int start = slotOf(hash & mask);
        int i = start;
        while (word(i) != 0) {
            i = next(i);
        }
        setWord(i, withDisplacement(word, distance(start, i)));
    }

    /**
     * Rebuilds the slot array at another capacity. Shrinking takes most homes from the old array
     * ({@link #homeOf}: the new home is the old one's low bits); growing needs one more hash bit,
     * so it hashes every field again.
     */
    private void resize(int capacity) {
        int oldSlots = capacity();
        int oldMask = mask;
        int[] oldNarrow = narrowSlots;
        long[] oldWide = wideSlots;
        if (oldWide == null) {
            narrowSlots = new int[slotCount(capacity)];
        } else {
            wideSlots = new long[slotCount(capacity)];
        }
        mask = capacity - 1;
        if (capacity > oldMask + 1) {
            rehashAll(oldNarrow, oldWide, oldSlots);
            return;
        }
        for (int i = 0; i < oldSlots; i++) {
            long word = oldWide == null ? Integer.toUnsignedLong(oldNarrow[i]) : oldWide[i];
            if (word != 0) {
                insert(homeOf(i, word, oldSlots, oldMask), word);
            }
        }
    }

    /**
     * Growing: every field is hashed again, which reads its entry from a page, most often a cache
     * miss. The words go in batches: the first pass reads each entry's field length, loads that do
     * not depend on one another, so the processor has many misses in flight at once; the second
     * hashes the fields, in cache by then, and inserts the words.
     */
    private void rehashAll(int[] oldNarrow, long[] oldWide, int oldSlots) {
        long[] words = new long[REHASH_BATCH];
        int[] fieldLengths = new int[REHASH_BATCH];
        int batched = 0;
        for (int i = 0; i < oldSlots; i++) {
            long word = oldWide == null ? Integer.toUnsignedLong(oldNarrow[i]) : oldWide[i];
            if (word != 0) {
                words[batched] = word;
                fieldLengths[batched++] = Varint.read(pageOf(word), offsetOf(word));
                if (batched == REHASH_BATCH) {
                    insertRehashed(words, fieldLengths, batched);
                    batched = 0;
                }
            }
        }
        insertRehashed(words, fieldLengths, batched);
    }

    private void insertRehashed(long[] words, int[] fieldLengths, int count) {
        for (int j = 0; j < count; j++) {
            byte[] page = pageOf(words[j]);
            insert(TableHash.of(page, fieldStart(page, offsetOf(words[j])), fieldLengths[j]), words[j]);
        }
    }

    /**
     * Makes room in the words for page numbers up to {@code pageCount}, one more than the last
     * fitted (a page number handed out for the first time): one more page bit in the
     * narrow form, taken from the tag (each tag drops its lowest bit) or, once the tag is gone,
     * from the displacement; or the wide form once the narrow one is full. Slots do not move.
     */
    private void fitPageNumbers(int pageCount) {
        int needed = Integer.SIZE - Integer.numberOfLeadingZeros(pageCount);
        if (wideSlots == null && pageCount > maxNarrowPages) {
            widen();
        } else if (wideSlots == null && needed > pageBits) {
            int spare = NARROW_WORD_BITS - OFFSET_BITS - needed;
            int newDisplacementBits = Math.min(DISPLACEMENT_BITS, spare);
            reencode(needed, spare - newDisplacementBits, newDisplacementBits);
        } else if (pageCount > MAX_WIDE_PAGES) {
            throw new IllegalStateException("a hash or set holds more than " + MAX_WIDE_PAGES + " pages");
        }
    }

    /** Re-encodes every narrow word for new field widths; a tag keeps its top bits. O(capacity). */
    private void reencode(int newPageBits, int newTagBits, int newDisplacementBits) {
        long reference = (1L << (OFFSET_BITS + pageBits)) - 1;
        long tagMask = (1L << tagBits) - 1;
        int far = farDisplacement();
        int newFar = (1 << newDisplacementBits) - 1;
        for (int i = 0; i < narrowSlots.length; i++) {
            long word = Integer.toUnsignedLong(narrowSlots[i]);
            if (word != 0) {
                long tag = (word >>> (OFFSET_BITS + pageBits) & tagMask) >>> (tagBits - newTagBits);
                int displacement = (int) (word >>> displacementShift()) & far;
                long kept = displacement == far ? newFar : Math.min(displacement, newFar);
                narrowSlots[i] = (int) (kept << (OFFSET_BITS + newPageBits + newTagBits)
                    | tag << (OFFSET_BITS + newPageBits) | word & reference);
            }
        }
        pageBits = newPageBits;
        tagBits = newTagBits;
        displacementBits = newDisplacementBits;
    }

    /**
     * Turns the index into the wide form, keeping every slot where it is: each word keeps its page
     * and offset, and its tag and displacement come from hashing the field again.
     */
    private void widen() {
        long[] wide = new long[narrowSlots.length];
        long reference = (1L << (OFFSET_BITS + pageBits)) - 1;
        for (int i = 0; i < wide.length; i++) {
            wide[i] = Integer.toUnsignedLong(narrowSlots[i]) & reference;
        }
        narrowSlots = null;
        wideSlots = wide;
        pageBits = WIDE_PAGE_BITS;
        displacementBits = DISPLACEMENT_BITS;
        tagBits = WIDE_WORD_BITS - OFFSET_BITS - WIDE_PAGE_BITS - DISPLACEMENT_BITS;
        for (int i = 0; i < wide.length; i++) {
            if (wide[i] != 0) {
                int hash = hashOf(wide[i]);
                wide[i] = withDisplacement(wide[i] | tagOf(hash) << (OFFSET_BITS + pageBits),
                    distance(slotOf(hash & mask), i));
            }
        }
    }

    // ---- pages -----------------------------------------------------------------------------

    private byte[] pageOf(long word) {
        return pages.page(pageNumberOf(word));
    }

    private static int offsetOf(long word) {
        return (int) word & OFFSET_MASK;
    }

    private int pageNumberOf(long word) {
        return (int) ((word >>> OFFSET_BITS) & ((1L << pageBits) - 1)) - 1;
    }

    /** Whether the words can name page {@code page}: its number plus one fits the page field and the form. */
    private boolean fitsPageNumber(int page) {
        return wideSlots == null ? page < maxNarrowPages && (page + 1) >>> pageBits == 0 : page < MAX_WIDE_PAGES;
    }

    private static int entryLength(int fieldLength, int valueLength, boolean withValues) {
        return Varint.size(fieldLength) + fieldLength + (withValues ? Varint.size(valueLength) + valueLength : 0);
    }

    /** Writes an entry into a page and returns its word. */
    private long write(int hash, byte[] field, int fieldOffset, int fieldLength, byte[] value, int valueOffset,
                       int valueLength) {
        long position = pages.allocate(entryLength(fieldLength, valueLength, withValues));
        int page = EntryPages.pageOf(position);
        if (!fitsPageNumber(page)) {
            fitPageNumbers(page + 1);
        }
        byte[] bytes = pages.page(page);
        int start = EntryPages.offsetOf(position);
        int at = Varint.write(bytes, start, fieldLength);
        if (withValues) {
            at = Varint.write(bytes, at, valueLength);
        }
        System.arraycopy(field, fieldOffset, bytes, at, fieldLength);
        if (withValues) {
            System.arraycopy(value, valueOffset, bytes, at + fieldLength, valueLength);
        }
        return wordOf(hash, page, start);
    }

    /** Releases a dead entry's bytes. */
    private void kill(long word) {
        byte[] bytes = pageOf(word);
        int at = offsetOf(word);
        int fieldLength = Varint.read(bytes, at);
        int valueLength = withValues ? Varint.read(bytes, at + Varint.size(fieldLength)) : 0;
        pages.release(EntryPages.position(pageNumberOf(word), at), entryLength(fieldLength, valueLength, withValues));
    }

    /** Moves a compacting page's live entries (those their field's slot points at) to fresh positions. */
    private void moveLiveEntries(byte[] bytes, int end, int page) {
        for (int at = 0; at < end; ) {
            int fieldLength = Varint.read(bytes, at);
            int fieldAt = fieldStart(bytes, at);
            int valueLength = withValues ? Varint.read(bytes, at + Varint.size(fieldLength)) : 0;
            int hash = TableHash.of(bytes, fieldAt, fieldLength);
            int index = find(bytes, fieldAt, fieldLength, hash);
            if (index >= 0 && pageNumberOf(word(index)) == page && offsetOf(word(index)) == at) {
                // Arguments first: the write may widen the page field and re-encode every word.
                replace(index, write(hash, bytes, fieldAt, fieldLength, bytes, fieldAt + fieldLength, valueLength));
            }
            at = fieldAt + fieldLength + valueLength;
        }
    }
}
