package dev.lacewing.it.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.api.Settings;
import dev.lacewing.transport.iouring.IoUringTransport;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.util.concurrent.ThreadAwareExecutor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The io_uring transport's event loops. The listeners' loop registers no receive-buffer ring: it only
 * accepts, so the ring's buffers (16 of 16 KiB filled at start) would sit unused, while each worker's
 * loop has one. Each worker's submission queue has iouring-ring-size entries. Netty does not expose a
 * handler's rings, so the test asks IoUringIoHandler's own fields.
 */
class IoUringEventLoopsTest {

    private static final short RECEIVE_BUFFER_GROUP = 0;

    @Test
    void theAcceptLoopHasNoReceiveBufferRingWhereTheWorkersHaveOne() throws Exception {
        assumeTrue(IoUring.isAvailable() && IoUring.isRegisterBufferRingSupported() && IoUring.isRecvMultishotEnabled(),
            "io_uring with buffer rings and multishot recv is not available here");
        IoUringTransport transport = new IoUringTransport();

        Settings defaults = name -> Optional.empty();
        assertTrue(hasReceiveBufferRing(transport.ioHandlerFactory(defaults)), "a worker's loop receives through a ring");
        assertFalse(hasReceiveBufferRing(transport.acceptorIoHandlerFactory(defaults)), "the accept loop has no ring");
    }

    @Test
    void eachWorkersSubmissionQueueHasTheRingSizeSetRoundedUpToAPowerOfTwo() throws Exception {
        assumeTrue(IoUring.isAvailable(), "io_uring is not available here");
        IoUringTransport transport = new IoUringTransport();

        assertEquals(128, submissionQueueEntries(transport.ioHandlerFactory(name -> Optional.empty())));
        assertEquals(512, submissionQueueEntries(transport.ioHandlerFactory(ringSize("512"))));
        assertEquals(64, submissionQueueEntries(transport.ioHandlerFactory(ringSize("40"))));
    }

    private static Settings ringSize(String value) {
        return name -> name.equals("iouring-ring-size") ? Optional.of(value) : Optional.empty();
    }

    /** The entries of the submission queue of a handler the factory makes; the handler is destroyed. */
    private static int submissionQueueEntries(IoHandlerFactory factory) throws Exception {
        IoHandler handler = started(factory);
        try {
            Field ring = IoUringIoHandler.class.getDeclaredField("ringBuffer");
            ring.setAccessible(true);
            Object ringBuffer = ring.get(handler);
            Method queue = ringBuffer.getClass().getDeclaredMethod("ioUringSubmissionQueue");
            queue.setAccessible(true);
            Object submissions = queue.invoke(ringBuffer);
            Field entries = submissions.getClass().getDeclaredField("ringEntries");
            entries.setAccessible(true);
            return entries.getInt(submissions);
        } finally {
            handler.prepareToDestroy();
            handler.destroy();
        }
    }

    private static IoHandler started(IoHandlerFactory factory) {
        Thread self = Thread.currentThread();
        IoHandler handler = factory.newHandler(new ThreadAwareExecutor() {
            @Override
            public boolean isExecutorThread(Thread thread) {
                return thread == self;
            }

            @Override
            public void execute(Runnable task) {
                task.run();
            }
        });
        handler.initialize();
        return handler;
    }

    /** Whether a handler the factory makes, started, has a ring for the receive-buffer group; the handler is destroyed. */
    private static boolean hasReceiveBufferRing(IoHandlerFactory factory) throws Exception {
        IoHandler handler = started(factory);
        try {
            Method find = IoUringIoHandler.class.getDeclaredMethod("findBufferRing", short.class);
            find.setAccessible(true);
            return find.invoke(handler, RECEIVE_BUFFER_GROUP) != null;
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IllegalArgumentException) {
                return false; // "Cant find bgId:0": no such ring
            }
            throw e;
        } finally {
            handler.prepareToDestroy();
            handler.destroy();
        }
    }
}
