package dev.lacewing.core.datatype;

/**
 * A stored value of an aggregate type (hash, list, set, zset...). Strings are stored as plain
 * {@code byte[]} and are not TypedValues. Stored values are never shared between keys while
 * mutable: a command that copies a key copies its value through {@link #copy()}.
 */
public interface TypedValue {

    /** The type name TYPE replies: {@code hash}, {@code list}, {@code set}, {@code zset}... */
    String typeName();

    /** The encoding OBJECT ENCODING replies. */
    String encoding();

    /** A deep copy, for COPY. */
    TypedValue copy();

    /** Bytes this value occupies, for MEMORY USAGE and used_memory. */
    long memoryUsage();
}
