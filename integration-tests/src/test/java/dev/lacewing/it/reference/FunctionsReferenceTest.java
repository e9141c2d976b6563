package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * FUNCTION and FCALL byte for byte against redis-server 7.0 in RESP2 and RESP3, on every target:
 * the shebang and registration errors, both forms of redis.register_function and its flags, the
 * load sandbox, calls with keys and arguments, errors naming the function and its line, FCALL_RO,
 * FUNCTION LIST (one function per library: Redis lists a dictionary's order), STATS, DUMP (the
 * payload's bytes), RESTORE's policies, DELETE and FLUSH. luaj's errors lack Lua's "near '...'" and
 * the name of a nil called ("attempt to call field 'x' (a nil value)"), so neither is in the corpus
 * (FunctionCommandsTest checks the start of a compile error).
 */
class FunctionsReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final String COMMON = """
        FUNCTION FLUSH
        FUNCTION LOAD "#!lua name=kv\\nredis.register_function('kv_set', function(keys, args) return redis.call('set', keys[1], args[1]) end)"
        FUNCTION LOAD "#!lua name=kv\\nredis.register_function('kv_set', function() end)"
        FUNCTION LOAD REPLACE "#!lua name=kv\\nredis.register_function('kv_set', function(keys, args) return redis.call('set', keys[1], args[1]) end)"
        FUNCTION LOAD "#!lua name=kvro\\nredis.register_function{function_name='kv_get', callback=function(keys) return redis.call('get', keys[1]) end, flags={'no-writes'}, description='reads'}"
        FUNCTION LOAD "#!lua name=oom\\nredis.register_function{function_name='f_oom', callback=function() return 1 end, flags={'allow-oom','allow-stale','no-cluster','allow-cross-slot-keys'}}"
        FUNCTION LOAD "#!LUA name=up\\nredis.register_function('f_up', function(keys, args) return {#keys, #args, keys[1], args[1], args[2]} end)"
        FCALL kv_set 1 {p}a 1
        FCALL kv_get 1 {p}a
        FCALL_RO kv_get 1 {p}a
        FCALL_RO kv_set 1 {p}a 2
        FCALL f_oom 0
        FCALL f_up 0
        FCALL f_up 1 {p}k v w
        FCALL f_up 2 {p}k {p}l
        FCALL f_up x
        FCALL f_up -1
        FCALL f_up 3 {p}a
        FCALL nosuch 0
        FCALL
        FCALL_RO nosuch 0
        FUNCTION LIST LIBRARYNAME kv
        FUNCTION LIST LIBRARYNAME KVR* WITHCODE
        FUNCTION LIST WITHCODE LIBRARYNAME oom
        FUNCTION LIST LIBRARYNAME nomatch
        FUNCTION LIST LIBRARYNAME
        FUNCTION LIST WITHCODE WITHCODE
        FUNCTION LIST bad
        FUNCTION STATS
        FUNCTION STATS x
        FUNCTION KILL
        FUNCTION DELETE up
        FUNCTION DELETE up
        FUNCTION DELETE
        FCALL f_up 0
        FUNCTION FLUSH bad
        FUNCTION FLUSH ASYNC
        FUNCTION LIST
        FUNCTION LOAD "return 1"
        FUNCTION LOAD "#!lua name=x"
        FUNCTION LOAD "#!lua name=x\\nreturn 1"
        FUNCTION LOAD "#!lua\\nreturn 1"
        FUNCTION LOAD "#!lua name=x foo=bar\\n"
        FUNCTION LOAD "#!lua name=a name=b\\n"
        FUNCTION LOAD "#!lua name=b-c\\n"
        FUNCTION LOAD "#!lua name=\\n"
        FUNCTION LOAD "#!luax name=x\\n"
        FUNCTION LOAD BAD "#!lua name=x\\n"
        FUNCTION LOAD
        FUNCTION LOAD "#!lua name=x\\nredis.register_function('a b', function() end)"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function('g')"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function()"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function(1, 2)"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function({1}, 2)"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function('g', 'nope')"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function{function_name='g', callback=function() end, foo=1}"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function{function_name='g'}"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function{callback=function() end}"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function{function_name=1, callback=function() end}"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function{function_name='g', callback=1}"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function{function_name='g', callback=function() end, flags='no-writes'}"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function{function_name='g', callback=function() end, flags={'bogus'}}"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function{function_name='g', callback=function() end, description=1}"
        FUNCTION LOAD "#!lua name=x\\nredis.register_function('g', function() end) redis.register_function('g', function() end)"
        FUNCTION LOAD "#!lua name=x\\nredis.call('ping')"
        FUNCTION LOAD "#!lua name=x\\nlocal s = string.format('a')"
        FUNCTION LOAD "#!lua name=x\\nerror('boom')"
        FUNCTION LOAD "#!lua name=x\\nerror({err='MY boom'})"
        FUNCTION LOAD "#!lua name=x\\nx = 1"
        FUNCTION LOAD "#!lua name=x\\nredis.log(redis.LOG_WARNING, 'loading') redis.register_function('g', function() return redis.REDIS_VERSION end)"
        FCALL g 0
        FUNCTION LOAD "#!lua name=errs\\nredis.register_function('e1', function() return redis.call('nosuch') end)"
        FUNCTION LOAD "#!lua name=errs2\\nredis.register_function('e2', function()\\n error('boom')\\nend)"
        FUNCTION LOAD "#!lua name=errs3\\nredis.register_function('e3', function() return KEYS end)"
        FUNCTION LOAD "#!lua name=errs4\\nredis.register_function{function_name='e4', callback=function(k) return redis.call('set', k[1], 'v') end, flags={'no-writes'}}"
        FUNCTION LOAD "#!lua name=errs5\\nredis.register_function('e5', function() return redis.pcall('nosuch') end)"
        FUNCTION LOAD "#!lua name=errs7\\nredis.register_function('e7', function() redis.setresp(3) return redis.call('hgetall', 'nokey') end)"
        FCALL e1 0
        FCALL e2 0
        FCALL e3 0
        FCALL e4 1 {p}a
        FCALL e5 0
        FCALL e7 0
        FUNCTION LOAD "#!lua name=errs8\\nredis.register_function('e1', function() end)"
        FUNCTION FLUSH
        FUNCTION LOAD "#!lua name=dumped\\nredis.register_function('dumped_fn', function(keys, args) return 'a function with a body long enough to compress' end)"
        FUNCTION DUMP
        FUNCTION RESTORE bad
        FUNCTION RESTORE bad bad
        FUNCTION RESTORE bad FLUSH extra
        FUNCTION FLUSH SYNC
        FUNCTION DUMP
        COMMAND INFO fcall
        COMMAND INFO fcall_ro
        COMMAND INFO eval_ro
        COMMAND INFO evalsha_ro
        DEL {p}a {p}k {p}l
        """;

    static final List<String[]> SCRIPTS = List.of(
        new String[] {"functions-resp2", COMMON},
        new String[] {"functions-resp3", "HELLO 3\n" + COMMON});

    static Stream<Arguments> scripts() {
        return Servers.all().flatMap(target -> SCRIPTS.stream().map(s -> Arguments.of(target, s[0], s[1])));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void repliesAsRedisDoes(Target target, String name, String text) {
        Script script = Script.parse(name, text, "function:" + RUNS.incrementAndGet() + ":");
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            List<String> mismatches = ScriptComparison.mismatches(script, reference, lacewing);
            assertTrue(mismatches.isEmpty(), () -> ScriptComparison.report(mismatches));
        }
    }
}
