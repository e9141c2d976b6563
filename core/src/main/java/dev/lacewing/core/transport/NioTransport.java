package dev.lacewing.core.transport;

import dev.lacewing.api.Settings;
import dev.lacewing.transport.spi.NettyTransport;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.util.Optional;

/** The JDK NIO transport: available everywhere, the fallback when no native transport loads. */
public final class NioTransport implements NettyTransport {

    @Override
    public String name() {
        return "nio";
    }

    @Override
    public Optional<String> unavailabilityCause() {
        return Optional.empty();
    }

    @Override
    public int preference() {
        return 0;
    }

    @Override
    public IoHandlerFactory ioHandlerFactory(Settings settings) {
        return NioIoHandler.newFactory();
    }

    @Override
    public Class<? extends ServerChannel> serverChannelClass() {
        return NioServerSocketChannel.class;
    }

    /** JDK 16's Unix domain socket channels (JEP 380), through Netty's NIO domain socket channel. */
    @Override
    public Class<? extends ServerChannel> serverDomainSocketChannelClass() {
        return NioServerDomainSocketChannel.class;
    }

    @Override
    public SocketAddress domainSocketAddress(String path) {
        return UnixDomainSocketAddress.of(path);
    }
}
