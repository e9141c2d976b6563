package dev.lacewing.core.datatype;

/**
 * An aggregate whose small encoding {@code CompactTable} keeps as bytes inside the key's entry,
 * with no Java object at rest: the listpack form of a hash, the intset form of a set. The table
 * materializes a value from those bytes when a command looks the key up, and writes the bytes back
 * when the command reports the change ({@link dev.lacewing.api.Keyspace#modified}); see
 * {@code CompactTable} for the rules that keep the two in step.
 *
 * <p>Thread rule: as {@link TypedValue}.
 */
public interface InlineValue extends TypedValue {

    /** The listpack form of a hash: its {@code varint length, bytes} pairs. */
    int HASH_LISTPACK = 1;
    /** The intset form of a set: the width byte, then the members. */
    int SET_INTSET = 2;

    /** The form the value is in now ({@link #HASH_LISTPACK}, {@link #SET_INTSET}), 0 in its large form. */
    int inlineForm();

    /** The array holding the encoding from index 0, {@link #inlineLength} bytes of it; read only. */
    byte[] inlineArray();

    int inlineLength();
}
