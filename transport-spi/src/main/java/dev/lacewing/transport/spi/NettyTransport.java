package dev.lacewing.transport.spi;

import dev.lacewing.api.Settings;
import dev.lacewing.api.TransportProvider;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import java.net.SocketAddress;

/**
 * A transport the server can run: Netty's IoHandler for one I/O mechanism (NIO, epoll,
 * io_uring) and the matching server channel. Each transport plugin implements it; it is small
 * and adapts one mechanism only.
 */
public interface NettyTransport extends TransportProvider {

    /**
     * The IoHandler of each worker's event loop, which serves connections; {@code settings} are the
     * server's, where the transport reads the ones it declares ({@link #settings()}).
     */
    IoHandlerFactory ioHandlerFactory(Settings settings);

    /**
     * The IoHandler of the listeners' event loop, which only accepts connections and hands them
     * to the workers: the workers' own by default. A mechanism whose worker handler holds what
     * only connections use (io_uring's receive-buffer ring) gives one without it.
     */
    default IoHandlerFactory acceptorIoHandlerFactory(Settings settings) {
        return ioHandlerFactory(settings);
    }

    Class<? extends ServerChannel> serverChannelClass();

    /** The server channel of a Unix domain socket (unixsocket) on this mechanism. */
    Class<? extends ServerChannel> serverDomainSocketChannelClass();

    /** A Unix domain socket's address at {@code path}, in the type this mechanism binds. */
    SocketAddress domainSocketAddress(String path);

    /**
     * Sets what this mechanism needs on every accepted connection, beyond the server's own
     * options; called once, before the server binds. Nothing by default.
     */
    default void configureConnections(ServerBootstrap bootstrap) {
    }

    /**
     * Sets tcp-keepalive's probe timing on accepted connections where this mechanism can, as
     * Redis's anetKeepAlive does: first probe after {@code seconds} idle, then every third of that,
     * the connection dropped after three unanswered. Called only when tcp-keepalive is positive
     * (SO_KEEPALIVE is set by the server); nothing by default, leaving the kernel's timing.
     */
    default void configureKeepAlive(ServerBootstrap bootstrap, int seconds) {
    }

    /**
     * A direct write on {@code channel}'s socket from another thread (shard-writes-replies), or
     * null where this mechanism cannot give one; null by default.
     */
    default SocketWrite socketWrite(Channel channel) {
        return null;
    }
}
