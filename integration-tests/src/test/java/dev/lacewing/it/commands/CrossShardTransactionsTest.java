package dev.lacewing.it.commands;

import static dev.lacewing.it.commands.ShardStall.keyOnShard;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Multi-shard commands go through one ordered door: a transaction holds only its own keys while it
 * waits for another shard, so a command on another key of a shard it holds goes on; and
 * transactions over the same keys, whatever their order of keys and kind (split in parts, or run
 * whole), neither deadlock nor tear: every reader sees the state after some prefix of one global
 * order. Loops are bounded in rounds and in time.
 */
class CrossShardTransactionsTest {

    private static final long TIME_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(4);

    /**
     * DEBUG SLEEP keeps shard 1's thread busy; an MSET over a key of shard 0 and one of shard 1 then
     * runs its shard-0 part and waits for shard 1, holding its shard-0 key. A GET of another shard-0
     * key is answered meanwhile; a GET of the held key waits and sees the MSET's value. (A shard
     * parked whole for the transaction would answer neither until shard 1's thread woke.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aGetOnAnotherKeyRunsWhileATransactionWaitsHoldingItsShard(Target target) throws Exception {
        assumeTrue(target.engine().equals("shared-nothing"), "transactions queue per shard in the shared-nothing engine");
        try (ShardStall stall = ShardStall.start(target)) {
            String held = keyOnShard("held", 0);
            String other = keyOnShard("other", 0);
            String far = keyOnShard("far", 1);
            assertEquals("+OK\r\n", stall.reader.call("SET", other, "unrelated"));

            stall.sleepShardOne(3);
            Future<String> mset = stall.sendAndAwaitRunning(stall.writer, "MSET", held, "new", far, "new");
            Future<String> heldGet = stall.send(stall.waiter, "GET", held);

            assertEquals("$9\r\nunrelated\r\n", stall.reader.call("GET", other));
            assertFalse(mset.isDone(), "the GET of another key waited for the transaction");
            assertFalse(heldGet.isDone(), "the GET of a held key waits for the transaction");
            assertEquals("$3\r\nnew\r\n", heldGet.get(10, TimeUnit.SECONDS), "a held key is read after the transaction");
            assertEquals("+OK\r\n", mset.get(10, TimeUnit.SECONDS));
            assertEquals("*2\r\n$3\r\nnew\r\n$3\r\nnew\r\n", stall.reader.call("MGET", held, far));
            assertEquals("+OK\r\n", stall.awoken());
        }
    }

    /**
     * A split that only reads gives up each part's keys once that part ran: while an MGET waits
     * for shard 1 (busy in DEBUG SLEEP), a SET of the shard-0 key it has already read is answered,
     * and the MGET still answers the value it read, ordered before that SET.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aWriteToAKeyAnMgetHasReadRunsWhileTheMgetWaitsForAnotherShard(Target target) throws Exception {
        assumeTrue(target.engine().equals("shared-nothing"), "transactions queue per shard in the shared-nothing engine");
        // On the tiered targets every string is on disk: the MGET's shard-0 part finds its key cold,
        // so the whole MGET runs again once the read lands, as if sent later, and then sees the SET.
        assumeTrue(target.storage().equals("compact"), "a cold key makes the MGET run again after the SET");
        try (ShardStall stall = ShardStall.start(target)) {
            String read = keyOnShard("read", 0);
            String far = keyOnShard("far", 1);
            assertEquals("+OK\r\n", stall.reader.call("MSET", read, "old", far, "far"));

            stall.sleepShardOne(3);
            Future<String> mget = stall.sendAndAwaitRunning(stall.writer, "MGET", read, far);

            assertEquals("+OK\r\n", stall.reader.call("SET", read, "new"));
            // Had the SET waited for the MGET, the MGET's reply, sent just before, is read by now.
            Thread.sleep(200);
            assertFalse(mget.isDone(), "the SET of a key the MGET had read waited for the MGET");
            assertEquals("*2\r\n$3\r\nold\r\n$3\r\nfar\r\n", mget.get(10, TimeUnit.SECONDS));
            assertEquals("$3\r\nnew\r\n", stall.reader.call("GET", read));
            assertEquals("+OK\r\n", stall.awoken());
        }
    }

    /**
     * EXEC over a key of shard 0 and one of shard 1 claims those keys only: while it waits for
     * shard 1 (busy in DEBUG SLEEP), holding its shard-0 key, a GET and a SET of another shard-0 key
     * are answered, and a GET of its shard-0 key waits and sees the transaction's value. (Claimed
     * whole, shard 0 would answer neither until shard 1 woke.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aCommandOnAnotherKeyRunsWhileAnExecWaitsHoldingItsShard(Target target) throws Exception {
        assumeTrue(target.engine().equals("shared-nothing"), "transactions queue per shard in the shared-nothing engine");
        try (ShardStall stall = ShardStall.start(target)) {
            RespClient writer = stall.writer;
            String held = keyOnShard("held", 0);
            String other = keyOnShard("other", 0);
            String far = keyOnShard("far", 1);
            assertEquals("+OK\r\n", stall.reader.call("SET", other, "unrelated"));
            assertEquals("+OK\r\n", writer.call("MULTI"));
            assertEquals("+QUEUED\r\n", writer.call("SET", held, "new"));
            assertEquals("+QUEUED\r\n", writer.call("GET", other.replace("other", "absent")));
            assertEquals("+QUEUED\r\n", writer.call("SET", far, "new"));

            stall.sleepShardOne(3);
            Future<String> exec = stall.sendAndAwaitRunning(writer, "EXEC");
            Future<String> heldGet = stall.send(stall.waiter, "GET", held);

            assertEquals("$9\r\nunrelated\r\n", stall.reader.call("GET", other));
            assertEquals("+OK\r\n", stall.reader.call("SET", other, "changed"));
            assertFalse(exec.isDone(), "the commands on another key waited for the transaction");
            assertFalse(heldGet.isDone(), "the GET of a held key waits for the transaction");
            assertEquals("$3\r\nnew\r\n", heldGet.get(10, TimeUnit.SECONDS), "a held key is read after the transaction");
            assertEquals("*3\r\n+OK\r\n$-1\r\n+OK\r\n", exec.get(10, TimeUnit.SECONDS));
            assertEquals("*3\r\n$3\r\nnew\r\n$3\r\nnew\r\n$7\r\nchanged\r\n",
                stall.reader.call("MGET", held, far, other));
            assertEquals("+OK\r\n", stall.awoken());
        }
    }

    /**
     * Transactions over keys of both shards, writing them all (SET each, INCR each, MSET, a read-only
     * copy via GET) race MSETs and other transactions over the same keys; readers' MGETs and read-only
     * transactions (MULTI GET... EXEC) always find every key equal: no one sees part of an EXEC.
     * A watching transaction that another writes under is aborted; one left alone runs.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void crossShardExecsAreAtomicAgainstWritersAndReadersOfTheirKeys(Target target) throws Exception {
        LacewingServer server = Servers.server(target);
        String[] keys = new String[4];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = keyOnShard("exec:" + target + ":" + i, i % 2);
        }
        String[] reversed = {keys[3], keys[2], keys[1], keys[0]};
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<RespClient> opened = new ArrayList<>();
        try {
            RespClient setup = RespClient.connect(server.port());
            opened.add(setup);
            assertEquals("+OK\r\n", setup.call(withCommand("MSET", keys, "0")));
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            List<Future<Integer>> writers = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                RespClient client = RespClient.connect(server.port());
                opened.add(client);
                int writerId = w;
                writers.add(pool.submit(() -> {
                    int round = 0;
                    for (; round < 1000 && System.nanoTime() < deadline; round++) {
                        String value = String.valueOf(writerId * 100_000 + round);
                        String[] order = (writerId + round) % 2 == 0 ? keys : reversed;
                        switch ((writerId + round) % 4) {
                            case 0 -> assertEquals("+OK\r\n", client.call(withCommand("MSET", order, value)));
                            case 1 -> execEach(client, "SET", order, value);
                            case 2 -> execEach(client, "INCR", order, null);
                            default -> {
                                client.call("MULTI");
                                client.call("GET", order[0]);
                                client.call(withCommand("MSET", order, value));
                                assertTrue(client.call("EXEC").startsWith("*2\r\n"));
                            }
                        }
                    }
                    return round;
                }));
            }
            List<Future<Integer>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                RespClient client = RespClient.connect(server.port());
                opened.add(client);
                int readerId = r;
                readers.add(pool.submit(() -> {
                    int checked = 0;
                    for (; writing.get() && checked < 4000 && System.nanoTime() < deadline; checked++) {
                        if (readerId == 0) {
                            assertAllEqual(client.call(withCommand("MGET", keys, null)));
                        } else {
                            client.call("MULTI");
                            for (String key : keys) {
                                client.call("GET", key);
                            }
                            assertAllEqual(client.call("EXEC"));
                        }
                    }
                    return checked;
                }));
            }
            for (Future<Integer> written : writers) {
                assertTrue(written.get(30, TimeUnit.SECONDS) > 0, "every writer finished its rounds");
            }
            writing.set(false);
            for (Future<Integer> read : readers) {
                read.get(30, TimeUnit.SECONDS);
            }
            assertAllEqual(setup.call(withCommand("MGET", keys, null)));

            RespClient other = RespClient.connect(server.port());
            opened.add(other);
            setup.call(withCommand("WATCH", keys, null));
            assertEquals("+OK\r\n", other.call("SET", keys[3], "elsewhere"));
            setup.call("MULTI");
            setup.call(withCommand("MSET", keys, "late"));
            assertEquals("*-1\r\n", setup.call("EXEC"), "a watched key written meanwhile aborts");
            setup.call(withCommand("WATCH", keys, null));
            setup.call("MULTI");
            setup.call(withCommand("MSET", keys, "late"));
            assertEquals("*1\r\n+OK\r\n", setup.call("EXEC"));
            assertEquals("*4\r\n$4\r\nlate\r\n$4\r\nlate\r\n$4\r\nlate\r\n$4\r\nlate\r\n",
                setup.call(withCommand("MGET", keys, null)));
            setup.call(withCommand("DEL", keys, null));
        } finally {
            pool.shutdownNow();
            opened.forEach(RespClient::close);
        }
    }

    /** MULTI, then {@code command key [value]} for each key, then EXEC: every reply an OK or an integer. */
    private static void execEach(RespClient client, String command, String[] keys, String value) {
        assertEquals("+OK\r\n", client.call("MULTI"));
        for (String key : keys) {
            assertEquals("+QUEUED\r\n", value == null ? client.call(command, key) : client.call(command, key, value));
        }
        String reply = client.call("EXEC");
        assertTrue(reply.startsWith("*" + keys.length + "\r\n"), reply);
        assertFalse(reply.contains("-"), "no command failed: " + reply);
    }

    /**
     * Commands split over shards reply as one: MGET's values in key order (RESP2 and RESP3 nulls
     * kept in place), DEL/EXISTS/TOUCH/UNLINK's counts summed (a key named twice counts twice, as
     * in Redis), MSET's OK; a malformed MSET still gets Redis's arity error.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void splitCommandsReplyAsOneCommand(Target target) {
        LacewingServer server = Servers.server(target);
        String a = keyOnShard("split:" + target + ":a", 0);
        String b = keyOnShard("split:" + target + ":b", 1);
        String c = keyOnShard("split:" + target + ":c", 0);
        String missing = keyOnShard("split:" + target + ":missing", 1);
        try (RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("MSET", a, "1", b, "2", c, "3"));
            assertEquals("*4\r\n$1\r\n1\r\n$-1\r\n$1\r\n2\r\n$1\r\n3\r\n", client.call("MGET", a, missing, b, c));
            assertEquals(":4\r\n", client.call("EXISTS", a, b, missing, b, c));
            assertEquals(":3\r\n", client.call("TOUCH", a, b, missing, c));
            assertEquals("-ERR wrong number of arguments for 'mset' command\r\n", client.call("MSET", a, "1", b));
            client.call("HELLO", "3");
            assertEquals("*3\r\n_\r\n$1\r\n2\r\n$1\r\n1\r\n", client.call("MGET", missing, b, a));
            assertEquals(":2\r\n", client.call("DEL", a, missing, b));
            assertEquals(":1\r\n", client.call("UNLINK", a, b, c));
        }
    }

    /**
     * Writers race MSETs over the same keys of both shards in opposite key orders, DELs of them
     * all, and MSETNX (which runs whole); readers' MGETs always find every key equal, all finish
     * (no deadlock), and so does the final state.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void conflictingTransactionsNeitherDeadlockNorInterleave(Target target) throws Exception {
        LacewingServer server = Servers.server(target);
        String[] keys = new String[4];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = keyOnShard("order:" + target + ":" + i, i % 2);
        }
        String[] reversed = {keys[3], keys[2], keys[1], keys[0]};
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<RespClient> opened = new ArrayList<>();
        try {
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            List<Future<Integer>> writers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                RespClient client = RespClient.connect(server.port());
                opened.add(client);
                int writerId = w;
                writers.add(pool.submit(() -> {
                    int round = 0;
                    for (; round < 1500 && System.nanoTime() < deadline; round++) {
                        String value = writerId + ":" + round;
                        String[] order = (writerId + round) % 2 == 0 ? keys : reversed;
                        switch (round % 5) {
                            case 3 -> client.call(withCommand("DEL", order, null));
                            case 4 -> client.call(withCommand("MSETNX", order, value));
                            default -> assertEquals("+OK\r\n", client.call(withCommand("MSET", order, value)));
                        }
                    }
                    return round;
                }));
            }
            List<Future<Integer>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                RespClient client = RespClient.connect(server.port());
                opened.add(client);
                readers.add(pool.submit(() -> {
                    int checked = 0;
                    for (; writing.get() && checked < 5000 && System.nanoTime() < deadline; checked++) {
                        assertAllEqual(client.call(withCommand("MGET", keys, null)));
                    }
                    return checked;
                }));
            }
            for (Future<Integer> written : writers) {
                assertTrue(written.get(30, TimeUnit.SECONDS) > 0, "every writer finished its rounds");
            }
            writing.set(false);
            for (Future<Integer> read : readers) {
                read.get(30, TimeUnit.SECONDS);
            }
            assertAllEqual(opened.get(0).call(withCommand("MGET", keys, null)));
            opened.get(0).call(withCommand("DEL", keys, null));
        } finally {
            pool.shutdownNow();
            opened.forEach(RespClient::close);
        }
    }

    private static String[] withCommand(String command, String[] keys, String value) {
        List<String> arguments = new ArrayList<>();
        arguments.add(command);
        for (String key : keys) {
            arguments.add(key);
            if (value != null) {
                arguments.add(value);
            }
        }
        return arguments.toArray(String[]::new);
    }

    private static void assertAllEqual(String mgetReply) {
        List<String> values = RespClient.elements(mgetReply);
        for (String value : values) {
            assertEquals(values.get(0), value, "a torn transaction: " + mgetReply);
        }
    }
}
