package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.keyspace.Slots;
import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.TransactionResult;
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
 * MULTI, EXEC and DISCARD on every engine and transport, with raw RESP and with lettuce's own
 * transaction API; keys on both shards. Loops are bounded in rounds and in time.
 */
class TransactionCommandsTest {

    private static final long TIME_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(4);

    /** A key named after the test and target, on shard {@code shard} of the two the servers run. */
    static String keyOnShard(Target target, String name, int shard) {
        for (int i = 0; i < 1000; i++) {
            String key = "tx:" + target + ":" + name + ":" + i;
            byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
            if (Slots.partitionOf(bytes, 0, bytes.length, 2) == shard) {
                return key;
            }
        }
        throw new IllegalStateException("no key on shard " + shard);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void execRepliesEveryQueuedCommandsReplyWithRuntimeErrorsInside(Target target) {
        String a = keyOnShard(target, "exec:a", 0);
        String b = keyOnShard(target, "exec:b", 1);
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            client.call("DEL", a, b);
            assertEquals("+OK\r\n", client.call("MULTI"));
            assertEquals("+QUEUED\r\n", client.call("SET", a, "1"));
            assertEquals("+QUEUED\r\n", client.call("INCR", a));
            assertEquals("+QUEUED\r\n", client.call("LPUSH", a, "x"));
            assertEquals("+QUEUED\r\n", client.call("SET", b, "2"));
            assertEquals("+QUEUED\r\n", client.call("MGET", a, b));
            assertEquals("*5\r\n+OK\r\n:2\r\n-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"
                + "+OK\r\n*2\r\n$1\r\n2\r\n$1\r\n2\r\n", client.call("EXEC"));
            assertEquals("-ERR EXEC without MULTI\r\n", client.call("EXEC"));
            client.call("DEL", a, b);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void queueingErrorsAbortExec(Target target) {
        String a = keyOnShard(target, "abort:a", 1);
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            client.call("DEL", a);
            client.call("MULTI");
            assertEquals("+QUEUED\r\n", client.call("SET", a, "1"));
            assertEquals("-ERR unknown command 'NOSUCH', with args beginning with: \r\n", client.call("NOSUCH"));
            assertEquals("-ERR wrong number of arguments for 'get' command\r\n", client.call("GET"));
            assertEquals("-ERR MULTI calls can not be nested\r\n", client.call("MULTI"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", client.call("EXEC"));
            assertEquals("$-1\r\n", client.call("GET", a));
            client.call("MULTI");
            assertEquals("-ERR Command not allowed inside a transaction\r\n", client.call("SHUTDOWN"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", client.call("EXEC"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void discardDropsTheQueue(Target target) {
        String a = keyOnShard(target, "discard:a", 0);
        try (RespClient client = RespClient.connect(Servers.server(target).port());
             RespClient observer = RespClient.connect(Servers.server(target).port())) {
            client.call("DEL", a);
            assertEquals("-ERR DISCARD without MULTI\r\n", client.call("DISCARD"));
            client.call("MULTI");
            client.call("SET", a, "1");
            assertTrue(observer.call("CLIENT", "LIST").contains(" flags=x db=0 sub=0 psub=0 ssub=0 multi=1 "),
                "CLIENT LIST shows MULTI and its queue");
            assertEquals("+OK\r\n", client.call("DISCARD"));
            assertEquals("$-1\r\n", client.call("GET", a));
            assertEquals("-ERR EXEC without MULTI\r\n", client.call("EXEC"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void blockingCommandsInsideMultiDoNotBlock(Target target) {
        String list = keyOnShard(target, "block:l", 1);
        String other = keyOnShard(target, "block:m", 0);
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            client.call("DEL", list, other);
            for (String protocol : List.of("2", "3")) {
                client.call("HELLO", protocol);
                client.call("MULTI");
                client.call("BLPOP", list, "0");
                client.call("BLMOVE", list, other, "LEFT", "LEFT", "0");
                client.call("BZPOPMIN", other, "0");
                String nil = protocol.equals("2") ? "*-1\r\n" : "_\r\n";
                String nilBulk = protocol.equals("2") ? "$-1\r\n" : "_\r\n";
                assertEquals("*3\r\n" + nil + nilBulk + nil, client.call("EXEC"));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void lettuceTransactionsRun(Target target) {
        String a = keyOnShard(target, "lettuce:a", 0);
        String b = keyOnShard(target, "lettuce:b", 1);
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> sync = connection.sync();
            sync.del(a, b);
            assertEquals("OK", sync.multi());
            sync.set(a, "x");
            sync.incr(b);
            sync.get(a);
            TransactionResult result = sync.exec();
            assertTrue(!result.wasDiscarded());
            assertEquals(List.of("OK", 1L, "x"), result.stream().toList());
            sync.multi();
            sync.set(a, "y");
            assertEquals("OK", sync.discard());
            assertEquals("x", sync.get(a));
            sync.del(a, b);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void readersNeverSeeHalfAMultiAcrossShards(Target target) throws Exception {
        String a = keyOnShard(target, "atomic:a", 0);
        String b = keyOnShard(target, "atomic:b", 1);
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (RespClient writer = RespClient.connect(Servers.server(target).port());
             RespClient reader = RespClient.connect(Servers.server(target).port())) {
            writer.call("MSET", a, "0", b, "0");
            long deadline = System.nanoTime() + TIME_LIMIT_NANOS;
            Future<Integer> written = pool.submit(() -> {
                int round = 1;
                try {
                    for (; round <= 1500 && System.nanoTime() < deadline; round++) {
                        writer.call("MULTI");
                        writer.call("SET", a, String.valueOf(round));
                        writer.call("SET", b, String.valueOf(round));
                        writer.call("EXEC");
                    }
                } finally {
                    writing.set(false);
                }
                return round;
            });
            Future<Integer> read = pool.submit(() -> {
                int checked = 0;
                while (writing.get() && checked < 3000 && System.nanoTime() < deadline) {
                    reader.call("MULTI");
                    reader.call("GET", a);
                    reader.call("GET", b);
                    List<String> values = RespClient.elements(reader.call("EXEC"));
                    assertEquals(values.get(0), values.get(1), "a torn MULTI: " + values);
                    List<String> both = RespClient.elements(reader.call("MGET", a, b));
                    assertEquals(both.get(0), both.get(1), "a torn MULTI seen by MGET: " + both);
                    checked++;
                }
                return checked;
            });
            assertTrue(written.get(15, TimeUnit.SECONDS) > 1);
            assertTrue(read.get(15, TimeUnit.SECONDS) > 0);
            writer.call("DEL", a, b);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void watchedKeyWrittenByAnotherClientFailsExec(Target target) {
        String a = keyOnShard(target, "watch:a", 0);
        String b = keyOnShard(target, "watch:b", 1);
        try (RespClient client = RespClient.connect(Servers.server(target).port());
             RespClient other = RespClient.connect(Servers.server(target).port())) {
            client.call("DEL", a, b);
            assertEquals("+OK\r\n", client.call("WATCH", a, b));
            other.call("SET", b, "theirs");
            client.call("MULTI");
            assertEquals("-ERR WATCH inside MULTI is not allowed\r\n", client.call("WATCH", a));
            client.call("SET", a, "mine");
            assertEquals("*-1\r\n", client.call("EXEC"));
            assertEquals("$-1\r\n", client.call("GET", a));
            client.call("HELLO", "3");
            client.call("WATCH", a);
            other.call("MSET", a, "1", b, "1");
            client.call("MULTI");
            client.call("GET", a);
            assertEquals("_\r\n", client.call("EXEC"));
            client.call("HELLO", "2");
            client.call("WATCH", a);
            other.call("GET", a);
            other.call("SET", b, "2");
            client.call("MULTI");
            client.call("GET", a);
            assertEquals("*1\r\n$1\r\n1\r\n", client.call("EXEC"), "reads and other keys leave a watch alone");
            client.call("WATCH", a);
            assertEquals("+OK\r\n", client.call("UNWATCH"));
            other.call("SET", a, "3");
            client.call("MULTI");
            client.call("GET", a);
            assertEquals("*1\r\n$1\r\n3\r\n", client.call("EXEC"), "UNWATCH forgets the keys");
            client.call("DEL", a, b);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void watchedKeyExpiringOrFlushedFailsExec(Target target) throws Exception {
        String a = keyOnShard(target, "expire:a", 1);
        String b = keyOnShard(target, "flush:b", 0);
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect();
             StatefulRedisConnection<String, String> other = Servers.client(target).connect()) {
            RedisCommands<String, String> sync = connection.sync();
            sync.set(a, "v", io.lettuce.core.SetArgs.Builder.px(50));
            assertEquals("OK", sync.watch(a));
            Thread.sleep(120);
            sync.multi();
            sync.set(a, "w");
            assertTrue(sync.exec().wasDiscarded(), "a watched key that expired fails EXEC");
            sync.set(b, "v");
            sync.watch(b);
            other.sync().flushall();
            sync.multi();
            sync.set(b, "w");
            assertTrue(sync.exec().wasDiscarded(), "FLUSHALL touches a watched key");
            sync.watch(b);
            other.sync().flushall();
            sync.multi();
            sync.set(b, "w");
            assertTrue(!sync.exec().wasDiscarded(), "FLUSHALL leaves a watched key that did not exist alone");
            sync.del(a, b);
        }
    }

    /** A pipelined command behind a WATCH refused inside MULTI is queued, wherever the WATCH's key made it run. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void pipelinedCommandsInsideMultiAreQueuedBehindAnyCommand(Target target) {
        String a = keyOnShard(target, "pipe:a", 0);
        String b = keyOnShard(target, "pipe:b", 1);
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            client.call("DEL", a, b);
            StringBuilder pipeline = new StringBuilder();
            for (List<String> request : List.of(List.of("MULTI"), List.of("WATCH", a), List.of("SET", a, "1"),
                List.of("WATCH", b), List.of("SET", b, "1"), List.of("EXEC"))) {
                pipeline.append(RespClient.text(RespClient.encode(RespClient.toBytes(request.toArray(String[]::new)))));
            }
            client.send(pipeline.toString());
            assertEquals("+OK\r\n", client.readReplyText());
            for (String key : List.of(a, b)) {
                assertEquals("-ERR WATCH inside MULTI is not allowed\r\n", client.readReplyText(), key);
                assertEquals("+QUEUED\r\n", client.readReplyText(), key);
            }
            assertEquals("*2\r\n+OK\r\n+OK\r\n", client.readReplyText());
            client.call("DEL", a, b);
        }
    }

    /**
     * Serving a blocked BLMOVE writes its destination, in the source's partition (served where the
     * push ran) or on another shard (the move runs again through the engine): a watch on it breaks.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void servingABlockedMoveTouchesItsDestination(Target target) throws Exception {
        servedMoveBreaksWatch(target, "{served:" + target + "}src", "{served:" + target + "}dst");
        servedMoveBreaksWatch(target, keyOnShard(target, "served:src", 0), keyOnShard(target, "served:dst", 1));
    }

    private static void servedMoveBreaksWatch(Target target, String source, String destination) throws Exception {
        try (RespClient watcher = RespClient.connect(Servers.server(target).port());
             RespClient blocked = RespClient.connect(Servers.server(target).port());
             RespClient pusher = RespClient.connect(Servers.server(target).port())) {
            pusher.call("DEL", source, destination);
            watcher.call("WATCH", destination);
            blocked.send(RespClient.encode(RespClient.toBytes("BLMOVE", source, destination, "LEFT", "LEFT", "5")));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!pusher.call("CLIENT", "LIST").contains("flags=b") && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            pusher.call("RPUSH", source, "x");
            assertEquals("$1\r\nx\r\n", blocked.readReplyText());
            watcher.call("MULTI");
            watcher.call("PING");
            assertEquals("*-1\r\n", watcher.call("EXEC"));
            pusher.call("DEL", source, destination);
        }
    }

    /** Over maxmemory every command queued inside MULTI is refused with OOM, so EXEC aborts; DISCARD and EXEC still run. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void overMaxmemoryQueueingIsRefused(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            String a = keyOnShard(target, "oom:a", 1);
            client.call("SET", a, "v");
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "maxmemory", "1"));
            assertEquals("+OK\r\n", client.call("MULTI"));
            String oom = "-OOM command not allowed when used memory > 'maxmemory'.\r\n";
            assertEquals(oom, client.call("GET", a));
            assertEquals(oom, client.call("SET", a, "2"));
            assertEquals("-EXECABORT Transaction discarded because of previous errors.\r\n", client.call("EXEC"));
            client.call("MULTI");
            assertEquals("+OK\r\n", client.call("DISCARD"));
            client.call("WATCH", a);
            client.call("MULTI");
            assertEquals("*0\r\n", client.call("EXEC"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "maxmemory", "0"));
            client.call("MULTI");
            client.call("SET", a, "3");
            assertEquals("*1\r\n+OK\r\n", client.call("EXEC"));
        }
    }
}
