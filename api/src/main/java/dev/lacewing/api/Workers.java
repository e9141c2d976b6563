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

    /**
     * Runs {@code task} on worker {@code index} after the I/O the worker has ready, as a timer of 0
     * ms runs in Redis's event loop: a task that queues itself again this way lets the worker read
     * and write between its runs, where one queued with {@link #executor} may run again first.
     */
    default void executeAfterIo(int index, Runnable task) {
        executor(index).execute(task);
    }

    /**
     * Runs {@code task} on worker {@code index} when that worker ends its current pass over its
     * queued tasks, before it next looks at its I/O: a pass boundary that code running on the worker
     * can see without a timer. Called on worker {@code index}; by default the task runs after the
     * I/O ({@link #executeAfterIo}), which is the next pass's start.
     */
    default void executeAtPassEnd(int index, Runnable task) {
        executeAfterIo(index, task);
    }

    /** The index of the calling worker thread, or -1 when the caller is not a worker. */
    int currentIndex();

    /**
     * Runs {@code task} on worker {@code index} again and again until the server stops, about
     * {@code periodMillis} from one run's start to the next; the period is read again after each
     * run, so a setting such as {@code hz} changed at runtime takes effect at the next run. A
     * worker's repeating tasks share one timer, as Redis's serverCron duties do: a run may come up
     * to half the worker's shortest period early, so that tasks whose periods are multiples of
     * the shortest one run on the same wake-ups.
     */
    void scheduleRepeating(int index, Runnable task, LongSupplier periodMillis);
}
