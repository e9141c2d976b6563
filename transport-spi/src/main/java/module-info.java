/**
 * The transport SPI: what a transport plugin implements to give the server Netty's I/O for one
 * mechanism (NIO, epoll, io_uring). It is Netty-typed, since a transport is a Netty IoHandler and
 * its channels, and it holds only that binding, so a transport builds against the API, this
 * module and Netty, without core.
 */
module dev.lacewing.transport.spi {
    requires transitive dev.lacewing.api;
    requires transitive io.netty.transport;

    exports dev.lacewing.transport.spi;
}
