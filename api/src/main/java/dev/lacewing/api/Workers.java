package dev.lacewing.api;

import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The server's worker threads (the transport's event loops), seen without any Netty type.
 * Worker {@code i} runs tasks submitted to {@link #executor(int)} one at a time, in order.
 */
public interface Workers {

    int count();

    Executor executor(int index);

    /** The index of the calling worker thread, or -1 when the caller is not a worker. */
    int currentIndex();

    /** Runs {@code task} on worker {@code index} every {@code period}, until the server stops. */
    void scheduleAtFixedRate(int index, Runnable task, long period, TimeUnit unit);
}
