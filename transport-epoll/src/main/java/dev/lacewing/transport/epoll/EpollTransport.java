package dev.lacewing.transport.epoll;

import dev.lacewing.api.Settings;
import dev.lacewing.transport.spi.NettyTransport;
import dev.lacewing.transport.spi.SocketWrite;
import io.netty.channel.Channel;
import io.netty.channel.unix.UnixChannel;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.net.SocketAddress;
import java.util.Optional;

/**
 * Netty's native epoll transport. It loads only on Linux with the native library for this
 * architecture; when it cannot load, {@link #unavailabilityCause()}
 * carries Netty's reason, which the log, {@code INFO server} and the tests report.
 */
public final class EpollTransport implements NettyTransport {

    @Override
    public String name() {
        return "epoll";
    }

    @Override
    public Optional<String> unavailabilityCause() {
        try {
            if (Epoll.isAvailable()) {
                return Optional.empty();
            }
            Throwable cause = Epoll.unavailabilityCause();
            return Optional.of(cause == null ? "epoll is not available" : describe(cause));
        } catch (LinkageError e) {
            return Optional.of(describe(e));
        }
    }

    @Override
    public int preference() {
        return 10;
    }

    @Override
    public IoHandlerFactory ioHandlerFactory(Settings settings) {
        return EpollIoHandler.newFactory();
    }

    @Override
    public void configureKeepAlive(ServerBootstrap bootstrap, int seconds) {
        bootstrap.childOption(EpollChannelOption.TCP_KEEPIDLE, seconds)
            .childOption(EpollChannelOption.TCP_KEEPINTVL, Math.max(1, seconds / 3))
            .childOption(EpollChannelOption.TCP_KEEPCNT, 3);
    }

    @Override
    public Class<? extends ServerChannel> serverChannelClass() {
        return EpollServerSocketChannel.class;
    }

    @Override
    public Class<? extends ServerChannel> serverDomainSocketChannelClass() {
        return EpollServerDomainSocketChannel.class;
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
