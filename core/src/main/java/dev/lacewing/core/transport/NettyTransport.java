package dev.lacewing.core.transport;

import dev.lacewing.api.TransportProvider;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;

/**
 * A transport the server can run: Netty's IoHandler for one I/O mechanism (NIO, epoll,
 * io_uring) and the matching server channel. Each transport plugin implements it; it is small
 * and adapts one mechanism only.
 */
public interface NettyTransport extends TransportProvider {

    IoHandlerFactory ioHandlerFactory();

    Class<? extends ServerChannel> serverChannelClass();

    /**
     * Sets what this mechanism needs on every accepted connection, beyond the server's own
     * options; called once, before the server binds. Nothing by default.
     */
    default void configureConnections(ServerBootstrap bootstrap) {
    }
}
