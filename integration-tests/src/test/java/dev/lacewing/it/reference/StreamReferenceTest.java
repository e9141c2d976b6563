package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * The stream family byte for byte against Debian's redis-server 7.0, in RESP2 and RESP3. IDs are
 * explicit or partial ({@code ms-*}) wherever a reply shows them, since {@code *} takes the clock;
 * XINFO STREAM stays out but for errors (its radix-tree-nodes counts a radix tree Lacewing does not
 * have), and so do replies with delivery and idle times.
 */
class StreamReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final String ADD_AND_RANGE = """
        XADD {p}s 1-1 a 1 b 2
        XADD {p}s 1-2 a 3 b 4
        XADD {p}s 1-* a 5 b 6
        XADD {p}s 2 c 7
        XADD {p}s 2-* a 8 b 9 c 10
        XADD {p}s 3-0 a "" b "\\x00\\xff"
        XADD {p}s 1-5 a 1
        XADD {p}s 3-0 a 1
        XADD {p}s 0-0 a 1
        XADD {p}new 0-0 a 1
        EXISTS {p}new
        XADD {p}new 0-* a 1
        XADD {p}new 0-* a 1
        XADD {p}s 18446744073709551615-18446744073709551614 a 1
        XADD {p}s 18446744073709551615-* a 1
        XADD {p}s 18446744073709551615-* a 1
        XADD {p}s * a 1
        XADD {p}s 18446744073709551616-0 a 1
        XADD {p}s -1 a 1
        XADD {p}s 1-x a 1
        XADD {p}s - a 1
        XADD {p}s + a 1
        XADD {p}s 1-* a
        XADD {p}s 1-1 a 1 b
        XADD {p}s 1-1
        XADD {p}none NOMKSTREAM 1-1 a 1
        EXISTS {p}none
        XADD {p}none nomkstream MAXLEN 1 1-1 a 1
        XLEN {p}s
        XLEN {p}none
        XRANGE {p}s - +
        XREVRANGE {p}s + -
        XRANGE {p}s 1 1
        XRANGE {p}s 1-2 2
        XRANGE {p}s (1-2 (3-0
        XREVRANGE {p}s (3-0 (1-2
        XRANGE {p}s - + COUNT 2
        XREVRANGE {p}s + - COUNT 2
        XRANGE {p}s - + COUNT 0
        XRANGE {p}s - + COUNT -5
        XRANGE {p}s - + COUNT x
        XRANGE {p}s - + COUNT
        XRANGE {p}s - + FOO 1
        XRANGE {p}s 3 1
        XRANGE {p}s (- +
        XRANGE {p}s - (+
        XRANGE {p}s (18446744073709551615-18446744073709551615 +
        XRANGE {p}s - (0-0
        XRANGE {p}s ( +
        XRANGE {p}s 1-* +
        XRANGE {p}s x +
        XRANGE {p}none - +
        XREVRANGE {p}none + -
        XRANGE {p}s 18446744073709551615 +
        SET {p}str v
        XADD {p}str 1-1 a 1
        XLEN {p}str
        XRANGE {p}str - +
        XREVRANGE {p}str + -
        XDEL {p}str 1-1
        XTRIM {p}str MAXLEN 1
        XTRIM {p}str MAXLEN abc
        XTRIM {p}str FOO 1
        XTRIM {p}str MAXLEN 1 LIMIT 5
        XTRIM {p}str MINID x
        XTRIM {p}str LIMIT 5
        XADD {p}str MAXLEN abc * a 1
        XADD {p}str MAXLEN 1 LIMIT 5 * a 1
        XADD {p}str 1-x a 1
        XSETID {p}str 5-5
        XREAD STREAMS {p}str 0
        TYPE {p}s
        OBJECT ENCODING {p}s
        """;

    private static final String DELETE_AND_TRIM = """
        XADD {p}s 1-1 f v
        XADD {p}s 2-1 f v
        XADD {p}s 3-1 f v
        XADD {p}s 4-1 g w
        XADD {p}s 5-1 f v
        XDEL {p}s 2-1 2-1 9-9
        XDEL {p}s 2-1
        XDEL {p}s x
        XDEL {p}s 1-1 x
        XRANGE {p}s - +
        XLEN {p}s
        XDEL {p}none 1-1
        XDEL {p}none x
        XTRIM {p}s MAXLEN 3
        XRANGE {p}s - +
        XTRIM {p}s MAXLEN = 2
        XRANGE {p}s - +
        XTRIM {p}s MAXLEN ~ 0
        XTRIM {p}s MINID 5
        XRANGE {p}s - +
        XTRIM {p}s MINID = 6
        XLEN {p}s
        EXISTS {p}s
        XRANGE {p}s - +
        XTRIM {p}none MAXLEN 0
        XTRIM {p}s
        XTRIM {p}s MAXLEN
        XTRIM {p}s MAXLEN -1
        XTRIM {p}s MAXLEN x
        XTRIM {p}s MINID x
        XTRIM {p}s MINID -
        XTRIM {p}s MAXLEN 1 MINID 1
        XTRIM {p}s MAXLEN 1 LIMIT 10
        XTRIM {p}s MAXLEN ~ 1 LIMIT -1
        XTRIM {p}s MAXLEN ~ 1 LIMIT x
        XTRIM {p}s LIMIT 10
        XTRIM {p}s FOO
        XTRIM {p}s MAXLEN 1 FOO
        XADD {p}s MAXLEN 0 6-1 f v
        XLEN {p}s
        XADD {p}s MAXLEN 2 7-1 f v
        XADD {p}s MAXLEN 2 8-1 f v
        XADD {p}s MAXLEN 2 9-1 f v
        XRANGE {p}s - +
        XADD {p}s MINID 9 10-1 f v
        XRANGE {p}s - +
        XADD {p}s MAXLEN ~ 1 LIMIT 5 11-1 f v
        XADD {p}s MAXLEN 1 LIMIT 5 12-1 f v
        XADD {p}s LIMIT 5 12-1 f v
        XADD {p}s MAXLEN -1 12-1 f v
        XADD {p}s MAXLEN ~ 12-1 f v
        XADD {p}s MAXLEN 1 MINID 1 12-1 f v
        XADD {p}s MAXLEN
        XLEN {p}s
        """;

    /** Trimming by whole nodes: 100 entries a node by default. */
    private static final String NODES = """
        CONFIG SET stream-node-max-entries 3
        XADD {p}n 1-1 f v
        XADD {p}n 2-1 f v
        XADD {p}n 3-1 f v
        XADD {p}n 4-1 f v
        XADD {p}n 5-1 f v
        XADD {p}n 6-1 f v
        XADD {p}n 7-1 f v
        XTRIM {p}n MAXLEN ~ 5
        XRANGE {p}n - +
        XTRIM {p}n MAXLEN ~ 2
        XRANGE {p}n - +
        XADD {p}n MINID ~ 7 8-1 f v
        XRANGE {p}n - +
        XDEL {p}n 7-1 8-1
        XRANGE {p}n - +
        XADD {p}m 1-1 f v
        XADD {p}m 2-1 f v
        XADD {p}m 3-1 f v
        XADD {p}m 4-1 f v
        XADD {p}m 5-1 f v
        XADD {p}m 6-1 f v
        XADD {p}m 7-1 f v
        XTRIM {p}m MAXLEN ~ 1 LIMIT 4
        XRANGE {p}m - +
        XTRIM {p}m MAXLEN ~ 1 LIMIT 0
        XRANGE {p}m - +
        XREVRANGE {p}m + - COUNT 1
        CONFIG SET stream-node-max-entries 100
        """;

    private static final String READ_AND_SETID = """
        XADD {p}a 1-1 f 1
        XADD {p}a 2-1 f 2
        XADD {p}b 5-1 g 1
        XREAD STREAMS {p}a {p}b 0 0
        XREAD COUNT 1 STREAMS {p}a {p}b 1-1 0-0
        XREAD STREAMS {p}a {p}b $ $
        XREAD STREAMS {p}a {p}none 2-1 0
        XREAD COUNT 0 STREAMS {p}a 0
        XREAD COUNT -1 STREAMS {p}a 0
        XREAD STREAMS {p}a 1
        XREAD STREAMS {p}a
        XREAD STREAMS {p}a {p}b 0
        XREAD {p}a 0
        XREAD COUNT x STREAMS {p}a 0
        XREAD FOO STREAMS {p}a 0
        XREAD STREAMS {p}a >
        XREAD STREAMS {p}a x
        XREAD STREAMS {p}a -
        XREAD STREAMS {p}a 18446744073709551615-18446744073709551615
        XREAD BLOCK x STREAMS {p}a 0
        XREAD BLOCK -1 STREAMS {p}a 0
        XREAD BLOCK 0 STREAMS {p}a 0
        COMMAND GETKEYS XREAD COUNT 1 BLOCK 5 STREAMS {p}a {p}b 0 0
        COMMAND GETKEYS XREAD STREAMS {p}a 0
        COMMAND GETKEYS XADD {p}a * f v
        COMMAND INFO xread xadd xrange xdel xtrim xsetid xlen xrevrange
        XSETID {p}a 3-0
        XADD {p}a 3-0 f 3
        XADD {p}a 3-* f 3
        XSETID {p}a 1-0
        XSETID {p}a 3-1 ENTRIESADDED 1
        XSETID {p}a 3-1 ENTRIESADDED 3 MAXDELETEDID 4-0
        XSETID {p}a 5-0 ENTRIESADDED 10 MAXDELETEDID 4-0
        XSETID {p}a 4-5
        XSETID {p}a 5-0 ENTRIESADDED -1
        XSETID {p}a 5-0 ENTRIESADDED x
        XSETID {p}a 5-0 MAXDELETEDID x
        XSETID {p}a 5-0 FOO
        XSETID {p}a 5-0 ENTRIESADDED
        XSETID {p}a x
        XSETID {p}none 1-1
        XADD {p}a 5-0 f 5
        XADD {p}a 5-* f 5
        XRANGE {p}a - +
        XDEL {p}a 1-1 2-1 3-1 5-1
        XSETID {p}a 0-1
        XLEN {p}a
        XADD {p}a 4-0 f 4
        XADD {p}y 5-0 f v
        XADD {p}y 6-0 f v
        XDEL {p}y 6-0
        XSETID {p}y 5-5
        XSETID {p}y 4-0 ENTRIESADDED 0
        XADD {p}y 5-* f v
        XDEL {p}y 5-0 5-6
        XSETID {p}y 1-0
        XRANGE {p}y - +
        """;

    /** Consumer groups, where replies hold no delivery times (XPENDING's extended form shows them). */
    private static final String GROUPS = """
        XGROUP CREATE {p}none g $
        XGROUP CREATE {p}g g $ MKSTREAM
        XGROUP CREATE {p}g g $
        XGROUP CREATE {p}g g2 0 ENTRIESREAD 3
        XGROUP CREATE {p}g g3 0 ENTRIESREAD -2
        XGROUP CREATE {p}g g3 0 ENTRIESREAD x
        XGROUP CREATE {p}g g3 0 FOO
        XGROUP CREATE {p}g g3 x
        XGROUP CREATE {p}g
        XGROUP SETID {p}g nogroup 0
        XGROUP SETID {p}none g 0
        XGROUP CREATECONSUMER {p}g nogroup c
        XGROUP DELCONSUMER {p}g nogroup c
        XGROUP DESTROY {p}g nogroup
        XGROUP DESTROY {p}none g
        XGROUP FOO {p}g g
        XADD {p}g 1-1 f 1
        XADD {p}g 2-1 f 2
        XADD {p}g 3-1 f 3
        XREADGROUP GROUP g alice STREAMS {p}g >
        XREADGROUP GROUP g alice STREAMS {p}g >
        XREADGROUP GROUP g2 bob COUNT 1 STREAMS {p}g >
        XREADGROUP GROUP g2 bob NOACK STREAMS {p}g >
        XPENDING {p}g g
        XPENDING {p}g g2
        XPENDING {p}g g - + 0
        XPENDING {p}g g - + 10 nobody
        XPENDING {p}g nogroup
        XPENDING {p}none g
        XPENDING {p}g g - +
        XPENDING {p}g g IDLE 10 - +
        XPENDING {p}g g - + x
        XPENDING {p}g g x + 10
        XPENDING {p}g g IDLE x - + 10
        XREADGROUP GROUP g alice STREAMS {p}g 0
        XREADGROUP GROUP g alice COUNT 1 STREAMS {p}g 1-1
        XREADGROUP GROUP g zed STREAMS {p}g >
        XGROUP CREATECONSUMER {p}g g zed
        XREADGROUP GROUP g carol STREAMS {p}g 0
        XGROUP CREATECONSUMER {p}g g carol
        XGROUP CREATECONSUMER {p}g g dave
        XDEL {p}g 2-1
        XREADGROUP GROUP g alice STREAMS {p}g 0
        XACK {p}g g 1-1 9-9 1-1
        XACK {p}g g x
        XACK {p}g nogroup x
        XACK {p}none g 1-1
        XPENDING {p}g g
        XGROUP SETID {p}g g 0
        XREADGROUP GROUP g dave STREAMS {p}g >
        XPENDING {p}g g
        XREADGROUP GROUP g alice STREAMS {p}g 0
        XGROUP DELCONSUMER {p}g g dave
        XGROUP DELCONSUMER {p}g g dave
        XPENDING {p}g g
        XREADGROUP GROUP g alice STREAMS {p}g $
        XREADGROUP GROUP g alice STREAMS {p}g
        XREADGROUP GROUP g alice STREAMS {p}g {p}none > >
        XREADGROUP GROUP g alice STREAMS {p}g {p}g >
        XREADGROUP GROUP g alice STREAMS "{p}bin\\x00ary\\r\\n" >
        XREADGROUP GROUP "g\\xff\\r\\n" alice STREAMS {p}g >
        XPENDING {p}none "g\\xff\\x00y"
        XCLAIM "{p}\\xfe\\x00x" g alice 0 1-1
        XCLAIM {p}g g alice 0 1-1 "FOO\\xff\\x00BAR"
        XGROUP CREATECONSUMER {p}g "g\\x00\\xff" c
        XGROUP FOO\\xff {p}g g
        XGROUP SETID {p}none g 0 ENTRIESREAD x
        XGROUP SETID {p}none g 0 ENTRIESREAD -5
        XGROUP SETID {p}none g 0 FOO 1
        XGROUP SETID {p}none g 0 ENTRIESREAD
        XGROUP SETID {p}g g 0 ENTRIESREAD 1 ENTRIESREAD 2
        XREADGROUP GROUP nogroup alice STREAMS {p}g >
        XREADGROUP STREAMS {p}g >
        XREADGROUP GROUP g alice FOO STREAMS {p}g >
        XREADGROUP GROUP g alice STREAMS {p}g x
        XREAD GROUP g alice STREAMS {p}g >
        XREAD NOACK STREAMS {p}g 0
        XREAD GROUP g STREAMS {p}g 0
        XREAD COUNT x GROUP g alice STREAMS {p}g >
        XREAD BLOCK x NOACK STREAMS {p}g 0
        XREADGROUP NOACK STREAMS {p}g >
        XREADGROUP GROUP g alice STREAMS {p}g > 0
        XREADGROUP GROUP g alice NOACK COUNT x STREAMS {p}g >
        XREADGROUP GROUP g alice BLOCK -1 STREAMS {p}g >
        XREADGROUP GROUP g alice FOO
        XREADGROUP GROUP g alice BLOCK 0 STREAMS {p}g 0
        XGROUP SETID {p}g g $ ENTRIESREAD 5
        XGROUP SETID {p}g g 0 FOO 5
        XGROUP SETID {p}g g 0 ENTRIESREAD
        XGROUP SETID {p}g g - ENTRIESREAD -3
        XREADGROUP GROUP g alice STREAMS {p}g >
        XGROUP DESTROY {p}g g
        XGROUP DESTROY {p}g g
        XREADGROUP GROUP g alice STREAMS {p}g >
        SET {p}str v
        XGROUP CREATE {p}str g $
        XREADGROUP GROUP g alice STREAMS {p}str >
        XPENDING {p}str g
        XACK {p}str g 1-1
        COMMAND GETKEYS XREADGROUP GROUP g c COUNT 1 STREAMS {p}a {p}b > >
        COMMAND INFO xreadgroup xack xpending
        """;

    /** XCLAIM and XAUTOCLAIM where replies hold no times: minimum idle 0, JUSTID, counts. */
    private static final String CLAIMS = """
        XGROUP CREATE {p}c g $ MKSTREAM
        XADD {p}c 1-1 f 1
        XADD {p}c 2-1 f 2
        XADD {p}c 3-1 f 3
        XADD {p}c 4-1 f 4
        XREADGROUP GROUP g alice STREAMS {p}c >
        XCLAIM {p}c g bob 0 1-1 2-1
        XCLAIM {p}c g bob 0 1-1 9-9 JUSTID
        XCLAIM {p}c g bob 3600000 3-1
        XCLAIM {p}c g bob 0 3-1 RETRYCOUNT 7 JUSTID
        XCLAIM {p}c g bob 0 3-1 IDLE 5000 TIME 1 FORCE
        XPENDING {p}c g
        XDEL {p}c 2-1
        XCLAIM {p}c g carol 0 2-1 4-1
        XPENDING {p}c g
        XADD {p}c 5-1 f 5
        XCLAIM {p}c g carol 0 5-1
        XCLAIM {p}c g carol 0 5-1 FORCE JUSTID
        XCLAIM {p}c g carol 0 5-1 LASTID 5-1
        XREADGROUP GROUP g alice STREAMS {p}c >
        XCLAIM {p}c g carol x 1-1
        XCLAIM {p}c g carol 0 1-1 FOO
        XCLAIM {p}c g carol 0 1-1 IDLE x
        XCLAIM {p}c g carol 0 1-1 TIME x
        XCLAIM {p}c g carol 0 1-1 RETRYCOUNT x
        XCLAIM {p}c g carol 0 1-1 LASTID x
        XCLAIM {p}c g carol 0 x
        XCLAIM {p}c nogroup carol 0 1-1
        XCLAIM {p}none g carol 0 1-1
        XAUTOCLAIM {p}c g dave 0 0 COUNT 1
        XAUTOCLAIM {p}c g dave 0 0 COUNT 2 JUSTID
        XAUTOCLAIM {p}c g dave 0 (1-1 JUSTID
        XAUTOCLAIM {p}c g dave 3600000 0
        XDEL {p}c 3-1
        XAUTOCLAIM {p}c g erin 0 0
        XPENDING {p}c g
        XAUTOCLAIM {p}c g erin 0 0 COUNT 0
        XAUTOCLAIM {p}c g erin 0 0 COUNT x
        XAUTOCLAIM {p}c g erin x 0
        XAUTOCLAIM {p}c g erin 0 x
        XAUTOCLAIM {p}c g erin 0 0 FOO
        XAUTOCLAIM {p}c nogroup erin 0 0
        XAUTOCLAIM {p}none g erin 0 0
        SET {p}str v
        XCLAIM {p}str g a 0 1-1
        XAUTOCLAIM {p}str g a 0 0
        COMMAND INFO xclaim xautoclaim
        """;

    /** XINFO GROUPS: entries read and lag through deletions, SETID and ENTRIESREAD. */
    private static final String GROUP_INFO = """
        XGROUP CREATE {p}i g0 $ MKSTREAM
        XINFO GROUPS {p}i
        XADD {p}i 1-1 f 1
        XADD {p}i 2-1 f 2
        XADD {p}i 3-1 f 3
        XADD {p}i 4-1 f 4
        XGROUP CREATE {p}i g1 0
        XGROUP CREATE {p}i g2 0 ENTRIESREAD 1
        XGROUP CREATE {p}i g3 $
        XINFO GROUPS {p}i
        XREADGROUP GROUP g1 a COUNT 2 STREAMS {p}i >
        XREADGROUP GROUP g2 b COUNT 1 STREAMS {p}i >
        XINFO GROUPS {p}i
        XDEL {p}i 3-1
        XINFO GROUPS {p}i
        XREADGROUP GROUP g1 a STREAMS {p}i >
        XINFO GROUPS {p}i
        XDEL {p}i 1-1
        XINFO GROUPS {p}i
        XGROUP SETID {p}i g3 0
        XGROUP SETID {p}i g2 2-1 ENTRIESREAD 2
        XINFO GROUPS {p}i
        XADD {p}i 5-1 f 5
        XTRIM {p}i MAXLEN 1
        XINFO GROUPS {p}i
        XGROUP SETID {p}i g1 $
        XINFO GROUPS {p}i
        XINFO GROUPS {p}none
        XINFO CONSUMERS {p}i nogroup
        XINFO CONSUMERS {p}none g1
        XINFO CONSUMERS {p}i
        XINFO GROUPS {p}i extra
        XINFO FOO {p}i
        XINFO STREAM {p}i FULL COUNT x
        XINFO STREAM {p}i FOO
        XINFO STREAM {p}i FULL FOO 1
        XADD {p}lag 1-1 f v
        XADD {p}lag 2-1 f v
        XGROUP CREATE {p}lag g 0 ENTRIESREAD 3
        XGROUP CREATE {p}lag h 0 ENTRIESREAD 9
        XINFO GROUPS {p}lag
        SET {p}str v
        XGROUP SETID {p}str g 0 ENTRIESREAD x
        XINFO GROUPS {p}str
        XINFO STREAM {p}str
        """;

    static Stream<Arguments> scripts() {
        List<String[]> scripts = List.of(
            new String[] {"add and range resp2", ADD_AND_RANGE},
            new String[] {"add and range resp3", "HELLO 3\n" + ADD_AND_RANGE},
            new String[] {"delete and trim resp2", DELETE_AND_TRIM},
            new String[] {"nodes resp2", NODES},
            new String[] {"read and setid resp2", READ_AND_SETID},
            new String[] {"read and setid resp3", "HELLO 3\n" + READ_AND_SETID},
            new String[] {"groups resp2", GROUPS},
            new String[] {"groups resp3", "HELLO 3\n" + GROUPS},
            new String[] {"claims resp2", CLAIMS},
            new String[] {"claims resp3", "HELLO 3\n" + CLAIMS},
            new String[] {"group info resp2", GROUP_INFO},
            new String[] {"group info resp3", "HELLO 3\n" + GROUP_INFO});
        return ScriptComparison.onEveryTarget(scripts);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void repliesAsRedisDoes(Target target, String name, String text) {
        Script script = Script.parse(name, text, "xs" + RUNS.incrementAndGet() + ":");
        ScriptComparison.assertSameReplies(script, redis.port(), target);
    }

    static Stream<Arguments> targets() {
        return Servers.all().map(Arguments::of);
    }

    /**
     * XCLAIM FORCE of an entry no one was given creates its pending record delivered once
     * (streamCreateNACK), and XREADGROUP given the largest ID reads new entries as {@code >} does,
     * since xreadCommand stands for {@code >} by that ID. XPENDING's idle times are left out.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void forcedClaimsAndTheLargestIdAsRedis(Target target) {
        String key = "xs" + RUNS.incrementAndGet() + ":force";
        List<String[]> commands = List.of(
            new String[] {"XADD", key, "1-1", "f", "v"},
            new String[] {"XADD", key, "2-1", "f", "v"},
            new String[] {"XADD", key, "3-1", "f", "v"},
            new String[] {"XGROUP", "CREATE", key, "g", "0"},
            new String[] {"XCLAIM", key, "g", "carol", "0", "1-1", "FORCE", "JUSTID"},
            new String[] {"XCLAIM", key, "g", "bob", "0", "2-1", "FORCE"},
            new String[] {"XPENDING", key, "g", "-", "+", "10"},
            new String[] {"XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", key,
                "18446744073709551615-18446744073709551615"},
            new String[] {"XREADGROUP", "GROUP", "g", "alice", "STREAMS", key, "18446744073709551615-18446744073709551615"},
            new String[] {"XINFO", "GROUPS", key});
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            for (String[] command : commands) {
                String expected = reference.call(command);
                String actual = lacewing.call(command);
                if (command[0].equals("XPENDING")) {
                    expected = withoutIdleTimes(expected);
                    actual = withoutIdleTimes(actual);
                }
                assertEquals(expected, actual, String.join(" ", command));
            }
        }
    }

    /** An extended XPENDING reply with each entry's idle time (its third element) as 0. */
    private static String withoutIdleTimes(String reply) {
        return reply.replaceAll("(\\*4\r\n\\$\\d+\r\n[^\r]*\r\n\\$\\d+\r\n[^\r]*\r\n):\\d+", "$1:0");
    }
}
