package dev.lacewing.it.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BGSAVE on the tiered storage takes an offloaded string as a handle that the saving thread reads,
 * not the worker: with every disk read made slow by the storage's test hook, keys overwritten and
 * deleted while the save runs still reach the file as they were at its start, byte for byte, and
 * the file loads into the compact storage and passes redis-check-rdb.
 */
class TieredSnapshotTest {

    private static final int KEYS = 40;

    static Stream<Target> engines() {
        return TieredServers.engines();
    }

    private static long infoField(RespClient client, String section, String name) {
        return TieredServers.infoField(client, section, name);
    }

    private static byte[] bulk(byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("$" + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(value);
        out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void aBackgroundSaveWritesOffloadedStringsAsTheyWereAtItsStart(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        byte[][] values = new byte[KEYS][];
        Random random = new Random(21);
        LacewingServer server = TieredServers.startWithReadDelay(TieredServers.eager(target).set("dir", dir.toString()), 30);
        try (server; RespClient client = RespClient.connect(server.port())) {
            for (int i = 0; i < KEYS; i++) {
                values[i] = new byte[16 + random.nextInt(3000)];
                random.nextBytes(values[i]);
                assertEquals("+OK\r\n", RespClient.text(client.callBytes(List.of(bytes("SET"), bytes("key:" + i), values[i]))));
            }
            assertEquals(":1\r\n", client.call("PEXPIREAT", "key:0", "4102444800000"));
            assertEquals(KEYS, infoField(client, "server", "tiered_offloaded_values"));
            assertEquals("+Background saving started\r\n", client.call("BGSAVE"));
            // While the saving thread reads the values (30 ms each), every key changes.
            for (int i = 0; i < KEYS; i++) {
                if (i % 2 == 0) {
                    assertEquals(":1\r\n", client.call("DEL", "key:" + i));
                } else {
                    assertEquals("+OK\r\n", client.call("SET", "key:" + i, "changed-while-saving-" + i));
                }
            }
            assertEquals("+OK\r\n", client.call("SET", "after", "written-after-the-save-began"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (infoField(client, "persistence", "rdb_bgsave_in_progress") == 1) {
                assertTrue(System.nanoTime() < deadline, "the save ended within 60 s");
                Thread.sleep(10);
            }
            assertTrue(client.call("INFO", "persistence").contains("rdb_last_bgsave_status:ok"));
            // Every offloaded value went to the file through a handle: none was read by a worker.
            assertEquals(KEYS, infoField(client, "server", "tiered_snapshot_reads"));
            assertEquals(KEYS, infoField(client, "server", "tiered_reads"));
        }
        Path dump = dir.resolve("dump.rdb");
        assertTrue(Files.exists(dump));
        try (LacewingServer compact = Servers.builder(new Target(target.engine(), target.transport()))
                .set("dir", dir.toString()).start();
             RespClient client = RespClient.connect(compact.port())) {
            assertEquals(":" + KEYS + "\r\n", client.call("DBSIZE"));
            for (int i = 0; i < KEYS; i++) {
                assertArrayEquals(bulk(values[i]), client.callBytes(List.of(bytes("GET"), bytes("key:" + i))), "key:" + i);
            }
            assertEquals(":4102444800000\r\n", client.call("PEXPIRETIME", "key:0"));
        }
        Path checker = Path.of("/usr/bin/redis-check-rdb");
        if (Files.isExecutable(checker)) {
            Process check = new ProcessBuilder(checker.toString(), dump.toString()).redirectErrorStream(true).start();
            String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(check.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, check.exitValue(), output);
            assertTrue(output.contains("RDB looks OK"), output);
        }
    }
}
