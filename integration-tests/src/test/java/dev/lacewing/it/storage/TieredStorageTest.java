package dev.lacewing.it.storage;

import static dev.lacewing.it.storage.TieredServers.bulk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tiered storage plugin ({@code --storage tiered}) on both engines, with every string of 16
 * bytes or more on disk ({@code --tiered-offload eager --tiered-min-value-size 16}): commands read
 * and edit offloaded strings exactly, expiry, SCAN, RENAME, DUMP/RESTORE, FLUSHALL and a restart
 * from BGSAVE's file behave as on the compact storage; under {@code maxmemory} the default policy
 * offloads before anything is evicted.
 */
class TieredStorageTest {

    private static final String LONG = "0123456789abcdefghij";

    static Stream<Target> engines() {
        return TieredServers.engines();
    }

    private static LacewingServer.Builder tiered(Target target, Path dir) {
        return TieredServers.eager(target).set("dir", dir.toString()).set("tiered-dir", "");
    }

    /** A field of INFO's default sections (memory, stats...). */
    private static long defaultInfoField(RespClient client, String name) {
        return TieredServers.infoField(client, "", name);
    }

    private static long infoField(RespClient client, String name) {
        return TieredServers.infoField(client, "server", name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void stringsOnDiskReadAndEditExactly(Target target) throws Exception {
        try (LacewingServer server = tiered(target, Servers.freshDirectory()).start();
             RespClient client = RespClient.connect(server.port())) {
            assertTrue(client.call("INFO", "server").contains("lacewing_storage:tiered\r\n"));
            assertEquals("*2\r\n" + bulk("tiered-offload") + bulk("eager"), client.call("CONFIG", "GET", "tiered-offload"));
            assertEquals("*2\r\n" + bulk("tiered-min-value-size") + bulk("16"),
                client.call("CONFIG", "GET", "tiered-min-value-size"));
            assertEquals("+OK\r\n", client.call("SET", "long", LONG));
            assertEquals("+OK\r\n", client.call("SET", "short", "15-bytes-string"));
            assertEquals(1, infoField(client, "tiered_offloaded_values"));
            assertEquals(LONG.length(), infoField(client, "tiered_disk_bytes"));
            assertEquals(bulk(LONG), client.call("GET", "long"));
            assertTrue(infoField(client, "tiered_reads") >= 1);
            assertEquals(":20\r\n", client.call("STRLEN", "long"));
            assertEquals(bulk("abcde"), client.call("GETRANGE", "long", "10", "14"));
            assertEquals(":25\r\n", client.call("APPEND", "long", "-tail"));
            assertEquals(bulk(LONG + "-tail"), client.call("GET", "long"));
            assertEquals(":25\r\n", client.call("SETRANGE", "long", "2", "XY"));
            assertEquals(bulk("01XY456789abcdefghij-tail"), client.call("GET", "long"));
            assertEquals(bulk("raw"), client.call("OBJECT", "ENCODING", "long"));
            assertEquals(":19\r\n", client.call("APPEND", "short", "++++"));
            assertEquals("*2\r\n" + bulk("01XY456789abcdefghij-tail") + bulk("15-bytes-string++++"),
                client.call("MGET", "long", "short"));
            assertEquals(bulk("01XY456789abcdefghij-tail"), client.call("SET", "long", "x".repeat(30), "GET"));
            assertEquals(bulk("x".repeat(30)), client.call("GETDEL", "long"));
            assertEquals("$-1\r\n", client.call("GET", "long"));
            assertEquals("+OK\r\n", client.call("SET", "number", "12345678901234567"));
            assertEquals(":12345678901234568\r\n", client.call("INCR", "number"));
            assertEquals("+OK\r\n", client.call("SET", "text", "some text that is long enough, past 44 bytes"));
            assertEquals(bulk("embstr"), client.call("OBJECT", "ENCODING", "text"), "44 bytes, as redis-server 7.0.15");
            assertEquals(":1\r\n", client.call("HSET", "hash", "field", LONG));
            assertEquals(bulk(LONG), client.call("HGET", "hash", "field"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void expiryScanRenameDumpRestoreAndFlushallOverOffloadedStrings(Target target) throws Exception {
        try (LacewingServer server = tiered(target, Servers.freshDirectory()).start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("SET", "soon", LONG, "PX", "100"));
            assertEquals("+OK\r\n", client.call("SET", "later", LONG, "EX", "1000"));
            assertEquals(bulk(LONG), client.call("GET", "soon"));
            Thread.sleep(150);
            assertEquals("$-1\r\n", client.call("GET", "soon"));
            assertEquals(":1000\r\n", client.call("TTL", "later"));
            assertEquals(":1\r\n", client.call("PERSIST", "later"));
            assertEquals(":-1\r\n", client.call("TTL", "later"));

            for (int i = 0; i < 300; i++) {
                client.send(RespClient.encode(RespClient.toBytes("SET", "key:" + i, "value-" + i + "-" + LONG)));
            }
            for (int i = 0; i < 300; i++) {
                assertEquals("+OK\r\n", client.readReplyText());
            }
            Set<String> scanned = new HashSet<>();
            String cursor = "0";
            int steps = 0;
            do {
                List<?> reply = (List<?>) RespClient.parse(client.call("SCAN", cursor, "MATCH", "key:*", "COUNT", "50"));
                cursor = (String) reply.get(0);
                for (Object key : (List<?>) reply.get(1)) {
                    scanned.add((String) key);
                }
                assertTrue(++steps < 1000);
            } while (!cursor.equals("0"));
            assertEquals(300, scanned.size());

            assertEquals("+OK\r\n", client.call("RENAME", "key:7", "renamed"));
            assertEquals(bulk("value-7-" + LONG), client.call("GET", "renamed"));
            assertEquals("$-1\r\n", client.call("GET", "key:7"));
            byte[] dump = client.callBytes(RespClient.toBytes("DUMP", "key:8"));
            String text = RespClient.text(dump);
            byte[] payload = RespClient.bytes((String) RespClient.parse(text));
            assertEquals("+OK\r\n", RespClient.text(client.callBytes(List.of(RespClient.bytes("RESTORE"),
                RespClient.bytes("restored"), RespClient.bytes("0"), payload))));
            assertEquals(bulk("value-8-" + LONG), client.call("GET", "restored"));

            assertTrue(infoField(client, "tiered_offloaded_values") >= 300);
            assertEquals("+OK\r\n", client.call("FLUSHALL"));
            assertEquals(":0\r\n", client.call("DBSIZE"));
            assertEquals(0, infoField(client, "tiered_offloaded_values"));
            assertEquals(0, infoField(client, "tiered_disk_bytes"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void bgsaveWritesOffloadedStringsAndARestartLoadsThemBack(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = tiered(target, dir).start();
             RespClient client = RespClient.connect(server.port())) {
            for (int i = 0; i < 500; i++) {
                client.send(RespClient.encode(RespClient.toBytes("SET", "key:" + i, "value-" + i + "-" + LONG)));
            }
            for (int i = 0; i < 500; i++) {
                assertEquals("+OK\r\n", client.readReplyText());
            }
            assertEquals("+OK\r\n", client.call("SET", "short", "s"));
            assertEquals("+Background saving started\r\n", client.call("BGSAVE"));
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (client.call("INFO", "persistence").contains("rdb_bgsave_in_progress:1")) {
                assertTrue(System.nanoTime() < deadline, "the save ended within 30 s");
                Thread.sleep(10);
            }
            assertTrue(client.call("INFO", "persistence").contains("rdb_last_bgsave_status:ok"));
        }
        assertTrue(Files.exists(dir.resolve("dump.rdb")));
        try (LacewingServer server = tiered(target, dir).start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals(":501\r\n", client.call("DBSIZE"));
            for (int i = 0; i < 500; i++) {
                assertEquals(bulk("value-" + i + "-" + LONG), client.call("GET", "key:" + i));
            }
            assertEquals(bulk("s"), client.call("GET", "short"));
            assertEquals(500, infoField(client, "tiered_offloaded_values"));
        }
        try (Stream<Path> left = Files.list(dir.resolve("tiered"))) {
            assertFalse(left.findAny().isPresent(), "the segment files are deleted when the server closes");
        }
    }

    /**
     * The default policy (pressure, 64 bytes, named here because the suite's tiered targets are
     * eager): over maxmemory strings go to disk first, so noeviction admits the writes.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void underMaxmemoryStringsGoToDiskBeforeAnyWriteIsRefused(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).set("tiered-offload", "pressure")
                .set("tiered-min-value-size", "64")
                .set("maxmemory", "4mb").set("maxmemory-policy", "noeviction").start();
             RespClient client = RespClient.connect(server.port())) {
            String value = "v".repeat(1000);
            for (int i = 0; i < 8000; i++) {
                assertEquals("+OK\r\n", client.call("SET", "key:" + i, value + i), "write " + i);
            }
            assertTrue(infoField(client, "tiered_offloaded_values") > 4000);
            assertTrue(client.call("INFO", "stats").contains("evicted_keys:0\r\n"));
            for (int i = 0; i < 8000; i += 7) {
                assertEquals(bulk(value + i), client.call("GET", "key:" + i));
            }
        }
    }

    /**
     * A limit set below the memory in use is met by offloading before any key is evicted, also by
     * the eviction tasks queued on every partition (CONFIG SET maxmemory starts them, and a keyless
     * command, which holds no partition to offload from, queues them too): under allkeys-lru,
     * 8,000 values of 1 KB go to disk and no key goes.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void queuedEvictionOffloadsBeforeItEvicts(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).set("tiered-offload", "pressure")
                .set("tiered-min-value-size", "64").set("maxmemory-policy", "allkeys-lru").start();
             RespClient client = RespClient.connect(server.port())) {
            String value = "v".repeat(1000);
            int keys = 8000;
            for (int i = 0; i < keys; i++) {
                client.send(RespClient.encode(RespClient.toBytes("SET", "key:" + i, value + i)));
                if (i % 100 == 99) {
                    for (int j = 0; j < 100; j++) {
                        assertEquals("+OK\r\n", client.readReplyText());
                    }
                }
            }
            assertEquals(0, infoField(client, "tiered_offloaded_values"));
            long limit = defaultInfoField(client, "used_memory") / 2;
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "maxmemory", Long.toString(limit)));
            long used = defaultInfoField(client, "used_memory");
            for (long deadline = System.nanoTime() + 20_000_000_000L; used > limit && System.nanoTime() < deadline; ) {
                Thread.sleep(10);
                used = defaultInfoField(client, "used_memory");
            }
            assertTrue(used <= limit, "used_memory " + used + " over " + limit);
            assertEquals(0, defaultInfoField(client, "evicted_keys"));
            assertTrue(infoField(client, "tiered_offloaded_values") > keys / 4);
            assertEquals(":" + keys + "\r\n", client.call("DBSIZE"));
            assertEquals(bulk(value + 7), client.call("GET", "key:7"));
        }
    }

    /**
     * Under maxmemory a hot set read again and again ends in memory while the cold keys stay on
     * disk: reading the hot set once more reads no disk, and used_memory stays under maxmemory.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void underMaxmemoryAHotSetReadRepeatedlyEndsInMemory(Target target) throws Exception {
        try (LacewingServer server = Servers.builder(target).set("storage", "tiered")
                .set("tiered-offload", "pressure").set("tiered-min-value-size", "64")
                .set("maxmemory", "4mb").set("maxmemory-policy", "noeviction").start();
             RespClient client = RespClient.connect(server.port())) {
            String value = "v".repeat(1000);
            int keys = 8000;
            int hot = 100;
            for (int i = 0; i < keys; i++) {
                client.send(RespClient.encode(RespClient.toBytes("SET", "key:" + i, value + i)));
                if (i % 100 == 99) {
                    for (int j = 0; j < 100; j++) {
                        assertEquals("+OK\r\n", client.readReplyText());
                    }
                }
            }
            Random random = new Random(5);
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < hot; i++) {
                    assertEquals(bulk(value + i), client.call("GET", "key:" + i));
                    int cold = hot + random.nextInt(keys - hot);
                    assertEquals(bulk(value + cold), client.call("GET", "key:" + cold));
                }
            }
            long reads = infoField(client, "tiered_reads");
            for (int i = 0; i < hot; i++) {
                assertEquals(bulk(value + i), client.call("GET", "key:" + i));
            }
            assertEquals(reads, infoField(client, "tiered_reads"), "the hot set reads no disk");
            assertTrue(infoField(client, "tiered_promotions") > 0);
            assertTrue(infoField(client, "tiered_offloaded_values") > keys / 2, "the cold keys stay on disk");
            long used = 0;
            for (String line : client.call("INFO", "memory").split("\r\n")) {
                if (line.startsWith("used_memory:")) {
                    used = Long.parseLong(line.substring("used_memory:".length()));
                }
            }
            assertTrue(used <= 4L << 20, "used_memory " + used);
            assertTrue(client.call("INFO", "stats").contains("evicted_keys:0\r\n"));
        }
    }
}
