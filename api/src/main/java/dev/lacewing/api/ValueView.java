package dev.lacewing.api;

/**
 * Where a stored value lies, filled by {@link Keyspace#getValue}: a string as a slice of an array
 * the keyspace owns (a page of a packed keyspace, or the value's own array), a string stored in
 * chunks (a long string grown by edits: fixed-size arrays, byte {@code i} at
 * {@code chunks[i / chunkSize][i % chunkSize]}), or any other type as its object. Reading through a
 * view allocates nothing, except {@link #array()} on a chunked string; the slice is valid only until
 * the keyspace next changes, so a command copies it (into its reply, say) before it writes.
 *
 * <p>Commands that write through a view ({@link Keyspace#editString}) use {@link #write} and
 * {@link #setByteAt}, which serve both forms; {@link #array()} of a chunked string is a copy.
 *
 * <p>Thread rule: one view per executing command; the connection that owns it runs one command at a time.
 */
public final class ValueView {

    private byte[] array;
    private int offset;
    private int length;
    private Object object;
    private byte[][] chunks;
    private int chunkSize;
    private StringHandle handle;
    private boolean takesHandles;

    public void setString(byte[] array, int offset, int length) {
        this.array = array;
        this.offset = offset;
        this.length = length;
        this.object = null;
        this.chunks = null;
        this.handle = null;
    }

    /**
     * Whether whoever reads through this view takes a string as a {@link StringHandle} and
     * releases it (a snapshot's walk, which reads the bytes on its writer's thread). False unless
     * set: a storage then sets the bytes themselves.
     */
    public boolean takesHandles() {
        return takesHandles;
    }

    public void takesHandles(boolean takes) {
        this.takesHandles = takes;
    }

    /**
     * A string held out of memory, by a handle the reader takes (only into a view that
     * {@link #takesHandles}). {@link #array()} still works, reading it now, without releasing it.
     */
    public void setHandle(StringHandle handle) {
        this.array = null;
        this.offset = 0;
        this.length = handle.length();
        this.object = null;
        this.chunks = null;
        this.handle = handle;
    }

    /** The handle of a string held out of memory ({@link #setHandle}); null otherwise. */
    public StringHandle handle() {
        return handle;
    }

    /** A string of {@code length} bytes held in {@code chunks} of {@code chunkSize} bytes each. */
    public void setChunks(byte[][] chunks, int chunkSize, int length) {
        this.array = null;
        this.offset = 0;
        this.length = length;
        this.object = null;
        this.chunks = chunks;
        this.chunkSize = chunkSize;
        this.handle = null;
    }

    public void setObject(Object object) {
        this.array = null;
        this.chunks = null;
        this.handle = null;
        this.object = object;
    }

    public boolean isString() {
        return array != null || chunks != null || handle != null;
    }

    /** Whether the string is held in chunks ({@link #chunks}) rather than one slice. */
    public boolean isChunked() {
        return chunks != null;
    }

    /**
     * The array holding the string, from {@link #offset()}. For a chunked string a copy of the whole
     * string (made once per lookup, offset 0): readers that do not go chunk by chunk stay correct,
     * at the cost of the copy, but writes into it are lost.
     */
    public byte[] array() {
        if (chunks != null && array == null) {
            array = new byte[length];
            copyTo(0, array, 0, length);
        } else if (handle != null && array == null) {
            array = handle.read();
        }
        return array;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    public byte[][] chunks() {
        return chunks;
    }

    public int chunkSize() {
        return chunkSize;
    }

    /** Byte {@code index} of the string (below {@link #length()}). */
    public byte byteAt(int index) {
        return chunks != null ? chunks[index / chunkSize][index % chunkSize] : array[offset + index];
    }

    /** Sets byte {@code index} of a string opened for editing. */
    public void setByteAt(int index, byte value) {
        if (chunks != null) {
            chunks[index / chunkSize][index % chunkSize] = value;
        } else {
            array[offset + index] = value;
        }
    }

    /** Copies {@code count} bytes of the string from {@code from} into {@code target}. */
    public void copyTo(int from, byte[] target, int targetOffset, int count) {
        if (chunks == null) {
            System.arraycopy(array, offset + from, target, targetOffset, count);
            return;
        }
        while (count > 0) {
            int inChunk = from % chunkSize;
            int n = Math.min(count, chunkSize - inChunk);
            System.arraycopy(chunks[from / chunkSize], inChunk, target, targetOffset, n);
            from += n;
            targetOffset += n;
            count -= n;
        }
    }

    /** Writes {@code count} bytes of {@code source} into a string opened for editing, from {@code to}. */
    public void write(int to, byte[] source, int sourceOffset, int count) {
        if (chunks == null) {
            System.arraycopy(source, sourceOffset, array, offset + to, count);
            return;
        }
        while (count > 0) {
            int inChunk = to % chunkSize;
            int n = Math.min(count, chunkSize - inChunk);
            System.arraycopy(source, sourceOffset, chunks[to / chunkSize], inChunk, n);
            to += n;
            sourceOffset += n;
            count -= n;
        }
    }

    /** The value of another type than string; null for a string. */
    public Object object() {
        return object;
    }

    /** Drops the references, so a view kept by a connection does not hold a page or value alive. */
    public void clear() {
        array = null;
        chunks = null;
        object = null;
        handle = null;
    }
}
