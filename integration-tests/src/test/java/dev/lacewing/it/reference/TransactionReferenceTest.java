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
 * MULTI, EXEC, DISCARD, WATCH and UNWATCH, byte for byte against redis-server 7.0, in RESP2 and
 * RESP3, on every target: queued and runtime errors, nesting, commands refused inside MULTI,
 * blocking commands that may not block, SELECT inside a transaction, EXEC refused by dispatch,
 * SUBSCRIBE inside a transaction, subcommands unknown or of the wrong arity (refused at queue
 * time), and WATCH broken by the client's own write (another client's is in
 * TransactionCommandsTest).
 */
class TransactionReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final String COMMON = """
        MULTI
        SET {p}a 1
        INCR {p}a
        LPUSH {p}a x
        SET {p}b 2
        MGET {p}a {p}b {p}none
        EXEC
        MULTI
        SET {p}a 3
        GET
        NOSUCHCOMMAND x
        MULTI
        WATCH {p}a
        EXEC
        GET {p}a
        EXEC
        DISCARD
        MULTI
        SHUTDOWN
        DISCARD
        MULTI
        EXEC
        MULTI
        DEL {p}a {p}b
        DISCARD
        WATCH {p}a {p}b
        SET {p}b 9
        MULTI
        GET {p}a
        EXEC
        WATCH {p}a
        GET {p}a
        MULTI
        GET {p}a
        EXEC
        WATCH {p}a
        UNWATCH
        SET {p}a 5
        MULTI
        GET {p}a
        UNWATCH
        EXEC
        MULTI
        BLPOP {p}l 0
        BRPOPLPUSH {p}l {p}m 0
        BLMOVE {p}l {p}m LEFT LEFT 0
        BZPOPMIN {p}z 0
        BLMPOP 0 1 {p}l LEFT
        BZMPOP 0 1 {p}z MIN
        EXEC
        MULTI
        SELECT 1
        SET {p}a one
        GET {p}a
        SELECT 0
        GET {p}a
        EXEC
        SELECT 1
        DEL {p}a
        SELECT 0
        SELECT 1
        WATCH {p}w
        SELECT 0
        SET {p}w x
        SELECT 1
        MULTI
        PING
        EXEC
        WATCH {p}w
        SELECT 0
        MOVE {p}w 1
        SELECT 1
        MULTI
        PING
        EXEC
        DEL {p}w
        SELECT 0
        SET {p}w y
        WATCH {p}c
        COPY {p}w {p}c DB 2
        MULTI
        PING
        EXEC
        SELECT 2
        WATCH {p}c
        SELECT 0
        COPY {p}w {p}c DB 2 REPLACE
        MULTI
        PING
        EXEC
        SELECT 2
        DEL {p}c
        SELECT 0
        DEL {p}w
        SADD {p}s1 a b
        WATCH {p}s1
        SUNIONSTORE {p}s2 {p}s1
        MULTI
        PING
        EXEC
        WATCH {p}s2
        SUNIONSTORE {p}s2 {p}s1
        MULTI
        PING
        EXEC
        WATCH {p}s1 {p}s2
        ZUNIONSTORE {p}z2 2 {p}s1 {p}s2
        MULTI
        PING
        EXEC
        WATCH {p}s1
        SMOVE {p}s1 {p}s2 a
        MULTI
        PING
        EXEC
        DEL {p}s1 {p}s2 {p}z2
        WATCH {p}a
        EXEC foo
        SET {p}a 1
        MULTI
        EXEC foo
        EXEC
        MULTI
        XGROUP CREATE {p}x g
        EXEC
        MULTI
        XGROUP FOO
        XGROUP
        XINFO STREAM
        CONFIG GET
        OBJECT encoding
        CLIENT "\\x00x"
        XGROUP CREATE {p}x g $ MKSTREAM
        EXEC
        EXISTS {p}x
        MULTI
        SUBSCRIBE {p}c1
        PING
        EXEC
        PING
        MULTI
        EXEC
        UNSUBSCRIBE
        MULTI
        DEL {p}a {p}b {p}l {p}m {p}z
        EXEC
        """;

    static final List<String[]> SCRIPTS = List.of(
        new String[] {"transactions-resp2", COMMON},
        new String[] {"transactions-resp3", "HELLO 3\n" + COMMON});

    static Stream<Arguments> scripts() {
        return Servers.all().flatMap(target -> SCRIPTS.stream().map(s -> Arguments.of(target, s[0], s[1])));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void repliesAsRedisDoes(Target target, String name, String text) {
        Script script = Script.parse(name, text, "tx" + RUNS.incrementAndGet() + ":");
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            List<String> mismatches = ScriptComparison.mismatches(script, reference, lacewing);
            assertTrue(mismatches.isEmpty(), () -> ScriptComparison.report(mismatches));
        }
    }
}
