package dev.lacewing.storage.compact;

import dev.lacewing.api.ValueView;
import dev.lacewing.api.storage.Table;
import java.util.Arrays;

/**
 * A string a table edits in place (APPEND, SETRANGE, SETBIT, BITFIELD through
 * {@link Table#editString}): its bytes and a length, the room past the length kept for
 * later growth as Redis's sds keeps {@code alloc - len}. {@link CompactTable} holds those grown
 * past {@link #MAX_PREALLOC} as one, in its side table. The table owns it alone (its {@code get}
 * hands out copies), so it may change it. Bytes past the length are always zero: the length only
 * grows, and new storage starts zeroed.
 *
 * <p>Two forms. Up to {@link #MAX_PREALLOC} one array, grown as sdsMakeRoomFor grows a string below
 * SDS_MAX_PREALLOC: to twice the needed length, copying once per doubling. A string that must grow
 * past it goes to {@link #CHUNK}-byte chunks: growth adds chunks and never copies what is stored,
 * as Redis's realloc extends a large allocation in place (a Java array cannot grow). Without chunks
 * each growth held the old and the new array at once and left the old one as garbage, so building
 * a 500 MB string peaked near three times its size. The chunked form keeps room as sds does past
 * 1 MiB: growth allocates chunks for the needed length plus 1 MiB, so the room is at most 1 MiB plus
 * a chunk, and it is counted ({@link #memoryUsage}).
 *
 * <p>A chunk is one G1 region of the launcher's 1 MiB regions: a humongous object, allocated
 * straight into its own region, never copied by a young collection, and freed by the next young
 * collection once nothing refers to it (G1's eager reclaim of primitive arrays), as a whole
 * string's single humongous array is. Chunks under the humongous threshold (256 KiB ones were
 * tried) live as ordinary objects: each young collection copied a growing string's chunks, they
 * were promoted, and once the string was deleted they stayed in the old generation until a
 * concurrent cycle, which G1 put off by growing the heap (the soak test, which APPENDs up to
 * 64 MiB and deletes in a loop, peaked at 1-1.4 GiB of RSS against 768 MiB). Eager reclaim
 * needs no stale reference from an old object either, so a table that drops a string
 * {@link #release releases} its chunks: the dead chunk list no longer points at them.
 *
 * <p>Thread rule: that of its table.
 */
final class EditedString {

    /** Redis's SDS_MAX_PREALLOC: the room past it, and the length past which a string is chunked. */
    static final int MAX_PREALLOC = 1024 * 1024;
    /** Bytes per chunk: 1 MiB less the array header, so that a chunk fills one 1 MiB G1 region. */
    static final int CHUNK = 1024 * 1024 - 16;
    /** The longest array the JVM allocates. */
    static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 16;
    /** Bytes counted for this object beyond its storage: header, references and length, aligned. */
    static final int OBJECT_BYTES = 24;

    /** The single array, null once chunked. */
    private byte[] bytes;
    /** The chunks in use first, null until chunked. */
    private byte[][] chunks;
    private int chunkCount;
    private int length;

    private EditedString(byte[] bytes, int length) {
        this.bytes = bytes;
        this.length = length;
    }

    /** A copy of a slice to edit, grown to {@code minLength} with room to spare when shorter. */
    static EditedString copyOf(byte[] value, int offset, int valueLength, int minLength) {
        if (minLength <= valueLength) {
            return new EditedString(Arrays.copyOfRange(value, offset, offset + valueLength), valueLength);
        }
        if (minLength <= MAX_PREALLOC) {
            byte[] array = new byte[capacityFor(minLength, 2 * MAX_PREALLOC)];
            System.arraycopy(value, offset, array, 0, valueLength);
            return new EditedString(array, minLength);
        }
        EditedString string = new EditedString(new byte[0], 0);
        string.grow(minLength);
        string.write(0, value, offset, valueLength);
        return string;
    }

    /**
     * The capacity to allocate for a string that must hold {@code minLength} bytes and does not
     * fit where it is, as sdsMakeRoomFor: twice that below {@link #MAX_PREALLOC}, plus 1 MiB
     * beyond; never above {@code limit}, never below {@code minLength}.
     */
    static int capacityFor(int minLength, int limit) {
        long capacity = minLength < MAX_PREALLOC ? 2L * minLength : (long) minLength + MAX_PREALLOC;
        return (int) Math.max(minLength, Math.min(capacity, limit));
    }

    /** Grows the string to {@code minLength} zero-padded bytes when shorter, in place when the room allows. */
    void grow(int minLength) {
        if (minLength <= length) {
            return;
        }
        if (chunks == null && minLength <= bytes.length) {
            length = minLength;
            return;
        }
        if (chunks == null && minLength <= MAX_PREALLOC) {
            bytes = Arrays.copyOf(bytes, capacityFor(minLength, 2 * MAX_PREALLOC));
        } else if (minLength > (long) chunkCount * CHUNK) {
            addChunks(minLength, MAX_PREALLOC);
        }
        length = minLength;
    }

    /**
     * Adds chunks for {@code minLength} bytes plus {@code room}; the first time, moves the array's
     * {@link #length} bytes into chunks.
     */
    private void addChunks(int minLength, int room) {
        long capacity = Math.min((long) minLength + room, MAX_ARRAY_LENGTH);
        int needed = (int) ((capacity + CHUNK - 1) / CHUNK);
        byte[] single = chunks == null ? bytes : null;
        if (chunks == null || needed > chunks.length) {
            chunks = Arrays.copyOf(chunks == null ? new byte[0][] : chunks, Math.max(needed, chunkCount * 2));
        }
        while (chunkCount < needed) {
            chunks[chunkCount++] = new byte[CHUNK];
        }
        if (single != null) {
            bytes = null;
            write(0, single, 0, length);
        }
    }

    private void write(int to, byte[] source, int sourceOffset, int count) {
        while (count > 0) {
            int inChunk = to % CHUNK;
            int n = Math.min(count, CHUNK - inChunk);
            System.arraycopy(source, sourceOffset, chunks[to / CHUNK], inChunk, n);
            to += n;
            sourceOffset += n;
            count -= n;
        }
    }

    /** Points a view at the string, writable until the table next changes it. */
    void view(ValueView view) {
        if (chunks != null) {
            view.setChunks(chunks, CHUNK, length);
        } else {
            view.setString(bytes, 0, length);
        }
    }

    int length() {
        return length;
    }

    /** A copy of the string, for readers that keep what they are given. */
    byte[] toBytes() {
        if (chunks == null) {
            return Arrays.copyOf(bytes, length);
        }
        byte[] copy = new byte[length];
        for (int at = 0; at < length; at += CHUNK) {
            System.arraycopy(chunks[at / CHUNK], 0, copy, at, Math.min(CHUNK, length - at));
        }
        return copy;
    }

    /**
     * Drops the storage of a string its table no longer holds, so that no reference from a dead
     * chunk list keeps its chunks from being reclaimed at once; the string is not used after.
     */
    void release() {
        if (chunks != null) {
            Arrays.fill(chunks, 0, chunkCount, null);
        }
        chunks = null;
        chunkCount = 0;
        bytes = null;
        length = 0;
    }

    /** Bytes held: this object and its storage, spare room included. */
    long memoryUsage() {
        if (chunks == null) {
            return OBJECT_BYTES + 16L + bytes.length;
        }
        return OBJECT_BYTES + 16L + 8L * chunks.length + (long) chunkCount * (16 + CHUNK);
    }
}
