package dev.lacewing.storage.tck;

import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.storage.AccessPolicy;

/**
 * An {@link AccessPolicy} with LRU arithmetic (the access field is the time in seconds, modulo
 * 2^24, as Redis's LRU clock) and a string encoding a test sets: what the contract runs tables with.
 * Thread rule: any thread (the encoding is volatile).
 */
public final class TestAccessPolicy implements AccessPolicy {

    private volatile StringEncoding storedWhole = StringEncoding.FROM_BYTES;

    /** Makes strings stored whole from now on carry {@code encoding}, as a maxmemory change does. */
    public void storedWhole(StringEncoding encoding) {
        storedWhole = encoding;
    }

    @Override
    public int created(long now) {
        return clock(now);
    }

    @Override
    public int accessed(int access, long now) {
        return clock(now);
    }

    @Override
    public int overwritten(int oldAccess, long now) {
        return clock(now);
    }

    @Override
    public StringEncoding storedWhole() {
        return storedWhole;
    }

    private static int clock(long now) {
        return (int) (now / 1000) & 0xFFFFFF;
    }
}
