package dev.lacewing.transport.spi;

import java.io.IOException;

/**
 * A non-blocking write(2) straight on a connection's socket, past the transport's own queue: how a
 * shard thread sends a hopped command's reply without handing the connection back to its event
 * loop first (docs/architecture.md, "Engines"). The caller guarantees that nothing of the
 * connection is queued in the transport and that the socket is not closed meanwhile.
 */
@FunctionalInterface
public interface SocketWrite {

    /** Writes up to {@code length} bytes from native memory; how many the socket took, 0 when it takes none now. */
    int write(long address, int length) throws IOException;
}
