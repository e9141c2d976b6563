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
 * SORT and SORT_RO on lists, sets and sorted sets, and the blocking sorted-set pops where they need
 * not wait (served at once, timed out after a few milliseconds, or refused), byte for byte against
 * redis-server 7.0, in RESP2 and RESP3, on every target. The keys carry no hash tag, so BY and GET
 * patterns and STORE destinations land on other shards than the sorted key. Only orders Redis
 * makes deterministic are compared: a hash-table set is never read with BY nosort unless stored
 * (then Redis sorts it ALPHA), and ALPHA ties by a BY pattern occur only on lists and without a
 * LIMIT (ties under a LIMIT, in Redis's pqsort order, are {@link SortTiesReferenceTest}'s). ALPHA values with NUL and non-ASCII bytes check the
 * collation of the redis-server these tests start, which inherits their environment. Weights that
 * overflow or underflow (1e400, 1e-310) are left to the unit tests: redis-server 7.0.15 checks a
 * stale errno after strtod, so one such SORT makes its later strtod-read sorts fail as well, which
 * Lacewing does not copy.
 */
class SortReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final String COMMON = """
        RPUSH {p}l 3 1 2 10 -1.5 1e3 0x10 "" " 7" 2.0 02
        SORT {p}l
        SORT {p}l DESC
        SORT {p}l ASC LIMIT 2 3
        SORT {p}l LIMIT -5 2
        SORT {p}l LIMIT 1 9223372036854775807
        SORT {p}l LIMIT 20 1
        SORT {p}l LIMIT 3 -1
        SORT {p}l LIMIT 0 0
        SORT {p}l ALPHA
        SORT {p}l ALPHA DESC LIMIT 1 4
        SORT {p}l BY nosort
        SORT {p}l BY nosort DESC
        SORT {p}l BY nosort LIMIT 2 3
        SORT {p}l BY nosort DESC LIMIT 2 3
        SORT {p}l BY nosort LIMIT 20 2
        SORT_RO {p}l DESC LIMIT 0 4
        RPUSH {p}words banana apple cherry "apple pie" Apple "\\x00a" "\\xff"
        SORT {p}words
        SORT {p}words ALPHA
        SORT {p}words ALPHA DESC
        RPUSH {p}nul "a\\x00b" "a\\x00a" a "\\xff" "\\xc3\\xa9" b B "a\\x00" "\\x00" "" "\\x00z"
        SORT {p}nul ALPHA
        SORT {p}nul ALPHA DESC
        SORT {p}nul ALPHA LIMIT 1 4
        SORT {p}nul ALPHA STORE {p}nuldst
        LRANGE {p}nuldst 0 -1
        RPUSH {p}nids 1 2 3 4 5 6 7 8 9
        MSET {p}nw_1 "a\\x00b" {p}nw_2 "a\\x00a" {p}nw_3 a {p}nw_4 "\\xff" {p}nw_5 "\\xc3\\xa9" {p}nw_6 b {p}nw_7 "a\\x00" {p}nw_8 ""
        SORT {p}nids BY {p}nw_* ALPHA
        SORT {p}nids BY {p}nw_* ALPHA DESC
        SORT {p}nids BY {p}nw_* ALPHA GET {p}nw_*
        SORT {p}nids BY {p}nw_* ALPHA STORE {p}nuldst
        LRANGE {p}nuldst 0 -1
        RPUSH {p}bad 1 "5 " 3
        SORT {p}bad
        SORT {p}bad ALPHA
        SORT {p}bad BY nosort
        RPUSH {p}nan nan
        SORT {p}nan
        RPUSH {p}ids 1 2 3 4
        MSET {p}w_1 40 {p}w_2 -1 {p}w_3 40 {p}name_1 one {p}name_2 two {p}name_4 four
        HSET {p}h_1 f x n 5
        HSET {p}h_2 f y n 4.5
        HSET {p}h_3 n 5
        SET {p}w_4 notanumber
        SORT {p}ids BY {p}w_*
        DEL {p}w_4
        SORT {p}ids BY {p}w_*
        SORT {p}ids BY {p}w_* DESC
        SORT {p}ids BY {p}w_* GET # GET {p}name_*
        SORT {p}ids BY {p}h_*->n GET {p}h_*->f GET # GET {p}h_*->missing
        SORT {p}ids BY {p}h_*->n DESC LIMIT 1 2 GET {p}name_*
        SORT {p}ids BY {p}name_* ALPHA
        SORT {p}ids BY {p}name_* ALPHA DESC
        SORT {p}ids BY {p}h_*->f ALPHA GET #
        SORT {p}ids BY nosort GET {p}name_* GET {p}w_*
        SORT {p}ids GET {p}nothing GET {p}name_*->
        SORT {p}ids GET # GET {p}h_*->f->g
        SORT {p}ids BY {p}l_*
        SORT {p}ids BY {p}name_*
        SORT {p}ids GET {p}l
        SORT {p}ids BY {p}h_*->f
        SORT_RO {p}ids BY {p}w_* GET {p}name_*
        SADD {p}ints 5 -3 100 7
        SORT {p}ints
        SORT {p}ints DESC LIMIT 1 2
        SORT {p}ints BY nosort
        SORT {p}ints GET {p}w_*
        SADD {p}s b a c 10 9 "b b"
        SORT {p}s ALPHA
        SORT {p}s ALPHA DESC LIMIT 0 3
        SORT {p}s
        SORT {p}s BY nosort STORE {p}sdst
        LRANGE {p}sdst 0 -1
        ZADD {p}z 3 x 1 y 2 z 2 a
        SORT {p}z ALPHA
        SORT {p}z BY nosort
        SORT {p}z BY nosort DESC
        SORT {p}z BY nosort LIMIT 1 2
        SORT {p}z BY nosort DESC LIMIT 1 2
        SORT {p}z BY nosort DESC LIMIT 10 2
        SORT {p}z
        ZADD {p}zn 5 1 4 2 3 3
        SORT {p}zn
        SORT {p}zn BY {p}w_* GET # GET {p}name_*
        SET {p}dst old
        EXPIRE {p}dst 100
        SORT {p}ids BY {p}w_* STORE {p}dst
        LRANGE {p}dst 0 -1
        TTL {p}dst
        TYPE {p}dst
        SORT {p}ids BY {p}w_* GET {p}name_* GET # STORE {p}dst
        LRANGE {p}dst 0 -1
        SORT {p}ids LIMIT 0 0 STORE {p}dst
        EXISTS {p}dst
        SORT {p}none STORE {p}dst
        SORT {p}none
        SORT {p}none BY nosort LIMIT 0 5
        SORT {p}l STORE {p}l
        LRANGE {p}l 0 2
        SORT {p}bad STORE {p}dst2
        EXISTS {p}dst2
        SET {p}str x
        SORT {p}str
        SORT {p}str LIMIT 0 1
        SORT {p}str LIMIT a 1
        SORT {p}str LIMIT 0 x
        SORT {p}str LIMIT 0
        SORT {p}str FOO
        SORT {p}str BY
        SORT {p}str GET
        SORT {p}str STORE
        HSET {p}hash f v
        SORT {p}hash
        SORT_RO {p}ids STORE {p}dst
        SORT_RO {p}str
        SORT
        SORT_RO
        COMMAND GETKEYS SORT {p}ids BY {p}w_*
        COMMAND GETKEYS SORT k STORE d
        COMMAND GETKEYS SORT k BY w_* GET o_* GET # STORE d ALPHA
        COMMAND GETKEYS SORT k store d STORE e
        COMMAND GETKEYS SORT k STORE
        COMMAND GETKEYS SORT k GET # STORE
        COMMAND GETKEYS SORT k LIMIT 0 STORE d
        COMMAND GETKEYS SORT k LIMIT 0 1 2 STORE d
        COMMAND GETKEYS SORT k BY store STORE d
        COMMAND GETKEYS SORT k FOO STORE d
        COMMAND GETKEYS SORT_RO k BY w_* GET o_*
        COMMAND GETKEYS SORT_RO k STORE d
        COMMAND INFO sort sort_ro
        ZADD {p}bz 1 a 2 b 3 c 4 d 5 e
        BZPOPMIN {p}none {p}bz 0
        BZPOPMAX {p}bz 0.01
        BZPOPMIN {p}none 0.01
        BZPOPMAX {p}none1 {p}none2 0.001
        BZPOPMAX {p}none1 {p}none2 0.0001
        BZMPOP 0.0005 2 {p}none1 {p}none2 MAX
        BZMPOP 0 2 {p}none {p}bz MIN
        BZMPOP 0.5 1 {p}bz MAX COUNT 10
        EXISTS {p}bz
        BZMPOP 0.01 1 {p}bz MIN
        BZMPOP 0.01 1 {p}bz MIN COUNT 2
        BZPOPMIN {p}str 0
        BZPOPMIN {p}none {p}str 0
        BZPOPMIN {p}str abc
        BZPOPMIN {p}none -1
        BZPOPMIN {p}none inf
        BZPOPMIN {p}none 1e100
        BZPOPMIN {p}none "1 "
        BZPOPMIN {p}none 0x
        BZMPOP 0 1 {p}str MIN
        BZMPOP abc 1 {p}str MIN
        BZMPOP abc 0 {p}str MIN
        BZMPOP abc -1 {p}str MIN
        BZMPOP abc x {p}str MIN
        BZMPOP 0 2 {p}str MIN
        BZMPOP 0 1 {p}str UP
        BZMPOP 0 1 {p}str MIN COUNT 0
        BZMPOP 0 1 {p}str MIN COUNT -1
        BZMPOP 0 1 {p}str MIN COUNT x
        BZMPOP 0 1 {p}str MIN COUNT 1 COUNT 2
        BZMPOP 0 1 {p}str MIN FOO
        BZMPOP -1 1 {p}str MIN
        BZMPOP 0 1 {p}none MIN COUNT
        BZPOPMIN {p}none
        BZMPOP 0 1 {p}none
        COMMAND GETKEYS BZMPOP 0 2 a b MIN
        COMMAND GETKEYS BZPOPMAX a b 0
        COMMAND INFO bzpopmin bzpopmax bzmpop
        """;

    static final List<String[]> SCRIPTS = List.of(
        new String[] {"sort-resp2", COMMON},
        new String[] {"sort-resp3", "HELLO 3\n" + COMMON});

    static Stream<Arguments> scripts() {
        return ScriptComparison.onEveryTarget(SCRIPTS);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void repliesAsRedisDoes(Target target, String name, String text) {
        Script script = Script.parse(name, text, "sort" + RUNS.incrementAndGet() + ":");
        ScriptComparison.assertSameReplies(script, redis.port(), target);
    }
}
