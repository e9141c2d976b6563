package dev.lacewing.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ListenerLoopGroupTest {

    /** Netty's NIO handler, recording the deadline of each wait that may block. */
    private static IoHandlerFactory recording(BlockingQueue<Long> deadlines) {
        IoHandlerFactory nio = NioIoHandler.newFactory();
        return executor -> {
            IoHandler handler = nio.newHandler(executor);
            return new IoHandler() {
                @Override
                public void initialize() {
                    handler.initialize();
                }

                @Override
                public int run(IoHandlerContext context) {
                    if (context.canBlock()) {
                        deadlines.add(context.deadlineNanos());
                    }
                    return handler.run(context);
                }

                @Override
                public void prepareToDestroy() {
                    handler.prepareToDestroy();
                }

                @Override
                public void destroy() {
                    handler.destroy();
                }

                @Override
                public IoRegistration register(IoHandle handle) throws Exception {
                    return handler.register(handle);
                }

                @Override
                public void wakeup() {
                    handler.wakeup();
                }

                @Override
                public boolean isCompatible(Class<? extends IoHandle> handleType) {
                    return handler.isCompatible(handleType);
                }
            };
        };
    }

    /** The deadline of the loop's next blocking wait after a task ran on it. */
    private static long idleDeadline(EventLoop loop, BlockingQueue<Long> deadlines) throws InterruptedException {
        loop.submit(deadlines::clear).syncUninterruptibly();
        Long deadline = deadlines.poll(5, TimeUnit.SECONDS);
        assertNotNull(deadline, "the loop waited within 5 s");
        return deadline;
    }

    @Test
    void anIdleLoopWaitsForIoOnlyAndAScheduledTaskStillWakesIt() throws InterruptedException {
        BlockingQueue<Long> deadlines = new LinkedBlockingQueue<>();
        MultiThreadIoEventLoopGroup group = new ListenerLoopGroup(new DefaultThreadFactory("listener-test"),
            recording(deadlines));
        try {
            EventLoop loop = group.next();
            assertEquals(-1L, idleDeadline(loop, deadlines), "no deadline while nothing is scheduled");
            CountDownLatch ran = new CountDownLatch(1);
            loop.schedule(ran::countDown, 20, TimeUnit.MILLISECONDS);
            assertTrue(ran.await(5, TimeUnit.SECONDS), "the scheduled task ran");
            assertEquals(-1L, idleDeadline(loop, deadlines), "no deadline once it ran");
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** Why ListenerLoopGroup exists: Netty's own idle loop waits at most a second. */
    @Test
    void nettysIdleLoopWaitsWithADeadline() throws InterruptedException {
        BlockingQueue<Long> deadlines = new LinkedBlockingQueue<>();
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("netty-test"),
            recording(deadlines));
        try {
            assertNotEquals(-1L, idleDeadline(group.next(), deadlines),
                "Netty's idle loop now waits without a deadline: ListenerLoopGroup is no longer needed");
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
