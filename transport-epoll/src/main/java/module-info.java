/** The epoll transport: Netty's native epoll I/O on Linux. */
module dev.lacewing.transport.epoll {
    requires dev.lacewing.api;
    requires dev.lacewing.transport.spi;
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.transport.classes.epoll;
    requires io.netty.transport.unix.common;
    requires static osgi.core;

    provides dev.lacewing.api.TransportProvider with dev.lacewing.transport.epoll.EpollTransport;
}
