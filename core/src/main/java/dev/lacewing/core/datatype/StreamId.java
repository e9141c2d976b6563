package dev.lacewing.core.datatype;

/**
 * A stream entry ID: two unsigned 64-bit numbers, milliseconds and sequence, ordered as unsigned
 * pairs (Redis's streamID). Immutable.
 */
public record StreamId(long ms, long seq) implements Comparable<StreamId> {

    public static final StreamId MIN = new StreamId(0, 0);
    public static final StreamId MAX = new StreamId(-1L, -1L);

    @Override
    public int compareTo(StreamId other) {
        return compare(ms, seq, other.ms, other.seq);
    }

    public static int compare(long ms, long seq, long otherMs, long otherSeq) {
        int byMs = Long.compareUnsigned(ms, otherMs);
        return byMs != 0 ? byMs : Long.compareUnsigned(seq, otherSeq);
    }

    /** The next ID, or null after {@link #MAX} (streamIncrID). */
    public StreamId next() {
        if (seq != -1L) {
            return new StreamId(ms, seq + 1);
        }
        return ms == -1L ? null : new StreamId(ms + 1, 0);
    }

    /** The previous ID, or null before {@link #MIN} (streamDecrID). */
    public StreamId previous() {
        if (seq != 0) {
            return new StreamId(ms, seq - 1);
        }
        return ms == 0 ? null : new StreamId(ms - 1, -1L);
    }

    public boolean isZero() {
        return ms == 0 && seq == 0;
    }

    /** {@code ms-seq} in unsigned decimal, as replies show it. */
    @Override
    public String toString() {
        return Long.toUnsignedString(ms) + "-" + Long.toUnsignedString(seq);
    }
}
