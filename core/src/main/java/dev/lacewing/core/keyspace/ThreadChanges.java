package dev.lacewing.core.keyspace;

import io.netty.util.concurrent.FastThreadLocal;

/**
 * The changes (Redis's server.dirty) made by the calling thread since it started: read before and
 * after a command's handler, the difference says whether that command changed anything, as
 * Redis's call() compares server.dirty, and so whether it is propagated to the AOF. A command's
 * changes are all made on the thread running it, or, for a split command, each part's on the
 * thread running that part, which reads its own difference.
 *
 * <p>Thread rule: each thread reads and adds to its own count only.
 */
public final class ThreadChanges {

    private static final FastThreadLocal<long[]> COUNT = new FastThreadLocal<>() {
        @Override
        protected long[] initialValue() {
            return new long[1];
        }
    };

    private ThreadChanges() {
    }

    /**
     * Counts changes made by this thread: a partition's own, and a gathered command's changes to
     * the copies of other shards' keys it holds, which reach their partition only when put back.
     */
    public static void add(long changes) {
        COUNT.get()[0] += changes;
    }

    /** This thread's changes so far. */
    public static long count() {
        return COUNT.get()[0];
    }
}
