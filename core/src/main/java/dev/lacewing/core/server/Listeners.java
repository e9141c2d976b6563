package dev.lacewing.core.server;

import dev.lacewing.core.config.Config;
import dev.lacewing.core.transport.TlsContext;
import dev.lacewing.transport.spi.NettyTransport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The server's listening sockets: plain TCP ({@code port}), TLS ({@code tls-port}), the Unix
 * socket and the metrics port. CONFIG SET of {@code port} or {@code tls-port} moves a listener as
 * Redis's changeListenPort does: the new port is bound on every bind address first and the old
 * listeners close after, so a port that cannot be bound leaves the old ones listening and fails
 * the CONFIG SET; 0 closes that listener. (At start-up, port 0 picks a free port instead; see
 * {@link LacewingServer}.)
 *
 * <p>Thread rule: {@link #open} and {@link #close} on the thread starting or closing the server;
 * the apply steps on the thread of the CONFIG SET, a worker. Every listener is registered on the
 * acceptor's one thread, which only accepts and never waits on a worker, so a worker may wait for
 * its bind. Every method holds this.
 */
final class Listeners {

    private static final System.Logger LOG = System.getLogger(Listeners.class.getName());

    /** Redis's reason when changeListenPort fails. */
    static final String CANNOT_LISTEN = "Unable to listen on this port. Check server logs.";

    private final MultiThreadIoEventLoopGroup acceptor;
    private final MultiThreadIoEventLoopGroup workers;
    private final String bind;
    /** Templates without an event loop group: each bind picks the parent loop. */
    private final ServerBootstrap plain;
    private final ServerBootstrap secure;
    private final TlsContext tls;
    private final ServerState state;
    private final List<Channel> tcpListeners = new ArrayList<>();
    private final List<Channel> tlsListeners = new ArrayList<>();
    private final List<Channel> otherListeners = new ArrayList<>();
    /** The values of port and tls-port last put into effect, to tell a change from a restore. */
    private int appliedPort;
    private int appliedTlsPort;
    private Path unixSocket;

    Listeners(MultiThreadIoEventLoopGroup acceptor, MultiThreadIoEventLoopGroup workers, String bind,
              ServerBootstrap plain, ServerBootstrap secure, TlsContext tls, ServerState state) {
        this.acceptor = acceptor;
        this.workers = workers;
        this.bind = bind;
        this.plain = plain;
        this.secure = secure;
        this.tls = tls;
        this.state = state;
    }

    /**
     * Opens the listeners of the settings at start-up and registers the apply steps of port and
     * tls-port. Port 0 picks a free port unless unixsocket or tls-port is set, when it turns TCP off.
     */
    synchronized void open(Config config, NettyTransport transport, ServerBootstrap domain,
                           ServerBootstrap metrics) {
        appliedPort = (int) config.longValue("port");
        appliedTlsPort = (int) config.longValue("tls-port");
        String unixSocketPath = config.value("unixsocket");
        int port = 0;
        if (appliedPort != 0 || (appliedTlsPort == 0 && unixSocketPath.isEmpty())) {
            port = listen(plain, bind, appliedPort, "TCP", tcpListeners);
        }
        if (!unixSocketPath.isEmpty()) {
            otherListeners.add(listenOnUnixSocket(domain.group(acceptor, workers), transport, unixSocketPath,
                config.value("unixsocketperm")));
            unixSocket = Path.of(unixSocketPath);
        }
        int tlsPort = 0;
        if (appliedTlsPort != 0) {
            tlsPort = listen(secure, bind, appliedTlsPort, "TLS", tlsListeners);
        }
        int metricsPort = (int) config.longValue("metrics-port");
        if (metricsPort != 0) {
            listen(metrics, config.value("metrics-bind"), metricsPort, "metrics", otherListeners);
        }
        state.port(port);
        state.tlsPort(tlsPort);
        config.onApply(name -> name.equals("port"), () -> movePort((int) config.longValue("port")));
        config.onApply(name -> name.equals("tls-port"), () -> moveTlsPort((int) config.longValue("tls-port")));
    }

    /** The Unix socket's path; null for none. */
    synchronized Path unixSocket() {
        return unixSocket;
    }

    private synchronized void movePort(int port) {
        if (port == appliedPort) {
            return;
        }
        state.port(move(plain, port, state.port(), "TCP", tcpListeners));
        appliedPort = port;
    }

    private synchronized void moveTlsPort(int port) {
        if (port == appliedTlsPort) {
            return;
        }
        if (appliedTlsPort == 0) {
            tls.enable();
        }
        state.tlsPort(move(secure, port, state.tlsPort(), "TLS", tlsListeners));
        appliedTlsPort = port;
        LOG.log(System.Logger.Level.INFO, port == 0 ? "TLS listener closed"
            : "TLS listening on tls-port " + port + " (" + TlsContext.provider() + ")");
    }

    /** Binds {@code port} (0: none), then closes {@code listeners} and puts the new ones in; returns the port. */
    private int move(ServerBootstrap template, int port, int bound, String kind, List<Channel> listeners) {
        if (port == bound && port != 0) {
            return port;
        }
        List<Channel> opened = new ArrayList<>();
        if (port != 0) {
            try {
                listenOnce(template, bind, port, kind, opened);
            } catch (IllegalStateException e) {
                opened.forEach(Channel::close);
                LOG.log(System.Logger.Level.WARNING, "Warning: " + e.getMessage());
                throw new IllegalArgumentException(CANNOT_LISTEN, e);
            }
        }
        listeners.forEach(Channel::close);
        listeners.clear();
        listeners.addAll(opened);
        return port;
    }

    /** Closes every listener and removes the Unix socket's file, as Redis does at exit. */
    synchronized void close() {
        for (List<Channel> kind : List.of(tcpListeners, tlsListeners, otherListeners)) {
            kind.forEach(listener -> listener.close().syncUninterruptibly());
            kind.clear();
        }
        if (unixSocket != null) {
            try {
                Files.deleteIfExists(unixSocket);
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "Error removing the unix socket " + unixSocket + ": " + e.getMessage());
            }
        }
    }

    /**
     * Binds every address of {@code bind} on one port (the first bound fixes it when 0), as
     * Redis's listenToPort; a leading - marks an address skipped when it cannot be bound.
     * Adds the listeners; returns the port.
     */
    private int listen(ServerBootstrap template, String bind, int port, String kind, List<Channel> listeners) {
        if (port != 0) {
            return listenOnce(template, bind, port, kind, listeners);
        }
        // Port 0: the first address picks a free port, which a later address may find taken on its
        // interface (another socket's ephemeral port); then everything is let go and tried afresh.
        for (int attempt = 1; ; attempt++) {
            List<Channel> tried = new ArrayList<>();
            try {
                int chosen = listenOnce(template, bind, 0, kind, tried);
                listeners.addAll(tried);
                return chosen;
            } catch (IllegalStateException e) {
                tried.forEach(channel -> channel.close().syncUninterruptibly());
                if (attempt == 8 || tried.isEmpty()) {
                    throw e;
                }
            }
        }
    }

    private int listenOnce(ServerBootstrap template, String bind, int port, String kind, List<Channel> listeners) {
        int bound = 0;
        for (String address : bind.split("\\s+")) {
            boolean optional = address.startsWith("-");
            String host = optional ? address.substring(1) : address;
            try {
                Channel listener = bind(template, new InetSocketAddress(host, port));
                listeners.add(listener);
                bound++;
                port = ((InetSocketAddress) listener.localAddress()).getPort();
            } catch (Exception e) { // Netty rethrows BindException unchecked
                if (!optional) {
                    throw new IllegalStateException("Could not create server " + kind + " listening socket " + host
                        + ":" + port + ": " + e.getMessage(), e);
                }
                LOG.log(System.Logger.Level.DEBUG, "skipping optional bind address " + host + ": " + e.getMessage());
            }
        }
        if (bound == 0) {
            throw new IllegalStateException("Failed listening on any address of '" + bind + "'");
        }
        return port;
    }

    /** One listener on the acceptor's thread, its connections on the workers; waits for the bind. */
    private Channel bind(ServerBootstrap template, InetSocketAddress address) {
        return template.clone().group(acceptor, workers).bind(address).syncUninterruptibly().channel();
    }

    /**
     * Listens on a Unix domain socket as Redis's anetUnixServer: a file already at the path is
     * removed first, and a non-zero {@code unixsocketperm} (octal) is set on the new one.
     */
    private static Channel listenOnUnixSocket(ServerBootstrap bootstrap, NettyTransport transport, String path,
                                              String permissions) {
        int mode;
        try {
            mode = Integer.parseInt(permissions, 8);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'unixsocketperm " + permissions + "': Invalid socket file permissions");
        }
        try {
            Files.deleteIfExists(Path.of(path));
            Channel listener = bootstrap.bind(transport.domainSocketAddress(path)).syncUninterruptibly().channel();
            if (mode != 0) {
                Files.setPosixFilePermissions(Path.of(path), posixPermissions(mode));
            }
            return listener;
        } catch (Exception e) { // Netty rethrows BindException unchecked
            throw new IllegalStateException("Failed opening Unix socket: " + e.getMessage(), e);
        }
    }

    private static Set<PosixFilePermission> posixPermissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] byBit = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
        for (int bit = 0; bit < byBit.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                permissions.add(byBit[bit]);
            }
        }
        return permissions;
    }
}
