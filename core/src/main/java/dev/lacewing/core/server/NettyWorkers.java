package dev.lacewing.core.server;

import dev.lacewing.api.Workers;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The transport's event loops as the engines see them: numbered executors, no Netty type in
 * the API. Worker {@code i} is event loop {@code i} of the group.
 *
 * <p>Thread rule: immutable after construction; each worker's periodic timer is its own loop's.
 */
final class NettyWorkers implements Workers {

    private final EventLoop[] loops;
    private final LoopTimer[] timers;

    NettyWorkers(MultiThreadIoEventLoopGroup group) {
        List<EventLoop> found = new ArrayList<>();
        for (EventExecutor executor : group) {
            found.add((EventLoop) executor);
        }
        loops = found.toArray(new EventLoop[0]);
        timers = new LoopTimer[loops.length];
        for (int i = 0; i < loops.length; i++) {
            timers[i] = new LoopTimer(loops[i]);
        }
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

    /**
     * Adds {@code task} to worker {@code index}'s one periodic timer (see {@link PeriodicDuties}), so
     * that an idle worker wakes at its shortest duty's period, not once per duty.
     */
    @Override
    public void scheduleRepeating(int index, Runnable task, LongSupplier periodMillis) {
        LoopTimer timer = timers[index];
        timer.loop.execute(() -> timer.add(task, periodMillis));
    }

    /**
     * A worker's periodic duties and the one scheduled task that runs them.
     *
     * <p>Thread rule: touched only by its event loop's thread.
     */
    private static final class LoopTimer implements Runnable {
        final EventLoop loop;
        private final PeriodicDuties duties = new PeriodicDuties();
        private ScheduledFuture<?> pending;
        private long pendingAtNanos;

        LoopTimer(EventLoop loop) {
            this.loop = loop;
        }

        void add(Runnable task, LongSupplier periodMillis) {
            duties.add(task, periodMillis, System.nanoTime());
            scheduleNext();
        }

        @Override
        public void run() {
            pending = null;
            duties.runDue(System.nanoTime());
            scheduleNext();
        }

        /** One pending tick at the next duty's time; an added duty due sooner moves it. */
        private void scheduleNext() {
            long next = duties.nextDueNanos();
            if (loop.isShuttingDown() || next == Long.MAX_VALUE || (pending != null && pendingAtNanos <= next)) {
                return;
            }
            if (pending != null) {
                pending.cancel(false);
            }
            pendingAtNanos = next;
            pending = loop.schedule(this, Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }
}
