package dev.lacewing.script.lua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.ScriptHost;
import dev.lacewing.script.lua.lib.RedisRandom;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.luaj.vm2.LuaThread;

/**
 * Runtimes on different threads run Lua at the same time, each with its own call stack, and share
 * one math.random sequence. Every wait is bounded: a runtime that serialized Lua across threads
 * makes the first test fail after its bound instead of hanging.
 */
class LuaRuntimeThreadsTest {

    private static final long BOUND_SECONDS = 10;

    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void pluginCarriesItsOwnLuaThread() {
        assertEquals(LuaRuntime.class.getProtectionDomain().getCodeSource().getLocation(),
            LuaThread.class.getProtectionDomain().getCodeSource().getLocation());
    }

    @Test
    void scriptOnOneThreadRunsWhileAnotherThreadsScriptIsInsideRedisCall() throws Exception {
        RedisRandom random = new RedisRandom();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch released = new CountDownLatch(1);
        Future<String> waiting = threads.submit(() -> run(new LuaRuntime(random),
            "local before = 'a'\nlocal reply = redis.call('wait')\nerror(before .. reply.ok)", argv -> {
                entered.countDown();
                try {
                    return released.await(BOUND_SECONDS, TimeUnit.SECONDS) ? "+released\r\n" : "+timed out\r\n";
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return "+interrupted\r\n";
                }
            }));
        assertTrue(entered.await(BOUND_SECONDS, TimeUnit.SECONDS), "the first script reached redis.call");
        Future<String> releasing = threads.submit(() -> run(new LuaRuntime(random),
            "local n = 0\nfor i = 1, 10 do n = n + i end\nredis.call('release')\nreturn n", argv -> {
                released.countDown();
                return "+OK\r\n";
            }));
        assertEquals("integer(55)", releasing.get(2 * BOUND_SECONDS, TimeUnit.SECONDS));
        assertEquals("error(ERR user_script:3: areleased script: test, on @user_script:3.)",
            waiting.get(2 * BOUND_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void coroutinesRunOnEveryThread() throws Exception {
        RedisRandom random = new RedisRandom();
        String script = "local co = coroutine.create(function(a) local b = coroutine.yield(a + 1) return b * 2 end)\n"
            + "local _, x = coroutine.resume(co, 1)\nlocal _, y = coroutine.resume(co, 10)\n"
            + "return {x, y, coroutine.status(co), coroutine.running() == nil and 'main' or 'other'}";
        List<Future<String>> runs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            runs.add(threads.submit(() -> run(new LuaRuntime(random), script, argv -> "+OK\r\n")));
        }
        for (Future<String> run : runs) {
            assertEquals("array(4) integer(2) integer(20) bulk(dead) bulk(main)", run.get(BOUND_SECONDS, TimeUnit.SECONDS));
        }
    }

    @Test
    void threadsDrawFromTheOneRandomSequence() throws Exception {
        int draws = 200;
        RedisRandom shared = new RedisRandom();
        String script = "return math.random(1000000000)";
        List<Future<List<String>>> runs = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            runs.add(threads.submit(() -> {
                LuaRuntime runtime = new LuaRuntime(shared);
                List<String> replies = new ArrayList<>();
                for (int i = 0; i < draws; i++) {
                    replies.add(run(runtime, script, argv -> "+OK\r\n"));
                }
                return replies;
            }));
        }
        List<String> drawn = new ArrayList<>();
        for (Future<List<String>> run : runs) {
            drawn.addAll(run.get(BOUND_SECONDS, TimeUnit.SECONDS));
        }
        LuaRuntime alone = new LuaRuntime(new RedisRandom());
        List<String> sequence = new ArrayList<>();
        for (int i = 0; i < 2 * draws; i++) {
            sequence.add(run(alone, script, argv -> "+OK\r\n"));
        }
        Collections.sort(drawn);
        Collections.sort(sequence);
        assertEquals(sequence, drawn);
        assertTrue(sequence.stream().distinct().count() > draws, "the draws differ");
    }

    /** Runs {@code body} as script "test" with no keys; {@code call} answers redis.call with RESP. */
    private static String run(LuaRuntime runtime, String body, Function<byte[][], String> call) {
        StringBuilder reply = new StringBuilder();
        runtime.run("test", body.getBytes(StandardCharsets.UTF_8), host(call), recorder(reply));
        return reply.toString().trim();
    }

    private static ScriptHost host(Function<byte[][], String> call) {
        return new ScriptHost() {
            @Override
            public Arguments arguments() {
                return new Arguments() {
                    @Override
                    public int count() {
                        return 0;
                    }

                    @Override
                    public byte[] array() {
                        return new byte[0];
                    }

                    @Override
                    public int offset(int index) {
                        return 0;
                    }

                    @Override
                    public int length(int index) {
                        return 0;
                    }
                };
            }

            @Override
            public int firstKey() {
                return 0;
            }

            @Override
            public int keyCount() {
                return 0;
            }

            @Override
            public byte[] call(byte[][] argv, int protocol, boolean raiseErrors) {
                return call.apply(argv).getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public boolean checkpoint() {
                return false;
            }

            @Override
            public void log(int level, String message) {
            }
        };
    }

    /** A ReplyWriter that appends each call as {@code name(args)}, byte arrays as text. */
    private static ReplyWriter recorder(StringBuilder out) {
        return (ReplyWriter) Proxy.newProxyInstance(ReplyWriter.class.getClassLoader(), new Class<?>[] {ReplyWriter.class},
            (proxy, method, args) -> {
                if (method.getName().equals("protocol")) {
                    return 2;
                }
                StringBuilder call = new StringBuilder(method.getName()).append('(');
                if (args != null && args.length > 0) {
                    call.append(args[0] instanceof byte[] bytes
                        ? new String(bytes, args.length == 3 ? (Integer) args[1] : 0,
                            args.length == 3 ? (Integer) args[2] : bytes.length, StandardCharsets.UTF_8)
                        : String.valueOf(args[0]));
                }
                out.append(call).append(") ");
                return null;
            });
    }
}
