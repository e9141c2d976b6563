package dev.lacewing.storage.compact;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.api.storage.AccessPolicy;
import dev.lacewing.api.storage.Aggregate;
import dev.lacewing.api.storage.AggregateCodec;
import dev.lacewing.api.storage.EvictionCandidates;
import dev.lacewing.api.storage.Table;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One database of one partition with no Java object per key: entries (key bytes, value bytes,
 * optional expiry) are packed in {@code byte[]} pages, and the index ({@link SegmentedIndex}) is a
 * directory of segments of 4096 {@code long} slots, each open-addressed in Robin Hood order with
 * backward-shift deletion and split on its own when an insert would fill it past 7/8. Growing so
 * costs one segment's rehash (about 3,600 slots), never the whole index's, and no index array is
 * large enough to be humongous to G1. Robin Hood order lets a segment fill to 7/8 where plain
 * linear probing, whose misses run to the next empty slot (32 slots on average at 7/8), stops at
 * 3/4: an index is 8 to 16 bytes a key (100,000 keys: 1 MiB, not 2). The index class comment
 * holds the SCAN argument.
 *
 * <p>A slot is 0 when empty, otherwise {@code tag:24 | expires:1 | page:21 | offset:18}: the low
 * 24 bits of the key's hash (a miss rarely touches a page; a probe, a backward shift and a split
 * below 4096 segments find a slot's home and segment without touching one), whether the entry has
 * an expiry (active expiry reads only those pages), and the entry's page, numbered from 1 so that
 * no slot is 0, and offset.
 *
 * <p>An entry is {@code header:4, varint keyLength, varint valueLength, [expireAt:8], key, value}, the
 * header a little-endian int of {@code access:24 | flags:8}; the flags say whether the entry is dead,
 * holds an object, has an expiry, and its string's {@link StringEncoding} ({@link Keyspace#putEncoded}:
 * bit 3 for raw, bit 6 for text, both for unshared: spare bits of the flag byte, so the mark costs no
 * memory). The access field is the key's LRU clock or LFU counter ({@link AccessPolicy}), as Redis keeps it in
 * each robj: reads update it in place, on the cache line the lookup already brought in. It costs 3 bytes per key, where a
 * parallel {@code int[]} beside the index would cost 4 per slot (5 to 10 per key at the index's
 * load) and a second cache miss per touch.
 * Strings are stored as bytes, and so are the small forms of aggregates ({@link Aggregate.Packed}: a
 * listpack hash, an intset set), bits 4-5 of the flags naming the form; any other value sits in an
 * object side table and the entry's value is its 4-byte index there ({@link #OBJECT}).
 *
 * <p>An inline value has no Java object at rest. A lookup materializes one from the bytes and
 * <em>holds</em> it (as does a put of one), so that the command may change it in place as it would a
 * side-table object: {@link #modified} writes the held value back (in place when its size is
 * unchanged; into the side table once it has gone to its large form), and a later lookup of the
 * key within the same command gets the same object (SMOVE compares its two by identity). A delete
 * or overwrite of the key lets its held value go unwritten. At most {@link #HELD} values are held,
 * and one is written back before it is let go, so a change is lost only when a command changes
 * a value without reporting it and then looks up that many other inline keys of this table: the
 * rule every caller already keeps is to report each change with {@code modified} (or to put or
 * remove the key) before it goes on to other keys. A small hash so costs its entry (header, two
 * varints, key, pairs) and index slot: no side-table slot, object header or array header.
 *
 * <p>Pages are {@code byte[]} of up to {@link #PAGE_SIZE}, filled by a bump pointer. byte[] rather than
 * direct buffers: replies copy a value straight from the page ({@link ValueView}) with the
 * array-based writes Netty and the RESP writer already have, key comparison uses the
 * {@code Arrays.equals} intrinsic, and a few hundred arrays cost the GC nothing to trace. About 256 KiB
 * keeps a page well under G1's humongous threshold (half a region, at least 512 KiB), where a
 * 1 MiB page would take a 2 MiB region. A table smaller than {@value #PAGES_PER_TABLE} such pages
 * opens smaller ones (16 KiB and up, by its live bytes), so that the few pages of slack a table
 * keeps stay a small share of it. An entry of {@link #LARGE_ENTRY} bytes or more gets a
 * page of its own, of its exact size (a byte more when that is a shared page's length: a page's
 * length tells its kind, shared pages being a power of two less the array header long).
 *
 * <p>A string edited in place ({@link #editString}: APPEND, SETRANGE, SETBIT, BITFIELD) that
 * outgrows its entry moves to a new one with room to spare past its value, as Redis's
 * sdsMakeRoomFor leaves ({@link EditedString#capacityFor}), when that makes a page of its own;
 * its value length is then written as a 5-byte varint (continuation bits as padding), so later
 * growth into the room rewrites only those bytes and the value. A run of appends so costs time
 * linear in the bytes appended. A small string in a shared page moves to an entry of its exact
 * new size. The room is the entry's: live bytes and {@link #usedMemory} count it, and any new
 * value stored under the key (SET, a COPY or RENAME destination, an expiry rewrite) gets an
 * entry of its exact size. Bytes past an entry in its own page are always zero: the page starts
 * zeroed and the value only grows there. A string that must grow past 1 MiB goes to the side
 * table as an {@link EditedString} in chunks, which grows without copying what it holds; readers
 * that take a value ({@link #get}) get a copy of it, {@link #getValue} a chunked view.
 *
 * <p>Deleting, expiring or overwriting with another size marks the old entry dead and takes its
 * size off its page's live bytes; an overwrite of the same size writes in place. A page with no
 * live byte is dropped; the open page then restarts from its beginning. A full page whose live
 * bytes fall under half is compacted at once: its live entries are copied to the open page and
 * it is dropped. So every page but the open one is at least half live, and compaction copies at
 * most one byte per byte freed, in steps of at most half a page. Over the whole table, once more
 * than {@code 1/}{@link #DEAD_SHARE} of the page bytes (less one page, the open page's end) are
 * dead, the page with the smallest live share is compacted too (a table of fewer than 48 pages may hold
 * three pages dead): the pages stay within 16/15 of the live bytes plus four pages (deletes spread evenly leave every page above half live, up to twice the
 * live bytes, without it), at most fifteen bytes copied per byte freed where every page is equally
 * sparse, and a scan of the page table per compaction, which frees at least a sixteenth of a page.
 * Dropped shared pages are kept as spares for the pages opened next. The spares and the three
 * pages of floor belong to a {@link PagePool}: a table's own, or one that the multithread engine's
 * stripes share, whose tables hold them once between them (so the floor is 3/n pages a table
 * where n tables of the pool hold pages).
 *
 * <p>{@link #usedMemory} is exact: pages and index arrays as allocated, plus the estimate that
 * side-table aggregates give of themselves. Held values are a bounded cache of what the pages
 * hold, transient like a command's buffers, and not counted.
 *
 * <p>Thread rule: touched only by the thread the engine grants the partition to; the counters
 * may be read racily. Lookups decode an entry into fields of this object, which is why no
 * method is reentrant.
 */
public final class CompactTable implements Table {

    /**
     * The largest shared page: 256 KiB less the array header, so that pages tile G1 regions (1 MiB
     * or more) without a gap. Shared pages are a power of two of 16 KiB to this, less the header.
     */
    static final int PAGE_SIZE = 256 * 1024 - 16;
    static final int MIN_PAGE_SIZE = 16 * 1024 - 16;
    /**
     * A new shared page is the largest that is at most this share of the table's live bytes: a
     * table's slack (the open page's unfilled end, the spares, the page the compaction bound
     * allows) is a few pages, so it stays a modest share of a small table too. Not more: pages
     * under 256 KiB cost CPU under churn. With 32, the multithread engine's 16 stripes of 6 MiB
     * (maxmemory 100mb) got 128 KiB pages and an eviction load took 1.2-1.5x the CPU per SET it
     * takes with 256 KiB pages, for 3 MiB less of pages (110 against 113 MiB).
     */
    private static final int PAGES_PER_TABLE = 16;
    static final int LARGE_ENTRY = PAGE_SIZE / 4;
    /**
     * The share of the page bytes that may be dead (beyond the open page's unfilled end) before the
     * sparsest page is compacted: 1/16. It bounds the pages at 16/15 of the live bytes, which is
     * what lets the launcher size the heap from maxmemory: at 1/8 (near the 10% where Redis's
     * active defrag starts) a 100 MB eviction load held 113 MiB of pages for 99 MiB of
     * used_memory, at 1/16 106 MiB.
     */
    private static final int DEAD_SHARE = 16;
    /**
     * The dead space the bound allows a table at least, in its pages: three. A 16th of a table of a
     * few dozen pages is a page or two, and deletes spread over every page then leave the sparsest
     * one nearly as live as the rest: the multithread engine's 16 stripes of 6 MiB (maxmemory
     * 100mb) spent a fifth of their samples compacting under an eviction load, at 4.2-4.5 µs of
     * CPU a SET against 3.6-4.1 with three pages (as an 8th allowed them before), for 5 MiB more
     * of pages. A large table (a shard's 100 MB, 400 pages) keeps 1/16. The floor is the
     * {@link PagePool}'s: the n tables of a pool holding pages may each keep 3/n of a page, so
     * the lock stripes of the multithread engine hold it once, not once a stripe.
     */
    private static final int MIN_DEAD_PAGES = 3;

    private static final int OFFSET_BITS = 18;
    private static final int PAGE_BITS = 21;
    private static final long LOCATION_MASK = (1L << (OFFSET_BITS + PAGE_BITS)) - 1;
    private static final long EXPIRES_BIT = 1L << (OFFSET_BITS + PAGE_BITS);
    private static final int TAG_SHIFT = SegmentedIndex.TAG_SHIFT;
    private static final int TAG_MASK = (1 << SegmentedIndex.TAG_BITS) - 1;
    private static final int MAX_PAGES = (1 << PAGE_BITS) - 1;

    /* Entry flags, the entry's first byte. */
    private static final byte DEAD = 1;
    private static final byte OBJECT = 2;
    private static final byte EXPIRES = 4;
    private static final byte RAW = 8;
    /** Bits 4-5: the {@link Aggregate.Packed} form the value bytes encode, 0 for a string. */
    private static final int FORM_SHIFT = 4;
    private static final int FORM_MASK = 3 << FORM_SHIFT;
    private static final byte TEXT = 64;
    /** The flags a string's value carries beside its bytes: its encoding, both bits for unshared. */
    private static final int STRING_MARKS = RAW | TEXT;

    /** Values held at most ({@link #hold}). */
    private static final int HELD = 32;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    /** Bytes of the entry header: flags and the access field. */
    private static final int HEADER = 4;
    /** The value-length varint of an entry with room: 5 bytes, enough for any length. */
    private static final int PADDED_VARINT = 5;

    private final AccessPolicy accessPolicy;
    /** Turns a packed form in an entry back into a value. */
    private final AggregateCodec aggregates;
    /** The time new entries are created at (puts carry no {@code now}). */
    private final LongSupplier clock;
    /** The index's segment size and tagged hash bits ({@link SegmentedIndex}): the defaults, less in tests. */
    private final int segmentBits;
    private final int taggedBits;

    /** The index: slot values, addressed by reference ({@link SegmentedIndex#reference}). */
    private SegmentedIndex keyIndex;
    private int expiring;
    private int expiryCursor;
    private long expiredCount;

    /** Pages by number - 1; null where a number is free. */
    private byte[][] pages = new byte[0][];
    private int[] pageLive = new int[0];
    private int[] pageUsed = new int[0];
    private int pageCount;
    private int[] freePages = new int[0];
    private int freePageCount;
    /** The page being filled, -1 before the first. */
    private int openPage = -1;
    private long pageBytes;
    private long liveBytes;
    /** The spare pages and the compaction floor, this table's own or shared with others. */
    private final PagePool pool;
    /** Whether {@link #usedMemory} counts the pool's spares: one table of a pool does. */
    private final boolean countsSpares;

    private Object[] objects = new Object[0];
    private int[] freeObjects = new int[0];
    /** The bytes {@link #objectBytes} counts for each side-table object, as of its last put or {@link #modified}. */
    private long[] objectSizes = new long[0];
    private int freeObjectCount;
    private int objectCount;
    private long objectBytes;

    /*
     * The inline values handed out or stored lately, by key (hash, key bytes): a lookup of a held
     * key returns the same object, modified() writes it back, a victim is written back before it
     * is let go, and a delete or overwrite of its key lets it go unwritten. Allocated on first use.
     */
    private int[] heldHashes;
    private byte[][] heldKeys;
    private Aggregate.Packed[] heldValues;
    private int heldCount;
    private int heldVictim;

    private int[] compactionQueue = new int[4];
    private int compactionQueued;
    private boolean compacting;

    public CompactTable(AccessPolicy access, AggregateCodec aggregates, LongSupplier clock) {
        this(access, aggregates, clock, new PagePool());
    }

    /** A table whose spare pages and compaction floor are {@code pool}'s, shared with the pool's other tables. */
    CompactTable(AccessPolicy access, AggregateCodec aggregates, LongSupplier clock, PagePool pool) {
        this(access, aggregates, clock, pool, SegmentedIndex.SEGMENT_BITS, SegmentedIndex.TAG_BITS);
    }

    /**
     * For tests: index segments of {@code 2^segmentBits} slots, whose splits and scans read a key's
     * hash bits past the low {@code taggedBits} from its entry (the tags hold 24 at most).
     */
    CompactTable(AccessPolicy access, AggregateCodec aggregates, LongSupplier clock, int segmentBits, int taggedBits) {
        this(access, aggregates, clock, new PagePool(), segmentBits, taggedBits);
    }

    private CompactTable(AccessPolicy access, AggregateCodec aggregates, LongSupplier clock, PagePool pool,
                         int segmentBits, int taggedBits) {
        this.pool = pool;
        this.countsSpares = pool.takeSpareCount();
        this.accessPolicy = access;
        this.aggregates = aggregates;
        this.clock = clock;
        this.segmentBits = segmentBits;
        this.taggedBits = taggedBits;
        this.keyIndex = newIndex();
    }

    private SegmentedIndex newIndex() {
        return new SegmentedIndex(segmentBits, taggedBits, this::keyHash);
    }

    /** The hash of the key in the entry a slot value points to. */
    private int keyHash(long slot) {
        decode(slot);
        return KeyHash.of(entryPage, entryKeyOffset, entryKeyLength);
    }

    /* The entry decode() last read; entryHash is the key's hash when find() found it. */
    private int entryHash;
    private byte[] entryPage;
    private int entryFlags;
    private int entryKeyOffset;
    private int entryKeyLength;
    private int entryValueOffset;
    private int entryValueLength;
    private int entrySize;

    @Override
    public int size() {
        return keyIndex.size();
    }

    @Override
    public int expiringSize() {
        return expiring;
    }

    @Override
    public long expiredCount() {
        return expiredCount;
    }

    @Override
    public int capacity() {
        return keyIndex.capacity();
    }

    @Override
    public long usedMemory() {
        return structureBytes() + pageBytes + spareBytes();
    }

    /** The index, the page table and the side table with its objects' counted size. */
    private long structureBytes() {
        return keyIndex.bytes() + (long) pages.length * (8 + 4 + 4 + 4)
            + (long) objects.length * (4 + 4 + 8) + objectBytes; // side-table slot: reference, free-list int, counted size
    }

    /**
     * {@link #usedMemory} less the page space not holding a live entry (dead entries awaiting
     * compaction, the open page's unfilled end, the spares): what Redis's used_memory would count, freed space
     * inside pages being fragmentation, as freed chunks inside an allocator's pages are for Redis.
     * maxmemory is held against it, since deleting an entry lowers it at once.
     */
    @Override
    public long liveMemory() {
        return structureBytes() + liveBytes;
    }

    /** Bytes of live entries (an own page's room included), without index, dead entries or unused page space. */
    public long liveBytes() {
        return liveBytes;
    }

    /** Bytes of the pool's spare pages if this table counts them in {@link #usedMemory}, else 0. */
    long spareBytes() {
        return countsSpares ? pool.spareBytes() : 0;
    }

    /** Pages held, of either kind. */
    public int pageCount() {
        return pageCount - freePageCount;
    }

    /** What is wrong with the index, or null: for tests ({@link SegmentedIndex#fault}). */
    String indexFault() {
        return keyIndex.fault();
    }

    /* ---- entries ---- */

    private static long location(int page, int offset) {
        return (long) (page + 1) << OFFSET_BITS | offset;
    }

    private static int pageOf(long slot) {
        return (int) ((slot & LOCATION_MASK) >>> OFFSET_BITS) - 1;
    }

    private static int offsetOf(long slot) {
        return (int) slot & ((1 << OFFSET_BITS) - 1);
    }

    private static int tagOf(int hash) {
        return hash & TAG_MASK;
    }

    /** Reads the entry a slot points to into the entry fields. */
    private void decode(long slot) {
        decode(pages[pageOf(slot)], offsetOf(slot));
    }

    private void decode(byte[] page, int offset) {
        entryPage = page;
        entryFlags = page[offset];
        int position = offset + HEADER;
        int keyLength = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = page[position++];
            keyLength |= (b & 0x7f) << shift;
            if (b >= 0) {
                break;
            }
        }
        int valueLength = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = page[position++];
            valueLength |= (b & 0x7f) << shift;
            if (b >= 0) {
                break;
            }
        }
        if ((entryFlags & EXPIRES) != 0) {
            position += 8;
        }
        entryKeyOffset = position;
        entryKeyLength = keyLength;
        entryValueOffset = position + keyLength;
        entryValueLength = valueLength;
        entrySize = entryValueOffset + valueLength - offset;
    }

    private static int varintSize(int value) {
        return value < 1 << 7 ? 1 : value < 1 << 14 ? 2 : value < 1 << 21 ? 3 : value < 1 << 28 ? 4 : 5;
    }

    private static int entrySize(int keyLength, int valueLength, boolean expires) {
        long size = (long) HEADER + varintSize(keyLength) + varintSize(valueLength) + (expires ? 8 : 0) + keyLength + valueLength;
        if (size > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("entry too large: " + size + " bytes");
        }
        return (int) size;
    }

    private static int writeVarint(byte[] page, int position, int value) {
        while (value >= 0x80) {
            page[position++] = (byte) (value | 0x80);
            value >>>= 7;
        }
        page[position++] = (byte) value;
        return position;
    }

    private long entryExpireAt(long slot) {
        if ((slot & EXPIRES_BIT) == 0) {
            return Keyspace.NO_EXPIRY;
        }
        byte[] page = pages[pageOf(slot)];
        int offset = offsetOf(slot);
        int position = offset + HEADER;
        while (page[position++] < 0) {
            // key length
        }
        while (page[position++] < 0) {
            // value length
        }
        return (long) LONG.get(page, position);
    }

    private static boolean expired(long expireAt, long now) {
        return expireAt != Keyspace.NO_EXPIRY && expireAt <= now;
    }

    /**
     * Writes a new entry and returns its slot value. {@code value} is a string or an inline form when
     * {@code object} is null, {@code valueFlags} saying which ({@link #STRING_MARKS}, form bits), and
     * {@code valueLength} zero bytes when both are null; otherwise {@code object} goes to the side table.
     */
    private long writeEntry(int hash, byte[] key, int keyOffset, int keyLength, Object object, byte[] value,
                            int valueOffset, int valueLength, long expireAt, int access, int valueFlags) {
        boolean expires = expireAt != Keyspace.NO_EXPIRY;
        int objectIndex = -1;
        if (object != null) {
            objectIndex = addObject(object);
            valueLength = 4;
        }
        int size = entrySize(keyLength, valueLength, expires);
        long location = allocate(size);
        byte[] page = pages[pageOf(location)];
        int position = offsetOf(location);
        int flags = (object != null ? OBJECT | valueFlags & STRING_MARKS : valueFlags) | (expires ? EXPIRES : 0);
        INT.set(page, position, access << 8 | flags);
        position += HEADER;
        position = writeVarint(page, position, keyLength);
        position = writeVarint(page, position, valueLength);
        if (expires) {
            LONG.set(page, position, expireAt);
            position += 8;
        }
        System.arraycopy(key, keyOffset, page, position, keyLength);
        position += keyLength;
        if (object != null) {
            INT.set(page, position, objectIndex);
        } else if (value != null) {
            System.arraycopy(value, valueOffset, page, position, valueLength);
        } else {
            Arrays.fill(page, position, position + valueLength, (byte) 0);
        }
        return (long) tagOf(hash) << TAG_SHIFT | (expires ? EXPIRES_BIT : 0) | location;
    }

    /** Writes {@code value} as a varint of exactly {@code bytes} bytes, padded with continuation bits. */
    private static void writeVarint(byte[] page, int position, int value, int bytes) {
        for (int i = 0; i < bytes - 1; i++) {
            page[position++] = (byte) (value | 0x80);
            value >>>= 7;
        }
        page[position] = (byte) value;
    }

    /** Whether a page is an entry's own: shared pages are a power of two less 16 bytes long, own ones never. */
    private boolean ownPage(int page) {
        return !sharedLength(pages[page].length);
    }

    private static boolean sharedLength(int length) {
        return length >= MIN_PAGE_SIZE && length <= PAGE_SIZE && Integer.bitCount(length + 16) == 1;
    }

    /** Bytes of room past the entry the entry fields hold, which sits at {@code slot}: only an own page has any. */
    private int roomOf(long slot) {
        int page = pageOf(slot);
        return ownPage(page) ? pages[page].length - entrySize : 0;
    }

    /** Marks the entry of a slot value dead; may compact its page (slots move, none is added or removed). */
    private void free(long slot) {
        free(slot, false);
    }

    /** {@link #free(long)}; {@code objectMoved}: its side-table object is now another entry's, so it is kept whole. */
    private void free(long slot, boolean objectMoved) {
        int page = pageOf(slot);
        int offset = offsetOf(slot);
        decode(pages[page], offset);
        if ((entryFlags & OBJECT) != 0) {
            removeObject((int) INT.get(entryPage, entryValueOffset), objectMoved);
        }
        entryPage[offset] = (byte) (entryFlags | DEAD);
        int freed = ownPage(page) ? pageLive[page] : entrySize;
        pageLive[page] -= freed;
        liveBytes -= freed;
        if (pageLive[page] == 0) {
            if (page == openPage) {
                pageUsed[page] = 0;
            } else {
                releasePage(page);
            }
        } else if (page != openPage && underHalfLive(page)) {
            queueCompaction(page);
        }
        compactQueued();
        long open = openPage < 0 ? 0 : pages[openPage].length;
        long dead = pageBytes - liveBytes - open;
        // The floor, this table's share of the pool's, is read only past the sixteenth.
        if (dead > pageBytes / DEAD_SHARE && dead > MIN_DEAD_PAGES * open / Math.max(1, pool.tables())) {
            compactSparsest();
        }
    }

    /* ---- pages ---- */

    /** Room for an entry of {@code size} bytes: its location. */
    private long allocate(int size) {
        if (size >= LARGE_ENTRY) {
            return allocateOwn(size, size);
        }
        if (openPage < 0 || pageUsed[openPage] + size > pages[openPage].length) {
            int full = openPage;
            openPage = newPage(pool.openShared(sharedPageLength(size), pageCount()));
            if (full >= 0 && pageLive[full] < pages[full].length / 2) {
                queueCompaction(full);
            }
        }
        int offset = pageUsed[openPage];
        pageUsed[openPage] = offset + size;
        pageLive[openPage] += size;
        liveBytes += size;
        return location(openPage, offset);
    }

    /**
     * A page of its own for an entry of {@code size} bytes with room up to {@code length}: its
     * location. The whole page is live, room included.
     */
    private long allocateOwn(int size, int length) {
        pool.openOwn(pageCount());
        int page = newPage(new byte[sharedLength(length) ? length + 1 : length]);
        pageUsed[page] = size;
        pageLive[page] = pages[page].length;
        liveBytes += pages[page].length;
        return location(page, 0);
    }

    private int newPage(byte[] array) {
        int page;
        if (freePageCount > 0) {
            page = freePages[--freePageCount];
        } else {
            if (pageCount == MAX_PAGES) {
                throw new IllegalStateException("keyspace table full: " + MAX_PAGES + " pages");
            }
            if (pageCount == pages.length) {
                int capacity = Math.max(8, pages.length * 2);
                pages = Arrays.copyOf(pages, capacity);
                pageLive = Arrays.copyOf(pageLive, capacity);
                pageUsed = Arrays.copyOf(pageUsed, capacity);
                freePages = Arrays.copyOf(freePages, capacity);
            }
            page = pageCount++;
        }
        pages[page] = array;
        pageLive[page] = 0;
        pageUsed[page] = 0;
        pageBytes += array.length;
        return page;
    }

    /**
     * The length of a new shared page: the largest of the page sizes that is at most a
     * {@value #PAGES_PER_TABLE}th of the live bytes, and more than the entry.
     */
    private int sharedPageLength(int size) {
        long want = Math.max(liveBytes / PAGES_PER_TABLE, 2L * (size + 16));
        int bytes = MIN_PAGE_SIZE + 16;
        while (bytes < PAGE_SIZE + 16 && bytes * 2L <= want) {
            bytes *= 2;
        }
        return bytes - 16;
    }

    /** Whether a shared page other than the open one holds under half its length live: it is compacted. */
    private boolean underHalfLive(int page) {
        return !ownPage(page) && pageLive[page] < pages[page].length / 2;
    }

    /** Drops a page, which the pool keeps as a spare if it is shared and there is room for one. */
    private void releasePage(int page) {
        if (entryPage == pages[page]) {
            // The decoded entry's page must not outlive the page: a dropped 300 MB value stayed
            // reachable through this field until the next decode.
            entryPage = null;
        }
        byte[] array = pages[page];
        boolean shared = !ownPage(page);
        pageBytes -= array.length;
        pages[page] = null;
        pageLive[page] = 0;
        pageUsed[page] = 0;
        freePages[freePageCount++] = page;
        pool.drop(array, shared, pageCount());
    }

    private void queueCompaction(int page) {
        if (compactionQueued == compactionQueue.length) {
            compactionQueue = Arrays.copyOf(compactionQueue, compactionQueued * 2);
        }
        compactionQueue[compactionQueued++] = page;
    }

    /**
     * Compacts the queued pages that still need it. Compaction fills the open page, which may
     * queue it in turn when it is full; the loop, not recursion, takes care of that.
     */
    private void compactQueued() {
        if (compacting) {
            return;
        }
        compacting = true;
        try {
            while (compactionQueued > 0) {
                int page = compactionQueue[--compactionQueued];
                if (page != openPage && pages[page] != null && underHalfLive(page)) {
                    compact(page);
                }
            }
        } finally {
            compacting = false;
        }
    }

    /** Compacts the shared page with the smallest live share, other than the open page. O(pages). */
    private void compactSparsest() {
        int sparsest = -1;
        for (int page = 0; page < pageCount; page++) {
            if (page != openPage && pages[page] != null && !ownPage(page)
                && (sparsest < 0 || (long) pageLive[page] * pages[sparsest].length < (long) pageLive[sparsest] * pages[page].length)) {
                sparsest = page;
            }
        }
        if (sparsest >= 0 && pageLive[sparsest] < pages[sparsest].length && !compacting) {
            compacting = true;
            try {
                compact(sparsest);
            } finally {
                compacting = false;
            }
            compactQueued();
        }
    }

    /** Moves the live entries of a page to the open page and drops it. */
    private void compact(int page) {
        byte[] array = pages[page];
        int end = pageUsed[page];
        for (int offset = 0; offset < end; offset += entrySize) {
            decode(array, offset);
            if ((entryFlags & DEAD) != 0) {
                continue;
            }
            int size = entrySize;
            long old = location(page, offset);
            int hash = KeyHash.of(array, entryKeyOffset, entryKeyLength);
            long[] slots = keyIndex.segment(keyIndex.segmentOf(hash));
            int mask = slots.length - 1;
            int at = hash & mask;
            while ((slots[at] & LOCATION_MASK) != old) {
                at = (at + 1) & mask;
            }
            long moved = allocate(size);
            System.arraycopy(array, offset, pages[pageOf(moved)], offsetOf(moved), size);
            slots[at] = slots[at] & ~LOCATION_MASK | moved;
            pageLive[page] -= size;
            liveBytes -= size;
            entrySize = size;
        }
        releasePage(page);
    }

    private int addObject(Object object) {
        int index;
        if (freeObjectCount > 0) {
            index = freeObjects[--freeObjectCount];
        } else {
            if (objectCount == objects.length) {
                int capacity = Math.max(8, objects.length * 2);
                objects = Arrays.copyOf(objects, capacity);
                freeObjects = Arrays.copyOf(freeObjects, capacity);
                objectSizes = Arrays.copyOf(objectSizes, capacity);
            }
            index = objectCount++;
        }
        objects[index] = object;
        long size = objectBytes(object);
        objectSizes[index] = size;
        objectBytes += size;
        return index;
    }

    /** A side-table object as commands take it: a long edited string as a copy, since the table goes on editing it. */
    private static Object readerValue(Object object) {
        return object instanceof EditedString edited ? edited.toBytes() : object;
    }

    /** Counts a side-table object again, after it changed in place. */
    private void recountObject(int index) {
        long size = objectBytes(objects[index]);
        objectBytes += size - objectSizes[index];
        objectSizes[index] = size;
    }

    private void removeObject(int index, boolean moved) {
        if (!moved && objects[index] instanceof EditedString edited) {
            edited.release();
        }
        objectBytes -= objectSizes[index];
        objectSizes[index] = 0;
        objects[index] = null;
        freeObjects[freeObjectCount++] = index;
    }

    /* ---- index ---- */

    /**
     * Index reference of the key, or -1; decodes the entry when found. Does not look at expiry.
     * The probe stays in the key's segment and ends at the first entry nearer its home than the
     * probe is to the key's (Robin Hood order).
     */
    private int find(byte[] key, int offset, int length, int hash) {
        long tag = tagOf(hash);
        int segment = keyIndex.segmentOf(hash);
        long[] slots = keyIndex.segment(segment);
        int mask = slots.length - 1;
        for (int i = hash & mask, distance = 0; ; i = (i + 1) & mask, distance++) {
            long slot = slots[i];
            if (slot == 0) {
                return -1;
            }
            if (slot >>> TAG_SHIFT == tag) {
                decode(slot);
                if (entryKeyLength == length && Arrays.equals(entryPage, entryKeyOffset, entryKeyOffset + length,
                    key, offset, offset + length)) {
                    entryHash = hash;
                    return keyIndex.reference(segment, i);
                }
            } else if (SegmentedIndex.displacement(slot, i, mask) < distance) {
                return -1;
            }
        }
    }

    /** Index of the live key, deleting it first if its time has passed; -1 when absent. */
    private int findLive(byte[] key, int offset, int length, long now) {
        return findLive(key, offset, length, KeyHash.of(key, offset, length), now);
    }

    /** {@link #findLive(byte[], int, int, long)} of a key whose hash the caller has. */
    private int findLive(byte[] key, int offset, int length, int hash, long now) {
        int index = find(key, offset, length, hash);
        if (index >= 0 && expired(entryExpireAt(keyIndex.get(index)), now)) {
            removeExpired(index);
            return -1;
        }
        return index;
    }

    /** Deletes the entry in slot {@code index} because its time passed, saying so while its key is readable. */
    /** Deletes the key at {@code reference} because its time passed: counted, and told to the listener. */
    private void removeExpired(int reference) {
        decode(keyIndex.get(reference));
        events.expired(entryPage, entryKeyOffset, entryKeyLength);
        removeAt(reference);
        expiredCount++;
    }

    private Table.Events events = Table.Events.NONE;

    @Override
    public void events(Table.Events events) {
        this.events = events;
    }

    @Override
    public Object get(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return null;
        }
        touch(keyIndex.get(index), now);
        return value();
    }

    @Override
    public Object peek(byte[] key, int offset, int length, long now) {
        return findLive(key, offset, length, now) < 0 ? null : value();
    }

    @Override
    public int access(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        return index < 0 ? -1 : (int) INT.get(entryPage, offsetOf(keyIndex.get(index))) >>> 8;
    }

    @Override
    public boolean setAccess(byte[] key, int offset, int length, int access, long now) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        int at = offsetOf(keyIndex.get(index));
        int header = (int) INT.get(entryPage, at);
        INT.set(entryPage, at, access << 8 | header & 0xff);
        return true;
    }

    /** Counts an access in the entry's header; the entry fields stay valid (nothing moves). */
    private void touch(long slot, long now) {
        int offset = offsetOf(slot);
        int header = (int) INT.get(entryPage, offset);
        INT.set(entryPage, offset, accessPolicy.accessed(header >>> 8, now) << 8 | header & 0xff);
    }

    /**
     * The value of the entry find() last found: its side-table object, its inline value (the held
     * one, or one materialized from its bytes and held), or a copy of its string. Entry fields may
     * not survive this.
     */
    private Object value() {
        if ((entryFlags & OBJECT) != 0) {
            return readerValue(objects[(int) INT.get(entryPage, entryValueOffset)]);
        }
        int form = (entryFlags & FORM_MASK) >>> FORM_SHIFT;
        int held = form == 0 ? -1 : heldIndex(entryHash, entryPage, entryKeyOffset, entryKeyLength);
        if (held >= 0) {
            return heldValues[held];
        }
        byte[] bytes = Arrays.copyOfRange(entryPage, entryValueOffset, entryValueOffset + entryValueLength);
        if (form == 0) {
            return bytes;
        }
        Aggregate.Packed value = aggregates.unpack(form, bytes);
        hold(entryHash, Arrays.copyOfRange(entryPage, entryKeyOffset, entryKeyOffset + entryKeyLength), value);
        return value;
    }

    /**
     * Recounts a side-table object; writes a held inline value back into its entry, and lets it go
     * once it has moved to the side table in its large form.
     */
    @Override
    public void modified(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return;
        }
        if ((entryFlags & OBJECT) != 0) {
            recountObject((int) INT.get(entryPage, entryValueOffset));
        } else if ((entryFlags & FORM_MASK) != 0) {
            int held = heldIndex(entryHash, key, offset, length);
            if (held >= 0) {
                Aggregate.Packed value = heldValues[held];
                writeBack(index, value);
                if (value.packedForm() == 0) {
                    release(held);
                }
            }
        }
    }

    @Override
    public boolean getValue(byte[] key, int offset, int length, long now, ValueView view) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        touch(keyIndex.get(index), now);
        if ((entryFlags & OBJECT) != 0 && objects[(int) INT.get(entryPage, entryValueOffset)] instanceof EditedString edited) {
            edited.view(view);
        } else if ((entryFlags & (OBJECT | FORM_MASK)) != 0) {
            view.setObject(value());
        } else {
            view.setString(entryPage, entryValueOffset, entryValueLength);
        }
        return true;
    }

    @Override
    public long expireAt(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        return index < 0 ? -2 : entryExpireAt(keyIndex.get(index));
    }

    @Override
    public void put(byte[] key, int offset, int length, Object value, long expireAt) {
        if (value instanceof byte[] bytes) {
            putString(key, offset, length, bytes, 0, bytes.length, expireAt);
        } else {
            storeAggregate(key, offset, length, value, expireAt, false, 0);
        }
    }

    @Override
    public void putString(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength,
                          long expireAt) {
        store(key, offset, length, null, value, valueOffset, valueLength, expireAt, false, 0,
            flagsOf(accessPolicy.storedWhole()));
    }

    @Override
    public void putKeepExpiry(byte[] key, int offset, int length, Object value, long now) {
        if (value instanceof byte[] bytes) {
            store(key, offset, length, null, bytes, 0, bytes.length, Keyspace.NO_EXPIRY, true, now,
                flagsOf(accessPolicy.storedWhole()));
        } else {
            storeAggregate(key, offset, length, value, Keyspace.NO_EXPIRY, true, now);
        }
    }

    @Override
    public void putEncoded(byte[] key, int offset, int length, byte[] value, long expireAt,
                           StringEncoding encoding) {
        store(key, offset, length, null, value, 0, value.length, expireAt, false, 0, flagsOf(encoding));
    }

    @Override
    public void putEncodedKeepExpiry(byte[] key, int offset, int length, byte[] value, long now,
                                     StringEncoding encoding) {
        store(key, offset, length, null, value, 0, value.length, Keyspace.NO_EXPIRY, true, now, flagsOf(encoding));
    }

    private static int flagsOf(StringEncoding encoding) {
        return switch (encoding) {
            case FROM_BYTES -> 0;
            case TEXT -> TEXT;
            case RAW -> RAW;
            case UNSHARED -> RAW | TEXT;
        };
    }

    /**
     * Stores an aggregate: an inline form as bytes in the entry, held so that the caller may go on
     * changing it before it calls modified(); any other value in the side table.
     */
    private void storeAggregate(byte[] key, int offset, int length, Object value, long expireAt, boolean keepExpiry,
                                long now) {
        if (value instanceof Aggregate.Packed inline && inline.packedForm() != 0) {
            store(key, offset, length, null, inline.packedArray(), 0, inline.packedLength(), expireAt, keepExpiry,
                now, inline.packedForm() << FORM_SHIFT);
            hold(KeyHash.of(key, offset, length), Arrays.copyOfRange(key, offset, offset + length), inline);
        } else {
            store(key, offset, length, value, null, 0, 0, expireAt, keepExpiry, now, 0);
        }
    }

    @Override
    public StringEncoding stringEncoding(byte[] key, int offset, int length, long now) {
        if (findLive(key, offset, length, now) < 0) {
            return StringEncoding.FROM_BYTES;
        }
        return switch (entryFlags & STRING_MARKS) {
            case RAW -> StringEncoding.RAW;
            case TEXT -> StringEncoding.TEXT;
            case RAW | TEXT -> StringEncoding.UNSHARED;
            default -> StringEncoding.FROM_BYTES;
        };
    }

    /**
     * Stores bytes ({@code object} null: a string, or an inline form, as {@code valueFlags} says) or
     * an object under a key. With {@code keepExpiry} a live key keeps its expiry and a key whose
     * time has passed counts as absent; otherwise the expiry is {@code expireAt}. Same-size byte
     * overwrites are written in place. The flags are {@code valueFlags}, whatever the old entry's
     * were; a value held for the key is let go, as it is no longer the key's.
     */
    private void store(byte[] key, int offset, int length, Object object, byte[] value, int valueOffset,
                       int valueLength, long expireAt, boolean keepExpiry, long now, int valueFlags) {
        int hash = KeyHash.of(key, offset, length);
        if (!keepExpiry) {
            now = clock.getAsLong();
        }
        int index = keepExpiry ? findLive(key, offset, length, hash, now) : find(key, offset, length, hash);
        if (index >= 0 && !keepExpiry && expired(entryExpireAt(keyIndex.get(index)), now)) {
            removeExpired(index);
            index = -1;
        }
        if (index < 0) {
            insert(hash, writeEntry(hash, key, offset, length, object, value, valueOffset, valueLength, expireAt,
                accessPolicy.created(now), valueFlags));
            events.created(key, offset, length);
            return;
        }
        releaseKey(hash, key, offset, length);
        long old = keyIndex.get(index);
        if (keepExpiry) {
            expireAt = entryExpireAt(old);
        }
        int entryOffset = offsetOf(old);
        int access = accessPolicy.overwritten((int) INT.get(entryPage, entryOffset) >>> 8, now);
        boolean expires = expireAt != Keyspace.NO_EXPIRY;
        if (object == null && (entryFlags & OBJECT) == 0 && entryValueLength == valueLength
            && ((old & EXPIRES_BIT) != 0) == expires && roomOf(old) == 0) {
            System.arraycopy(value, valueOffset, entryPage, entryValueOffset, valueLength);
            INT.set(entryPage, entryOffset,
                access << 8 | entryFlags & (0xff & ~(STRING_MARKS | FORM_MASK)) | valueFlags);
            if (expires) {
                LONG.set(entryPage, entryKeyOffset - 8, expireAt);
            }
            return;
        }
        boolean expiredBefore = (old & EXPIRES_BIT) != 0;
        keyIndex.set(index, writeEntry(hash, key, offset, length, object, value, valueOffset, valueLength, expireAt,
            access, valueFlags));
        expiring += (expires ? 1 : 0) - (expiredBefore ? 1 : 0);
        free(old);
    }

    @Override
    public boolean editString(byte[] key, int offset, int length, int minLength, long now, ValueView view) {
        int hash = KeyHash.of(key, offset, length);
        int index = findLive(key, offset, length, hash, now);
        if (index < 0) {
            insert(hash, writeEntry(hash, key, offset, length, null, null, 0, minLength, Keyspace.NO_EXPIRY,
                accessPolicy.created(now), RAW));
            events.created(key, offset, length);
            index = find(key, offset, length, hash);
        } else if ((entryFlags & OBJECT) != 0) {
            int objectIndex = (int) INT.get(entryPage, entryValueOffset);
            if (!(objects[objectIndex] instanceof EditedString edited)) {
                return false;
            }
            edited.grow(minLength);
            recountObject(objectIndex);
            edited.view(view);
            return true;
        } else if ((entryFlags & FORM_MASK) != 0) {
            return false;
        } else if (minLength > EditedString.MAX_PREALLOC) {
            EditedString edited = EditedString.copyOf(entryPage, entryValueOffset, entryValueLength, minLength);
            rewrite(index, entryExpireAt(keyIndex.get(index)), edited, null, 0, 0, RAW);
            edited.view(view);
            return true;
        } else if (minLength > entryValueLength) {
            grow(index, minLength);
        }
        decode(keyIndex.get(index));
        int header = (int) INT.get(entryPage, offsetOf(keyIndex.get(index)));
        INT.set(entryPage, offsetOf(keyIndex.get(index)), header & ~STRING_MARKS | RAW);
        view.setString(entryPage, entryValueOffset, entryValueLength);
        return true;
    }

    /**
     * Grows the string entry at an index (the one the entry fields hold) to {@code minLength}
     * bytes, zeros past its old value: into its room when it has enough, else into a new entry,
     * with room ({@link EditedString#capacityFor}) when that takes a page of its own.
     */
    private void grow(int index, int minLength) {
        long old = keyIndex.get(index);
        int entryOffset = offsetOf(old);
        int lengthAt = entryOffset + HEADER + varintSize(entryKeyLength);
        int lengthBytes = entryKeyOffset - lengthAt - ((old & EXPIRES_BIT) != 0 ? 8 : 0);
        int added = minLength - entryValueLength;
        if (added <= roomOf(old) && varintSize(minLength) <= lengthBytes) {
            writeVarint(entryPage, lengthAt, minLength, lengthBytes);
            pageUsed[pageOf(old)] += added;
            return;
        }
        boolean expires = (old & EXPIRES_BIT) != 0;
        int overhead = HEADER + varintSize(entryKeyLength) + PADDED_VARINT + (expires ? 8 : 0) + entryKeyLength;
        int capacity = EditedString.capacityFor(minLength, Integer.MAX_VALUE - 16 - overhead);
        boolean room = overhead + capacity >= LARGE_ENTRY;
        int size = room ? overhead + minLength : entrySize(entryKeyLength, minLength, expires);
        long location = room ? allocateOwn(size, overhead + capacity) : allocate(size);
        byte[] page = pages[pageOf(location)];
        int position = offsetOf(location);
        INT.set(page, position, (int) INT.get(entryPage, entryOffset));
        position = writeVarint(page, position + HEADER, entryKeyLength);
        if (room) {
            writeVarint(page, position, minLength, PADDED_VARINT);
            position += PADDED_VARINT;
        } else {
            position = writeVarint(page, position, minLength);
        }
        if (expires) {
            LONG.set(page, position, (long) LONG.get(entryPage, entryKeyOffset - 8));
            position += 8;
        }
        System.arraycopy(entryPage, entryKeyOffset, page, position, entryKeyLength + entryValueLength);
        position += entryKeyLength + entryValueLength;
        if (!room) {
            Arrays.fill(page, position, position + added, (byte) 0);
        }
        keyIndex.set(index, old & ~LOCATION_MASK | location);
        free(old);
    }

    /** The bytes a side-table or materialized value counts: a chunked string's, or an aggregate's own estimate. */
    private static long objectBytes(Object value) {
        if (value instanceof EditedString edited) {
            return edited.memoryUsage();
        }
        return value instanceof Aggregate aggregate ? aggregate.memoryUsage() : 0;
    }

    /** A string's bytes plus an array header's 16, its room included; a side-table value's {@link #objectBytes}. */
    @Override
    public long valueMemory(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return -1;
        }
        if ((entryFlags & OBJECT) != 0) {
            return objectBytes(objects[(int) INT.get(entryPage, entryValueOffset)]);
        }
        if ((entryFlags & FORM_MASK) != 0) {
            return objectBytes(value());
        }
        return 16L + entryValueLength + roomOf(keyIndex.get(index));
    }

    @Override
    public boolean setExpireAt(byte[] key, int offset, int length, long expireAt, long now) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        long old = keyIndex.get(index);
        boolean expires = expireAt != Keyspace.NO_EXPIRY;
        if (((old & EXPIRES_BIT) != 0) == expires) {
            if (expires) {
                LONG.set(entryPage, entryKeyOffset - 8, expireAt);
            }
            return true;
        }
        // The entry changes size: rewrite it with or without its expiry field.
        if ((entryFlags & OBJECT) != 0) {
            rewrite(index, expireAt, objects[(int) INT.get(entryPage, entryValueOffset)], null, 0, 0,
                entryFlags & STRING_MARKS);
        } else {
            rewrite(index, expireAt, null, entryPage, entryValueOffset, entryValueLength,
                entryFlags & (STRING_MARKS | FORM_MASK));
        }
        expiring += expires ? 1 : -1;
        return true;
    }

    /**
     * Replaces the entry at an index (the one the entry fields hold) by one with the same key and
     * access field, and the given expiry and value (as {@link #writeEntry} takes it). The value
     * may lie in the old entry's page: nothing is freed before the new entry is written.
     */
    private void rewrite(int index, long expireAt, Object object, byte[] value, int valueOffset, int valueLength,
                         int valueFlags) {
        long old = keyIndex.get(index);
        int access = (int) INT.get(entryPage, offsetOf(old)) >>> 8;
        int hash = KeyHash.of(entryPage, entryKeyOffset, entryKeyLength);
        keyIndex.set(index, writeEntry(hash, entryPage, entryKeyOffset, entryKeyLength, object, value, valueOffset,
            valueLength, expireAt, access, valueFlags));
        free(old, object != null);
    }

    /**
     * Writes an inline value's current state into the entry at an index (the one the entry fields
     * hold), in place when the size is unchanged; a value in its large form moves to the side table.
     */
    private void writeBack(int index, Aggregate.Packed value) {
        int form = value.packedForm();
        long expireAt = entryExpireAt(keyIndex.get(index));
        if (form == 0) {
            rewrite(index, expireAt, value, null, 0, 0, 0);
            return;
        }
        int length = value.packedLength();
        int flags = form << FORM_SHIFT;
        if ((entryFlags & FORM_MASK) == flags && entryValueLength == length) {
            System.arraycopy(value.packedArray(), 0, entryPage, entryValueOffset, length);
        } else {
            rewrite(index, expireAt, null, value.packedArray(), 0, length, flags);
        }
    }

    /* ---- held inline values ---- */

    /** The index of the value held for a key, or -1. */
    private int heldIndex(int hash, byte[] key, int offset, int length) {
        for (int i = 0; i < heldCount; i++) {
            if (heldHashes[i] == hash && Arrays.equals(heldKeys[i], 0, heldKeys[i].length, key, offset, offset + length)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Holds an inline value for a key ({@code key} is the table's own copy), in place of the one
     * held for it if any. When all places are taken one is written back and let go, each place in
     * turn: a command changes a value between its lookup and its modified() with at most a few
     * other keys looked up meanwhile, far fewer than {@link #HELD}.
     */
    private void hold(int hash, byte[] key, Aggregate.Packed value) {
        if (heldValues == null) {
            heldHashes = new int[HELD];
            heldKeys = new byte[HELD][];
            heldValues = new Aggregate.Packed[HELD];
        }
        int at = heldIndex(hash, key, 0, key.length);
        if (at < 0 && heldCount < HELD) {
            at = heldCount++;
        } else if (at < 0) {
            at = heldVictim;
            heldVictim = (heldVictim + 1) % HELD;
            settle(at);
        }
        heldHashes[at] = hash;
        heldKeys[at] = key;
        heldValues[at] = value;
    }

    /** Writes a held value back into its key's entry, which holds its inline form still. */
    private void settle(int held) {
        byte[] key = heldKeys[held];
        int index = find(key, 0, key.length, heldHashes[held]);
        if (index >= 0 && (entryFlags & FORM_MASK) != 0) {
            writeBack(index, heldValues[held]);
        }
    }

    /** Lets a held value go, unwritten. */
    private void release(int held) {
        int last = --heldCount;
        heldHashes[held] = heldHashes[last];
        heldKeys[held] = heldKeys[last];
        heldValues[held] = heldValues[last];
        heldKeys[last] = null;
        heldValues[last] = null;
        if (heldVictim >= heldCount) {
            heldVictim = 0;
        }
    }

    /** Lets go of the value held for a key, if any: the key was deleted or given another value. */
    private void releaseKey(int hash, byte[] key, int offset, int length) {
        if (heldCount > 0) {
            int held = heldIndex(hash, key, offset, length);
            if (held >= 0) {
                release(held);
            }
        }
    }

    @Override
    public boolean remove(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        removeAt(index);
        return true;
    }

    @Override
    public void clear() {
        for (Object object : objects) {
            if (object instanceof EditedString edited) {
                edited.release();
            }
        }
        pool.dropAll(pageCount());
        keyIndex = newIndex();
        expiring = 0;
        expiryCursor = 0;
        pages = new byte[0][];
        pageLive = new int[0];
        pageUsed = new int[0];
        pageCount = 0;
        freePages = new int[0];
        freePageCount = 0;
        openPage = -1;
        pageBytes = 0;
        liveBytes = 0;
        objects = new Object[0];
        freeObjects = new int[0];
        objectSizes = new long[0];
        freeObjectCount = 0;
        objectCount = 0;
        objectBytes = 0;
        compactionQueued = 0;
        heldHashes = null;
        heldKeys = null;
        heldValues = null;
        heldCount = 0;
        heldVictim = 0;
    }

    private void insert(int hash, long slot) {
        keyIndex.insert(hash, slot);
        if ((slot & EXPIRES_BIT) != 0) {
            expiring++;
        }
        // A page the insert filled may have been queued (entries in it died while it was open).
        compactQueued();
    }

    /** Backward-shift deletion, then the entry is freed (freeing may compact, which looks slots up). */
    private void removeAt(int reference) {
        long removed = keyIndex.get(reference);
        if (heldCount > 0) {
            decode(removed);
            releaseKey(KeyHash.of(entryPage, entryKeyOffset, entryKeyLength), entryPage, entryKeyOffset,
                entryKeyLength);
        }
        if ((removed & EXPIRES_BIT) != 0) {
            expiring--;
        }
        keyIndex.remove(reference);
        free(removed);
        if (keyIndex.size() == 0 && keyIndex.capacity() > SegmentedIndex.MIN_SEGMENT * 64) {
            clear();
        }
    }

    /** SCAN over the index's home buckets in bit-reversed order: see {@link SegmentedIndex}. */
    @Override
    public long scan(long cursor, int count, long now, Consumer<byte[]> visitor, Consumer<byte[]> expired) {
        return keyIndex.scan(cursor, count, slot -> visit(slot, now, visitor, expired));
    }

    private void visit(long slot, long now, Consumer<byte[]> visitor, Consumer<byte[]> expired) {
        (expired(entryExpireAt(slot), now) ? expired : visitor).accept(keyOf(slot));
    }

    private byte[] keyOf(long slot) {
        decode(slot);
        return Arrays.copyOfRange(entryPage, entryKeyOffset, entryKeyOffset + entryKeyLength);
    }

    @Override
    public void forEachLive(long now, EntryVisitor visitor) {
        keyIndex.forEach(slot -> {
            long expireAt = entryExpireAt(slot);
            if (expired(expireAt, now)) {
                return;
            }
            decode(slot);
            byte[] key = Arrays.copyOfRange(entryPage, entryKeyOffset, entryKeyOffset + entryKeyLength);
            int access = (int) INT.get(entryPage, offsetOf(slot)) >>> 8;
            Object value = (entryFlags & (OBJECT | FORM_MASK)) == 0
                ? Arrays.copyOfRange(entryPage, entryValueOffset, entryValueOffset + entryValueLength)
                : unheldAggregate(key, 0, key.length);
            visitor.visit(key, value, expireAt, access);
        });
    }

    @Override
    public long scanEntries(long cursor, int count, long now, ValueView view, EntryReader reader) {
        return keyIndex.scan(cursor, count, slot -> readSlot(slot, now, view, reader));
    }

    /**
     * Whether the key's home bucket, under the capacity the cursor was issued for, comes before the
     * cursor in bit-reversed order. A table grown since only adds high bits to buckets, which
     * reversed fall below every bit the cursor compares.
     */
    @Override
    public boolean visited(long cursor, byte[] key, int offset, int length) {
        int log2 = (int) (cursor >>> 32);
        int mask = log2 >= 32 ? -1 : (1 << log2) - 1;
        int bucket = KeyHash.of(key, offset, length) & mask;
        return Integer.compareUnsigned(Integer.reverse(bucket), Integer.reverse((int) cursor)) < 0;
    }

    @Override
    public boolean readEntry(byte[] key, int offset, int length, long now, ValueView view, EntryReader reader) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        readSlot(keyIndex.get(index), now, view, reader);
        return true;
    }

    /** Hands a live entry to the reader where it lies: a string as a view of its page, no copy. */
    private void readSlot(long slot, long now, ValueView view, EntryReader reader) {
        long expireAt = entryExpireAt(slot);
        if (expired(expireAt, now)) {
            return;
        }
        decode(slot);
        byte[] page = entryPage;
        int keyOffset = entryKeyOffset;
        int keyLength = entryKeyLength;
        if ((entryFlags & (OBJECT | FORM_MASK)) == 0) {
            view.setString(page, entryValueOffset, entryValueLength);
        } else {
            view.setObject(unheldAggregate(page, keyOffset, keyLength));
        }
        reader.read(page, keyOffset, keyLength, view, expireAt, (int) INT.get(page, offsetOf(slot)) >>> 8);
    }

    /**
     * The aggregate of the entry {@link #decode} found (not a string), as {@link #value()} gives it
     * but without holding an inline value it decodes: a walk over every key would churn the held
     * places.
     */
    private Object unheldAggregate(byte[] key, int offset, int length) {
        if ((entryFlags & OBJECT) != 0) {
            return readerValue(objects[(int) INT.get(entryPage, entryValueOffset)]);
        }
        int form = (entryFlags & FORM_MASK) >>> FORM_SHIFT;
        int held = form == 0 ? -1 : heldIndex(KeyHash.of(key, offset, length), key, offset, length);
        if (held >= 0) {
            return heldValues[held];
        }
        byte[] bytes = Arrays.copyOfRange(entryPage, entryValueOffset, entryValueOffset + entryValueLength);
        return aggregates.unpack(form, bytes);
    }

    @Override
    public byte[] randomKey(long now) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 1024 && keyIndex.size() > 0; attempt++) {
            int reference = keyIndex.randomReference(random);
            for (int probe = 0, capacity = keyIndex.capacity(); probe < capacity && keyIndex.get(reference) == 0; probe++) {
                reference = keyIndex.next(reference);
            }
            if (expired(entryExpireAt(keyIndex.get(reference)), now)) {
                removeExpired(reference);
                continue;
            }
            return keyOf(keyIndex.get(reference));
        }
        return null;
    }

    /**
     * Offers up to {@code count} entries from consecutive slots at a random place (Redis's
     * dictGetSomeKeys), only those with an expiry when {@code volatileOnly}. The walk is bounded
     * by the table and by 8 * (count + 2) times the slots per candidate on average: enough that
     * it comes back empty-handed only by rare chance while candidates exist.
     */
    @Override
    public int sample(int count, boolean volatileOnly, EvictionCandidates candidates) {
        int population = volatileOnly ? expiring : keyIndex.size();
        if (population == 0) {
            return 0;
        }
        int capacity = keyIndex.capacity();
        long steps = Math.min(capacity, 8L * (count + 2) * (capacity / population + 1));
        int reference = keyIndex.randomReference(ThreadLocalRandom.current());
        int offered = 0;
        for (long step = 0; step < steps && offered < count; step++, reference = keyIndex.next(reference)) {
            long slot = keyIndex.get(reference);
            if (slot == 0 || volatileOnly && (slot & EXPIRES_BIT) == 0) {
                continue;
            }
            long expireAt = entryExpireAt(slot);
            decode(slot);
            candidates.offer(entryPage, entryKeyOffset, entryKeyLength,
                (int) INT.get(entryPage, offsetOf(slot)) >>> 8, expireAt);
            offered++;
        }
        return offered;
    }

    @Override
    public int expireSome(long now, int slotsToExamine) {
        if (expiring == 0) {
            return 0;
        }
        int deleted = 0;
        SegmentedIndex examined = keyIndex;
        int reference = keyIndex.holds(expiryCursor) ? expiryCursor : 0;
        for (int n = 0; n < slotsToExamine && expiring > 0; n++) {
            long slot = keyIndex.get(reference);
            if ((slot & EXPIRES_BIT) != 0 && expired(entryExpireAt(slot), now)) {
                removeExpired(reference);
                deleted++;
                if (keyIndex != examined) {
                    reference = 0;
                    break;
                }
                continue;
            }
            reference = keyIndex.next(reference);
        }
        expiryCursor = reference;
        return deleted;
    }
}
