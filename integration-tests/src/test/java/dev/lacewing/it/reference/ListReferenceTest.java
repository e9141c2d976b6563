package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The list family's non-blocking commands (and the blocking ones where they need not wait: served
 * at once, timed out after a few milliseconds, or refused), byte for byte against redis-server 7.0,
 * in RESP2 and RESP3, and over long lists, on every target, with {@code list-compress-depth} 0, 1 and 2.
 */
class ListReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final String COMMON = """
        RPUSH {p}l a b c a x a 1 -2 9223372036854775807 ""
        LPUSH {p}l "\\x00\\r\\n" head
        LPUSHX {p}none a
        RPUSHX {p}l tail
        LLEN {p}l
        LLEN {p}none
        LRANGE {p}l 0 -1
        LRANGE {p}l -100 100
        LRANGE {p}l 5 1
        LRANGE {p}l x 1
        LRANGE {p}none 0 -1
        LINDEX {p}l 0
        LINDEX {p}l -1
        LINDEX {p}l 100
        LINDEX {p}l x
        LINDEX {p}none x
        LSET {p}l 1 changed
        LSET {p}l 100 v
        LSET {p}none 0 v
        LSET {p}l x v
        LPOS {p}l a
        LPOS {p}l a RANK 2
        LPOS {p}l a RANK -1 COUNT 0
        LPOS {p}l a RANK -9223372036854775808
        LPOS {p}l a COUNT 2 MAXLEN 4
        LPOS {p}l a RANK 0
        LPOS {p}l a COUNT -1
        LPOS {p}l a MAXLEN -1
        LPOS {p}l a RANK x
        LPOS {p}l a foo 1
        LPOS {p}l a RANK
        LPOS {p}none a
        LPOS {p}none a COUNT 1
        LINSERT {p}l BEFORE a before-a
        LINSERT {p}l AFTER tail after-tail
        LINSERT {p}l BEFORE nothing v
        LINSERT {p}none BEFORE a v
        LINSERT {p}l middle a v
        LREM {p}l 1 a
        LREM {p}l -1 a
        LREM {p}l 0 a
        LREM {p}l x a
        LRANGE {p}l 0 -1
        LTRIM {p}l 1 -2
        LRANGE {p}l 0 -1
        LTRIM {p}l x 1
        LTRIM {p}none 0 1
        LPOP {p}l
        RPOP {p}l 2
        LPOP {p}l 0
        LPOP {p}none
        LPOP {p}none 2
        LPOP {p}l -1
        LPOP {p}l 1 2
        RPOPLPUSH {p}l {p}l
        LMOVE {p}l {p}d LEFT RIGHT
        LMOVE {p}l {p}d RIGHT LEFT
        LMOVE {p}none {p}d LEFT LEFT
        LMOVE {p}l {p}d UP LEFT
        LRANGE {p}d 0 -1
        LMPOP 2 {p}none {p}d RIGHT COUNT 10
        LMPOP 1 {p}none LEFT
        LMPOP 0 {p}l LEFT
        LMPOP x {p}l LEFT
        LMPOP 3 {p}l LEFT
        LMPOP 1 {p}l LEFT COUNT 0
        LMPOP 1 {p}l LEFT COUNT 1 COUNT 2
        LMPOP 1 {p}l LEFT foo
        LMPOP 1 {p}l LEFT COUNT 2
        LMPOP 1 {p}l MIDDLE COUNT 0
        LMPOP 1 {p}l right COUNT x
        LMPOP 1 {p}l LEFT COUNT 1 foo
        LMPOP 0 {p}l MIDDLE
        LTRIM {p}l 5 1
        EXISTS {p}l {p}d
        SET {p}s v
        LPUSH {p}s a
        LRANGE {p}s 0 1
        LPOP {p}s
        LMOVE {p}s {p}x LEFT LEFT
        RPUSH {p}l2 v
        LMOVE {p}l2 {p}s LEFT LEFT
        LRANGE {p}l2 0 -1
        BLPOP {p}l2 0
        BLPOP {p}l2 0.01
        BRPOP {p}none {p}l2 0.01
        BLPOP {p}s 0.01
        BLPOP {p}none -1
        BLPOP {p}none inf
        BLPOP {p}none 1e100
        BLPOP {p}none abc
        BLPOP {p}none "1 "
        RPUSH {p}l2 a b c
        BRPOPLPUSH {p}l2 {p}l3 0
        BLMOVE {p}l2 {p}l3 LEFT LEFT 0.01
        BLMOVE {p}none {p}l3 LEFT LEFT 0.01
        BRPOPLPUSH {p}none {p}l3 0.01
        BLMOVE {p}l2 {p}l3 UP LEFT 0.01
        BLMPOP 0.01 2 {p}none {p}l3 LEFT COUNT 5
        BLMPOP 0.01 1 {p}none LEFT
        BLMPOP x 1 {p}none LEFT
        BLMPOP 0.01 0 {p}none LEFT
        BLMPOP 0.01 1 {p}none LEFT COUNT 0
        TYPE {p}l2
        CLIENT UNBLOCK 999999
        CLIENT UNBLOCK x
        CLIENT UNBLOCK 1 foo
        COMMAND GETKEYS LMPOP 2 a b LEFT
        COMMAND GETKEYS BLMPOP 0 1 a LEFT
        COMMAND INFO lpush lmpop blpop blmpop
        COMMAND DOCS lpos
        CONFIG GET list-max-listpack-size
        CONFIG GET list-max-ziplist-size
        CONFIG GET list-compress-depth
        """;

    /**
     * Every command over long lists of 8-entry nodes (list-max-listpack-size 8, set around each run),
     * which are LZF-compressed past the depth: values are repetitive text of 30-odd bytes.
     */
    private static final String LONG = longListScript();

    private static String longListScript() {
        StringBuilder push = new StringBuilder("RPUSH {p}long");
        StringBuilder other = new StringBuilder("RPUSH {p}other");
        for (int i = 0; i < 300; i++) {
            push.append(" value:").append(i % 7).append(":padding-padding-padding");
            other.append(" other:").append(i).append(":padding-padding");
        }
        return push + "\n" + other + "\n" + """
            OBJECT ENCODING {p}long
            LRANGE {p}long 0 -1
            LRANGE {p}long 100 130
            LRANGE {p}long -40 -20
            LINDEX {p}long 0
            LINDEX {p}long 8
            LINDEX {p}long 150
            LINDEX {p}long -9
            LSET {p}long 150 changed
            LSET {p}long 151 "a somewhat longer value that will not fit the node it lands in, so that it splits"
            LSET {p}long 152 12345
            LINSERT {p}long BEFORE changed before-changed
            LINSERT {p}long AFTER 12345 after-number
            LPOS {p}long changed
            LPOS {p}long value:3:padding-padding-padding RANK -2 COUNT 5
            LPOS {p}long value:4:padding-padding-padding COUNT 0 MAXLEN 100
            LREM {p}long 10 value:1:padding-padding-padding
            LREM {p}long -10 value:2:padding-padding-padding
            LREM {p}long 0 value:5:padding-padding-padding
            LRANGE {p}long 0 -1
            LTRIM {p}long 9 -12
            LRANGE {p}long 0 -1
            LPOP {p}long 17
            RPOP {p}long 17
            LMOVE {p}long {p}other LEFT RIGHT
            LMOVE {p}other {p}long LEFT LEFT
            RPOPLPUSH {p}long {p}other
            BLPOP {p}long 0
            BRPOP {p}other 0
            BLMOVE {p}long {p}other RIGHT LEFT 0
            BLMPOP 0 1 {p}long LEFT COUNT 3
            LMPOP 2 {p}none {p}other RIGHT COUNT 5
            LPUSH {p}long pushed-head
            RPUSH {p}long pushed-tail
            LRANGE {p}long 0 -1
            LRANGE {p}other 0 -1
            COPY {p}long {p}copy
            LRANGE {p}copy 0 -1
            LLEN {p}copy
            LTRIM {p}other 100 99
            EXISTS {p}other
            """;
    }

    static final List<String[]> SCRIPTS = List.of(
        new String[] {"lists-resp2", COMMON},
        new String[] {"lists-resp3", "HELLO 3\n" + COMMON},
        new String[] {"long-lists", LONG});

    static Stream<Arguments> scripts() {
        return Servers.all().flatMap(target -> IntStream.of(0, 1, 2).boxed().flatMap(depth ->
            SCRIPTS.stream().map(s -> Arguments.of(target, depth, s[0], s[1]))));
    }

    /** Sets the node size and compression on both servers; lists made from then on follow them. */
    private static void configure(RespClient reference, RespClient lacewing, int depth, String fill) {
        for (RespClient client : List.of(reference, lacewing)) {
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "list-compress-depth", Integer.toString(depth),
                "list-max-listpack-size", fill));
        }
    }

    @ParameterizedTest(name = "{0} list-compress-depth {1} {2}")
    @MethodSource("scripts")
    void repliesAsRedisDoes(Target target, int depth, String name, String text) {
        Script script = Script.parse(name, text, "list" + RUNS.incrementAndGet() + ":");
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            configure(reference, lacewing, depth, name.equals("long-lists") ? "8" : "-2");
            try {
                List<String> mismatches = ScriptComparison.mismatches(script, reference, lacewing);
                assertTrue(mismatches.isEmpty(), () -> ScriptComparison.report(mismatches));
            } finally {
                configure(reference, lacewing, 0, "-2");
            }
        }
    }
}
