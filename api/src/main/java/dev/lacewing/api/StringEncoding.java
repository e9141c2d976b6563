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
    RAW,
    /**
     * Encoded as {@link #FROM_BYTES}, in an object of its own: stored while the memory policy forbade
     * shared integers (Redis's canUseSharedObject), or duplicated by COPY. A canonical integer
     * 0..9999 is {@code int} with REFCOUNT 1, not the shared object, whatever the policy is later.
     */
    UNSHARED;

    /**
     * The encoding of a copy (COPY, Redis's dupStringObject): the same, except that an integer gets
     * an object of its own rather than the shared one.
     */
    public StringEncoding duplicated() {
        return this == FROM_BYTES ? UNSHARED : this;
    }
}
