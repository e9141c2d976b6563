package dev.lacewing.core.datatype;

import java.util.function.IntBinaryOperator;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;

/**
 * The SCAN walk of a single-array linear-probing table: home buckets visited in bit-reversed
 * cursor order, as Redis's dictScan does, with the table's log2 capacity carried in the cursor's
 * high bits. The sorted set's member index uses it for ZSCAN; storage-compact's {@code SegmentedIndex} walks its
 * segments with the same cursor format.
 *
 * <p>Why this keeps SCAN's guarantee. A bucket is the set of entries whose home slot
 * ({@code hash & mask}) is one slot; visiting it means probing from that slot to the next empty
 * one and taking the entries homed there. Linear probing without tombstones keeps every slot from
 * an entry's home to its slot occupied, and backward shift moves an entry only towards its home,
 * never before it, so a visit finds exactly the bucket's entries at that moment, as a chained
 * table's bucket would, whatever deletions, expiries or insertions came between steps. Buckets
 * are visited in bit-reversed cursor order, so when a doubling splits a bucket in two, both
 * halves fall on the same side of the cursor: a full iteration returns every key present for its
 * whole duration, growth causes no duplicates, and a shrink (only back to the minimum, when the
 * table empties) may cause some. Unlike restarting after a resize, this keeps making progress
 * while the table keeps growing. The work is one probe run per bucket: O(1 / (1 - load)^2)
 * expected slots, about 8 at a 3/4 load bound.
 *
 * <p>A cursor is {@code log2(capacity) << 32 | bucketCursor}, the capacity being the one it was
 * issued for; one issued for another capacity is read as dictScan reads one across a resize. The
 * capacity field lets a cursor no step could have issued (a field out of range, a bucket cursor at
 * or past that capacity) end the scan rather than start one somewhere arbitrary. Every step
 * advances the bit-reversed cursor, so over a table that does not change any cursor reaches 0
 * within capacity steps.
 */
public final class HomeBucketScan {

    private static final int CURSOR_CAPACITY_SHIFT = 32;
    private static final long CURSOR_BUCKET_MASK = (1L << CURSOR_CAPACITY_SHIFT) - 1;
    /** The tables never go below 16 slots nor above 2^30. */
    private static final int MIN_LOG2_CAPACITY = 4;
    private static final int MAX_LOG2_CAPACITY = 30;

    private HomeBucketScan() {
    }

    /**
     * Visits {@code count} buckets from {@code cursor} and returns the next cursor, or 0 once the
     * scan is complete. A cursor no step could have issued ends the scan.
     *
     * @param capacity  the table's slot count, a power of two
     * @param occupied  whether a slot holds an entry
     * @param home      the home slot of the entry in a slot, given the mask {@code capacity - 1}
     * @param visit     visits the entry in a slot (the table skips expired ones)
     */
    public static long scan(int capacity, long cursor, int count, IntPredicate occupied, IntBinaryOperator home,
                     IntConsumer visit) {
        return scan(capacity, capacity, cursor, count, occupied, home, visit);
    }

    /**
     * The same for a table whose array has fewer slots than its capacity ({@code length}): a
     * home at or past the array's end starts its probe run at {@code home - length}, and runs wrap
     * at the array's end. Buckets stay the capacity's homes, so the cursor and its guarantee do not
     * change.
     */
    public static long scan(int capacity, int length, long cursor, int count, IntPredicate occupied,
                            IntBinaryOperator home, IntConsumer visit) {
        if (cursor == 0 && count >= capacity) {
            // The whole table in one step (KEYS): slot order visits each entry once, without probe runs.
            for (int i = 0; i < length; i++) {
                if (occupied.test(i)) {
                    visit.accept(i);
                }
            }
            return 0;
        }
        long cursorLog2 = cursor >>> CURSOR_CAPACITY_SHIFT;
        long bucketCursor = cursor & CURSOR_BUCKET_MASK;
        if (cursor != 0
            && (cursorLog2 < MIN_LOG2_CAPACITY || cursorLog2 > MAX_LOG2_CAPACITY || bucketCursor >> cursorLog2 != 0)) {
            return 0;
        }
        int mask = capacity - 1;
        for (int n = Math.max(count, 1); n > 0; n--) {
            int bucket = (int) bucketCursor & mask;
            for (int i = bucket < length ? bucket : bucket - length; occupied.test(i); i = i + 1 == length ? 0 : i + 1) {
                if (home.applyAsInt(i, mask) == bucket) {
                    visit.accept(i);
                }
            }
            // Increment the cursor's bits from the top, as dictScan does.
            bucketCursor = Long.reverse(Long.reverse(bucketCursor | ~(long) mask) + 1);
            if (bucketCursor == 0) {
                return 0;
            }
        }
        return (long) Integer.numberOfTrailingZeros(capacity) << CURSOR_CAPACITY_SHIFT | bucketCursor;
    }
}
