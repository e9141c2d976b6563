package dev.lacewing.it.reference;


import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sorted-set family byte for byte against Debian's redis-server 7.0, in RESP2 and RESP3. One
 * deliberate difference is kept out of the scripts rather than normalized: Redis 7.0 replies
 * scores with %.17g (0.1 as 0.10000000000000001), Lacewing with the shortest form that reads back
 * to the same double, as Redis 7.2 does; the scores used here print the same both ways.
 * Replies that are random (ZRANDMEMBER below the set's size) or in hash order (ZSCAN of the large
 * form) are checked by the integration test.
 */
class SortedSetReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    static final List<String[]> SCRIPTS = List.of(
        new String[] {"zadd-options-and-errors", """
            ZADD {p}z 1 a 2 b 3 c
            ZADD {p}z 1 a
            ZADD {p}z CH 5 a 6 d
            ZADD {p}z NX 9 a 7 e
            ZADD {p}z XX 9 a 8 f
            ZADD {p}z XX CH 10 a
            ZADD {p}z GT 1 a
            ZADD {p}z GT CH 11 a
            ZADD {p}z LT CH 12 a 0 b
            ZADD {p}z INCR 2.5 a
            ZADD {p}z INCR NX 1 a
            ZADD {p}z INCR XX 1 zz
            ZADD {p}z INCR GT -100 a
            ZINCRBY {p}z -0.25 a
            ZINCRBY {p}z 3 new
            ZINCRBY {p}z x a
            ZADD {p}z INCR 1 a 2 b
            ZADD {p}z NX XX 1 a
            ZADD {p}z GT LT 1 a
            ZADD {p}z GT NX 1 a
            ZADD {p}z 1 a 2
            ZADD {p}z nan a
            ZADD {p}z "" a
            ZADD {p}z " 1" a
            ZADD {p}z 1e400 a
            ZADD {p}z abc a
            ZADD {p}z inf top -inf bottom +inf top2
            ZADD {p}z 0x10 hex 1e2 sci -0 negzero
            ZADD {p}inf inf x
            ZINCRBY {p}inf -inf x
            ZRANGE {p}z 0 -1 WITHSCORES
            ZADD {p}xx XX 1 a
            EXISTS {p}xx
            ZCARD {p}z
            ZCARD {p}missing
            SET {p}s str
            ZADD {p}s 1 a
            ZADD {p}s x a
            ZCARD {p}s
            ZSCORE {p}s a
            TYPE {p}z
            """},
        new String[] {"zrem-zscore-zmscore-zrank", """
            ZADD {p}z 1 a 2 b 3 c 4 d
            ZSCORE {p}z b
            ZSCORE {p}z nope
            ZSCORE {p}missing a
            ZMSCORE {p}z a nope d
            ZMSCORE {p}missing a b
            ZRANK {p}z c
            ZREVRANK {p}z c
            ZRANK {p}z nope
            ZRANK {p}missing a
            ZREM {p}z a nope b
            ZREM {p}missing a
            ZRANGE {p}z 0 -1
            ZREM {p}z c d
            EXISTS {p}z
            SET {p}s str
            ZREM {p}s a
            ZRANK {p}s a
            ZMSCORE {p}s a
            """},
        new String[] {"zrange-by-rank-score-and-lex", """
            ZADD {p}z 1 a 2 b 2 bb 3 c 4 d 5 e
            ZRANGE {p}z 0 -1
            ZRANGE {p}z 1 3 WITHSCORES
            ZRANGE {p}z -2 -1 withscores
            ZRANGE {p}z 5 1
            ZRANGE {p}z 100 200
            ZRANGE {p}z -100 100
            ZRANGE {p}z 0 -1 REV WITHSCORES
            ZRANGE {p}z 0 1 LIMIT 0 1
            ZRANGE {p}z x 1
            ZRANGE {p}z 2 (4 BYSCORE
            ZRANGE {p}z (1 +inf BYSCORE WITHSCORES LIMIT 1 2
            ZRANGE {p}z +inf -inf BYSCORE REV
            ZRANGE {p}z 4 2 BYSCORE REV LIMIT 1 -1
            ZRANGE {p}z -inf +inf BYSCORE LIMIT -1 2
            ZRANGE {p}z -inf +inf BYSCORE LIMIT 10 2
            ZRANGE {p}z a b BYSCORE
            ZRANGE {p}z (a (b BYSCORE
            ZRANGE {p}z 0 -1 BYSCORE BYLEX
            ZRANGE {p}z 0 -1 REV REV
            ZRANGE {p}z 0 -1 LIMIT 1
            ZRANGE {p}z 0 -1 BOGUS
            ZRANGEBYSCORE {p}z 2 3
            ZRANGEBYSCORE {p}z (2 3 WITHSCORES
            ZRANGEBYSCORE {p}z -inf inf LIMIT 2 3
            ZRANGEBYSCORE {p}z "" ""
            ZRANGEBYSCORE {p}z 1 2 REV
            ZRANGEBYSCORE {p}z 1 2 LIMIT
            ZREVRANGEBYSCORE {p}z 3 2 WITHSCORES
            ZREVRANGEBYSCORE {p}z +inf (3 LIMIT 1 1
            ZREVRANGEBYSCORE {p}z 2 3
            ZREVRANGE {p}z 0 2 WITHSCORES
            ZREVRANGE {p}z 0 2 LIMIT 0 1
            ZCOUNT {p}z 2 3
            ZCOUNT {p}z (2 (4
            ZCOUNT {p}z -inf +inf
            ZCOUNT {p}z x 1
            ZCOUNT {p}missing 0 1
            DEL {p}z
            ZADD {p}l 0 a 0 b 0 c 0 d 0 e 0 ee 0 f
            ZRANGEBYLEX {p}l - +
            ZRANGEBYLEX {p}l [b (e
            ZRANGEBYLEX {p}l (b [e LIMIT 1 2
            ZRANGEBYLEX {p}l + -
            ZRANGEBYLEX {p}l [e -
            ZRANGEBYLEX {p}l - + WITHSCORES
            ZRANGEBYLEX {p}l a b
            ZRANGEBYLEX {p}l -a +
            ZRANGEBYLEX {p}l "" +
            ZREVRANGEBYLEX {p}l + -
            ZREVRANGEBYLEX {p}l [e (b LIMIT 0 2
            ZRANGE {p}l [c + BYLEX
            ZRANGE {p}l + [c BYLEX REV LIMIT 1 10
            ZRANGE {p}l - + BYLEX WITHSCORES
            ZLEXCOUNT {p}l - +
            ZLEXCOUNT {p}l (a [c
            ZLEXCOUNT {p}l x y
            ZLEXCOUNT {p}missing - +
            SET {p}s str
            ZRANGE {p}s 0 -1
            ZRANGEBYSCORE {p}s x y
            ZRANGEBYLEX {p}s - +
            """},
        new String[] {"zrangestore-and-removals", """
            ZADD {p}z 1 a 2 b 3 c 4 d 5 e
            ZRANGESTORE {p}d {p}z 1 3
            ZRANGE {p}d 0 -1 WITHSCORES
            ZRANGESTORE {p}d {p}z 4 2 BYSCORE REV LIMIT 0 2
            ZRANGE {p}d 0 -1 WITHSCORES
            ZRANGESTORE {p}d {p}z 10 20
            EXISTS {p}d
            ZRANGESTORE {p}d {p}missing 0 -1
            ZRANGESTORE {p}d {p}z 0 -1 WITHSCORES
            ZRANGESTORE {p}d {p}z [a [c BYLEX
            ZRANGE {p}d 0 -1
            ZREMRANGEBYRANK {p}z 0 0
            ZREMRANGEBYRANK {p}z -1 -1
            ZREMRANGEBYRANK {p}z 5 10
            ZREMRANGEBYRANK {p}z x 1
            ZRANGE {p}z 0 -1
            ZREMRANGEBYSCORE {p}z (2 3
            ZREMRANGEBYSCORE {p}z a 3
            ZRANGE {p}z 0 -1 WITHSCORES
            ZADD {p}l 0 a 0 b 0 c
            ZREMRANGEBYLEX {p}l [a (c
            ZREMRANGEBYLEX {p}l a c
            ZRANGE {p}l 0 -1
            ZREMRANGEBYLEX {p}l - +
            EXISTS {p}l
            ZREMRANGEBYSCORE {p}missing 0 1
            SET {p}s str
            ZREMRANGEBYRANK {p}s 0 1
            """},
        new String[] {"pops-and-zmpop", """
            ZADD {p}z 1 a 2 b 3 c 4 d 5 e
            ZPOPMIN {p}z
            ZPOPMAX {p}z
            ZPOPMIN {p}z 2
            ZPOPMAX {p}z 0
            ZPOPMAX {p}z -1
            ZPOPMAX {p}z x
            ZPOPMIN {p}z 1 2
            ZPOPMAX {p}z 10
            EXISTS {p}z
            ZPOPMIN {p}missing
            ZPOPMIN {p}missing 3
            SET {p}s str
            ZPOPMIN {p}s 0
            ZADD {p}a 1 x 2 y 3 z
            ZMPOP 2 {p}missing {p}a MIN
            ZMPOP 2 {p}missing {p}a MAX COUNT 5
            ZMPOP 1 {p}a MIN
            ZMPOP 0 {p}a MIN
            ZMPOP -1 {p}a MIN
            ZMPOP x {p}a MIN
            ZMPOP 3 {p}a MIN
            ZMPOP 1 {p}a MIDDLE
            ZMPOP 1 {p}a MIN COUNT 0
            ZMPOP 1 {p}a MIN COUNT 1 COUNT 1
            ZMPOP 1 {p}a MIN COUNT
            ZMPOP 2 {p}s {p}a MIN
            ZMPOP 1 {p}a UP COUNT 0
            ZMPOP 1 {p}a max COUNT x
            ZMPOP 1 {p}a MIN COUNT 1 foo
            ZSCAN {p}s 0 COUNT 0
            ZSCAN {p}s x
            """},
        new String[] {"set-operations", """
            ZADD {p}a 1 x 2 y 3 z
            ZADD {p}b 10 y 20 z 30 w
            ZUNION 2 {p}a {p}b
            ZUNION 2 {p}a {p}b WITHSCORES
            ZUNION 2 {p}a {p}b WEIGHTS 2 0.5 WITHSCORES
            ZUNION 2 {p}a {p}b AGGREGATE MIN WITHSCORES
            ZUNION 2 {p}a {p}b AGGREGATE max WITHSCORES
            ZUNION 3 {p}a {p}missing {p}b WITHSCORES
            ZINTER 2 {p}a {p}b WITHSCORES
            ZINTER 2 {p}a {p}b WEIGHTS 1 -1 AGGREGATE SUM WITHSCORES
            ZINTER 2 {p}a {p}missing
            ZDIFF 2 {p}a {p}b WITHSCORES
            ZDIFF 1 {p}a
            ZDIFF 2 {p}missing {p}a
            ZDIFF 2 {p}a {p}b WEIGHTS 1 1
            ZUNION 0 {p}a
            ZUNION -1 {p}a
            ZUNION x {p}a
            ZUNION 3 {p}a {p}b
            ZUNION 2 {p}a {p}b WEIGHTS 1
            ZUNION 2 {p}a {p}b WEIGHTS 1 x
            ZUNION 2 {p}a {p}b AGGREGATE avg
            ZUNION 2 {p}a {p}b AGGREGATE
            ZUNIONSTORE {p}d 2 {p}a {p}b WEIGHTS 1 2
            ZRANGE {p}d 0 -1 WITHSCORES
            ZUNIONSTORE {p}d 2 {p}a {p}b WITHSCORES
            ZINTERSTORE {p}d 2 {p}a {p}b AGGREGATE MAX
            ZRANGE {p}d 0 -1 WITHSCORES
            ZINTERSTORE {p}d 2 {p}a {p}missing
            EXISTS {p}d
            ZDIFFSTORE {p}d 2 {p}a {p}b
            ZRANGE {p}d 0 -1 WITHSCORES
            ZDIFFSTORE {p}a 2 {p}a {p}a
            EXISTS {p}a
            ZADD {p}a 1 x 2 y 3 z
            ZUNIONSTORE {p}a 2 {p}a {p}b
            ZRANGE {p}a 0 -1 WITHSCORES
            ZINTERCARD 2 {p}a {p}b
            ZINTERCARD 2 {p}a {p}b LIMIT 1
            ZINTERCARD 2 {p}a {p}b LIMIT 0
            ZINTERCARD 2 {p}a {p}b LIMIT -1
            ZINTERCARD 0 {p}a
            ZINTERCARD 2 {p}a {p}missing
            ZINTERCARD 2 {p}a {p}b WITHSCORES
            ZADD {p}inf inf x
            ZADD {p}zero 0 x
            ZUNION 2 {p}inf {p}zero WEIGHTS 0 1 WITHSCORES
            ZADD {p}neg -inf x
            ZUNION 2 {p}inf {p}neg WITHSCORES
            SET {p}s str
            ZUNION 2 {p}a {p}s
            ZUNIONSTORE {p}d 2 {p}s {p}a BOGUS
            ZINTERCARD 1 {p}s
            """},
        new String[] {"zscan-and-zrandmember", """
            ZADD {p}z 1 a 2 b 3 c 4.5 d
            ZSCAN {p}z 0
            ZSCAN {p}z 0 MATCH *a* COUNT 100
            ZSCAN {p}z 0 COUNT 0
            ZSCAN {p}z 0 COUNT x
            ZSCAN {p}z 0 TYPE zset
            ZSCAN {p}z x
            ZSCAN {p}missing 0
            ZRANDMEMBER {p}z 10
            ZRANDMEMBER {p}z 10 WITHSCORES
            ZRANDMEMBER {p}z 0
            ZRANDMEMBER {p}z 4 withscores
            ZRANDMEMBER {p}z 1 WITHSCORES extra
            ZRANDMEMBER {p}z 1 bogus
            ZRANDMEMBER {p}z x
            ZRANDMEMBER {p}z -9223372036854775808
            ZRANDMEMBER {p}z -9223372036854775807 WITHSCORES
            ZRANDMEMBER {p}missing
            ZRANDMEMBER {p}missing 5
            ZADD {p}one 7 only
            ZRANDMEMBER {p}one
            ZRANDMEMBER {p}one -3 WITHSCORES
            SET {p}s str
            ZRANDMEMBER {p}s
            ZSCAN {p}s 0
            """},
        new String[] {"resp3-replies", """
            HELLO 3
            ZADD {p}z 1 a 2.5 b 3 c
            ZSCORE {p}z b
            ZMSCORE {p}z a x
            ZADD {p}z INCR 1 a
            ZADD {p}z INCR NX 1 a
            ZINCRBY {p}z 1 c
            ZRANGE {p}z 0 -1 WITHSCORES
            ZRANGE {p}z 0 -1
            ZREVRANGEBYSCORE {p}z +inf -inf WITHSCORES LIMIT 0 2
            ZRANK {p}z nope
            ZPOPMIN {p}z
            ZPOPMIN {p}z 1
            ZADD {p}z 1 a 2 b
            ZPOPMAX {p}z 5
            ZPOPMIN {p}missing
            ZADD {p}m 1 x 2 y
            ZMPOP 1 {p}m MIN COUNT 2
            ZMPOP 1 {p}m MIN
            ZADD {p}a 1 x 2 y
            ZADD {p}b 3 y
            ZUNION 2 {p}a {p}b WITHSCORES
            ZINTER 2 {p}a {p}b WITHSCORES
            ZRANDMEMBER {p}a 5 WITHSCORES
            ZRANDMEMBER {p}missing
            ZSCAN {p}a 0
            """},
        new String[] {"large-encoding-by-settings", """
            CONFIG SET zset-max-listpack-entries 2
            CONFIG GET zset-max-listpack-entries
            CONFIG GET zset-max-ziplist-entries
            ZADD {p}z 1 a 2 b 3 c 4 d 5 e
            ZRANGE {p}z 0 -1 WITHSCORES
            ZRANK {p}z c
            ZCOUNT {p}z (1 4
            ZRANGEBYSCORE {p}z 2 +inf LIMIT 1 2
            ZREM {p}z c
            ZINCRBY {p}z 10 a
            ZRANGE {p}z 0 -1 WITHSCORES
            ZSCAN {p}z 0 COUNT 1000 MATCH e
            ZPOPMIN {p}z 2
            ZUNIONSTORE {p}u 1 {p}z
            ZRANGE {p}u 0 -1 WITHSCORES
            CONFIG SET zset-max-ziplist-entries 128
            CONFIG GET zset-max-listpack-entries
            CONFIG SET zset-max-listpack-value 3
            ZADD {p}long 1 abcd
            ZRANGE {p}long 0 -1
            CONFIG SET zset-max-listpack-value 64
            CONFIG GET zset-max-listpack-value
            """},
        new String[] {"command-info-and-getkeys", """
            COMMAND INFO zadd zrangestore zunionstore zunion zmpop zintercard zscan zrandmember
            COMMAND GETKEYS ZUNIONSTORE dst 2 a b WEIGHTS 1 2
            COMMAND GETKEYS ZINTER 3 a b c
            COMMAND GETKEYS ZMPOP 2 a b MIN COUNT 1
            COMMAND GETKEYS ZRANGESTORE dst src 0 -1
            COMMAND GETKEYS ZUNIONSTORE dst 5 a
            """},
        new String[] {"lex-ranges-over-mixed-scores", """
            ZADD {p}m -1 m2 0.1 10 0.5 b 2 a 3 d 3 c 4 e
            ZRANGE {p}m [m1 + BYLEX
            ZRANGE {p}m - + BYLEX
            ZRANGEBYLEX {p}m [a [d
            ZRANGEBYLEX {p}m [a [e
            ZRANGEBYLEX {p}m (a + LIMIT 1 2
            ZRANGEBYLEX {p}m [a + LIMIT 3 10
            ZRANGEBYLEX {p}m [a + LIMIT 0 0
            ZRANGEBYLEX {p}m - [c LIMIT 2 -1
            ZREVRANGEBYLEX {p}m [e [a
            ZREVRANGEBYLEX {p}m + (b LIMIT 1 1
            ZREVRANGEBYLEX {p}m [m2 - LIMIT 2 5
            ZRANGE {p}m [e [a BYLEX REV
            ZRANGE {p}m (c [c BYLEX
            ZRANGE {p}m [c [c BYLEX
            ZLEXCOUNT {p}m [a +
            ZLEXCOUNT {p}m - [b
            ZLEXCOUNT {p}m [z +
            ZRANGESTORE {p}dst {p}m [b + BYLEX
            ZRANGE {p}dst 0 -1 WITHSCORES
            ZREMRANGEBYLEX {p}m [b [d
            ZRANGE {p}m 0 -1 WITHSCORES
            ZADD {p}same 0 a 0 b 0 c 0 d
            ZRANGEBYLEX {p}same (a [c
            ZREVRANGEBYLEX {p}same + - LIMIT 1 2
            """},
        new String[] {"large-set-churn", largeSetChurn()});

    /**
     * A large set (the packed skiplist form) through churn: 3000 members of 2 to 300 bytes with many
     * tied scores, some re-scored, then most removed (ZREM in random order, ZREMRANGEBYRANK), which
     * compacts the pages their bytes are packed in; ranges, ranks, scores, pops, lex ranges and the
     * store forms must still answer as Redis does. Seeded, so both servers get the same script.
     */
    private static String largeSetChurn() {
        Random random = new Random(11);
        List<String> members = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            members.add("m" + i + "-" + "x".repeat(random.nextInt(i % 10 == 0 ? 300 : 12)));
        }
        StringBuilder script = new StringBuilder();
        for (int from = 0; from < members.size(); from += 100) {
            script.append("ZADD {p}big");
            for (String member : members.subList(from, from + 100)) {
                script.append(' ').append(halves(random.nextInt(800))).append(' ').append(member);
            }
            script.append('\n');
        }
        script.append("""
            OBJECT ENCODING {p}big
            ZCARD {p}big
            ZRANGE {p}big 0 -1 WITHSCORES
            """);
        script.append("ZADD {p}big CH");
        for (int i = 0; i < 300; i++) {
            String member = members.get(random.nextInt(3000));
            script.append(' ').append(halves(random.nextInt(800))).append(' ').append(member);
        }
        script.append('\n');
        List<String> shuffled = new ArrayList<>(members);
        Collections.shuffle(shuffled, random);
        for (int from = 0; from < 2000; from += 100) {
            script.append("ZREM {p}big ").append(String.join(" ", shuffled.subList(from, from + 100))).append('\n');
        }
        for (String member : shuffled.subList(1990, 2010)) {
            script.append("ZRANK {p}big ").append(member).append('\n');
            script.append("ZSCORE {p}big ").append(member).append('\n');
        }
        script.append("""
            ZREMRANGEBYRANK {p}big 100 400
            ZCARD {p}big
            ZRANGE {p}big 0 -1 WITHSCORES
            ZREVRANGE {p}big 0 50 WITHSCORES
            ZRANGEBYSCORE {p}big 50 (120 WITHSCORES LIMIT 5 40
            ZREVRANGEBYSCORE {p}big 300 (10 LIMIT 3 30
            ZCOUNT {p}big 10 150
            ZPOPMIN {p}big 30
            ZPOPMAX {p}big 30
            ZRANDMEMBER {p}big 100000 WITHSCORES
            ZUNIONSTORE {p}u 1 {p}big WEIGHTS 2
            ZRANGE {p}u 0 -1 WITHSCORES
            ZRANGESTORE {p}r {p}big 10 400
            ZRANGE {p}r 0 -1 WITHSCORES
            ZINTER 2 {p}big {p}r WITHSCORES
            ZDIFF 2 {p}big {p}r
            ZREMRANGEBYSCORE {p}big 100 200
            ZRANGE {p}big 0 -1 WITHSCORES
            """);
        for (int from = 0; from < 600; from += 100) {
            script.append("ZADD {p}lex");
            for (String member : members.subList(from, from + 100)) {
                script.append(" 0 ").append(member);
            }
            script.append('\n');
        }
        script.append("ZREM {p}lex ").append(String.join(" ", shuffled.subList(0, 200))).append('\n');
        script.append("""
            ZRANGEBYLEX {p}lex [m1 (m3
            ZLEXCOUNT {p}lex (m2 +
            ZREVRANGEBYLEX {p}lex [m5 - LIMIT 2 50
            ZREMRANGEBYLEX {p}lex [m2 [m4
            ZRANGE {p}lex 0 -1
            """);
        return script.toString();
    }

    /** Half of {@code n}, written as both servers print it. */
    private static String halves(int n) {
        return n / 2 + (n % 2 == 0 ? "" : ".5");
    }

    static Stream<Arguments> scripts() {
        return ScriptComparison.onEveryTarget(SCRIPTS);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void repliesAsRedisDoes(Target target, String name, String text) {
        Script script = Script.parse(name, text, "zref" + RUNS.incrementAndGet() + ":");
        ScriptComparison.assertSameReplies(script, redis.port(), target);
    }
}
