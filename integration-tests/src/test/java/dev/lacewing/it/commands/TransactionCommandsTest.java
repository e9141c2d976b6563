package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.keyspace.Slots;
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
}
