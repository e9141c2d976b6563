package dev.lacewing.core.keyspace;

import java.util.Arrays;

/**
 * A string the {@code objects} layout ({@link KeyTable}) edits in place (APPEND, SETRANGE, SETBIT,
 * BITFIELD through {@link DatabaseTable#editString}): its bytes and a length, the array's room
 * past the length kept for later growth as Redis's sds keeps {@code alloc - len}. The table owns
 * the array alone ({@link KeyTable#get} hands out copies), so it may change it. Bytes past the
 * length are always zero: the length only grows, and a grown array starts zeroed.
 *
 * <p>{@link #capacityFor} is the growth rule of both layouts. Redis's sdsMakeRoomFor doubles the
 * needed length below 1 MiB (SDS_MAX_PREALLOC) and adds 1 MiB above; that is linear over a run of
 * appends only because realloc extends a large allocation in place. A Java array cannot grow in
 * place, so from 8 MiB the room is an eighth of the length instead: each growth copies the
 * string once, so a run of appends copies, amortized, at most about eight bytes per byte appended
 * (the geometric series of 1/8), where a fixed 1 MiB would copy the whole string again every MiB
 * appended. The room costs at most an eighth of the string (Redis's: at most 1 MiB).
 *
 * <p>Thread rule: that of its table.
 */
final class EditedString {

    /** Redis's SDS_MAX_PREALLOC. */
    static final int MAX_PREALLOC = 1024 * 1024;
    /** The longest array the JVM allocates. */
    static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 16;
    /** Bytes counted for this object beyond its array: header, reference and length, aligned. */
    static final int OBJECT_BYTES = 24;

    private byte[] bytes;
    private int length;

    private EditedString(byte[] bytes, int length) {
        this.bytes = bytes;
        this.length = length;
    }

    /** {@code minLength} zero bytes and no room to spare, as sdsnewlen makes a new string. */
    static EditedString zeros(int minLength) {
        return new EditedString(new byte[minLength], minLength);
    }

    /** A copy of a stored string to edit, grown to {@code minLength} with room to spare when shorter. */
    static EditedString copyOf(byte[] value, int minLength) {
        if (minLength <= value.length) {
            return new EditedString(value.clone(), value.length);
        }
        return new EditedString(Arrays.copyOf(value, capacityFor(minLength, MAX_ARRAY_LENGTH)), minLength);
    }

    /**
     * The capacity to allocate for a string that must hold {@code minLength} bytes and does not
     * fit where it is: twice that below {@link #MAX_PREALLOC}, plus 1 MiB up to 8 MiB, plus an
     * eighth beyond; never above {@code limit}, never below {@code minLength}.
     */
    static int capacityFor(int minLength, int limit) {
        long capacity = minLength < MAX_PREALLOC ? 2L * minLength
            : minLength + Math.max((long) MAX_PREALLOC, minLength / 8);
        return (int) Math.max(minLength, Math.min(capacity, limit));
    }

    /** Grows the string to {@code minLength} zero-padded bytes when shorter, in place when the room allows. */
    void grow(int minLength) {
        if (minLength <= length) {
            return;
        }
        if (minLength > bytes.length) {
            bytes = Arrays.copyOf(bytes, capacityFor(minLength, MAX_ARRAY_LENGTH));
        }
        length = minLength;
    }

    byte[] array() {
        return bytes;
    }

    int length() {
        return length;
    }

    /** A copy of the string, for readers that keep what they are given. */
    byte[] toBytes() {
        return Arrays.copyOf(bytes, length);
    }

    /** Bytes held: this object and its whole array, spare room included. */
    long memoryUsage() {
        return OBJECT_BYTES + 16L + bytes.length;
    }
}
