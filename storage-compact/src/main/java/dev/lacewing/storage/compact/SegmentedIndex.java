package dev.lacewing.storage.compact;

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongConsumer;
import java.util.function.LongToIntFunction;

/**
 * {@link CompactTable}'s index: extendible hashing over segments of open-addressed slots, as
 * Dragonfly's dashtable, so that growing costs one segment's rehash and never the whole table's.
 *
 * <p>A slot is a {@code long}, 0 when empty, whose top {@link #TAG_BITS} bits are the low bits of
 * its key's hash (the rest is the table's). A segment is {@code 2^segmentBits} slots (4096, 32 KiB)
 * with linear probing in Robin Hood order, wrapping at its own end: a key's home is the low
 * {@code segmentBits} bits of its hash, an insert takes the slot of the first entry nearer its home
 * than the new one would be, a miss ends at the first entry nearer its home than the probe is, and
 * deletion shifts the run back to the first entry in its home. The directory maps the next
 * {@code globalDepth} hash bits (from bit {@code segmentBits} up) to a segment number; a segment of
 * local depth {@code d} serves every directory index agreeing with it on the low {@code d} bits.
 *
 * <p>A segment is split when an insert would fill it past 7/8: the entries whose hash has bit
 * {@code segmentBits + d} set move to a new segment, both get depth {@code d + 1}, and the
 * directory doubles first (a copy of its ints) if {@code d} was the global depth. A split reads
 * the tags only while those bits lie in them ({@code segmentBits + d < 24}: 4096 segments, about
 * 14M keys), beyond that it reads each moved key's hash from its entry. The first segment starts at
 * 16 slots and doubles in place until it is full size, so an empty table costs 128 bytes. The
 * largest single growth step is then one segment's rehash plus one directory copy, whatever the
 * table's size. Segments are never merged: a table emptied of its last key starts over.
 *
 * <p>Slots are addressed by a reference {@code segment << segmentBits | slot}; segments keep their
 * number for life, so a number names the same keys' range until that segment splits, and the unit a
 * snapshot versions is one segment.
 *
 * <p>SCAN walks virtual home buckets, a bucket being the hash's low {@code segmentBits + globalDepth}
 * bits (the lone segment's own bits before any split), in Redis's reverse-binary cursor order
 * (dictScan). A bucket's entries all lie in the run from their home slot in the segment the
 * directory names for them. A split or a directory doubling only adds high bits to the bucket
 * number, which the reversed cursor increments first, so every bucket still to come holds the
 * entries it did before: an entry present for the whole scan is returned at least once. Backward
 * shift and Robin Hood moves stay inside a run, which a step visits whole.
 *
 * <p>{@link #bytes} counts the arrays as allocated (without headers, as the table counts pages).
 * Thread rule: owned by one {@link CompactTable} and touched only by its thread.
 */
final class SegmentedIndex {

    /** Hash bits a slot holds, above {@link #TAG_SHIFT}. */
    static final int TAG_BITS = 24;
    static final int TAG_SHIFT = 64 - TAG_BITS;
    static final int SEGMENT_BITS = 12;
    static final int MIN_SEGMENT = 16;

    private static final int CURSOR_CAPACITY_SHIFT = 32;
    private static final long CURSOR_BUCKET_MASK = (1L << CURSOR_CAPACITY_SHIFT) - 1;
    private static final int MIN_LOG2_CAPACITY = 4;

    private final int segmentBits;
    /** Low hash bits the tags hold: {@link #TAG_BITS}, fewer in tests so that splits read keys early. */
    private final int taggedBits;
    /** The full hash of the key the entry a slot points to holds. */
    private final LongToIntFunction keyHash;
    /** The global depth at which the references {@code segment << segmentBits | slot} still fit an int. */
    private final int maxDepth;

    private long[][] segments = {new long[MIN_SEGMENT]};
    private int[] segmentSizes = new int[1];
    private byte[] depths = new byte[1];
    private int segmentCount = 1;
    private int[] directory = new int[1];
    private int globalDepth;
    private int size;
    private long slotBytes = MIN_SEGMENT * 8L;

    SegmentedIndex(LongToIntFunction keyHash) {
        this(SEGMENT_BITS, TAG_BITS, keyHash);
    }

    SegmentedIndex(int segmentBits, int taggedBits, LongToIntFunction keyHash) {
        this.segmentBits = segmentBits;
        this.taggedBits = taggedBits;
        this.keyHash = keyHash;
        this.maxDepth = 31 - segmentBits;
    }

    int size() {
        return size;
    }

    /** Slots in all segments. */
    int capacity() {
        return segmentCount == 1 ? segments[0].length : segmentCount << segmentBits;
    }

    int segmentCount() {
        return segmentCount;
    }

    /** The index's arrays, as allocated. */
    long bytes() {
        return slotBytes + (long) segments.length * (8 + 4 + 1) + (long) directory.length * 4;
    }

    /** The number of the segment a hash belongs to. */
    int segmentOf(int hash) {
        return directory[(hash >>> segmentBits) & (directory.length - 1)];
    }

    /** A segment's slots; its length is a power of two. */
    long[] segment(int segment) {
        return segments[segment];
    }

    int reference(int segment, int slot) {
        return segment << segmentBits | slot;
    }

    long get(int reference) {
        return segments[reference >>> segmentBits][reference & ((1 << segmentBits) - 1)];
    }

    /** Replaces the slot value at a reference by another for the same key (its home does not change). */
    void set(int reference, long slot) {
        segments[reference >>> segmentBits][reference & ((1 << segmentBits) - 1)] = slot;
    }

    /** How far past its home the entry in slot {@code index} of a segment of {@code mask + 1} slots sits. */
    static int displacement(long slot, int index, int mask) {
        return (index - (int) (slot >>> TAG_SHIFT)) & mask;
    }

    /** Adds a slot value for a key with the given hash, not yet in the index; may split its segment. */
    void insert(int hash, long slot) {
        int segment = segmentOf(hash);
        while ((segmentSizes[segment] + 1) * 8L > segments[segment].length * 7L) {
            grow(segment);
            segment = segmentOf(hash);
        }
        place(segments[segment], slot);
        segmentSizes[segment]++;
        size++;
    }

    /** Backward-shift deletion of the slot at a reference. */
    void remove(int reference) {
        int segment = reference >>> segmentBits;
        long[] slots = segments[segment];
        int mask = slots.length - 1;
        int hole = reference & mask;
        for (int i = (hole + 1) & mask; slots[i] != 0 && displacement(slots[i], i, mask) != 0; i = (i + 1) & mask) {
            slots[hole] = slots[i];
            hole = i;
        }
        slots[hole] = 0;
        segmentSizes[segment]--;
        size--;
    }

    /** Puts a slot value into a segment in Robin Hood order. */
    private static void place(long[] slots, long slot) {
        int mask = slots.length - 1;
        int i = (int) (slot >>> TAG_SHIFT) & mask;
        for (int distance = 0; ; i = (i + 1) & mask, distance++) {
            long occupant = slots[i];
            if (occupant == 0) {
                slots[i] = slot;
                return;
            }
            int theirs = displacement(occupant, i, mask);
            if (theirs < distance) {
                slots[i] = slot;
                slot = occupant;
                distance = theirs;
            }
        }
    }

    /** The low {@code bits} bits of the hash of a slot's key: from its tag while it holds them. */
    private int hashBits(long slot, int bits) {
        int hash = bits <= taggedBits ? (int) (slot >>> TAG_SHIFT) : keyHash.applyAsInt(slot);
        return bits >= 32 ? hash : hash & ((1 << bits) - 1);
    }

    /** Doubles the lone segment while it is short of full size, else splits the segment. */
    private void grow(int segment) {
        long[] old = segments[segment];
        if (old.length < 1 << segmentBits) {
            long[] grown = new long[old.length * 2];
            for (long slot : old) {
                if (slot != 0) {
                    place(grown, slot);
                }
            }
            segments[segment] = grown;
            slotBytes += old.length * 8L;
            return;
        }
        split(segment);
    }

    private void split(int segment) {
        int depth = depths[segment];
        if (depth == globalDepth) {
            if (globalDepth == maxDepth) {
                throw new IllegalStateException("keyspace table full: " + segmentCount + " index segments");
            }
            int length = directory.length;
            directory = Arrays.copyOf(directory, length * 2);
            System.arraycopy(directory, 0, directory, length, length);
            globalDepth++;
        }
        if (segmentCount == segments.length) {
            int capacity = segmentCount * 2;
            segments = Arrays.copyOf(segments, capacity);
            segmentSizes = Arrays.copyOf(segmentSizes, capacity);
            depths = Arrays.copyOf(depths, capacity);
        }
        int sibling = segmentCount++;
        long[] old = segments[segment];
        long[] low = new long[old.length];
        long[] high = new long[old.length];
        int bit = segmentBits + depth;
        int highSize = 0;
        for (long slot : old) {
            if (slot == 0) {
                continue;
            }
            if ((hashBits(slot, bit + 1) >>> bit & 1) != 0) {
                place(high, slot);
                highSize++;
            } else {
                place(low, slot);
            }
        }
        segments[segment] = low;
        segments[sibling] = high;
        segmentSizes[sibling] = highSize;
        segmentSizes[segment] -= highSize;
        depths[segment] = (byte) (depth + 1);
        depths[sibling] = (byte) (depth + 1);
        slotBytes += old.length * 8L;
        for (int i = 0; i < directory.length; i++) {
            if (directory[i] == segment && (i >>> depth & 1) != 0) {
                directory[i] = sibling;
            }
        }
    }

    /* ---- walks ---- */

    /** The reference after {@code reference} in segment-number order, wrapping at the end. */
    int next(int reference) {
        int segment = reference >>> segmentBits;
        int slot = (reference & ((1 << segmentBits) - 1)) + 1;
        if (slot == segments[segment].length) {
            slot = 0;
            segment = segment + 1 == segmentCount ? 0 : segment + 1;
        }
        return reference(segment, slot);
    }

    /** A reference to a slot picked at random: a segment, then a slot in it. */
    int randomReference(ThreadLocalRandom random) {
        int segment = random.nextInt(segmentCount);
        return reference(segment, random.nextInt(segments[segment].length));
    }

    /** Whether a reference (as a cursor kept across calls) names a slot of the index. */
    boolean holds(int reference) {
        int segment = reference >>> segmentBits;
        return reference >= 0 && segment < segmentCount
            && (reference & ((1 << segmentBits) - 1)) < segments[segment].length;
    }

    /** Visits every slot value, segment by segment. */
    void forEach(LongConsumer visit) {
        for (int segment = 0; segment < segmentCount; segment++) {
            for (long slot : segments[segment]) {
                if (slot != 0) {
                    visit.accept(slot);
                }
            }
        }
    }

    private int log2Capacity() {
        return globalDepth == 0 ? Integer.numberOfTrailingZeros(segments[0].length) : segmentBits + globalDepth;
    }

    /**
     * Visits {@code count} virtual home buckets from {@code cursor} and returns the next cursor, or 0
     * once the scan is complete (core's HomeBucketScan cursor format: log2 of the bucket count in
     * the high half). A cursor no step could have issued ends the scan.
     */
    long scan(long cursor, int count, LongConsumer visit) {
        if (cursor == 0 && count >= capacity()) {
            forEach(visit);
            return 0;
        }
        long cursorLog2 = cursor >>> CURSOR_CAPACITY_SHIFT;
        long bucketCursor = cursor & CURSOR_BUCKET_MASK;
        if (cursor != 0
            && (cursorLog2 < MIN_LOG2_CAPACITY || cursorLog2 > 31 || bucketCursor >> cursorLog2 != 0)) {
            return 0;
        }
        int log2 = log2Capacity();
        long mask = (1L << log2) - 1;
        for (int n = Math.max(count, 1); n > 0; n--) {
            int bucket = (int) (bucketCursor & mask);
            long[] slots = segments[directory[bucket >>> segmentBits & (directory.length - 1)]];
            int slotMask = slots.length - 1;
            for (int i = bucket & slotMask; slots[i] != 0; i = (i + 1) & slotMask) {
                if (hashBits(slots[i], log2) == bucket) {
                    visit.accept(slots[i]);
                }
            }
            // Increment the cursor's bits from the top, as dictScan does.
            bucketCursor = Long.reverse(Long.reverse(bucketCursor | ~mask) + 1);
            if (bucketCursor == 0) {
                return 0;
            }
        }
        return (long) log2 << CURSOR_CAPACITY_SHIFT | bucketCursor;
    }

    /**
     * What is wrong with the index, or null: for tests. Every entry sits in the segment the
     * directory names for its hash, reachable from its home without an empty slot between and at
     * most one slot further from it than the entry before; the counts add up; the directory
     * agrees with the local depths.
     */
    String fault() {
        int entries = 0;
        for (int i = 0; i < directory.length; i++) {
            int segment = directory[i];
            if (segment >= segmentCount || depths[segment] > globalDepth
                || directory[i & ((1 << depths[segment]) - 1)] != segment) {
                return "directory entry " + i + " names segment " + segment + " out of its depth";
            }
        }
        for (int segment = 0; segment < segmentCount; segment++) {
            long[] slots = segments[segment];
            int mask = slots.length - 1;
            int count = 0;
            for (int i = 0; i < slots.length; i++) {
                long slot = slots[i];
                if (slot == 0) {
                    continue;
                }
                count++;
                int hash = hashBits(slot, 32);
                if (segmentOf(hash) != segment) {
                    return "slot " + i + " of segment " + segment + " belongs to segment " + segmentOf(hash);
                }
                long before = slots[(i - 1) & mask];
                int expected = before == 0 ? 0 : displacement(before, (i - 1) & mask, mask) + 1;
                if (displacement(slot, i, mask) > expected) {
                    return "slot " + i + " of segment " + segment + " sits " + displacement(slot, i, mask)
                        + " from its home after one " + (expected - 1) + " from its own";
                }
            }
            if (count != segmentSizes[segment]) {
                return "segment " + segment + " holds " + count + " entries for a size of " + segmentSizes[segment];
            }
            entries += count;
        }
        return entries == size ? null : entries + " entries in the index for a size of " + size;
    }
}
