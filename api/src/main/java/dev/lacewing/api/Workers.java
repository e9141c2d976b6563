package dev.lacewing.api;

import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * The server's worker threads (the transport's event loops), seen without any Netty type.
 * Worker {@code i} runs tasks submitted to {@link #executor(int)} one at a time, in order.
 */
public interface Workers {

    int count();

    Executor executor(int index);

    /** The index of the calling worker thread, or -1 when the caller is not a worker. */
    int currentIndex();

    /**
     * Runs {@code task} on worker {@code index} again and again until the server stops, waiting
     * {@code periodMillis} between one run's start and the next; the period is read again after
     * each run, so a setting such as {@code hz} changed at runtime takes effect at the next run.
     */
    void scheduleRepeating(int index, Runnable task, LongSupplier periodMillis);
}
