package dev.lacewing.core.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class NettyWorkersTest {

    /** What CONFIG SET hz relies on: the next wait uses the period as it is after the last run. */
    @Test
    void aRepeatingTaskPicksUpAChangedPeriodAtItsNextRun() throws InterruptedException {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            NettyWorkers workers = new NettyWorkers(group);
            AtomicLong period = new AtomicLong(200);
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch many = new CountDownLatch(20);
            workers.scheduleRepeating(0, () -> {
                if (runs.incrementAndGet() == 1) {
                    period.set(5);
                }
                many.countDown();
            }, period::get);
            assertTrue(many.await(5, TimeUnit.SECONDS), "20 runs at a 5 ms period, after one at 200 ms: " + runs);
            period.set(60_000);
            int settled = runs.get() + 1;
            Thread.sleep(300);
            assertTrue(runs.get() <= settled, "at most one run after the period became a minute: " + runs);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
