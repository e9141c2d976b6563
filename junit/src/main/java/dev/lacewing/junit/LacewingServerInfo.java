package dev.lacewing.junit;

import java.net.URI;

/** Where a test's server listens. */
public record LacewingServerInfo(String host, int port) {

    /** {@code redis://host:port}, as lettuce and Jedis take it. */
    public URI uri() {
        return URI.create("redis://" + host + ":" + port);
    }
}
