package dev.lacewing.it.server;

import static dev.lacewing.it.resp.RespClient.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.keyspace.Slots;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generic key family over a real socket on every engine and transport, where it matters
 * that commands span shards: the servers run two shared-nothing shards, and the keys below are
 * chosen to live on different ones. Each test works in a database of its own, since the
 * servers are shared with the other test classes.
 */
class GenericCommandsTest {

    private static final int DATABASE = 9;

    /** A key named {@code prefix} plus a number, living on shard {@code shard} of two. */
    private static byte[] keyOnShard(String prefix, int shard) {
        for (int i = 0; ; i++) {
            byte[] key = bytes(prefix + i);
            if (Slots.partitionOf(key, 0, key.length, 2) == shard) {
                return key;
            }
        }
    }

    private static RedisCommands<byte[], byte[]> database(StatefulRedisConnection<byte[], byte[]> connection) {
        RedisCommands<byte[], byte[]> sync = connection.sync();
        sync.select(DATABASE);
        sync.flushdb();
        return sync;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void multiKeyCommandsSpanShards(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = database(connection);
            byte[] first = keyOnShard("a\0", 0);
            byte[] second = keyOnShard("b\r\n", 1);
            sync.set(first, bytes("1"));
            sync.psetex(second, 100_000, bytes("2"));
            assertEquals(3L, sync.exists(first, second, first));
            assertEquals("OK", sync.rename(second, keyOnShard("c", 0)));
            assertTrue(sync.pttl(keyOnShard("c", 0)) > 90_000);
            assertEquals(true, sync.copy(first, keyOnShard("d", 1)));
            assertArrayEquals(bytes("1"), sync.get(keyOnShard("d", 1)));
            assertEquals(false, sync.renamenx(first, keyOnShard("d", 1)));
            assertEquals(3L, sync.dbsize());
            assertEquals(3L, sync.del(first, keyOnShard("c", 0), keyOnShard("d", 1), second));
            assertEquals(0L, sync.dbsize());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void commandInfoReportsTheFamily(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            List<Object> info = connection.sync().commandInfo("del", "scan", "select", "nosuchcommand");
            assertEquals(4, info.size());
            assertEquals(List.of("del", -2L, 1L, -1L, 1L),
                List.of(field(info, 0, 0), field(info, 0, 1), field(info, 0, 3), field(info, 0, 4), field(info, 0, 5)),
                "del");
            assertEquals(List.of("scan", -2L, 0L, 0L, 0L),
                List.of(field(info, 1, 0), field(info, 1, 1), field(info, 1, 3), field(info, 1, 4), field(info, 1, 5)),
                "scan");
            assertEquals("select", field(info, 2, 0));
            assertNull(info.get(3));
        }
    }

    private static Object field(List<Object> info, int command, int index) {
        return ((List<?>) info.get(command)).get(index);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void keysAndScanSeeEveryShard(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = database(connection);
            Set<String> expected = new HashSet<>();
            for (int i = 0; i < 300; i++) {
                sync.set(bytes("scan:" + i), bytes("v"));
                expected.add("scan:" + i);
            }
            sync.set(bytes("other"), bytes("v"));
            Set<String> listed = new HashSet<>();
            sync.keys("scan:*").forEach(key -> listed.add(new String(key, StandardCharsets.ISO_8859_1)));
            assertEquals(expected, listed);

            List<String> scanned = new ArrayList<>();
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<byte[]> page = sync.scan(cursor, ScanArgs.Builder.matches("scan:*").limit(25));
                page.getKeys().forEach(key -> scanned.add(new String(key, StandardCharsets.ISO_8859_1)));
                cursor = page.isFinished() ? null : page;
            } while (cursor != null);
            assertEquals(expected.size(), scanned.size());
            assertEquals(expected, new HashSet<>(scanned));
            assertEquals("OK", sync.flushdb());
            assertNull(sync.randomkey());
        }
    }

    /**
     * On the shared-nothing engine a SCAN call over a database of more than 1,024 keys holds the
     * one shard its cursor names, so its keys all live there, and a scan visits shard 0 then
     * shard 1; the multithread engine, which holds every stripe, may reply keys of both
     * partitions in one call, and so does a small database (see {@link #keysAndScanSeeEveryShard}).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void scanVisitsOneShardPerCallOnSharedNothing(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = database(connection);
            Set<String> expected = new HashSet<>();
            Map<byte[], byte[]> batch = new HashMap<>();
            for (int i = 0; i < 1500; i++) {
                batch.put(bytes("s:" + i), bytes("v"));
                expected.add("s:" + i);
                if (batch.size() == 100) {
                    sync.mset(batch);
                    batch.clear();
                }
            }
            Set<String> scanned = new HashSet<>();
            Set<Integer> shardsOfCall = new HashSet<>();
            int calls = 0;
            boolean mixedCall = false;
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<byte[]> page = sync.scan(cursor, ScanArgs.Builder.limit(1000));
                shardsOfCall.clear();
                for (byte[] key : page.getKeys()) {
                    scanned.add(new String(key, StandardCharsets.ISO_8859_1));
                    shardsOfCall.add(Slots.partitionOf(key, 0, key.length, 2));
                }
                mixedCall |= shardsOfCall.size() > 1;
                calls++;
                cursor = page.isFinished() ? null : page;
            } while (cursor != null && calls < 1000);
            assertEquals(expected, scanned);
            if (target.engine().equals("shared-nothing")) {
                assertTrue(!mixedCall, "a SCAN call replied keys of both shards");
                assertTrue(calls >= 2, "one call scanned both shards");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void databasesAreSelectedMovedBetweenAndSwapped(Target target) {
        try (StatefulRedisConnection<byte[], byte[]> connection = Servers.connect(target)) {
            RedisCommands<byte[], byte[]> sync = database(connection);
            byte[] key = bytes("moving");
            sync.set(key, bytes("v"));
            sync.expire(key, 100);
            assertEquals(true, sync.move(key, DATABASE + 1));
            assertEquals(0L, sync.exists(key));
            assertEquals("OK", sync.swapdb(DATABASE, DATABASE + 1));
            assertArrayEquals(bytes("v"), sync.get(key));
            assertEquals(100L, sync.ttl(key));
            assertEquals("string", sync.type(key));
            assertEquals(true, sync.persist(key));
            assertEquals(-1L, sync.ttl(key));
            sync.select(DATABASE + 1);
            assertEquals(0L, sync.dbsize());
        }
    }
}
