package dev.lacewing.core.server;

import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * The listeners' event loop (one thread, {@code lacewing-accept}), which sleeps until a connection or
 * a task arrives. Netty's loop, with nothing scheduled, has its IoHandler wait for "now plus one
 * second" (SingleThreadEventExecutor.deadlineNanos falls back to its purge interval), so an idle accept
 * loop, which schedules nothing, woke once a second to do nothing; here a loop without a scheduled
 * task waits with no deadline (-1, which the epoll and io_uring handlers read as none). A cancelled
 * task is removed when cancelled, so there is nothing for a periodic purge to do.
 *
 * <p>Thread rule: as Netty's groups: each loop is run by its own thread.
 */
final class ListenerLoopGroup extends MultiThreadIoEventLoopGroup {

    ListenerLoopGroup(ThreadFactory threads, IoHandlerFactory handlers) {
        super(1, threads, handlers);
    }

    @Override
    protected IoEventLoop newChild(Executor executor, IoHandlerFactory handlers, Object... args) {
        return new SingleThreadIoEventLoop(this, executor, handlers) {
            @Override
            protected long deadlineNanos() {
                return nextScheduledTaskDeadlineNanos();
            }
        };
    }
}
