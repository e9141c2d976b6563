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
 * EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT, byte for byte against redis-server 7.0 in RESP2
 * and RESP3, on every target: Lua values to replies and replies to Lua values (numbers truncated,
 * false as nil, tables to the first nil, err/ok/double/map/set/big_number/verbatim tables),
 * redis.call and redis.pcall errors, the sandbox's errors, shebang flags, read-only scripts and the
 * numkeys errors, and the cjson, cmsgpack, struct and bit libraries as scripts reach them. Known differences are left out and listed in the scripting tests: luaj's compile
 * errors lack Lua's "near '<eof>'", and luaj writes non-integer numbers its own way when concatenated.
 */
class ScriptingReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final String COMMON = """
        SET {p}s abc
        EVAL "return 1" 0
        EVAL "return 'x'" 0
        EVAL "return ARGV[1]..KEYS[1]" 1 {p}k v
        EVAL "return {1,2,3.7,'a',false,nil,5}" 0
        EVAL "return {1,{2,{3,'x'}},{err='E in'}}" 0
        EVAL "return {1,true,false,nil}" 0
        EVAL "return true" 0
        EVAL "return false" 0
        EVAL "return nil" 0
        EVAL "return -3.9" 0
        EVAL "return 3.99" 0
        EVAL "return 1e20" 0
        EVAL "return 1/0" 0
        EVAL "return {}" 0
        EVAL "return {a=1}" 0
        EVAL "local t = {} t[1]=1 t[3]=3 return t" 0
        EVAL "return {err='bar'}" 0
        EVAL "return {err='-bar'}" 0
        EVAL "return {ok='fine'}" 0
        EVAL "return redis.error_reply('bar')" 0
        EVAL "return redis.error_reply('FOO bar')" 0
        EVAL "return redis.error_reply()" 0
        EVAL "return redis.status_reply('fine')" 0
        EVAL "return redis.status_reply()" 0
        EVAL "return {double=3.5}" 0
        EVAL "return {map={a=1}}" 0
        EVAL "return {set={a=true}}" 0
        EVAL "return {big_number='123'}" 0
        EVAL "return {verbatim_string={format='txt',string='abc'}}" 0
        EVAL "return redis.call('set',KEYS[1],ARGV[1])" 1 {p}a 1
        EVAL "return redis.call('get',KEYS[1])" 1 {p}a
        EVAL "return redis.call('get',KEYS[1])" 1 {p}none
        EVAL "return tostring(redis.call('get',KEYS[1]))" 1 {p}none
        EVAL "return redis.call('hgetall',KEYS[1])" 1 {p}none
        EVAL "return redis.call('set',KEYS[1],'v')['ok']" 1 {p}a
        EVAL "return redis.call('incr',KEYS[1])" 1 {p}s
        EVAL "return redis.pcall('incr',KEYS[1])" 1 {p}s
        EVAL "return redis.pcall('incr',KEYS[1])['err']" 1 {p}s
        EVAL "return redis.call('nosuch')" 0
        EVAL "return redis.pcall('nosuch')" 0
        EVAL "return redis.call('get')" 0
        EVAL "return redis.pcall('get')" 0
        EVAL "return redis.call()" 0
        EVAL "return redis.call('get',{})" 0
        EVAL "return redis.call('multi')" 0
        EVAL "return redis.call('eval','return 1','0')" 0
        EVAL "return redis.call('ping')" 0
        EVAL "return redis.sha1hex('')" 0
        EVAL "return redis.sha1hex()" 0
        EVAL "return redis.breakpoint()" 0
        EVAL "return redis.debug('x')" 0
        EVAL "return redis.log(redis.LOG_WARNING,'hi')" 0
        EVAL "return redis.log(99,'x')" 0
        EVAL "return redis.log(1)" 0
        EVAL "return {redis.LOG_DEBUG,redis.LOG_VERBOSE,redis.LOG_NOTICE,redis.LOG_WARNING,redis.REPL_NONE,redis.REPL_AOF,redis.REPL_SLAVE,redis.REPL_REPLICA,redis.REPL_ALL}" 0
        EVAL "return redis.set_repl(redis.REPL_ALL)" 0
        EVAL "return redis.set_repl(99)" 0
        EVAL "return redis.replicate_commands()" 0
        EVAL "return redis.setresp(4)" 0
        EVAL "return redis.setresp()" 0
        EVAL "redis.setresp(3) return redis.call('hgetall',KEYS[1])" 1 {p}none
        EVAL "redis.setresp(3) return redis.call('get',KEYS[1])" 1 {p}none
        EVAL "redis.setresp(3) return type(redis.call('get',KEYS[1]))" 1 {p}none
        EVAL "redis.setresp(2) return type(redis.call('get',KEYS[1]))" 1 {p}none
        EVAL "redis.setresp(3) return true" 0
        EVAL "redis.setresp(3) return false" 0
        EVAL "return x" 0
        EVAL "x=1" 0
        EVAL "string.x=1" 0
        EVAL "redis.x=1" 0
        EVAL "return print" 0
        EVAL "return os" 0
        EVAL "return loadfile" 0
        EVAL "return dofile" 0
        EVAL "return require" 0
        EVAL "return getfenv" 0
        EVAL "return debug" 0
        EVAL "error('boom')" 0
        EVAL "error({err='MY boom'})" 0
        EVAL "error(12)" 0
        EVAL "error()" 0
        EVAL "local function f()\\n error('deep')\\nend\\nf()" 0
        EVAL "\\nlocal x = 1\\nreturn redis.call('nosuch')" 0
        EVAL "return pcall(error,'x')" 0
        EVAL "local ok, e = pcall(function() error('x') end) return e" 0
        EVAL "local ok, e = pcall(function() error({err='x'}) end) return type(e)" 0
        EVAL "local ok, e = pcall(function() return redis.call('nosuch') end) return e" 0
        EVAL "return tostring(1/3)" 0
        EVAL "return tostring(1e20)" 0
        EVAL "local ok, e = pcall(function() return redis.call('nosuch') end) return e['err']" 0
        EVAL "return _VERSION" 0
        EVAL "math.randomseed(7) return {math.random(100), math.random(5,10), math.random(-3,-3), tostring(math.random())}" 0
        EVAL "math.randomseed('12') return math.random(2147483647)" 0
        EVAL "return math.random(1,2,3)" 0
        EVAL "return math.random(5,1)" 0
        EVAL "return math.random(0)" 0
        EVAL "return math.random('x')" 0
        EVAL "return math.randomseed()" 0
        EVAL "return {type(loadstring),type(unpack),type(coroutine),type(rawset),type(setmetatable)}" 0
        EVAL "return redis.REDIS_VERSION" 0
        EVAL "#!lua\\nerror('x')" 0
        EVAL "#!lua flags=no-writes\\nreturn redis.call('set',KEYS[1],'1')" 1 {p}a
        EVAL "#!lua flags=no-writes,allow-oom\\nreturn 1" 0
        EVAL "#!lua flags=bad\\nreturn 1" 0
        EVAL "#!lua name=x\\nreturn 1" 0
        EVAL "#!luax\\nreturn 1" 0
        EVAL "#!lua" 0
        EVAL "#!lua\\nreturn redis.call('get',KEYS[1])" 1 {p}a
        EVAL_RO "return redis.call('set',KEYS[1],'1')" 1 {p}a
        EVAL_RO "return redis.pcall('set',KEYS[1],'1')" 1 {p}a
        EVAL_RO "return redis.call('get',KEYS[1])" 1 {p}a
        EVAL_RO "#!lua\\nreturn 1" 0
        EVAL_RO "#!lua flags=no-writes\\nreturn 1" 0
        EVAL "return 1" -1
        EVAL "return 1" 2 {p}a
        EVAL "return 1" abc
        EVAL "return 1"
        EVAL
        EVALSHA ffffffffffffffffffffffffffffffffffffffff 0
        EVALSHA abc 0
        EVALSHA abc -1
        EVALSHA abc 5
        EVALSHA_RO abc x
        EVALSHA ffffffffffffffffffffffffffffffffffffffff 5
        SCRIPT LOAD "return 'loaded'"
        EVALSHA 1c6b3f8b9e0a6dd0c0b5c4f3f0b5a0a3c4c5b2a1 0
        SCRIPT LOAD "return 'sha'..ARGV[1]"
        SCRIPT EXISTS e0e1f9fabfc9d4800c877a703b823ac0578ff8db ab
        EVAL "return 1" 0
        SCRIPT EXISTS e0e1f9fabfc9d4800c877a703b823ac0578ff8db
        EVALSHA e0e1f9fabfc9d4800c877a703b823ac0578ff8db 0
        EVALSHA E0E1F9FABFC9D4800C877A703B823AC0578FF8DB 0
        EVALSHA_RO e0e1f9fabfc9d4800c877a703b823ac0578ff8db 0
        SCRIPT FLUSH x
        SCRIPT KILL
        SCRIPT FOO
        SCRIPT
        MULTI
        EVAL "return redis.call('incr',KEYS[1])" 1 {p}m
        EVAL "return redis.call('incr',KEYS[1])" 1 {p}m
        EXEC
        EVAL "return cjson.encode({1,2,'x',{a=false}})" 0
        EVAL "return cjson.decode(ARGV[1])[3]" 0 "[1,2,\\"x\\"]"
        EVAL "return cmsgpack.unpack(cmsgpack.pack({1,2,3}))" 0
        EVAL "return struct.pack('>I2',258)" 0
        EVAL "return {struct.unpack('<i4',ARGV[1])}" 0 "\\x01\\x00\\x00\\x00"
        EVAL "return bit.tohex(bit.bxor(0xff,0x0f))" 0
        EVAL "return bit.band(-1,0xffffffff)" 0
        EVAL "cjson.foo = 1" 0
        EVAL "return type(cjson.null)" 0
        EVAL "return cjson.decode('[null]')[1] == cjson.null" 0
        DEL {p}s {p}a {p}m
        """;

    static final List<String[]> SCRIPTS = List.of(
        new String[] {"scripting-resp2", COMMON},
        new String[] {"scripting-resp3", "HELLO 3\n" + COMMON});

    static Stream<Arguments> scripts() {
        return Servers.all().flatMap(target -> SCRIPTS.stream().map(s -> Arguments.of(target, s[0], s[1])));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void repliesAsRedisDoes(Target target, String name, String text) {
        Script script = Script.parse(name, text, "script:" + RUNS.incrementAndGet() + ":");
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            List<String> mismatches = ScriptComparison.mismatches(script, reference, lacewing);
            assertTrue(mismatches.isEmpty(), () -> ScriptComparison.report(mismatches));
        }
    }
}
