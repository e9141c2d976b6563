package dev.lacewing.it.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.transport.iouring.IoUringTransport;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.util.concurrent.ThreadAwareExecutor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/**
 * The listeners' event loop on io_uring registers no receive-buffer ring: it only accepts, so the
 * ring's buffers (16 of 16 KiB filled at start) would sit unused, while each worker's loop has one.
 * Netty does not expose a handler's rings, so the test asks IoUringIoHandler's own lookup.
 */
class IoUringAcceptorTest {

    private static final short RECEIVE_BUFFER_GROUP = 0;

    @Test
    void theAcceptLoopHasNoReceiveBufferRingWhereTheWorkersHaveOne() throws Exception {
        assumeTrue(IoUring.isAvailable() && IoUring.isRegisterBufferRingSupported() && IoUring.isRecvMultishotEnabled(),
            "io_uring with buffer rings and multishot recv is not available here");
        IoUringTransport transport = new IoUringTransport();

        assertTrue(hasReceiveBufferRing(transport.ioHandlerFactory()), "a worker's loop receives through a ring");
        assertFalse(hasReceiveBufferRing(transport.acceptorIoHandlerFactory()), "the accept loop has no ring");
    }

    /** Whether a handler the factory makes, started, has a ring for the receive-buffer group; the handler is destroyed. */
    private static boolean hasReceiveBufferRing(IoHandlerFactory factory) throws Exception {
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
