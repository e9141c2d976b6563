package dev.lacewing.api;

/**
 * Where a stored value lies, filled by {@link Keyspace#getValue}: a string as a slice of an array
 * the keyspace owns (a page of a packed keyspace, or the value's own array), or any other type as
 * its object. Reading through a view allocates nothing; the slice is valid only until the keyspace
 * next changes, so a command copies it (into its reply, say) before it writes.
 *
 * <p>Thread rule: one view per executing command; the connection that owns it runs one command at a time.
 */
public final class ValueView {

    private byte[] array;
    private int offset;
    private int length;
    private Object object;

    public void setString(byte[] array, int offset, int length) {
        this.array = array;
        this.offset = offset;
        this.length = length;
        this.object = null;
    }

    public void setObject(Object object) {
        this.array = null;
        this.object = object;
    }

    public boolean isString() {
        return array != null;
    }

    public byte[] array() {
        return array;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    /** The value of another type than string; null for a string. */
    public Object object() {
        return object;
    }

    /** Drops the references, so a view kept by a connection does not hold a page or value alive. */
    public void clear() {
        array = null;
        object = null;
    }
}
