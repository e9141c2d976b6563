package dev.lacewing.transport.iouring;

import dev.lacewing.core.transport.NettyTransport;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.util.Optional;

/**
 * Netty's native io_uring transport. It loads only on Linux with the native library for this
 * architecture and a kernel that allows io_uring (not disabled by
 * {@code kernel.io_uring_disabled} or a seccomp filter); when it cannot load, {@link #unavailabilityCause()}
 * carries Netty's reason, which the log, {@code INFO server} and the tests report.
 */
public final class IoUringTransport implements NettyTransport {

    @Override
    public String name() {
        return "io_uring";
    }

    @Override
    public Optional<String> unavailabilityCause() {
        try {
            if (IoUring.isAvailable()) {
                return Optional.empty();
            }
            Throwable cause = IoUring.unavailabilityCause();
            return Optional.of(cause == null ? "io_uring is not available" : describe(cause));
        } catch (LinkageError e) {
            return Optional.of(describe(e));
        }
    }

    @Override
    public int preference() {
        return 20;
    }

    @Override
    public IoHandlerFactory ioHandlerFactory() {
        return IoUringIoHandler.newFactory();
    }

    @Override
    public Class<? extends ServerChannel> serverChannelClass() {
        return IoUringServerSocketChannel.class;
    }

    private static String describe(Throwable cause) {
        StringBuilder text = new StringBuilder(String.valueOf(cause));
        for (Throwable inner = cause.getCause(); inner != null && inner != inner.getCause(); inner = inner.getCause()) {
            text.append("; caused by ").append(inner);
        }
        return text.toString();
    }
}
