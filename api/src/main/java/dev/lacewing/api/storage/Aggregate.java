package dev.lacewing.api.storage;

/**
 * A stored value of an aggregate type (hash, list, set, sorted set, stream), opaque to a storage:
 * the datatypes live in core, and a {@link Table} only keeps, copies and counts them. Strings are
 * stored as plain {@code byte[]} and are not aggregates. A stored aggregate is never shared between
 * keys while mutable: a command that copies a key copies its value through {@link #copy()}.
 *
 * <p>Thread rule: touched only by the thread holding the partition the value is stored in.
 */
public interface Aggregate {

    /** The type name TYPE replies: {@code hash}, {@code list}, {@code set}, {@code zset}... */
    String typeName();

    /** The encoding OBJECT ENCODING replies. */
    String encoding();

    /** A deep copy, for COPY. */
    Aggregate copy();

    /** Bytes this value occupies, for MEMORY USAGE and used_memory. */
    long memoryUsage();

    /**
     * An aggregate whose small form is plain bytes a table may keep inside the key's entry, with no
     * Java object at rest: the listpack form of a hash, the intset form of a set. The table turns
     * the bytes back into a value with the {@link AggregateCodec} it was given, and takes the bytes
     * again when the command reports the change ({@link Table#modified}).
     */
    interface Packed extends Aggregate {

        /** The listpack form of a hash: its {@code varint length, bytes} pairs. */
        int HASH_LISTPACK = 1;
        /** The intset form of a set: the width byte, then the members. */
        int SET_INTSET = 2;

        /** The form the value is in now ({@link #HASH_LISTPACK}, {@link #SET_INTSET}), 0 in its large form. */
        int packedForm();

        /** The array holding the packed form from index 0, {@link #packedLength} bytes of it; read only. */
        byte[] packedArray();

        int packedLength();
    }
}
