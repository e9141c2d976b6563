package dev.lacewing.it.commands;

import static dev.lacewing.it.commands.ScriptingCommandsTest.keyOnShard;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Overlap;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.FlushMode;
import io.lettuce.core.FunctionRestoreMode;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * FUNCTION, FCALL and FCALL_RO on every engine and transport: lettuce's functions API, Redis 7.0.15's
 * errors over raw RESP, functions writing two shards staying atomic against a concurrent reader
 * (declared keys or not), and FUNCTION KILL. Replies byte for byte against Redis are in
 * FunctionsReferenceTest. Loops are bounded in rounds and in time.
 */
class FunctionCommandsTest {

    private static final long TIME_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final int ROUNDS = 2000;

    private static final String LIBRARY = """
        #!lua name=kv
        redis.register_function('kv_set', function(keys, args) return redis.call('set', keys[1], args[1]) end)
        redis.register_function{function_name='kv_get', callback=function(keys) return redis.call('get', keys[1]) end,
          flags={'no-writes'}, description='reads a key'}
        """;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void lettucesFunctionsApiWorks(Target target) {
        String a = keyOnShard(target, "fn:api:a", 0);
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect();
             StatefulRedisConnection<byte[], byte[]> binary = Servers.client(target).connect(ByteArrayCodec.INSTANCE)) {
            RedisCommands<String, String> redis = connection.sync();
            redis.functionFlush(FlushMode.SYNC);
            assertEquals("kv", redis.functionLoad(LIBRARY));
            assertEquals("kv", redis.functionLoad(LIBRARY, true));
            assertEquals("OK", redis.fcall("kv_set", ScriptOutputType.STATUS, new String[] {a}, "v1"));
            assertEquals("v1", redis.fcall("kv_get", ScriptOutputType.VALUE, a));
            assertEquals("v1", redis.fcallReadOnly("kv_get", ScriptOutputType.VALUE, a));

            List<Map<String, Object>> libraries = redis.functionList();
            assertEquals(1, libraries.size());
            assertEquals("kv", libraries.get(0).get("library_name"));
            assertEquals("LUA", libraries.get(0).get("engine"));
            List<?> functions = (List<?>) libraries.get(0).get("functions");
            assertEquals(2, functions.size());
            assertEquals(LIBRARY, redis.functionList("k*").get(0).get("library_code") == null
                ? LIBRARY : redis.functionList("k*").get(0).get("library_code"));
            assertEquals(List.of(), redis.functionList("nomatch*"));

            byte[] dump = binary.sync().functionDump();
            assertEquals("OK", redis.functionFlush(FlushMode.ASYNC));
            assertEquals(List.of(), redis.functionList());
            assertEquals("OK", binary.sync().functionRestore(dump));
            assertEquals("v1", redis.fcall("kv_get", ScriptOutputType.VALUE, a));
            RedisCommandExecutionException collision = assertThrows(RedisCommandExecutionException.class,
                () -> binary.sync().functionRestore(dump));
            assertEquals("ERR Library kv already exists", collision.getMessage());
            assertEquals("OK", binary.sync().functionRestore(dump, FunctionRestoreMode.REPLACE));
            assertEquals("OK", binary.sync().functionRestore(dump, FunctionRestoreMode.FLUSH));
            assertEquals("OK", redis.functionFlush(FlushMode.SYNC));
            redis.del(a);
        }
    }

    /** Errors worded as redis-server 7.0.15 words them (checked against it). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void loadAndCallErrorsAreRedisOwn(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("$2\r\nkv\r\n", client.call("FUNCTION", "LOAD", LIBRARY));
            assertEquals("-ERR Library 'kv' already exists\r\n", client.call("FUNCTION", "LOAD", LIBRARY));
            assertEquals("-ERR Missing library metadata\r\n", client.call("FUNCTION", "LOAD", "return 1"));
            assertEquals("-ERR No functions registered\r\n", client.call("FUNCTION", "LOAD", "#!lua name=x\nreturn 1"));
            assertEquals("-ERR Function kv_set already exists\r\n", client.call("FUNCTION", "LOAD",
                "#!lua name=x2\nredis.register_function('kv_set', function() end)"));
            assertEquals("-ERR Error registering functions: ERR unknown flag given\r\n", client.call("FUNCTION", "LOAD",
                "#!lua name=x3\nredis.register_function{function_name='g', callback=function() end, flags={'bogus'}}"));
            assertEquals("-ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent "
                + "global variable 'call'\r\n", client.call("FUNCTION", "LOAD", "#!lua name=x3\nredis.call('ping')"));
            assertEquals("-ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent "
                + "global variable 'string'\r\n", client.call("FUNCTION", "LOAD", "#!lua name=x\nlocal s = string.format('a')"));
            assertEquals("-ERR Invalid metadata value given: foo=bar\r\n",
                client.call("FUNCTION", "LOAD", "#!lua name=x3 foo=bar\n"));
            String compile = client.call("FUNCTION", "LOAD", "#!lua name=x3\nsyntax error here");
            assertTrue(compile.startsWith("-ERR Error compiling function: user_function:2: '=' expected"), compile);
            assertEquals("-ERR Error registering functions: ERR Function already exists in the library\r\n",
                client.call("FUNCTION", "LOAD",
                    "#!lua name=x3\nredis.register_function('g', function() end) redis.register_function('g', function() end)"));
            assertEquals("-ERR Engine 'luax' not found\r\n", client.call("FUNCTION", "LOAD", "#!luax name=x3\n"));
            assertEquals("-ERR Library name was not given\r\n", client.call("FUNCTION", "LOAD", "#!lua\n"));

            assertEquals("$2\r\nfe\r\n", client.call("FUNCTION", "LOAD", """
                #!lua name=fe
                local function h(keys, args) return {keys[1], args[1], #keys, #args} end
                redis.register_function('echo2', h)
                redis.register_function('err', function() return redis.call('nosuch') end)
                redis.register_function('err2', function() error('boom') end)
                redis.register_function('glob', function() return KEYS end)
                redis.register_function{function_name='ro', callback=function(k) return redis.call('set', k[1], 'v') end, flags={'no-writes'}}
                """));
            assertEquals("*4\r\n$1\r\nk\r\n$1\r\na\r\n:1\r\n:1\r\n", client.call("FCALL", "echo2", "1", "k", "a"));
            assertEquals("-ERR Bad number of keys provided\r\n", client.call("FCALL", "echo2", "x"));
            assertEquals("-ERR Number of keys can't be greater than number of args\r\n", client.call("FCALL", "echo2", "3", "a"));
            assertEquals("-ERR Number of keys can't be negative\r\n", client.call("FCALL", "echo2", "-1"));
            assertEquals("-ERR Function not found\r\n", client.call("FCALL", "nosuch", "0"));
            assertEquals("-ERR Unknown Redis command called from script script: err, on @user_function:4.\r\n",
                client.call("FCALL", "err", "0"));
            assertEquals("-ERR user_function:5: boom script: err2, on @user_function:5.\r\n", client.call("FCALL", "err2", "0"));
            assertEquals("-ERR user_function:6: Script attempted to access nonexistent global variable 'KEYS' script: glob,"
                + " on @user_function:6.\r\n", client.call("FCALL", "glob", "0"));
            assertEquals("-ERR Write commands are not allowed from read-only scripts. script: ro, on @user_function:7.\r\n",
                client.call("FCALL", "ro", "1", "k"));
            assertEquals("-ERR Can not execute a script with write flag using *_ro command.\r\n",
                client.call("FCALL_RO", "echo2", "0"));
            assertEquals("-ERR Library not found\r\n", client.call("FUNCTION", "DELETE", "nosuch"));
            assertEquals("+OK\r\n", client.call("FUNCTION", "DELETE", "fe"));
            assertEquals("-ERR Function not found\r\n", client.call("FCALL", "echo2", "0"));
            assertEquals("-ERR FUNCTION FLUSH only supports SYNC|ASYNC option\r\n", client.call("FUNCTION", "FLUSH", "bad"));
            assertEquals("-ERR DUMP payload version or checksum are wrong\r\n", client.call("FUNCTION", "RESTORE", "bad"));
            assertEquals("-ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.\r\n",
                client.call("FUNCTION", "RESTORE", "x", "y"));
            assertEquals("-ERR library name argument was not given\r\n", client.call("FUNCTION", "LIST", "LIBRARYNAME"));
            assertEquals("-ERR Unknown argument x\r\n", client.call("FUNCTION", "LIST", "x"));
            assertEquals("-NOTBUSY No scripts in execution right now.\r\n", client.call("FUNCTION", "KILL"));
            assertEquals("*4\r\n$14\r\nrunning_script\r\n$-1\r\n$7\r\nengines\r\n*2\r\n$3\r\nLUA\r\n*4\r\n"
                + "$15\r\nlibraries_count\r\n:1\r\n$15\r\nfunctions_count\r\n:2\r\n", client.call("FUNCTION", "STATS"));
            String dump = client.call("FUNCTION", "RESTORE", "x", "flush", "extra");
            assertEquals("-ERR unknown subcommand or wrong number of arguments for 'RESTORE'. Try FUNCTION HELP.\r\n", dump);
        }
    }

    /** Functions queued in MULTI run in EXEC, their errors there (as redis-server 7.0.15's); a load past 500 ms fails. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void functionsRunInsideMultiAcrossShardsAndALoadPastItsLimitFails(Target target) {
        String a = keyOnShard(target, "fn:multi:a", 0);
        String b = keyOnShard(target, "fn:multi:b", 1);
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            client.call("FUNCTION", "DELETE", "inc");
            assertEquals("$3\r\ninc\r\n", client.call("FUNCTION", "LOAD",
                "#!lua name=inc\nredis.register_function('incr_fn', function(keys) return redis.call('incr', keys[1]) end)"));
            client.call("DEL", a, b);
            assertEquals("+OK\r\n", client.call("MULTI"));
            assertEquals("+QUEUED\r\n", client.call("FCALL", "incr_fn", "1", a));
            assertEquals("+QUEUED\r\n", client.call("FCALL", "incr_fn", "1", b));
            assertEquals("+QUEUED\r\n", client.call("FCALL_RO", "incr_fn", "1", a));
            assertEquals("+QUEUED\r\n", client.call("FCALL", "nosuch", "0"));
            assertEquals("*4\r\n:1\r\n:1\r\n-ERR Can not execute a script with write flag using *_ro command.\r\n"
                + "-ERR Function not found\r\n", client.call("EXEC"));
            assertEquals("-ERR Error registering functions: ERR FUNCTION LOAD timeout\r\n", client.call("FUNCTION", "LOAD",
                "#!lua name=slow\nlocal i = 0 while true do i = i + 1 end"));
            assertEquals("+OK\r\n", client.call("FUNCTION", "DELETE", "inc"));
            client.call("DEL", a, b);
        }
    }

    /** A function writing a key on each shard is seen whole or not at all by a reader of both. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aReaderNeverSeesHalfOfAFunctionWritingTwoShards(Target target) throws Exception {
        assertNoHalfWrites(target, "declared", 2);
    }

    /** The same when the function reaches the second key through its arguments, not its keys. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aFunctionWritingAnUndeclaredKeyOnAnotherShardStaysAtomic(Target target) throws Exception {
        assertNoHalfWrites(target, "undeclared", 1);
    }

    private static void assertNoHalfWrites(Target target, String name, int numKeys) throws Exception {
        String a = keyOnShard(target, "fn:" + name + ":a", 0);
        String b = keyOnShard(target, "fn:" + name + ":b", 1);
        String library = "#!lua name=two_" + name + "\nredis.register_function('two_" + name + "', function(keys, args) "
            + "redis.call('set', keys[1], args[1]) redis.call('set', keys[2] or args[2], args[1]) end)";
        int port = Servers.server(target).port();
        try (RespClient setup = RespClient.connect(port)) {
            setup.call("FUNCTION", "DELETE", "two_" + name);
            assertEquals("$" + (4 + name.length()) + "\r\ntwo_" + name + "\r\n", setup.call("FUNCTION", "LOAD", library));
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
                        String reply = numKeys == 2 ? client.call("FCALL", "two_" + name, "2", a, b, value)
                            : client.call("FCALL", "two_" + name, "1", a, value, b);
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
                        assertEquals(values.get(0), values.get(1), "half of a function seen");
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
            client.call("FUNCTION", "DELETE", "two_" + name);
        }
    }

    /**
     * Past busy-reply-threshold, other clients get BUSY naming FUNCTION KILL, SCRIPT KILL is refused
     * and FUNCTION KILL stops a function that has not written. The function's worker thread reads
     * nothing while it runs, so of two clients the one on the other thread answers.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aBusyFunctionMakesOthersWaitAndFunctionKillStopsIt(Target target) throws Exception {
        String busy = "-BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.\r\n";
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (LacewingServer server = Servers.builder(target).set("busy-reply-threshold", "100").start();
             RespClient function = RespClient.connect(server.port());
             RespClient first = RespClient.connect(server.port());
             RespClient second = RespClient.connect(server.port())) {
            assertEquals("$4\r\nloop\r\n", function.call("FUNCTION", "LOAD",
                "#!lua name=loop\nredis.register_function('loop', function() local i = 0 while true do i = i + 1 end end)"));
            function.send(RespClient.encode(RespClient.toBytes("FCALL", "loop", "0")));
            Thread.sleep(400);
            RespClient other = answering(pool, first, second, "PING");
            assertEquals(busy, other.readReplyText());
            String stats = other.call("FUNCTION", "STATS");
            assertTrue(stats.startsWith("*4\r\n$14\r\nrunning_script\r\n*6\r\n$4\r\nname\r\n$4\r\nloop\r\n$7\r\ncommand\r\n"
                + "*3\r\n$5\r\nFCALL\r\n$4\r\nloop\r\n$1\r\n0\r\n$11\r\nduration_ms\r\n:"), stats);
            assertEquals(busy, other.call("SCRIPT", "KILL"));
            assertEquals("+OK\r\n", other.call("FUNCTION", "KILL"));
            assertEquals("-ERR Script killed by user with SCRIPT KILL... script: loop, on @user_function:2.\r\n",
                function.readReplyText());
            assertEquals("-NOTBUSY No scripts in execution right now.\r\n", other.call("FUNCTION", "KILL"));
            RespClient stuck = other == first ? second : first;
            assertEquals("+PONG\r\n", stuck.readReplyText());
        } finally {
            pool.shutdownNow();
        }
    }

    private static RespClient answering(ExecutorService pool, RespClient first, RespClient second, String command)
        throws Exception {
        first.send(RespClient.encode(RespClient.toBytes(command)));
        second.send(RespClient.encode(RespClient.toBytes(command)));
        Future<Boolean> firstReady = pool.submit(() -> first.available(10_000));
        Future<Boolean> secondReady = pool.submit(() -> second.available(10_000));
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
        throw new AssertionError("neither client was answered");
    }
}
