package dev.lacewing.it.commands;

import static dev.lacewing.it.resp.RespClient.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.keyspace.Slots;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import dev.lacewing.it.server.TypedValueFixture;
import io.lettuce.core.BitFieldArgs;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerListOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The bitmap family through lettuce on every engine and transport, keys spread over both shards. */
class BitmapCommandsTest {

    /** A key named after the test and target, on shard {@code shard} of the two the servers run. */
    static byte[] keyOnShard(Target target, String name, int shard) {
        for (int i = 0; i < 1000; i++) {
            byte[] key = bytes("bits:" + target + ":" + name + ":" + i);
            if (Slots.partitionOf(key, 0, key.length, 2) == shard) {
                return key;
            }
        }
        throw new IllegalStateException("no key on shard " + shard);
    }

    private static void storeList(RedisCommands<byte[], byte[]> sync, byte[] key) {
        ProtocolKeyword command = () -> bytes(TypedValueFixture.COMMAND);
        sync.dispatch(command, new StatusOutput<>(ByteArrayCodec.INSTANCE),
            new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(key));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void setbitGetbitBitcountAndBitpos(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            byte[] k = keyOnShard(target, "setbit", 1);
            sync.del(k);
            assertEquals(0L, sync.setbit(k, 7, 1));
            assertEquals(1L, sync.setbit(k, 7, 1));
            assertEquals(0L, sync.setbit(k, 100, 1));
            assertEquals(13L, sync.strlen(k));
            assertEquals(1L, sync.getbit(k, 100));
            assertEquals(0L, sync.getbit(k, 1_000_000));
            assertEquals(2L, sync.bitcount(k));
            assertEquals(1L, sync.bitcount(k, 1, -1));
            assertEquals(7L, sync.bitpos(k, true));
            assertEquals(0L, sync.bitpos(k, false));
            assertEquals(100L, sync.bitpos(k, true, 1, -1));
            RedisCommandExecutionException error = assertThrows(RedisCommandExecutionException.class,
                () -> sync.setbit(k, -1, 1));
            assertEquals("ERR bit offset is not an integer or out of range", error.getMessage());
            byte[] list = keyOnShard(target, "setbit:list", 0);
            storeList(sync, list);
            assertTrue(assertThrows(RedisCommandExecutionException.class, () -> sync.getbit(list, 0))
                .getMessage().startsWith("WRONGTYPE"));
            sync.del(k, list);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void bitopCombinesKeysOfBothShards(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            byte[] a = keyOnShard(target, "bitop:a", 0);
            byte[] b = keyOnShard(target, "bitop:b", 1);
            byte[] destination = keyOnShard(target, "bitop:dest", 1);
            sync.set(a, new byte[] {0x0f, (byte) 0xf0});
            sync.set(b, new byte[] {(byte) 0xff});
            assertEquals(2L, sync.bitopAnd(destination, a, b));
            assertArrayEquals(new byte[] {0x0f, 0}, sync.get(destination));
            assertEquals(2L, sync.bitopOr(destination, a, b));
            assertArrayEquals(new byte[] {(byte) 0xff, (byte) 0xf0}, sync.get(destination));
            assertEquals(2L, sync.bitopXor(destination, a, b));
            assertArrayEquals(new byte[] {(byte) 0xf0, (byte) 0xf0}, sync.get(destination));
            assertEquals(2L, sync.bitopNot(destination, a));
            assertArrayEquals(new byte[] {(byte) 0xf0, 0x0f}, sync.get(destination));
            sync.del(a, b);
            assertEquals(0L, sync.bitopAnd(destination, a, b));
            assertEquals(0L, sync.exists(destination));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void bitfieldAndItsReadOnlyForm(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            byte[] k = keyOnShard(target, "bitfield", 0);
            sync.del(k);
            assertEquals(Arrays.asList(0L, 255L), sync.bitfield(k, new BitFieldArgs()
                .set(BitFieldArgs.unsigned(8), 0, 255).get(BitFieldArgs.unsigned(8), 0)));
            assertEquals(Arrays.asList(1L, 3L, null), sync.bitfield(k, new BitFieldArgs()
                .incrBy(BitFieldArgs.unsigned(2), 100, 1)
                .overflow(BitFieldArgs.OverflowType.SAT).incrBy(BitFieldArgs.unsigned(2), 102, 5)
                .overflow(BitFieldArgs.OverflowType.FAIL).incrBy(BitFieldArgs.unsigned(2), 102, 5)));
            assertEquals(Arrays.asList(0L, -100L), sync.bitfield(k, new BitFieldArgs()
                .set(BitFieldArgs.signed(8), BitFieldArgs.typeWidthBasedOffset(1), -100)
                .get(BitFieldArgs.signed(8), 8)));
            ProtocolKeyword bitfieldRo = () -> bytes("BITFIELD_RO");
            assertEquals(List.of(-100L, 9L), sync.dispatch(bitfieldRo, new IntegerListOutput<>(ByteArrayCodec.INSTANCE),
                new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(k).add("GET").add("i8").add(8)
                    .add("GET").add("u4").add(8)));
            assertEquals(13L, sync.strlen(k));
            sync.del(k);
        }
    }

    /**
     * SETBIT and BITFIELD past the end grow the string with zero bytes and room, as
     * lookupStringForBitCommand's sdsgrowzero does; a new key is made at its length. MEMORY USAGE
     * counts the room until SET stores the value afresh.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void setbitAndBitfieldPastTheEndGrowWithRoom(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            byte[] k = keyOnShard(target, "grow", 1);
            sync.del(k);
            assertEquals(0L, sync.setbit(k, 8 * 100_000 - 1, 1));
            assertTrue(sync.memoryUsage(k) < 100_000 + 200, "made at its length: " + sync.memoryUsage(k));
            assertEquals(0L, sync.setbit(k, 8 * 100_010, 1));
            long grown = sync.memoryUsage(k);
            assertTrue(grown >= 2 * 100_011 && grown < 2 * 100_011 + 200, "room: " + grown);
            assertEquals(List.of(0L), sync.bitfield(k, new BitFieldArgs()
                .set(BitFieldArgs.unsigned(8), 8 * 150_000, 255)));
            assertEquals(150_001L, sync.strlen(k));
            assertEquals(grown, sync.memoryUsage(k), "written into the room");
            assertEquals(10L, sync.bitcount(k));
            assertEquals(1L, sync.getbit(k, 8 * 100_000 - 1));
            assertEquals(1L, sync.getbit(k, 8 * 100_010));
            assertEquals(0L, sync.getbit(k, 8 * 100_010 + 1));
            assertEquals("OK", sync.set(k, sync.get(k)));
            assertTrue(sync.memoryUsage(k) < 150_001 + 200, "SET gives the room back: " + sync.memoryUsage(k));
            sync.del(k);
        }
    }

    /** Many small bit commands pipelined over both shards: replies arrive in order and agree. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void pipelinedSetbitsOverBothShards(Target target) throws Exception {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisAsyncCommands<byte[], byte[]> async = connection.async();
            byte[][] keys = {keyOnShard(target, "pipe", 0), keyOnShard(target, "pipe", 1)};
            connection.sync().del(keys);
            connection.setAutoFlushCommands(false);
            List<RedisFuture<Long>> replies = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                replies.add(async.setbit(keys[i % 2], i, 1));
            }
            replies.add(async.bitcount(keys[0]));
            replies.add(async.bitcount(keys[1]));
            connection.flushCommands();
            assertTrue(LettuceFutures.awaitAll(Duration.ofSeconds(10), replies.toArray(new RedisFuture[0])));
            connection.setAutoFlushCommands(true);
            for (int i = 0; i < 400; i++) {
                assertEquals(0L, replies.get(i).get());
            }
            assertEquals(200L, replies.get(400).get());
            assertEquals(200L, replies.get(401).get());
            assertNull(connection.sync().get(keyOnShard(target, "pipe:none", 0)));
            connection.sync().del(keys);
        }
    }
}
