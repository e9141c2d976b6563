package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * maxmemory, maxmemory-policy and OBJECT through lettuce, on a dedicated server per target (the
 * limits must not reach the shared servers).
 */
class MemoryCommandsTest {

    private static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";

    private static void withServer(Target target, Consumer<RedisCommands<String, String>> body) {
        try (LacewingServer server = Servers.builder(target).start()) {
            RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(server.port())
                .withTimeout(Duration.ofSeconds(10)).build());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                body.accept(connection.sync());
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    private static long info(RedisCommands<String, String> sync, String section, String field) {
        return field(sync.info(section), field);
    }

    private static long field(String info, String field) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError(field + " not in INFO");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void noevictionRefusesDenyoomCommandsOverTheLimitAndLetsOthersRun(Target target) {
        withServer(target, sync -> {
            for (int i = 0; i < 100; i++) {
                sync.set("key:" + i, "value");
            }
            assertEquals("OK", sync.configSet("maxmemory", "1"));
            String memory = sync.info("memory");
            assertTrue(memory.contains("maxmemory:1\r\nmaxmemory_human:1B\r\nmaxmemory_policy:noeviction\r\n"), memory);
            RedisException refused = assertThrows(RedisException.class, () -> sync.set("key:new", "v"));
            assertEquals(OOM, refused.getMessage());
            assertThrows(RedisException.class, () -> sync.append("key:1", "more"));
            assertEquals("value", sync.get("key:1"));
            assertEquals(1L, sync.del("key:2"));
            assertEquals(0L, info(sync, "stats", "evicted_keys"));
            assertEquals("OK", sync.configSet("maxmemory", "0"));
            assertEquals("OK", sync.set("key:new", "v"));
            RedisException badPolicy = assertThrows(RedisException.class,
                () -> sync.configSet("maxmemory-policy", "sometimes"));
            assertEquals("ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - argument(s) must "
                + "be one of the following: volatile-lru, volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, "
                + "allkeys-lfu, allkeys-random, noeviction", badPolicy.getMessage());
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void allkeysLruEvictsToStayUnderTheLimitWhileWritesGoOn(Target target) {
        withServer(target, sync -> {
            String value = "x".repeat(100);
            long empty = info(sync, "memory", "used_memory");
            for (int i = 0; i < 2000; i++) {
                sync.set("key:" + i, value);
            }
            long live = info(sync, "memory", "used_memory");
            // Half the keys' memory: the empty tables (16 databases of every partition, 512 on the
            // multithread engine) are most of a tiered target's memory once its values are on disk.
            long limit = empty + (live - empty) / 2;
            assertEquals("OK", sync.configSet("maxmemory-policy", "ALLKEYS-LRU"));
            assertEquals("allkeys-lru", sync.configGet("maxmemory-policy").get("maxmemory-policy"));
            assertEquals("OK", sync.configSet("maxmemory", Long.toString(limit)));
            for (int i = 2000; i < 3000; i++) {
                assertEquals("OK", sync.set("key:" + i, value));
            }
            // DBSIZE first: it holds the whole keyspace, so it may evict too, as any command in Redis.
            // Then, with the limit off, nothing evicts between the two counts (eviction tasks queued
            // on other threads end at their next step, and DBSIZE waits for any step running).
            sync.dbsize();
            assertEquals("OK", sync.configSet("maxmemory", "0"));
            long size = sync.dbsize();
            long evicted = info(sync, "stats", "evicted_keys");
            assertTrue(evicted > 1000, "evicted " + evicted);
            assertEquals(3000 - evicted, size);
            long after = info(sync, "memory", "used_memory");
            assertTrue(after <= limit + limit / 10, after + " bytes used for a limit of " + limit);
        });
    }

    /**
     * One write far over the limit evicts the whole keyspace, not only the write's partition: as
     * Redis's eviction timer goes on after a command, each other partition over its share evicts
     * on its own thread. Redis 7.0.15 leaves no key (CONFIG SET maxmemory 1 itself evicts there).
     * The wait reads INFO keyspace, which holds no partition and so evicts nothing itself (DBSIZE
     * holds every one and would).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void oneWriteOverTheLimitEvictsFromEveryPartition(Target target) {
        withServer(target, sync -> {
            int keys = 20_000;
            long evictedBefore = 0;
            for (String policy : new String[] {"allkeys-random", "allkeys-lru"}) {
                assertEquals("OK", sync.configSet("maxmemory", "0"));
                for (int batch = 0; batch < keys; batch += 1000) {
                    Map<String, String> pairs = new HashMap<>();
                    for (int i = batch; i < batch + 1000; i++) {
                        pairs.put("key:" + i, "value:" + i);
                    }
                    assertEquals("OK", sync.mset(pairs));
                }
                assertEquals("OK", sync.configSet("maxmemory-policy", policy));
                assertEquals("OK", sync.configSet("maxmemory", "1"));
                int stored = 1;
                try {
                    sync.set("key:new", "v");
                } catch (RedisException refused) {
                    assertEquals(OOM, refused.getMessage());
                    stored = 0;
                }
                // INFO reads each partition's key count and eviction count one after the other, holding
                // none of them, and a partition counts an eviction just after the key is gone: wait for
                // both, as the last eviction task may still be running on its owner.
                long left = keysInfo(sync);
                long evicted = info(sync, "stats", "evicted_keys");
                for (long deadline = System.nanoTime() + 10_000_000_000L;
                        (left > 0 || evicted - evictedBefore < keys + stored) && System.nanoTime() < deadline; ) {
                    sleepMillis(10);
                    left = keysInfo(sync);
                    evicted = info(sync, "stats", "evicted_keys");
                }
                assertEquals(0, left, policy + ": keys left");
                assertEquals(keys + stored, evicted - evictedBefore, policy + ": evicted");
                assertEquals(0, sync.dbsize());
                evictedBefore = evicted;
            }
        });
    }

    /** db0's key count from INFO keyspace (0 when the section leaves it out). */
    private static long keysInfo(RedisCommands<String, String> sync) {
        for (String line : sync.info("keyspace").split("\r\n")) {
            if (line.startsWith("db0:keys=")) {
                return Long.parseLong(line.substring("db0:keys=".length(), line.indexOf(',')));
            }
        }
        return 0;
    }

    /**
     * used_memory is what Redis's counts (the keyspace's live data and overheads plus the clients'
     * buffers), so eviction holds it, not a figure below it, to maxmemory: the page space that
     * evictions free inside the keyspace's pages is fragmentation, as freed space in jemalloc's
     * pages is for Redis, reported apart.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void usedMemoryIsTheKeyspaceAndClientBuffersAndEvictionHoldsItToTheLimit(Target target) {
        withServer(target, sync -> {
            // A tiered target keeps the values on disk and counts RAM only (about 60 bytes a key,
            // not 350), so its limit is smaller for the same writes to overflow it as far.
            long limit = target.storage().equals("tiered") ? 1024 * 1024 : 4L * 1024 * 1024;
            assertEquals("OK", sync.configSet("maxmemory-policy", "allkeys-lru"));
            assertEquals("OK", sync.configSet("maxmemory", Long.toString(limit)));
            String value = "v".repeat(256);
            Random random = new Random(15);
            for (int batch = 0; batch < 2000; batch++) {
                Map<String, String> pairs = new HashMap<>();
                for (int i = 0; i < 20; i++) {
                    pairs.put("key:" + random.nextInt(100_000), value);
                }
                assertEquals("OK", sync.mset(pairs));
            }
            // The last check may have used a sum up to a millisecond old; DBSIZE, run later, holds
            // the whole keyspace and so evicts the rest of any excess.
            sleepMillis(5);
            long keys = sync.dbsize();
            assertTrue(keys < 20_000, keys + " keys of 256 bytes in " + limit + " bytes");
            assertTrue(info(sync, "stats", "evicted_keys") > 10_000);
            String memory = sync.info("memory");
            long used = field(memory, "used_memory");
            long clients = field(memory, "mem_clients_normal");
            // The clients' buffers count, as in Redis, and so do the replies on their way to this
            // client (io_uring completes a send after the flush): a few hundred bytes past the check.
            assertTrue(used <= limit + 1024, used + " bytes used for a limit of " + limit);
            assertTrue(used > limit * 9 / 10, used + " bytes used for a limit of " + limit);
            assertTrue(clients > 0, "a connection's query buffer counts");
            assertEquals(used, field(memory, "lacewing_used_memory_keyspace") + clients);
            // INFO reads the keyspace's live and allocated bytes one after the other, holding no
            // partition: an eviction task still queued (or a tiered offload) may free some between
            // the two, and a tiered table's allocated bytes are its live ones. With the limit off,
            // nothing evicts (queued tasks end at their next step; DBSIZE waits for one running).
            assertEquals("OK", sync.configSet("maxmemory", "0"));
            sync.dbsize();
            String settled = sync.info("memory");
            assertTrue(field(settled, "lacewing_used_memory_allocated") >= field(settled, "lacewing_used_memory_keyspace"));
        });
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void objectReportsEncodingRefcountIdleTimeAndFrequency(Target target) {
        withServer(target, sync -> {
            sync.set("int", "42");
            sync.set("short", "hello");
            sync.set("long", "y".repeat(45));
            assertEquals("int", sync.objectEncoding("int"));
            assertEquals("embstr", sync.objectEncoding("short"));
            assertEquals("raw", sync.objectEncoding("long"));
            assertEquals(2147483647L, sync.objectRefcount("int"));
            assertEquals(1L, sync.objectRefcount("short"));
            // The LRU clock counts whole seconds: a second boundary may fall between SET and OBJECT.
            long idle = sync.objectIdletime("short");
            assertTrue(idle == 0 || idle == 1, "idle " + idle + " s right after SET");
            RedisException noLfu = assertThrows(RedisException.class, () -> sync.objectFreq("short"));
            assertTrue(noLfu.getMessage().startsWith("ERR An LFU maxmemory policy is not selected"));
            sync.configSet("maxmemory-policy", "volatile-lfu");
            // No decay, so that a minute boundary between SET and GET cannot lower the counter.
            sync.configSet("lfu-decay-time", "0");
            sync.set("counted", "v");
            assertEquals(5L, sync.objectFreq("counted"));
            sync.get("counted");
            assertEquals(6L, sync.objectFreq("counted"));
            RedisException lfu = assertThrows(RedisException.class, () -> sync.objectIdletime("counted"));
            assertTrue(lfu.getMessage().startsWith("ERR An LFU maxmemory policy is selected"));
        });
    }
}
