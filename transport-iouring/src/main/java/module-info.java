/** The io_uring transport: Netty's native io_uring I/O on Linux. */
module dev.lacewing.transport.iouring {
    requires dev.lacewing.api;
    requires dev.lacewing.transport.spi;
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.netty.transport;
    requires io.netty.transport.classes.io_uring;
    requires io.netty.transport.unix.common;
    requires static osgi.core;

    provides dev.lacewing.api.TransportProvider with dev.lacewing.transport.iouring.IoUringTransport;
}
