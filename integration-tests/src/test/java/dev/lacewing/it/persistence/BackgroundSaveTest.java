package dev.lacewing.it.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.reference.ReferenceRedis;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BGSAVE without fork on every engine and transport: the file is the keyspace at one instant
 * although a client keeps writing while it is written; redis-server 7.0.15 loads it and
 * redis-check-rdb accepts it; the save schedule starts one; a failed one makes writes (and PING),
 * queued in MULTI or not, answer Redis's MISCONF until a save succeeds; the replies and INFO
 * fields are Redis's.
 */
class BackgroundSaveTest {

    private static final Path REDIS_CHECK_RDB = Path.of("/usr/bin/redis-check-rdb");
    /** Keys the writer cycles through: half strings, half lists. */
    private static final int STRINGS = 50_000;
    private static final int LISTS = 5_000;
    private static final String MISCONF = "-MISCONF Redis is configured to save RDB snapshots, but it's currently "
        + "unable to persist to disk. Commands that may modify the data set are disabled, because this instance is "
        + "configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). "
        + "Please check the Redis logs for details about the RDB error.\r\n";

    private static LacewingServer start(Target target, Path dir, String save) {
        return Servers.builder(target).set("dir", dir.toString()).set("save", save).start();
    }

    /**
     * Write {@code i} of the writer's sequence: SET s:(i/2 mod STRINGS) to i when i is even, RPUSH
     * i to l:(i/2 mod LISTS) when odd. One connection sends them one at a time, so any instant
     * of the server is the state after a prefix of the sequence.
     */
    private static String[] write(long i) {
        long n = i / 2;
        return i % 2 == 0
            ? new String[] {"SET", "s:" + n % STRINGS, Long.toString(i) + "-" + "v".repeat(40)}
            : new String[] {"RPUSH", "l:" + n % LISTS, Long.toString(i)};
    }

    /** The state after writes 0 to {@code last} on top of the preloaded keys, as the replies read it. */
    private static Map<String, String> stateAfter(long last) {
        Map<String, String> strings = new HashMap<>();
        Map<String, List<String>> lists = new HashMap<>();
        for (int k = 0; k < STRINGS; k++) {
            strings.put("s:" + k, "initial");
        }
        for (int k = 0; k < LISTS; k++) {
            lists.put("l:" + k, new ArrayList<>(List.of("initial")));
        }
        for (long i = 0; i <= last; i++) {
            String[] command = write(i);
            if (command[0].equals("SET")) {
                strings.put(command[1], command[2]);
            } else {
                lists.get(command[1]).add(command[2]);
            }
        }
        Map<String, String> state = new HashMap<>(strings);
        lists.forEach((key, values) -> state.put(key, String.join(",", values)));
        return state;
    }

    private static Map<String, String> read(RespClient client) {
        Map<String, String> state = new HashMap<>();
        for (int k = 0; k < STRINGS; k++) {
            state.put("s:" + k, (String) RespClient.parse(client.call("GET", "s:" + k)));
        }
        for (int k = 0; k < LISTS; k++) {
            @SuppressWarnings("unchecked")
            List<Object> values = (List<Object>) RespClient.parse(client.call("LRANGE", "l:" + k, "0", "-1"));
            state.put("l:" + k, values.isEmpty() ? null : String.join(",", values.stream().map(String::valueOf).toList()));
        }
        return state;
    }

    /** The last write the state holds: the largest number in any value. */
    private static long lastWrite(Map<String, String> state) {
        long last = -1;
        for (String value : state.values()) {
            if (value == null) {
                continue;
            }
            for (String part : value.split(",")) {
                if (!part.equals("initial")) {
                    last = Math.max(last, Long.parseLong(part.split("-")[0]));
                }
            }
        }
        return last;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void bgsaveUnderWritesSavesTheKeyspaceAtOneInstant(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        AtomicLong acknowledged = new AtomicLong(-1);
        AtomicLong sent = new AtomicLong(-1);
        long acknowledgedBefore;
        long sentBeforeReply;
        String info;
        try (LacewingServer server = start(target, dir, "");
             RespClient client = RespClient.connect(server.port());
             RespClient writerClient = RespClient.connect(server.port())) {
            for (int k = 0; k < STRINGS; k++) {
                client.send(RespClient.encode(RespClient.toBytes("SET", "s:" + k, "initial")));
            }
            for (int k = 0; k < LISTS; k++) {
                client.send(RespClient.encode(RespClient.toBytes("RPUSH", "l:" + k, "initial")));
            }
            for (int k = 0; k < STRINGS + LISTS; k++) {
                client.readReply();
            }
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                long deadline = System.nanoTime() + 20_000_000_000L;
                for (long i = 0; i < 2_000_000 && !stop.get() && System.nanoTime() < deadline; i++) {
                    sent.set(i);
                    String reply = writerClient.call(write(i));
                    if (reply.startsWith("-")) {
                        throw new AssertionError(reply);
                    }
                    acknowledged.set(i);
                }
            });
            writer.start();
            while (acknowledged.get() < 2_000) {
                Thread.sleep(5);
            }
            acknowledgedBefore = acknowledged.get();
            assertEquals("+Background saving started\r\n", client.call("BGSAVE"));
            sentBeforeReply = sent.get();
            waitForSave(client);
            long afterSave = acknowledged.get();
            stop.set(true);
            writer.join();
            assertTrue(afterSave > sentBeforeReply, "the writer kept writing while the save ran");
            info = client.call("INFO", "persistence");
            assertTrue(info.contains("rdb_last_bgsave_status:ok"), info);
        }
        assertTrue(check(dir.resolve("dump.rdb")).contains("\\o/ RDB looks OK! \\o/"));
        try (ReferenceRedis loaded = ReferenceRedis.start("--dir", dir.toString(), "--dbfilename", "dump.rdb");
             RespClient client = RespClient.connect(loaded.port())) {
            Map<String, String> saved = read(client);
            long last = lastWrite(saved);
            assertTrue(last >= acknowledgedBefore && last <= sentBeforeReply,
                "the epoch lies between the BGSAVE sent and its reply: " + acknowledgedBefore + " <= " + last + " <= "
                    + sentBeforeReply);
            Map<String, String> expected = stateAfter(last);
            for (Map.Entry<String, String> entry : expected.entrySet()) {
                assertEquals(entry.getValue(), saved.get(entry.getKey()), entry.getKey() + " after write " + last);
            }
            assertEquals(":" + (STRINGS + LISTS) + "\r\n", client.call("DBSIZE"));
        }
        assertFalse(info.contains("rdb_last_cow_size:0\r\n"), "some entries were written before they changed: " + info);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void repliesAsRedis(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir, "");
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("-ERR syntax error\r\n", client.call("BGSAVE", "now"));
            assertEquals("-ERR syntax error\r\n", client.call("BGSAVE", "schedule", "x"));
            for (int i = 0; i < 50_000; i++) {
                client.send(RespClient.encode(RespClient.toBytes("SET", "key:" + i, "x".repeat(100))));
            }
            for (int i = 0; i < 50_000; i++) {
                client.readReply();
            }
            assertEquals("+Background saving started\r\n", client.call("BGSAVE", "SCHEDULE"));
            String again = client.call("BGSAVE");
            String save = client.call("SAVE");
            if (client.call("INFO", "persistence").contains("rdb_bgsave_in_progress:1")) {
                assertEquals("-ERR Background save already in progress\r\n", again);
            }
            assertTrue(save.equals("+OK\r\n") || save.equals("-ERR Background save already in progress\r\n"), save);
            waitForSave(client);
            assertEquals(":50000\r\n", client.call("DBSIZE"));
            client.call("SET", "a", "1");
            client.call("MSET", "b", "1", "c", "2");
            client.call("DEL", "a", "missing");
            assertTrue(client.call("INFO", "persistence").contains("rdb_changes_since_last_save:4\r\n"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theSaveScheduleStartsABackgroundSave(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir, "");
             RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "k", "v");
            client.call("SET", "k2", "v");
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "save", "0 2"));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!Files.exists(dir.resolve("dump.rdb")) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(Files.exists(dir.resolve("dump.rdb")), "the cron saved within 10 s");
            waitForSave(client);
            assertTrue(client.call("INFO", "persistence").contains("rdb_changes_since_last_save:0\r\n"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aFailedSaveRefusesWritesUntilOneSucceeds(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        Path gone = Files.createDirectory(dir.resolve("gone"));
        try (LacewingServer server = start(target, gone, "3600 1");
             RespClient client = RespClient.connect(server.port());
             RespClient transaction = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("SET", "k", "v"));
            assertEquals("+OK\r\n", transaction.call("MULTI"));
            assertEquals("+QUEUED\r\n", transaction.call("SET", "q", "1"));
            Files.delete(gone);
            assertEquals("+Background saving started\r\n", client.call("BGSAVE"));
            waitForSave(client);
            assertTrue(client.call("INFO", "persistence").contains("rdb_last_bgsave_status:err\r\n"));
            assertEquals(MISCONF, client.call("SET", "k", "w"));
            assertEquals(MISCONF, client.call("PING"));
            assertEquals("$1\r\nv\r\n", client.call("GET", "k"));
            assertEquals("-EXECABORT Transaction discarded because of: " + MISCONF.substring(1),
                transaction.call("EXEC"));
            assertEquals("+OK\r\n", transaction.call("MULTI"));
            assertEquals(MISCONF, transaction.call("SET", "q", "1"));
            assertEquals("+QUEUED\r\n", transaction.call("GET", "q"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", transaction.call("EXEC"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "stop-writes-on-bgsave-error", "no"));
            assertEquals("+OK\r\n", client.call("SET", "k", "w"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "stop-writes-on-bgsave-error", "yes"));
            assertEquals(MISCONF, client.call("SET", "k", "x"));
            Files.createDirectory(gone);
            assertEquals("+Background saving started\r\n", client.call("BGSAVE"));
            waitForSave(client);
            assertTrue(client.call("INFO", "persistence").contains("rdb_last_bgsave_status:ok\r\n"));
            assertEquals("+OK\r\n", client.call("SET", "k", "x"));
            assertEquals("+PONG\r\n", client.call("PING"));
        }
    }

    /**
     * Scripts after a failed BGSAVE, as Redis 7.0.15 answers: a script without a shebang runs, and
     * its first write raises MISCONF (pcall gets it as a value); a shebang script that may write is
     * refused whole; a no-writes script reads.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aScriptsWriteGetsMisconfAfterAFailedSave(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        Path gone = Files.createDirectory(dir.resolve("gone"));
        try (LacewingServer server = start(target, gone, "3600 1");
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("SET", "k", "v"));
            Files.delete(gone);
            assertEquals("+Background saving started\r\n", client.call("BGSAVE"));
            waitForSave(client);
            String misconf = MISCONF.substring(0, MISCONF.length() - 2);
            assertEquals(misconf + " script: 7822ea6ad7bd20a3f95a07458fc7088142fcfc19, on @user_script:1.\r\n",
                client.call("EVAL", "return redis.call('set','k','w')", "0"));
            assertEquals(MISCONF, client.call("EVAL", "return redis.pcall('set','k','w')", "0"));
            assertEquals("$1\r\nv\r\n", client.call("EVAL", "return redis.call('get','k')", "0"));
            assertEquals(MISCONF, client.call("EVAL", "#!lua\nreturn redis.call('get','k')", "0"));
            assertEquals("$1\r\nv\r\n", client.call("EVAL", "#!lua flags=no-writes\nreturn redis.call('get','k')", "0"));
            assertEquals("$1\r\nv\r\n", client.call("GET", "k"));
        }
    }

    /**
     * FLUSHALL under save points saves the empty dataset at once (flushAllDataAndResetRDB), so the
     * dump no longer holds the flushed keys, and nothing counts as changed since.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void flushallUnderSavePointsSavesTheEmptyDataset(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        Path copy = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir, "3600 1");
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("SET", "saved", "v"));
            assertEquals("+OK\r\n", client.call("SAVE"));
            assertEquals("+OK\r\n", client.call("SET", "unsaved", "v"));
            assertEquals("+OK\r\n", client.call("FLUSHALL"));
            assertTrue(client.call("INFO", "persistence").contains("rdb_changes_since_last_save:0\r\n"));
            Files.copy(dir.resolve("dump.rdb"), copy.resolve("dump.rdb"));
        }
        try (LacewingServer server = start(target, copy, "");
             RespClient client = RespClient.connect(server.port())) {
            assertEquals(":0\r\n", client.call("DBSIZE"));
        }
    }

    /** BGSAVE inside EXEC is scheduled, as Redis's in_exec makes it, and starts within the next second's check. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void bgsaveInsideExecIsScheduledAndStartsAfter(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = start(target, dir, "");
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("SET", "k", "v"));
            assertEquals("+OK\r\n", client.call("MULTI"));
            assertEquals("+QUEUED\r\n", client.call("BGSAVE"));
            assertEquals("*1\r\n+Background saving scheduled\r\n", client.call("EXEC"));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!Files.exists(dir.resolve("dump.rdb")) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(Files.exists(dir.resolve("dump.rdb")), "the scheduled save ran within 10 s");
        }
    }

    private static void waitForSave(RespClient client) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (client.call("INFO", "persistence").contains("rdb_bgsave_in_progress:1")) {
            assertTrue(System.nanoTime() < deadline, "the save ended within 30 s");
            Thread.sleep(10);
        }
    }

    private static String check(Path file) throws IOException, InterruptedException {
        Assumptions.assumeTrue(Files.isExecutable(REDIS_CHECK_RDB), "redis-check-rdb");
        Process process = new ProcessBuilder(REDIS_CHECK_RDB.toString(), file.toString()).redirectErrorStream(true)
            .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return output;
    }
}
