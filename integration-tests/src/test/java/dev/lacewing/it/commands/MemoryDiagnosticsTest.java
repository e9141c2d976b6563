package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MEMORY STATS with Redis 7.0's field names in its order (as redis-server 7.0.15 replies them),
 * filled with the JVM's and the keyspace's figures, MEMORY DOCTOR, MEMORY MALLOC-STATS and MEMORY PURGE.
 */
class MemoryDiagnosticsTest {

    /** redis-server 7.0.15's MEMORY STATS names, with keys in db 0 and db 3. */
    private static final List<String> REDIS_FIELDS = List.of("peak.allocated", "total.allocated", "startup.allocated",
        "replication.backlog", "clients.slaves", "clients.normal", "cluster.links", "aof.buffer", "lua.caches",
        "functions.caches", "db.0", "db.3", "overhead.total", "keys.count", "keys.bytes-per-key", "dataset.bytes",
        "dataset.percentage", "peak.percentage", "allocator.allocated", "allocator.active", "allocator.resident",
        "allocator-fragmentation.ratio", "allocator-fragmentation.bytes", "allocator-rss.ratio", "allocator-rss.bytes",
        "rss-overhead.ratio", "rss-overhead.bytes", "fragmentation", "fragmentation.bytes");

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void statsHaveRedisFieldsAndTheKeyspacesFigures(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            client.call("MSET", "a", "1", "b", "2");
            client.call("SELECT", "3");
            client.call("SET", "c", "3");
            List<?> stats = (List<?>) RespClient.parse(client.call("MEMORY", "STATS"));
            List<Object> names = new ArrayList<>();
            for (int i = 0; i < stats.size(); i += 2) {
                names.add(stats.get(i));
            }
            assertEquals(REDIS_FIELDS, names);
            assertEquals(List.of("overhead.hashtable.main", 0L, "overhead.hashtable.expires", 0L,
                "overhead.hashtable.slot-to-keys", 0L), stats.get(names.indexOf("db.0") * 2 + 1));
            assertEquals(3L, stats.get(names.indexOf("keys.count") * 2 + 1));
            assertTrue((Long) stats.get(names.indexOf("total.allocated") * 2 + 1) > 0);
            assertTrue((Long) stats.get(names.indexOf("allocator.allocated") * 2 + 1) > 0);
            double fragmentation = Double.parseDouble((String) stats.get(names.indexOf("fragmentation") * 2 + 1));
            assertTrue(fragmentation > 0, stats.toString());

            client.call("HELLO", "3");
            String resp3 = client.call("MEMORY", "STATS");
            assertTrue(resp3.startsWith("%" + REDIS_FIELDS.size() + "\r\n$14\r\npeak.allocated\r\n:"), resp3);
            assertTrue(resp3.contains("$13\r\nfragmentation\r\n,"), resp3);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void purgeRunsACollectionAndRepliesOk(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            long collections = collections();
            assertEquals("+OK\r\n", client.call("MEMORY", "PURGE"));
            assertTrue(collections() > collections, "a collection ran");
            assertTrue(client.call("MEMORY", "HELP").contains("PURGE"));
            assertEquals("-ERR wrong number of arguments for 'memory|purge' command\r\n",
                client.call("MEMORY", "PURGE", "now"));
        }
    }

    /** Collections run by every collector of this JVM, which the in-process server shares. */
    private static long collections() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
            .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void doctorAndMallocStatsReplyText(Target target) {
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            String doctor = (String) RespClient.parse(client.call("MEMORY", "DOCTOR"));
            assertTrue(doctor.startsWith("Hi Sam, ") || doctor.startsWith("Sam, I detected a few issues"), doctor);
            String malloc = (String) RespClient.parse(client.call("MEMORY", "MALLOC-STATS"));
            assertTrue(malloc.startsWith("___ Begin JVM memory statistics ___\n") && malloc.contains("\nheap: init ")
                && malloc.contains("\ngc \""), malloc);
            assertEquals("-ERR wrong number of arguments for 'memory|stats' command\r\n",
                client.call("MEMORY", "STATS", "x"));
        }
    }
}
