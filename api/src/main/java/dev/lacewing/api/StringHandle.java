package dev.lacewing.api;

/**
 * A string a storage keeps out of memory (on disk, say), handed to a snapshot's walk in place of
 * its bytes ({@link dev.lacewing.api.ValueView#setHandle}) so that the thread holding the partition
 * never waits for it: the snapshot's writer reads it later, on its own thread. The storage keeps
 * the bytes readable where they are, whatever happens to the key meanwhile, until the handle is
 * released.
 *
 * <p>Thread rule: {@link #read} and {@link #release} from any thread, {@link #read} at most once
 * and before {@link #release}, which comes exactly once.
 */
public interface StringHandle {

    /** The string's length in bytes. */
    int length();

    /** The string's bytes, read now; throws {@link java.io.UncheckedIOException} when they cannot be. */
    byte[] read();

    /** The storage may reuse the bytes' place. */
    void release();
}
