package dev.lacewing.transport.iouring;

import dev.lacewing.api.FileReads;
import dev.lacewing.api.SettingSpec;
import dev.lacewing.api.Settings;
import dev.lacewing.transport.spi.NettyTransport;
import dev.lacewing.transport.spi.SocketWrite;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.unix.UnixChannel;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringBufferRingConfig;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringFixedBufferRingAllocator;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import io.netty.channel.uring.IoUringServerDomainSocketChannel;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.net.SocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * Netty's native io_uring transport. It loads only on Linux with the native library for this
 * architecture and a kernel that allows io_uring (not disabled by
 * {@code kernel.io_uring_disabled} or a seccomp filter); when it cannot load, {@link #unavailabilityCause()}
 * carries Netty's reason, which the log, {@code INFO server} and the tests report.
 *
 * <p>Connections receive through a buffer ring: each event loop registers a ring of receive
 * buffers with the kernel, and a connection keeps one multishot recv armed that takes a buffer
 * from it whenever data arrives. Without the ring, Netty arms a multishot POLLIN and submits a
 * recv after each POLLIN completion: per request at pipeline 1 that is one submission and one
 * completion more (docs/benchmarks.md, "CPU per request at pipeline 1"). The connection gives a
 * buffer back as soon as it has copied the bytes out (see {@code ClientConnection}), so the ring
 * does not grow with the number of clients, as a read buffer per connection would.
 *
 * <p>The ring's buffers come from Netty's pooled allocator, not its default (the adaptive one):
 * Netty hands each completion over as a retained slice of a ring buffer, and a pooled buffer's
 * slice is a recycled object where an adaptive buffer's is a new one per receive: about 50 bytes
 * a request at pipeline 1 (benchmarks/alloc-per-request.sh).
 *
 * <p>{@code iouring-ring-size} sets each worker's submission queue ({@link #RING_SIZE}).
 */
public final class IoUringTransport implements NettyTransport {

    private static final short RECEIVE_BUFFER_GROUP = 0;
    /**
     * Most buffers per event loop; the ring starts with {@link #RECEIVE_BUFFER_BATCH} and grows by as
     * many when the kernel finds it empty. A connection holds a buffer only from the completion to
     * the copy-out, so a loop needs about as many as connections that complete in one batch; past
     * that Netty receives into a buffer of its own for that read (the pre-ring path). Every buffer
     * the ring ever held is touched by a bulk load and stays resident: 256 buffers grew the process
     * by 2.7 MB per loop under {@code redis-cli --pipe}, 32 by 0.8 MB, with the same io_uring
     * submissions and completions per request at pipeline 1 (docs/benchmarks.md).
     */
    private static final short RECEIVE_BUFFERS = 32;
    private static final int RECEIVE_BUFFER_BATCH = 16;
    /** Redis's read size (PROTO_IOBUF_LEN): a pipeline of 30 SETs of 256 bytes arrives in one buffer. */
    private static final int RECEIVE_BUFFER_BYTES = 16 * 1024;

    /**
     * Entries in each worker's submission queue: the I/O requests (receives, sends, accepts) its event
     * loop queues before it must enter the kernel to submit them. Netty's default is 128; Netty sizes
     * the completion queue at 4096 where the kernel lets it, and a submission queue may not be larger.
     * The kernel rounds the size up to a power of two.
     */
    static final SettingSpec RING_SIZE = SettingSpec.integer("iouring-ring-size", "128", 16, 4096,
        "entries in each worker's io_uring submission queue, rounded up to a power of two: how many I/O requests "
            + "an event loop queues before it enters the kernel (io_uring transport)");

    @Override
    public String name() {
        return "io_uring";
    }

    @Override
    public List<SettingSpec> settings() {
        return List.of(RING_SIZE);
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

    /** Cold reads of a storage go through an io_uring loop of their own ({@link IoUringFileReads}). */
    @Override
    public Optional<FileReads> fileReads() {
        return unavailabilityCause().isEmpty() ? Optional.of(new IoUringFileReads()) : Optional.empty();
    }

    @Override
    public int preference() {
        return 20;
    }

    @Override
    public IoHandlerFactory ioHandlerFactory(Settings settings) {
        IoUringIoHandlerConfig config = new IoUringIoHandlerConfig()
            .setRingSize((int) settings.getLong(RING_SIZE.name(), Long.parseLong(RING_SIZE.defaultValue())));
        if (receivesThroughRing()) {
            config.setBufferRingConfig(IoUringBufferRingConfig.builder()
                .bufferGroupId(RECEIVE_BUFFER_GROUP)
                .bufferRingSize(RECEIVE_BUFFERS)
                .batchSize(RECEIVE_BUFFER_BATCH)
                .allocator(new IoUringFixedBufferRingAllocator(PooledByteBufAllocator.DEFAULT, RECEIVE_BUFFER_BYTES))
                .build());
        }
        return IoUringIoHandler.newFactory(config);
    }

    /**
     * The listeners' loop receives nothing: no buffer ring, whose buffers would sit unused; it
     * submits an accept per connection, so Netty's default ring serves it.
     */
    @Override
    public IoHandlerFactory acceptorIoHandlerFactory(Settings settings) {
        return IoUringIoHandler.newFactory();
    }

    @Override
    public void configureConnections(ServerBootstrap bootstrap) {
        if (receivesThroughRing()) {
            bootstrap.childOption(IoUringChannelOption.IO_URING_BUFFER_GROUP_ID, RECEIVE_BUFFER_GROUP);
        }
    }

    /** Buffer rings need Linux 5.19, multishot recv 6.0; an older kernel keeps Netty's POLLIN and recv. */
    private static boolean receivesThroughRing() {
        return IoUring.isRegisterBufferRingSupported() && IoUring.isRecvMultishotEnabled();
    }

    @Override
    public void configureKeepAlive(ServerBootstrap bootstrap, int seconds) {
        bootstrap.childOption(IoUringChannelOption.TCP_KEEPIDLE, seconds)
            .childOption(IoUringChannelOption.TCP_KEEPINTVL, Math.max(1, seconds / 3))
            .childOption(IoUringChannelOption.TCP_KEEPCNT, 3);
    }

    @Override
    public Class<? extends ServerChannel> serverChannelClass() {
        return IoUringServerSocketChannel.class;
    }

    @Override
    public Class<? extends ServerChannel> serverDomainSocketChannelClass() {
        return IoUringServerDomainSocketChannel.class;
    }

    @Override
    public SocketAddress domainSocketAddress(String path) {
        return new DomainSocketAddress(path);
    }

    private static String describe(Throwable cause) {
        StringBuilder text = new StringBuilder(String.valueOf(cause));
        for (Throwable inner = cause.getCause(); inner != null && inner != inner.getCause(); inner = inner.getCause()) {
            text.append("; caused by ").append(inner);
        }
        return text.toString();
    }

    @Override
    public SocketWrite socketWrite(Channel channel) {
        if (!(channel instanceof UnixChannel unix)) {
            return null;
        }
        return (address, length) -> unix.fd().writeAddress(address, 0, length);
    }
}
