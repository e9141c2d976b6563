package dev.lacewing.it.commands;

import static dev.lacewing.it.resp.RespClient.bytes;
import static dev.lacewing.it.resp.RespClient.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.KeyValue;
import io.lettuce.core.LMoveArgs;
import io.lettuce.core.LMPopArgs;
import io.lettuce.core.LPosArgs;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.UnblockType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The list family through lettuce over real sockets, on every engine and transport: the commands,
 * and blocking: wake-up by another connection, service order, timeouts, CLIENT UNBLOCK, pipelines
 * behind a blocked command, and keys on different shards (hash tags) for BLPOP and BLMOVE; each
 * with {@code list-compress-depth} 0, 1 and 2, and long compressed lists with every command.
 */
@ParameterizedClass(name = "list-compress-depth {0}")
@ValueSource(ints = {0, 1, 2})
class ListCommandsTest {

    @Parameter
    int compressDepth;

    /** Sets list-compress-depth on every shared server this machine can run; lists made from then on use it. */
    @BeforeParameterizedClassInvocation
    static void setDepth(int compressDepth) {
        Servers.all().filter(target -> Servers.unavailability(target.transport()).isEmpty()).forEach(target -> {
            try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
                assertEquals("OK", connection.sync().configSet("list-compress-depth", Integer.toString(compressDepth)));
            }
        });
    }

    @AfterParameterizedClassInvocation
    static void resetDepth() {
        setDepth(0);
    }

    private static List<String> texts(List<byte[]> values) {
        List<String> texts = new ArrayList<>();
        values.forEach(value -> texts.add(text(value)));
        return texts;
    }

    /** Keys with distinct hash tags, so that with two shards some pairs live on different shards. */
    private byte[] key(Target target, String test, String tag) {
        return bytes("{" + tag + "}list:" + target + ":" + test + ":" + compressDepth);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void longListsAreCompressedPastTheDepthAndStillAnswer(Target target) throws Exception {
        byte[] k = key(target, "long", "a");
        byte[] raw = key(target, "lraw", "a"); // as long as k: MEMORY USAGE counts the key
        byte[] source = key(target, "long-source", "b");
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            values.add(bytes("value:" + i));
        }
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> waiter = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            sync.rpush(k, values.toArray(byte[][]::new));
            sync.configSet("list-compress-depth", "0");
            sync.rpush(raw, values.toArray(byte[][]::new));
            sync.configSet("list-compress-depth", Integer.toString(compressDepth));
            long compressed = sync.memoryUsage(k);
            long uncompressed = sync.memoryUsage(raw);
            if (compressDepth == 0) {
                assertEquals(uncompressed, compressed);
            } else {
                // About 9 nodes of 8 KiB, all but 2 x depth compressed about 3x.
                assertTrue(compressed * 5 < uncompressed * 4, compressed + " against " + uncompressed + " uncompressed");
            }
            assertEquals("quicklist", sync.objectEncoding(k));
            assertEquals("value:2500", text(sync.lindex(k, 2500)));
            assertEquals(texts(values), texts(sync.lrange(k, 0, -1)));
            assertEquals(compressed, sync.memoryUsage(k), "reads leave the list as it was");
            assertEquals("OK", sync.lset(k, 2500, bytes("changed")));
            assertEquals(List.of(2500L), sync.lpos(k, bytes("changed"), 0, LPosArgs.Builder.rank(1)));
            assertEquals(5001, sync.linsert(k, false, bytes("changed"), bytes("after")));
            assertEquals(1, sync.lrem(k, 0, bytes("after")));
            assertEquals("OK", sync.ltrim(k, 10, -11));
            assertEquals("value:10", text(sync.lpop(k)));
            assertEquals("value:4989", text(sync.rpop(k)));
            RedisFuture<byte[]> moved = waiter.async().blmove(source, k, LMoveArgs.Builder.leftRight(), 5);
            waitUntilBlocked(sync, 1);
            sync.rpush(source, bytes("woken"));
            assertEquals("woken", text(await(moved)));
            List<String> expected = new ArrayList<>(texts(values.subList(11, 4989)));
            expected.set(2489, "changed");
            expected.add("woken");
            assertEquals(expected, texts(sync.lrange(k, 0, -1)));
            assertEquals("value:11", text(sync.blpop(1, k).getValue()));
            assertEquals(2, sync.del(k, raw));
        }
    }

    private static <T> T await(RedisFuture<T> future) throws Exception {
        return future.get(5, TimeUnit.SECONDS);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void theListCommandsWork(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            byte[] k = key(target, "basic", "a");
            byte[] d = key(target, "basic", "b");
            assertEquals(4, sync.rpush(k, bytes("a"), bytes("b"), bytes("c"), bytes("a")));
            assertEquals(5, sync.lpush(k, bytes("z")));
            assertEquals(List.of("z", "a", "b", "c", "a"), texts(sync.lrange(k, 0, -1)));
            assertEquals("c", text(sync.lindex(k, -2)));
            assertEquals(List.of(1L, 4L), sync.lpos(k, bytes("a"), 0, LPosArgs.Builder.rank(1)));
            assertEquals(6, sync.linsert(k, true, bytes("b"), bytes("y")));
            assertEquals(2, sync.lrem(k, 0, bytes("a")));
            assertEquals("OK", sync.lset(k, 0, bytes("Z")));
            assertEquals("OK", sync.ltrim(k, 0, 2));
            assertEquals(List.of("Z", "y", "b"), texts(sync.lrange(k, 0, -1)));
            assertEquals("b", text(sync.lmove(k, d, LMoveArgs.Builder.rightLeft())));
            assertEquals("y", text(sync.rpoplpush(k, d)));
            assertEquals(List.of("y", "b"), texts(sync.lrange(d, 0, -1)));
            KeyValue<byte[], List<byte[]>> popped = sync.lmpop(LMPopArgs.Builder.left().count(5), k, d);
            assertEquals(List.of("Z"), texts(popped.getValue()));
            assertEquals(0, sync.exists(k));
            assertEquals(List.of("y", "b"), texts(sync.lpop(d, 5)));
            assertEquals(0, sync.llen(d));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aPushFromAnotherConnectionWakesBlockedClientsInTheOrderTheyBlocked(Target target) throws Exception {
        byte[] k = key(target, "order", "a");
        List<StatefulRedisConnection<byte[], byte[]>> connections = new ArrayList<>();
        try (StatefulRedisConnection<byte[], byte[]> pusher = Servers.connect(target)) {
            List<RedisFuture<KeyValue<byte[], byte[]>>> waits = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target);
                connections.add(connection);
                waits.add(connection.async().blpop(5, k));
                waitUntilBlocked(pusher.sync(), i + 1);
            }
            assertEquals(3, pusher.sync().rpush(k, bytes("1"), bytes("2"), bytes("3")));
            for (int i = 0; i < 3; i++) {
                KeyValue<byte[], byte[]> served = await(waits.get(i));
                assertEquals(Integer.toString(i + 1), text(served.getValue()), "client " + i);
            }
            assertEquals(0, pusher.sync().exists(k), "every element went to a blocked client");
        } finally {
            connections.forEach(StatefulRedisConnection::close);
        }
    }

    /** INFO's blocked_clients reaches {@code count}: the clients are blocked, in that order. */
    private static void waitUntilBlocked(RedisCommands<byte[], byte[]> sync, int count) throws InterruptedException {
        for (int attempt = 0; attempt < 200; attempt++) {
            if (new String(sync.info("clients")).contains("blocked_clients:" + count + "\r\n")) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("never saw " + count + " blocked clients");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void timeoutsWithDecimalsReplyNullAndCountInInfo(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            long start = System.nanoTime();
            assertNull(sync.blpop(0.2, key(target, "timeout", "a"), key(target, "timeout", "b")));
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(elapsedMillis >= 190 && elapsedMillis < 2000, "waited " + elapsedMillis + " ms");
            assertNull(sync.blmove(key(target, "timeout", "a"), key(target, "timeout", "b"),
                LMoveArgs.Builder.leftRight(), 0.1));
            assertTrue(new String(sync.info("clients")).contains("blocked_clients:0\r\n"));
            assertThrows(RedisCommandExecutionException.class, () -> sync.blpop(-1, key(target, "timeout", "a")));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void clientUnblockEndsABlockedCommandAndLaterPipelinedCommandsWait(Target target) throws Exception {
        try (StatefulRedisConnection<byte[], byte[]> blocked = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> other = Servers.connect(target)) {
            long id = blocked.sync().clientId();
            RedisAsyncCommands<byte[], byte[]> async = blocked.async();
            RedisFuture<KeyValue<byte[], byte[]>> first = async.blpop(0, key(target, "unblock", "a"));
            RedisFuture<String> after = async.ping();
            waitUntilBlocked(other.sync(), 1);
            Thread.sleep(50);
            assertTrue(!after.isDone(), "the PING behind the blocked BLPOP waits");
            assertEquals(1, other.sync().clientUnblock(id, UnblockType.TIMEOUT));
            assertNull(await(first));
            assertEquals("PONG", await(after));
            RedisFuture<KeyValue<byte[], byte[]>> second = async.brpop(0, key(target, "unblock", "a"));
            waitUntilBlocked(other.sync(), 1);
            assertEquals(1, other.sync().clientUnblock(id, UnblockType.ERROR));
            Exception error = assertThrows(Exception.class, () -> await(second));
            assertTrue(String.valueOf(error.getMessage()).contains("UNBLOCKED client unblocked via CLIENT UNBLOCK"),
                error.getMessage());
            assertEquals(0, other.sync().clientUnblock(id, UnblockType.ERROR));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aClientWaitingOnKeysOfSeveralShardsIsServedOnce(Target target) throws Exception {
        byte[] a = key(target, "shards", "a");
        byte[] b = key(target, "shards", "b");
        byte[] c = key(target, "shards", "c");
        try (StatefulRedisConnection<byte[], byte[]> waiter = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> pusher = Servers.connect(target)) {
            RedisFuture<KeyValue<byte[], byte[]>> served = waiter.async().brpop(5, a, b, c);
            waitUntilBlocked(pusher.sync(), 1);
            RedisAsyncCommands<byte[], byte[]> pushes = pusher.async();
            RedisFuture<Long> toC = pushes.rpush(c, bytes("from-c"));
            RedisFuture<Long> toB = pushes.rpush(b, bytes("from-b"));
            await(toC);
            await(toB);
            KeyValue<byte[], byte[]> result = await(served);
            long left = pusher.sync().llen(b) + pusher.sync().llen(c);
            assertEquals(1, left, "exactly one element was taken, by " + text(result.getKey()));
            assertTrue(text(result.getValue()).startsWith("from-"));
            pusher.sync().del(a, b, c);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void blmoveAcrossShardsMovesAtomicallyWhenTheSourceIsPushed(Target target) throws Exception {
        byte[] source = key(target, "blmove", "a");
        byte[] destination = key(target, "blmove", "b");
        try (StatefulRedisConnection<byte[], byte[]> waiter = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> pusher = Servers.connect(target)) {
            RedisFuture<byte[]> moved = waiter.async().blmove(source, destination, LMoveArgs.Builder.leftRight(), 5);
            RedisFuture<byte[]> second = waiter.async().brpoplpush(5, source, destination);
            waitUntilBlocked(pusher.sync(), 1);
            assertEquals(2, pusher.sync().rpush(source, bytes("x"), bytes("y")));
            assertEquals("x", text(await(moved)));
            assertEquals("y", text(await(second)));
            assertEquals(List.of("y", "x"), texts(pusher.sync().lrange(destination, 0, -1)), "BRPOPLPUSH pushes to the head");
            assertEquals(0, pusher.sync().exists(source));
            pusher.sync().del(destination);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aKeyReplacedByAnotherTypeDoesNotUnblockAsIn70(Target target) throws Exception {
        byte[] k = key(target, "type", "a");
        try (StatefulRedisConnection<byte[], byte[]> waiter = Servers.connect(target);
             StatefulRedisConnection<byte[], byte[]> other = Servers.connect(target)) {
            RedisFuture<KeyValue<byte[], List<byte[]>>> served = waiter.async().blmpop(5,
                io.lettuce.core.LMPopArgs.Builder.left().count(2), k);
            waitUntilBlocked(other.sync(), 1);
            other.sync().set(k, bytes("string"));
            other.sync().del(k);
            Thread.sleep(50);
            assertTrue(!served.isDone(), "still blocked after SET and DEL");
            other.sync().lpush(k, bytes("v"));
            assertEquals(List.of("v"), texts(await(served).getValue()));
        }
    }

    /** As Redis's swapdb (scanDatabaseForReadyKeys): a key the swapped-in database holds serves its waiters. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void swapdbServesAClientBlockedOnAKeyTheSwappedInDatabaseHolds(Target target) throws Exception {
        byte[] k = key(target, "swapdb", "a");
        try (LacewingServer server = Servers.builder(target).start()) {
            RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", server.port()));
            try (StatefulRedisConnection<byte[], byte[]> waiter = client.connect(ByteArrayCodec.INSTANCE);
                 StatefulRedisConnection<byte[], byte[]> other = client.connect(ByteArrayCodec.INSTANCE)) {
                RedisFuture<KeyValue<byte[], byte[]>> served = waiter.async().blpop(5, k);
                waitUntilBlocked(other.sync(), 1);
                other.sync().select(1);
                other.sync().rpush(k, bytes("moved"), bytes("left"));
                Thread.sleep(50);
                assertTrue(!served.isDone(), "a push to database 1 does not serve a client waiting in 0");
                assertEquals("OK", other.sync().swapdb(0, 1));
                assertEquals("moved", text(await(served).getValue()));
                other.sync().select(0);
                assertEquals(List.of("left"), texts(other.sync().lrange(k, 0, -1)));
            } finally {
                client.shutdown();
            }
        }
    }
}
