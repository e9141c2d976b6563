package dev.lacewing.core.server;

import dev.lacewing.api.Workers;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The transport's event loops as the engines see them: numbered executors, no Netty type in
 * the API. Worker {@code i} is event loop {@code i} of the group.
 *
 * <p>Thread rule: immutable after construction.
 */
final class NettyWorkers implements Workers {

    private final EventLoop[] loops;

    NettyWorkers(MultiThreadIoEventLoopGroup group) {
        List<EventLoop> found = new ArrayList<>();
        for (EventExecutor executor : group) {
            found.add((EventLoop) executor);
        }
        loops = found.toArray(new EventLoop[0]);
    }

    EventLoop loop(int index) {
        return loops[index];
    }

    /** The worker index of an event loop. */
    int indexOf(EventLoop loop) {
        for (int i = 0; i < loops.length; i++) {
            if (loops[i] == loop) {
                return i;
            }
        }
        throw new IllegalStateException("event loop not in the worker group");
    }

    @Override
    public int count() {
        return loops.length;
    }

    @Override
    public Executor executor(int index) {
        return loops[index];
    }

    /** A task scheduled now is taken from the schedule at the loop's next task run, after its I/O. */
    @Override
    public void executeAfterIo(int index, Runnable task) {
        loops[index].schedule(task, 0, TimeUnit.NANOSECONDS);
    }

    /** Netty runs a loop's tail tasks after each pass over its queued tasks, before its next I/O. */
    @Override
    public void executeAtPassEnd(int index, Runnable task) {
        if (loops[index] instanceof SingleThreadEventLoop loop) {
            loop.executeAfterEventLoopIteration(task);
        } else {
            executeAfterIo(index, task);
        }
    }

    @Override
    public int currentIndex() {
        for (int i = 0; i < loops.length; i++) {
            if (loops[i].inEventLoop()) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void scheduleRepeating(int index, Runnable task, LongSupplier periodMillis) {
        new Repeating(loops[index], task, periodMillis).scheduleNext(System.nanoTime());
    }

    /** A task that schedules its next run after each run, with the period read again each time. */
    private record Repeating(EventLoop loop, Runnable task, LongSupplier periodMillis) implements Runnable {

        @Override
        public void run() {
            long started = System.nanoTime();
            try {
                task.run();
            } finally {
                scheduleNext(started);
            }
        }

        void scheduleNext(long from) {
            if (!loop.isShuttingDown()) {
                long wait = TimeUnit.MILLISECONDS.toNanos(periodMillis.getAsLong()) - (System.nanoTime() - from);
                loop.schedule(this, Math.max(0, wait), TimeUnit.NANOSECONDS);
            }
        }
    }
}
