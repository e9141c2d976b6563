package dev.lacewing.api.storage;

import dev.lacewing.api.StringEncoding;

/**
 * The arithmetic of the 24-bit access field a table keeps for every key (Redis's robj {@code lru}:
 * the LRU clock or the LFU counter, as {@code maxmemory-policy} decides), and the encoding a
 * string stored whole gets. The server implements it over its memory settings; a table calls it
 * and stores what it answers.
 *
 * <p>Thread rule: any thread; settings may change between two calls (CONFIG SET).
 */
public interface AccessPolicy {

    /** The field of a key created at {@code now}. */
    int created(long now);

    /** The field after an access at {@code now}. */
    int accessed(int access, long now);

    /** The field an overwritten key's new value starts with. */
    int overwritten(int oldAccess, long now);

    /** The encoding a string stored whole ({@link Table#putString}) gets now. */
    StringEncoding storedWhole();
}
