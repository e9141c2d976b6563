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
 * MULTI, EXEC and DISCARD, byte for byte against redis-server 7.0, in RESP2 and RESP3, on every
 * target: queued and runtime errors, nesting, commands refused inside MULTI, blocking commands
 * that may not block, SELECT inside a transaction.
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
