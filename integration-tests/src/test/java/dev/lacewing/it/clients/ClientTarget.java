package dev.lacewing.it.clients;

import dev.lacewing.core.keyspace.Slots;
import dev.lacewing.it.reference.ReferenceRedis;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

/**
 * A server the client tests drive: a Lacewing target of {@link Servers#all}, or Debian's redis-server 7.0 as
 * the reference, so that each client test also shows that what it expects is what Redis does.
 * The reference is started once, on first use, and stopped when the JVM exits; without
 * redis-server its runs are skipped with that reason. The reference is guarded by the class's lock.
 *
 * @param lacewing the Lacewing target, or null for the reference redis-server
 */
record ClientTarget(Target lacewing) {

    private static ReferenceRedis reference;

    /** Every target of {@link Servers#all}, then the reference redis-server, for {@code @MethodSource}. */
    static Stream<ClientTarget> all() {
        return Stream.concat(Servers.all().map(ClientTarget::new), Stream.of(new ClientTarget(null)));
    }

    int port() {
        return lacewing == null ? referencePort() : Servers.server(lacewing).port();
    }

    boolean isReference() {
        return lacewing == null;
    }

    /**
     * A key named after the client, the target and {@code name} that Lacewing's two-shard
     * shared-nothing servers keep on shard {@code shard}; any shard means nothing elsewhere.
     */
    String key(String client, String name, int shard) {
        for (int i = 0; i < 1000; i++) {
            String key = client + ":" + this + ":" + name + ":" + i;
            byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
            if (Slots.partitionOf(bytes, 0, bytes.length, 2) == shard) {
                return key;
            }
        }
        throw new IllegalStateException("no key on shard " + shard);
    }

    @Override
    public String toString() {
        return lacewing == null ? "redis-server" : lacewing.toString();
    }

    private static synchronized int referencePort() {
        if (reference == null) {
            try {
                reference = ReferenceRedis.start();
            } catch (IOException e) {
                throw new IllegalStateException("redis-server did not start", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting redis-server", e);
            }
            ReferenceRedis started = reference;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "close-reference-redis"));
        }
        return reference.port();
    }
}
