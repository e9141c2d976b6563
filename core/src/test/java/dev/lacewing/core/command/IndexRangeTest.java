package dev.lacewing.core.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The index arithmetic of LRANGE, LTRIM, LINDEX, LSET, ZRANGE, ZREMRANGEBYRANK, GETRANGE, BITCOUNT and BITPOS. */
class IndexRangeTest {

    @Test
    void negativeIndexesCountFromTheEndAndTheRangeIsCutToTheElements() {
        assertEquals(new IndexRange(0, 4), new IndexRange(0, -1).within(5));
        assertEquals(new IndexRange(3, 4), new IndexRange(-2, 100).within(5));
        assertEquals(new IndexRange(0, 1), new IndexRange(-100, 1).within(5));
        assertEquals(new IndexRange(2, 2), new IndexRange(2, 2).within(5));
        assertEquals(new IndexRange(0, 4), new IndexRange(Long.MIN_VALUE + 1, Long.MAX_VALUE).within(5));
    }

    @Test
    void aRangeWithNoElementIsNull() {
        assertNull(new IndexRange(3, 2).within(5));
        assertNull(new IndexRange(5, 10).within(5));
        assertNull(new IndexRange(0, -6).within(5));
        assertNull(new IndexRange(0, -1).within(0));
    }

    @Test
    void oneIndexIsCountedFromTheEndWhenNegativeAndMinusOneWhenOutside() {
        assertEquals(0, IndexRange.element(0, 3));
        assertEquals(2, IndexRange.element(-1, 3));
        assertEquals(0, IndexRange.element(-3, 3));
        assertEquals(-1, IndexRange.element(-4, 3));
        assertEquals(-1, IndexRange.element(3, 3));
        assertEquals(-1, IndexRange.element(Long.MIN_VALUE, 3));
    }

    @Test
    void byteOffsetsClampAnEndBeforeTheStartToTheFirstByteAndPastTheEndToTheLast() {
        assertEquals(0, IndexRange.clampStart(-100, 5));
        assertEquals(3, IndexRange.clampStart(-2, 5));
        assertEquals(7, IndexRange.clampStart(7, 5));
        assertEquals(0, IndexRange.clampEnd(-100, 5));
        assertEquals(4, IndexRange.clampEnd(-1, 5));
        assertEquals(4, IndexRange.clampEnd(Long.MAX_VALUE, 5));
        assertEquals(-1, IndexRange.clampEnd(0, 0));
    }
}
