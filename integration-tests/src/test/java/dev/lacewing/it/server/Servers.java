package dev.lacewing.it.server;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.api.TransportProvider;
import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.core.server.Plugins;
import dev.lacewing.junit.LacewingServerInfo;
import dev.lacewing.junit.LacewingTarget;
import dev.lacewing.junit.LacewingTest;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The servers the suite runs against: an all-pairs covering of engine x transport x storage
 * ({@link LacewingTarget#allPairs}: every engine on every transport, every engine and every
 * transport on each storage, in six targets where every combination would be twelve), each started
 * once in this JVM (embedded, on an ephemeral port, two worker threads so that the shared-nothing
 * engine has two shards and cross-shard paths run) and shared by the test classes. A transport
 * this machine cannot load is skipped with its reason. A tiered target writes every string to
 * disk as it is stored ({@link LacewingTest.Storage#TIERED}'s settings), so that its reads come from the file. Each shared server also has the
 * {@link TypedValueFixture} command, to store a value of another type than string.
 *
 * <p>Tests keep to their own key names (prefixed with the test and target) in database 0;
 * database 9 belongs to the reference comparison, which flushes it.
 */
public final class Servers {

    public static final List<String> ENGINES = List.of("shared-nothing", "multithread");

    private static final Map<Target, LacewingServer> STARTED = new ConcurrentHashMap<>();
    private static final Map<Target, RedisClient> CLIENTS = new ConcurrentHashMap<>();
    private static final Map<Integer, RedisClient> CLIENTS_BY_PORT = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Servers::closeAll, "close-test-servers"));
    }

    private Servers() {
    }

    /** The suite's targets, for {@code @MethodSource}: every pair of engine, transport and storage. */
    public static Stream<Target> all() {
        return LacewingTarget.allPairs(List.of(LacewingTest.Engine.values()), List.of(LacewingTest.Transport.values()),
            List.of(LacewingTest.Storage.values())).stream().map(Target::of);
    }

    /** Why a transport cannot run here, or empty. */
    public static Optional<String> unavailability(String transport) {
        if (transport.equals("nio") || transport.equals("auto")) {
            return Optional.empty();
        }
        for (TransportProvider provider : Plugins.fromClassPath().transports()) {
            if (provider.name().equals(transport)) {
                return provider.unavailabilityCause();
            }
        }
        return Optional.of("no " + transport + " transport plugin on the class path");
    }

    /** The running server for a target; the calling test is skipped when its transport cannot load. */
    public static LacewingServer server(Target target) {
        return STARTED.computeIfAbsent(target, t -> {
            LacewingServer server = builder(t).start();
            server.state().addCommands(new TypedValueFixture());
            return server;
        });
    }

    /**
     * A builder for a dedicated server of a target (two threads, ephemeral port, its storage with
     * the settings {@link LacewingTest.Storage} gives it; a tiered target's segment files in a
     * {@code tiered-dir} of their own, so that what a test finds in, or removes with, {@code dir}
     * is what redis-server would have there), for tests that
     * need settings the shared servers must not have (requirepass, tiny limits); the caller
     * closes what it starts. Skips the calling test when the transport cannot load.
     */
    public static LacewingServer.Builder builder(Target target) {
        Optional<String> cause = unavailability(target.transport());
        assumeTrue(cause.isEmpty(), () -> target.transport() + " transport unavailable: " + cause.orElse(""));
        LacewingServer.Builder builder = LacewingServer.builder()
            .port(0)
            .engine(target.engine())
            .transport(target.transport())
            .threads(2)
            .set("dir", freshDirectory().toString())
            .set("save", "")
            .set("storage", target.storage());
        for (LacewingTest.Storage storage : LacewingTest.Storage.values()) {
            if (storage.settingValue().equals(target.storage())) {
                storage.settings().forEach(builder::set);
            }
        }
        if (target.storage().equals("tiered")) {
            builder.set("tiered-dir", freshDirectory().toString());
        }
        // -Dlacewing.it.shard-writes-replies=yes runs the suite with the shard writing hopped replies.
        String shardWritesReplies = System.getProperty("lacewing.it.shard-writes-replies");
        if (shardWritesReplies != null) {
            builder.set("shard-writes-replies", shardWritesReplies);
        }
        return builder;
    }

    /**
     * An empty directory of its own for a server's RDB file, so that no server loads what another
     * saved; removed when the JVM exits. Tests of persistence set their own.
     */
    public static Path freshDirectory() {
        try {
            Path directory = Files.createTempDirectory("lacewing-it");
            directory.toFile().deleteOnExit();
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One of this machine's own non-loopback IPv4 addresses, or null: a client that connects to it
     * arrives from it, not from 127.0.0.1, so what a server does for remote clients can be
     * exercised without leaving the host.
     */
    public static String nonLoopbackAddress() {
        try {
            for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!network.isUp() || network.isLoopback()) {
                    continue;
                }
                for (InetAddress candidate : Collections.list(network.getInetAddresses())) {
                    if (candidate instanceof Inet4Address && !candidate.isLoopbackAddress()) {
                        return candidate.getHostAddress();
                    }
                }
            }
            return null;
        } catch (SocketException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A lettuce client (binary codec) for a target's server. */
    public static RedisClient client(Target target) {
        LacewingServer server = server(target);
        return CLIENTS.computeIfAbsent(target, t -> {
            RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(server.port())
                .withTimeout(Duration.ofSeconds(10)).build());
            return client;
        });
    }

    /**
     * A new connection with the binary codec to a lacewing-junit server (a {@code LacewingMatrix}
     * test's own); close it after use. The client is shared by the tests of that port.
     */
    public static StatefulRedisConnection<byte[], byte[]> connect(LacewingServerInfo server) {
        return CLIENTS_BY_PORT.computeIfAbsent(server.port(), port -> RedisClient.create(RedisURI.builder()
                .withHost(server.host()).withPort(port).withTimeout(Duration.ofSeconds(10)).build()))
            .connect(ByteArrayCodec.INSTANCE);
    }

    /** A new connection with the binary codec; close it after use. */
    public static StatefulRedisConnection<byte[], byte[]> connect(Target target) {
        return client(target).connect(ByteArrayCodec.INSTANCE);
    }

    private static void closeAll() {
        CLIENTS.values().forEach(RedisClient::shutdown);
        CLIENTS_BY_PORT.values().forEach(RedisClient::shutdown);
        STARTED.values().forEach(LacewingServer::close);
    }
}
