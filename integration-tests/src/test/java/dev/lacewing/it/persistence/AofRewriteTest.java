package dev.lacewing.it.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.reference.ReferenceRedis;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BGREWRITEAOF without stopping the server, on every engine and transport: the base is written from
 * a point-in-time image while commands are served, commands after the epoch go to the new incr file
 * (nothing lost, nothing doubled across the rewrite), the directory stays loadable by Lacewing,
 * redis-server and redis-check-aof, and BGSAVE and BGREWRITEAOF refuse or schedule each other as in
 * Redis 7.0.
 */
class AofRewriteTest {

    private static final Path REDIS_CHECK_AOF = Path.of("/usr/bin/redis-check-aof");
    private static final String MANIFEST = "appendonlydir/appendonly.aof.manifest";

    private static LacewingServer start(Target target, Path dir) {
        return Servers.builder(target).set("dir", dir.toString()).set("appendonly", "yes")
            .set("appendfsync", "always").set("save", "").start();
    }

    /** {@code keys} string keys k:0.., by MSETs of 100, in pipelined batches. */
    private static void fill(RespClient client, int keys) {
        int perCommand = 100;
        int commands = keys / perCommand;
        for (int first = 0; first < commands; first += 100) {
            int last = Math.min(commands, first + 100);
            for (int c = first; c < last; c++) {
                List<String> mset = new ArrayList<>();
                mset.add("MSET");
                for (int k = c * perCommand; k < (c + 1) * perCommand; k++) {
                    mset.add("k:" + k);
                    mset.add("value-" + k);
                }
                client.send(RespClient.encode(RespClient.toBytes(mset.toArray(new String[0]))));
            }
            for (int c = first; c < last; c++) {
                assertEquals("+OK\r\n", RespClient.text(client.readReply()));
            }
        }
    }

    private static boolean rewriting(RespClient client) {
        return client.call("INFO", "persistence").contains("aof_rewrite_in_progress:1");
    }

    private static void awaitIdle(RespClient client) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String info = client.call("INFO", "persistence");
            if (info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")
                && info.contains("rdb_bgsave_in_progress:0")) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the rewrite did not finish in 60 s");
    }

    private static String expectedSequence(long count) {
        List<String> elements = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            elements.add("$" + Long.toString(i).length() + "\r\n" + i + "\r\n");
        }
        return "*" + count + "\r\n" + String.join("", elements);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aRewriteUnderWritesLosesNothingAndDoublesNothing(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        AtomicLong acknowledged = new AtomicLong();
        try (LacewingServer server = start(target, dir);
             RespClient client = RespClient.connect(server.port());
             RespClient writerClient = RespClient.connect(server.port())) {
            fill(client, 100_000);
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                for (long i = 0; i < 1_000_000 && !stop.get() && System.nanoTime() < deadline; i++) {
                    String reply = writerClient.call("RPUSH", "sequence", Long.toString(i));
                    assertEquals(":" + (i + 1) + "\r\n", reply);
                    acknowledged.set(i + 1);
                }
            });
            writer.start();
            while (acknowledged.get() < 500 && writer.isAlive()) {
                Thread.sleep(5);
            }
            assertEquals("+Background append only file rewriting started\r\n", client.call("BGREWRITEAOF"));
            long atReply = acknowledged.get();
            awaitIdle(client);
            long atEnd = acknowledged.get();
            long wanted = atEnd + 500;
            while (acknowledged.get() < wanted && writer.isAlive()) {
                Thread.sleep(5);
            }
            stop.set(true);
            writer.join();
            assertTrue(atEnd > atReply, "the writer kept writing while the base was written");
            String info = client.call("INFO", "persistence");
            assertTrue(info.contains("aof_last_bgrewrite_status:ok"), info);
            assertTrue(info.contains("aof_rewrites:1"), info);
            assertEquals("file appendonly.aof.2.base.rdb seq 2 type b\nfile appendonly.aof.2.incr.aof seq 2 type i\n",
                Files.readString(dir.resolve(MANIFEST)));
        }
        long count = acknowledged.get();
        String expected = expectedSequence(count);
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals(expected, client.call("LRANGE", "sequence", "0", "-1"));
            assertEquals(":100001\r\n", client.call("DBSIZE"));
            assertEquals("$11\r\nvalue-99999\r\n", client.call("GET", "k:99999"));
        }
        String check = AofTest.tool(REDIS_CHECK_AOF.toString(), dir.resolve(MANIFEST).toString());
        assertTrue(check.contains("is valid"), check);
        try (ReferenceRedis loaded = ReferenceRedis.start("--dir", dir.toString(), "--appendonly", "yes");
             RespClient client = RespClient.connect(loaded.port())) {
            assertEquals(expected, client.call("LRANGE", "sequence", "0", "-1"));
            assertEquals(":100001\r\n", client.call("DBSIZE"));
        }
    }

    /**
     * The base of 300,000 keys is written outside the hold: a GET on another client, sent after
     * BGREWRITEAOF's reply, is answered while aof_rewrite_in_progress is still 1; meanwhile the
     * manifest names the old base, the old incr file and the new one.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void commandsAreServedWhileTheBaseIsWritten(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir);
             RespClient client = RespClient.connect(server.port());
             RespClient other = RespClient.connect(server.port())) {
            fill(client, 300_000);
            assertEquals("+Background append only file rewriting started\r\n", client.call("BGREWRITEAOF"));
            assertEquals("$7\r\nvalue-7\r\n", other.call("GET", "k:7"));
            String manifest = Files.readString(dir.resolve(MANIFEST));
            assertTrue(rewriting(other), "the GET was answered before the rewrite ended");
            assertEquals("file appendonly.aof.1.base.rdb seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n"
                + "file appendonly.aof.2.incr.aof seq 2 type i\n", manifest);
            awaitIdle(client);
            String info = client.call("INFO", "persistence");
            assertTrue(info.contains("aof_last_bgrewrite_status:ok"), info);
            assertTrue(info.contains("aof_rewrites:1"), info);
        }
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals(":300000\r\n", client.call("DBSIZE"));
        }
    }

    /**
     * Redis 7.0's bgsaveCommand and bgrewriteaofCommand: BGSAVE during a rewrite is refused, or
     * scheduled with SCHEDULE; BGREWRITEAOF during a BGSAVE is scheduled. Each scheduled job runs
     * once the other ended.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void bgsaveAndBgrewriteaofScheduleEachOther(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            fill(client, 300_000);
            assertEquals("+Background append only file rewriting started\r\n", client.call("BGREWRITEAOF"));
            String refused = client.call("BGSAVE");
            String scheduled = client.call("BGSAVE", "SCHEDULE");
            String again = client.call("BGREWRITEAOF");
            if (rewriting(client)) {
                assertEquals("-ERR Another child process is active (AOF?): can't BGSAVE right now. Use BGSAVE "
                    + "SCHEDULE in order to schedule a BGSAVE whenever possible.\r\n", refused);
                assertEquals("+Background saving scheduled\r\n", scheduled);
                assertEquals("-ERR Background append only file rewriting already in progress\r\n", again);
            }
            awaitIdle(client);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!client.call("INFO", "persistence").contains("rdb_saves:1") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(client.call("INFO", "persistence").contains("rdb_saves:1"), "the scheduled BGSAVE ran");
            awaitIdle(client);

            assertEquals("+Background saving started\r\n", client.call("BGSAVE"));
            String during = client.call("BGREWRITEAOF");
            if (client.call("INFO", "persistence").contains("rdb_bgsave_in_progress:1")) {
                assertEquals("+Background append only file rewriting scheduled\r\n", during);
            }
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!client.call("INFO", "persistence").contains("aof_rewrites:2") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            awaitIdle(client);
            String info = client.call("INFO", "persistence");
            assertTrue(info.contains("aof_rewrites:2"), info);
            assertTrue(info.contains("aof_last_bgrewrite_status:ok"), info);
        }
        try (LacewingServer server = start(target, dir); RespClient client = RespClient.connect(server.port())) {
            assertEquals(":300000\r\n", client.call("DBSIZE"));
        }
    }
}
