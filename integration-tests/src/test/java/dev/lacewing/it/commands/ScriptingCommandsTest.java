package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.keyspace.Slots;
import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.core.server.Plugins;
import dev.lacewing.core.server.Scripts;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Overlap;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * EVAL, EVALSHA and SCRIPT on every engine and transport: lettuce's scripting API, scripts whose
 * keys live on both shards (declared or not) staying atomic against a concurrent reader, scripts
 * inside MULTI, and a server without the scripting plugin. Replies byte for byte against Redis are
 * in ScriptingReferenceTest. Loops are bounded in rounds and in time.
 */
class ScriptingCommandsTest {

    private static final long TIME_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final int ROUNDS = 2000;
    /**
     * Runs about a minute unless killed (luaj counts and checks instructions: about 3M iterations a
     * second here): bounded, as every loop in a test is, and a closing server stops it in any case.
     */
    private static final String LOOP = "local i = 0 while i < 200000000 do i = i + 1 end";

    static String keyOnShard(Target target, String name, int shard) {
        for (int i = 0; i < 1000; i++) {
            String key = "lua:" + target + ":" + name + ":" + i;
            byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
            if (Slots.partitionOf(bytes, 0, bytes.length, 2) == shard) {
                return key;
            }
        }
        throw new IllegalStateException("no key on shard " + shard);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void lettucesScriptingApiWorks(Target target) {
        String a = keyOnShard(target, "api:a", 0);
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> redis = connection.sync();
            String body = "redis.call('set',KEYS[1],ARGV[1]) return redis.call('get',KEYS[1])";
            String sha = redis.scriptLoad(body);
            assertEquals(40, sha.length());
            assertEquals(List.of(true, false), redis.scriptExists(sha, "0000000000000000000000000000000000000000"));
            assertEquals("v1", redis.evalsha(sha, ScriptOutputType.VALUE, new String[] {a}, "v1"));
            assertEquals("v2", redis.eval(body, ScriptOutputType.VALUE, new String[] {a}, "v2"));
            assertEquals(7L, (Long) redis.eval("return 7.9", ScriptOutputType.INTEGER));
            assertEquals(List.of(1L, "x"), redis.eval("return {1,'x',nil,2}", ScriptOutputType.MULTI));
            assertEquals("OK", redis.scriptFlush());
            assertEquals(List.of(false), redis.scriptExists(sha));
            redis.del(a);
        }
    }

    /** A script writing a key on each shard is seen whole or not at all by a reader of both. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aReaderNeverSeesHalfOfAScriptWritingTwoShards(Target target) throws Exception {
        String a = keyOnShard(target, "atomic:a", 0);
        String b = keyOnShard(target, "atomic:b", 1);
        assertNoHalfWrites(target, a, b, "redis.call('set',KEYS[1],ARGV[1]) redis.call('set',KEYS[2],ARGV[1])", 2);
    }

    /** The same when the script reaches the second key through ARGV, not KEYS (as BullMQ's do). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aScriptWritingAnUndeclaredKeyOnAnotherShardStaysAtomic(Target target) throws Exception {
        String a = keyOnShard(target, "undeclared:a", 0);
        String b = keyOnShard(target, "undeclared:b", 1);
        assertNoHalfWrites(target, a, b, "redis.call('set',KEYS[1],ARGV[1]) redis.call('set',ARGV[2],ARGV[1])", 1);
    }

    private static void assertNoHalfWrites(Target target, String a, String b, String body, int numKeys)
        throws Exception {
        int port = Servers.server(target).port();
        try (RespClient setup = RespClient.connect(port)) {
            setup.call("MSET", a, "0", b, "0");
        }
        AtomicBoolean stop = new AtomicBoolean();
        Overlap overlap = new Overlap(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> writer = pool.submit(() -> {
                try (RespClient client = RespClient.connect(port)) {
                    overlap.awaitReaders();
                    long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
                    int i = 1;
                    for (; i <= ROUNDS && System.nanoTime() < deadline; i++) {
                        String value = Integer.toString(i);
                        String reply = numKeys == 2 ? client.call("EVAL", body, "2", a, b, value)
                            : client.call("EVAL", body, "1", a, value, b);
                        assertEquals("$-1\r\n", reply);
                    }
                    return i;
                } finally {
                    stop.set(true);
                }
            });
            Future<Integer> reader = pool.submit(() -> {
                int reads = 0;
                try (RespClient client = RespClient.connect(port)) {
                    while (!stop.get() && reads < 50 * ROUNDS) {
                        List<String> values = RespClient.elements(client.call("MGET", a, b));
                        assertEquals(values.get(0), values.get(1), "half of a script seen");
                        if (reads++ == 0) {
                            overlap.checked();
                        }
                    }
                }
                return reads;
            });
            assertTrue(writer.get(30, TimeUnit.SECONDS) > 1);
            assertTrue(reader.get(30, TimeUnit.SECONDS) > 0);
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        try (RespClient client = RespClient.connect(port)) {
            List<String> values = RespClient.elements(client.call("MGET", a, b));
            assertEquals(values.get(0), values.get(1));
            client.call("DEL", a, b);
        }
    }

    /**
     * A script known to keep to its keys that reads an undeclared key before writing runs again over
     * the whole keyspace, unseen; one that has written first fails, and runs whole from then on.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aScriptLeavingItsKeysRunsAgainOverTheWholeKeyspaceOrFailsAfterWriting(Target target) {
        String a = keyOnShard(target, "leave:a", 0);
        String other = keyOnShard(target, "leave:other", 1);
        String reads = "if ARGV[1] == 'read' then return redis.call('get',ARGV[2]) end "
            + "return redis.call('incr',KEYS[1])";
        String writes = "local n = redis.call('incr',KEYS[1]) "
            + "if ARGV[1] == 'read' then return redis.call('get',ARGV[2]) end return n";
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            client.call("SCRIPT", "FLUSH");
            client.call("SET", a, "0");
            client.call("SET", other, "elsewhere");
            assertEquals(":1\r\n", client.call("EVAL", reads, "1", a, "plain"));
            assertEquals(":2\r\n", client.call("EVAL", reads, "1", a, "plain"));
            assertEquals("$9\r\nelsewhere\r\n", client.call("EVAL", reads, "1", a, "read", other));
            assertEquals("$9\r\nelsewhere\r\n", client.call("EVAL", reads, "1", a, "read", other));

            assertEquals(":3\r\n", client.call("EVAL", writes, "1", a, "plain"));
            assertEquals(":4\r\n", client.call("EVAL", writes, "1", a, "plain"));
            assertEquals("-ERR the script accessed a key outside its KEYS after writing, so it could not run atomically;"
                + " it runs over the whole keyspace from now on\r\n", client.call("EVAL", writes, "1", a, "read", other));
            assertEquals("$9\r\nelsewhere\r\n", client.call("EVAL", writes, "1", a, "read", other));
            assertEquals("$1\r\n6\r\n", client.call("GET", a));
            client.call("DEL", a, other);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void scriptsInsideMultiRunAtomicallyAcrossShards(Target target) {
        String a = keyOnShard(target, "multi:a", 0);
        String b = keyOnShard(target, "multi:b", 1);
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            client.call("DEL", a, b);
            assertEquals("+OK\r\n", client.call("MULTI"));
            assertEquals("+QUEUED\r\n", client.call("EVAL", "return redis.call('incr',KEYS[1])", "1", a));
            assertEquals("+QUEUED\r\n", client.call("EVAL", "return redis.call('incrby',KEYS[1],ARGV[1])", "1", b, "5"));
            assertEquals("+QUEUED\r\n", client.call("EVAL_RO", "return redis.call('set',KEYS[1],'x')", "1", a));
            String exec = client.call("EXEC");
            assertTrue(exec.startsWith("*3\r\n:1\r\n:5\r\n-ERR Write commands are not allowed from read-only scripts."),
                exec);
            assertEquals("*2\r\n$1\r\n1\r\n$1\r\n5\r\n", client.call("MGET", a, b));
            client.call("DEL", a, b);
        }
    }

    /**
     * Past busy-reply-threshold, other clients get BUSY and SCRIPT KILL stops a script that has not
     * written; one that has written is UNKILLABLE and runs to its end. The script's own worker thread
     * reads nothing while the script runs, so of two clients the one on the other thread answers.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aBusyScriptMakesOthersWaitWithBusyAndScriptKillStopsIt(Target target) throws Exception {
        String busy = "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n";
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (LacewingServer server = Servers.builder(target).set("busy-reply-threshold", "100").start();
             RespClient script = RespClient.connect(server.port());
             RespClient first = RespClient.connect(server.port());
             RespClient second = RespClient.connect(server.port())) {
            script.send(RespClient.encode(RespClient.toBytes("EVAL", LOOP, "0")));
            Thread.sleep(400);
            RespClient other = answering(pool, first, second, "PING");
            // Past the threshold the other thread answers BUSY; on a loaded machine the script may not
            // be past it yet, so ask again on that thread until it is (bounded).
            String reply = other.readReplyText();
            for (int attempt = 0; attempt < 300 && !reply.equals(busy); attempt++) {
                assertEquals("+PONG\r\n", reply);
                Thread.sleep(100);
                reply = other.call("PING");
            }
            assertEquals(busy, reply, () -> "no BUSY 30 s after EVAL; threads:\n" + threads());
            assertEquals("+OK\r\n", other.call("SCRIPT", "KILL"));
            assertEquals("-ERR Script killed by user with SCRIPT KILL... script: "
                + Scripts.sha1Hex(LOOP.getBytes(StandardCharsets.UTF_8)) + ", on @user_script:1.\r\n",
                script.readReplyText());
            assertEquals("-NOTBUSY No scripts in execution right now.\r\n", other.call("SCRIPT", "KILL"));
            RespClient stuck = other == first ? second : first;
            assertEquals("+PONG\r\n", stuck.readReplyText());

            String key = keyOnShard(target, "busy:written", 0);
            script.send(RespClient.encode(RespClient.toBytes("EVAL",
                "redis.call('set',KEYS[1],'1') local i = 0 while i < tonumber(ARGV[1]) do i = i + 1 end return i",
                "1", key, "3000000")));
            Thread.sleep(400);
            String killed = other.call("SCRIPT", "KILL");
            if (!killed.equals("-NOTBUSY No scripts in execution right now.\r\n")) {
                assertTrue(killed.startsWith("-UNKILLABLE Sorry the script already executed write commands"), killed);
            }
            // A loaded machine may take longer than a read's timeout to count to three million.
            assertTrue(script.available(60_000), "the script's reply within 60 s");
            assertEquals(":3000000\r\n", script.readReplyText());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A client that connects while a script is busy is answered, as Redis answers it (BUSY), so that
     * it can send SCRIPT KILL: whichever worker thread runs the script, the new connection is
     * accepted and placed on a worker that is free. Two clients, one per worker thread, each run
     * the busy script in turn (probed first, so that it runs on its client's own thread); once the
     * other client sees BUSY, a new client connects and kills the script.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aClientConnectingDuringABusyScriptIsAnswered(Target target) throws Exception {
        String busy = "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n";
        String looping = "local i = 0 while i < tonumber(ARGV[1]) do i = i + 1 end return i";
        try (LacewingServer server = Servers.builder(target).set("busy-reply-threshold", "100").start();
             RespClient one = RespClient.connect(server.port());
             RespClient two = RespClient.connect(server.port())) {
            assertEquals(":1\r\n", one.call("EVAL", looping, "0", "1"));
            assertEquals("+PONG\r\n", two.call("PING"));
            for (RespClient script : List.of(one, two)) {
                RespClient other = script == one ? two : one;
                script.send(RespClient.encode(RespClient.toBytes("EVAL", looping, "0", "200000000")));
                String reply = other.call("PING");
                for (int attempt = 0; attempt < 300 && !reply.equals(busy); attempt++) {
                    assertEquals("+PONG\r\n", reply);
                    Thread.sleep(100);
                    reply = other.call("PING");
                }
                assertEquals(busy, reply);
                try (RespClient late = RespClient.connect(server.port())) {
                    late.send(RespClient.encode(RespClient.toBytes("PING")));
                    assertTrue(late.available(10_000), () -> "a client connecting during a busy script was not "
                        + "answered within 10 s; threads:\n" + threads());
                    assertEquals(busy, late.readReplyText());
                    assertEquals("+OK\r\n", late.call("SCRIPT", "KILL"));
                }
                assertTrue(script.readReplyText().startsWith("-ERR Script killed by user with SCRIPT KILL..."));
            }
        }
    }

    /**
     * Scripts on two shards run at the same time: while a script on one shard loops, a script on a
     * key of the other shard, sent on both clients, is answered on the thread the loop leaves free,
     * before the loop ends (SCRIPT KILL ends it once past busy-reply-threshold). Both scripts run
     * once first, so that they take only their KEYS and not the whole keyspace.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void scriptsOnTwoShardsRunAtTheSameTime(Target target) throws Exception {
        String looping = "local i = 0 while i < tonumber(ARGV[1]) do i = i + 1 end return i";
        String counting = "return redis.call('incr', KEYS[1])";
        String a = keyOnShard(target, "parallel:a", 0);
        String b = keyOnShard(target, "parallel:b", 1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (LacewingServer server = Servers.builder(target).set("busy-reply-threshold", "3000").start();
             RespClient script = RespClient.connect(server.port());
             RespClient first = RespClient.connect(server.port());
             RespClient second = RespClient.connect(server.port())) {
            assertEquals(":1\r\n", script.call("EVAL", looping, "1", a, "1"));
            assertEquals(":1\r\n", script.call("EVAL", counting, "1", b));
            script.send(RespClient.encode(RespClient.toBytes("EVAL", looping, "1", a, "200000000")));
            Thread.sleep(400);
            RespClient other = answering(pool, first, second, "EVAL", counting, "1", b);
            String answer = other.readReplyText();
            assertTrue(answer.equals(":2\r\n") || answer.equals(":3\r\n"), answer);
            assertFalse(script.available(0), "the looping script still runs");
            String killed = other.call("SCRIPT", "KILL");
            for (int attempt = 0; attempt < 200 && !killed.equals("+OK\r\n"); attempt++) {
                assertEquals("-NOTBUSY No scripts in execution right now.\r\n", killed);
                Thread.sleep(100);
                killed = other.call("SCRIPT", "KILL");
            }
            assertEquals("+OK\r\n", killed);
            assertTrue(script.readReplyText().startsWith("-ERR Script killed by user with SCRIPT KILL..."));
            RespClient stuck = other == first ? second : first;
            String late = stuck.readReplyText();
            assertTrue(late.equals(":2\r\n") || late.equals(":3\r\n"), late);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Sends {@code command} on both clients and returns the one whose thread answers first (the other's is busy). */
    private static RespClient answering(ExecutorService pool, RespClient first, RespClient second, String... command)
        throws Exception {
        first.send(RespClient.encode(RespClient.toBytes(command)));
        second.send(RespClient.encode(RespClient.toBytes(command)));
        Future<Boolean> firstReady = pool.submit(() -> waitReadable(first));
        Future<Boolean> secondReady = pool.submit(() -> waitReadable(second));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (firstReady.isDone() && firstReady.get()) {
                return first;
            }
            if (secondReady.isDone() && secondReady.get()) {
                return second;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("neither client was answered; threads:\n" + threads());
    }

    /** Every thread's stack (the server runs in this JVM), for a test that found the server stalled. */
    private static String threads() {
        StringBuilder text = new StringBuilder();
        for (java.lang.management.ThreadInfo info
            : java.lang.management.ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            text.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
            if (info.getLockName() != null) {
                text.append(" on ").append(info.getLockName()).append(" owned by ").append(info.getLockOwnerName());
            }
            text.append('\n');
            for (StackTraceElement frame : info.getStackTrace()) {
                text.append("    at ").append(frame).append('\n');
            }
        }
        return text.toString();
    }

    private static boolean waitReadable(RespClient client) {
        return client.available(10_000);
    }

    /**
     * Redis 7.0 draws math.random from one sequence per server, starting at rand.c's initial state
     * and never reset between scripts or by SCRIPT FLUSH; the numbers are redis-server 7.0.15's on a
     * fresh server. math.randomseed restarts it (its seed truncated to an int).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void mathRandomGivesRedisSequence(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            String draws = "return {tostring(math.random()), math.random(1000), math.random(5,10), tostring(math.random())}";
            assertEquals("*4\r\n$16\r\n0.39646477363839\r\n:841\r\n:7\r\n$16\r\n0.44658343468168\r\n",
                client.call("EVAL", draws, "0"));
            assertEquals("+OK\r\n", client.call("SCRIPT", "FLUSH"));
            assertEquals("$16\r\n0.31869277233197\r\n", client.call("EVAL", "return tostring(math.random())", "0"));
            assertEquals("*2\r\n$16\r\n0.78323496216127\r\n$16\r\n0.78323496216127\r\n", client.call("EVAL",
                "math.randomseed(3.7) local a = tostring(math.random()) math.randomseed(3) return {a, tostring(math.random())}",
                "0"));
        }
    }

    /**
     * A thread remembers the last script an EVALSHA named: the same SHA in either case finds it, a SHA
     * one byte away (a digit, or a byte equal to a digit but for case bit 0x20) does not, and after
     * SCRIPT FLUSH it answers NOSCRIPT until the script is loaded again, on a dedicated server so
     * that no other test's flush interleaves. Redis 7.0.15 answers the same.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void evalshaFindsTheScriptInEitherCaseAndForgetsItAfterFlush(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            String sha = "4d45611d6aa4d489bd6e35d8ba85bcb7e5123095";
            assertEquals("$40\r\n" + sha + "\r\n", client.call("SCRIPT", "LOAD", "return 'sha'..ARGV[1]"));
            String upper = sha.toUpperCase(java.util.Locale.ROOT);
            String mixed = sha.substring(0, 20) + upper.substring(20);
            for (int i = 0; i < 3; i++) {
                assertEquals("$4\r\nsha1\r\n", client.call("EVALSHA", sha, "0", "1"));
                assertEquals("$4\r\nsha2\r\n", client.call("EVALSHA", upper, "0", "2"));
                assertEquals("$4\r\nsha3\r\n", client.call("EVALSHA", mixed, "0", "3"));
            }
            String noscript = "-" + Scripts.NOSCRIPT + "\r\n";
            assertEquals(noscript, client.call("EVALSHA", "5" + sha.substring(1), "0"));
            // '0' (0x30) is 0x10 with case bit 0x20 set, as 'a' is 'A': only a letter's case may differ.
            assertEquals(noscript, client.call("EVALSHA", "\u0014" + sha.substring(1), "0"));
            assertEquals(noscript, client.call("EVALSHA", sha.substring(0, 4) + "\u0016" + sha.substring(5), "0"));
            assertEquals("$4\r\nsha4\r\n", client.call("EVALSHA", sha, "0", "4"));
            assertEquals("+OK\r\n", client.call("SCRIPT", "FLUSH"));
            assertEquals(noscript, client.call("EVALSHA", sha, "0", "5"));
            assertEquals(noscript, client.call("EVALSHA", upper, "0", "5"));
            assertEquals("$40\r\n" + sha + "\r\n", client.call("SCRIPT", "LOAD", "return 'sha'..ARGV[1]"));
            assertEquals("$4\r\nsha6\r\n", client.call("EVALSHA", upper, "0", "6"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void compileErrorsNameTheLine(Target target) {
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            String reply = client.call("EVAL", "return (", "0");
            assertTrue(reply.startsWith("-ERR Error compiling script (new function): user_script:1: "), reply);
            assertEquals("*1\r\n:0\r\n", client.call("SCRIPT", "EXISTS", "ffffffffffffffffffffffffffffffffffffffff"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void withoutTheScriptingPluginTheCommandsAreListedAndSaySo(Target target) {
        Plugins all = Plugins.fromClassPath();
        Plugins withoutScripting = new Plugins(all.mode(), all.engines(), all.storages(), all.transports(), all.threadingStrategies(),
            all.commands(), List.of());
        try (LacewingServer server = Servers.builder(target).plugins(withoutScripting).start();
             RespClient client = RespClient.connect(server.port())) {
            String unavailable = "-ERR scripting is not available: no scripting plugin (script-lua) is installed\r\n";
            assertEquals(unavailable, client.call("EVAL", "return 1", "0"));
            assertEquals(unavailable, client.call("EVALSHA", "ffffffffffffffffffffffffffffffffffffffff", "0"));
            assertEquals(unavailable, client.call("SCRIPT", "LOAD", "return 1"));
            assertEquals("-ERR Number of keys can't be negative\r\n", client.call("EVAL", "return 1", "-1"));
            assertTrue(client.call("COMMAND", "INFO", "eval", "evalsha_ro", "script").startsWith("*3\r\n*10\r\n$4\r\neval\r\n"));
        }
    }
}
