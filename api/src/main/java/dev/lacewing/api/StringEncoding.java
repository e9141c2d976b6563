package dev.lacewing.api;

/**
 * How a stored string is encoded where its bytes do not tell (OBJECT ENCODING): the one fact of
 * Redis's string encoding the keyspace keeps ({@link Keyspace#putEncoded}).
 */
public enum StringEncoding {
    /**
     * Stored whole (SET and most writers): encoded as Redis's tryObjectEncoding would, {@code int}
     * for a canonical integer, {@code embstr} up to 44 bytes, {@code raw} beyond.
     */
    FROM_BYTES,
    /**
     * Stored as text with no integer attempt (INCRBYFLOAT, createStringObjectFromLongDouble):
     * {@code embstr} up to 44 bytes, {@code raw} beyond, never {@code int}.
     */
    TEXT,
    /** Edited in place (APPEND, SETRANGE, SETBIT...): a raw sds, {@code raw} whatever its length. */
    RAW
}
