package dev.lacewing.it.reference;


import dev.lacewing.it.server.Target;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hash and set families byte for byte against Debian's redis-server 7.0, in RESP2 and RESP3.
 * Scripts stay where Redis's replies are deterministic: listpack hashes (insertion order), intsets
 * (ascending order), set algebra whose results are intsets, random commands asked for the whole
 * aggregate or nothing, and every error.
 */
class HashSetReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final String HASHES = """
        HSET {p}h a 1 b 2 c 3
        HSET {p}h a x d 4
        HGETALL {p}h
        HKEYS {p}h
        HVALS {p}h
        HMGET {p}h a nofield b
        HMGET {p}none a
        HGET {p}h nofield
        HLEN {p}h
        HSTRLEN {p}h d
        HEXISTS {p}h a
        HSETNX {p}h a y
        HSETNX {p}h e 5
        HMSET {p}h f 6
        HSET {p}h a
        HMSET {p}h a
        HDEL {p}h a nofield b
        HGETALL {p}h
        HINCRBY {p}h c 10
        HINCRBY {p}h c x
        HINCRBY {p}h new -5
        HSET {p}h s abc big 9223372036854775807 fl 1.5 inf inf
        HINCRBY {p}h s 1
        HINCRBY {p}h big 1
        HINCRBYFLOAT {p}h fl 0.1
        HINCRBYFLOAT {p}h fl 1e3
        HINCRBYFLOAT {p}h fl x
        HINCRBYFLOAT {p}h fl inf
        HINCRBYFLOAT {p}h s 1
        HINCRBYFLOAT {p}h inf 1
        HINCRBYFLOAT {p}h newfloat 3.0e2
        HRANDFIELD {p}none
        HRANDFIELD {p}none 3
        HRANDFIELD {p}none 3 WITHVALUES
        HRANDFIELD {p}h 0
        HRANDFIELD {p}h 100
        HRANDFIELD {p}h 100 WITHVALUES
        HRANDFIELD {p}h x
        HRANDFIELD {p}h 1 foo
        HRANDFIELD {p}h 1 WITHVALUES x
        HRANDFIELD {p}h -9223372036854775808
        HRANDFIELD {p}h 9223372036854775807 WITHVALUES
        HSCAN {p}h 0
        HSCAN {p}h 0 MATCH f* COUNT 100
        HSCAN {p}h 0 COUNT 0
        HSCAN {p}h 0 NOVALUES
        HSCAN {p}h x
        HSCAN {p}none 0 COUNT 0
        HSET {p}bin "\\x00\\r\\n" "\\xff\\x00"
        HGETALL {p}bin
        SET {p}str v
        HSET {p}str a 1
        HGET {p}str a
        HGETALL {p}str
        HSCAN {p}str 0
        HSCAN {p}str x
        HSCAN {p}str 0 COUNT 0
        HSCAN {p}none 0 FOO
        HSCAN {p}h 0 COUNT x MATCH
        HRANDFIELD {p}str
        HDEL {p}h c d e f s big fl inf new newfloat
        EXISTS {p}h
        """;

    private static final String SETS = """
        SADD {p}a 5 1 3 -2 100000 9223372036854775807
        SADD {p}a 1
        SMEMBERS {p}a
        SADD {p}b 3 4 5 6
        SADD {p}c 5 x
        SISMEMBER {p}a 3
        SISMEMBER {p}a 03
        SMISMEMBER {p}a 1 2 3
        SMISMEMBER {p}none 1
        SCARD {p}a
        SINTER {p}a {p}b
        SINTER {p}a {p}none {p}str
        SINTER {p}none
        SUNION {p}a {p}b {p}none
        SDIFF {p}a {p}b
        SDIFF {p}a {p}a
        SDIFF {p}none {p}a
        SINTERSTORE {p}d {p}a {p}b
        SMEMBERS {p}d
        SINTERSTORE {p}d {p}a {p}none
        EXISTS {p}d
        SUNIONSTORE {p}d {p}a {p}b
        SMEMBERS {p}d
        SDIFFSTORE {p}d {p}a {p}b
        SMEMBERS {p}d
        SINTERCARD 2 {p}a {p}b
        SINTERCARD 2 {p}a {p}b LIMIT 1
        SINTERCARD 2 {p}a {p}none
        SINTERCARD 0 {p}a
        SINTERCARD x {p}a
        SINTERCARD 3 {p}a {p}b
        SINTERCARD 1 {p}a LIMIT -1
        SINTERCARD 1 {p}a LIMIT
        SINTERCARD 1 {p}a foo 1
        SMOVE {p}a {p}a 3
        SMOVE {p}a {p}a 42
        SMOVE {p}none {p}a 3
        SMOVE {p}a {p}e 3
        SMEMBERS {p}e
        SMOVE {p}a {p}str 1
        SRANDMEMBER {p}none
        SRANDMEMBER {p}none 3
        SRANDMEMBER {p}a 0
        SRANDMEMBER {p}a 100
        SRANDMEMBER {p}a x
        SRANDMEMBER {p}a 1 2
        SRANDMEMBER {p}a -9223372036854775808
        SPOP {p}none
        SPOP {p}none 2
        SPOP {p}a 0
        SPOP {p}a -1
        SPOP {p}a x
        SPOP {p}a 1 2
        SSCAN {p}a 0
        SSCAN {p}a 0 MATCH 1* COUNT 5
        SSCAN {p}a 0 TYPE set
        SSCAN {p}a 0 COUNT 0
        SSCAN {p}none 0
        SSCAN {p}none x
        SSCAN {p}none 0 MATCH
        SET {p}str v
        SADD {p}str a
        SSCAN {p}str 0 FOO
        SSCAN {p}str 18446744073709551616
        SMEMBERS {p}str
        SINTER {p}str {p}none
        SUNION {p}none {p}str
        SINTERCARD 1 {p}str
        SPOP {p}a 100
        EXISTS {p}a
        SREM {p}b 3 4 nothing
        SREM {p}b 5 6
        EXISTS {p}b
        """;

    static Stream<Arguments> scripts() {
        List<String[]> scripts = List.of(
            new String[] {"hashes resp2", HASHES},
            new String[] {"hashes resp3", "HELLO 3\n" + HASHES},
            new String[] {"sets resp2", SETS},
            new String[] {"sets resp3", "HELLO 3\n" + SETS});
        return ScriptComparison.onEveryTarget(scripts);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void repliesAsRedisDoes(Target target, String name, String text) {
        Script script = Script.parse(name, text, "hs" + RUNS.incrementAndGet() + ":");
        ScriptComparison.assertSameReplies(script, redis.port(), target);
    }
}
