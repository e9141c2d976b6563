package dev.lacewing.it.reference.differential;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.junit.LacewingTest;
import dev.lacewing.it.reference.DeliberateDifferences;
import dev.lacewing.it.reference.ReferenceRedisExtension;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import dev.lacewing.it.server.TypedValueFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Differential testing: seeded random sequences of the families {@link Families} enables go to
 * Debian's redis-server 7.0 and to Lacewing, each engine on each storage over the default
 * transport (its own server, with two shards in the shared-nothing engine so that keys and
 * multi-key commands cross shards; tiered with every string on disk, as {@link Servers#builder}
 * makes it), and every reply must agree, byte for byte except where a {@link ReplyCheck} or
 * {@code DeliberateDifferences} says how. On a mismatch the test prints the seed and the
 * shortest sequence found that reproduces it ({@link Shrinker}), as a redis-cli script.
 *
 * <p>Bounded: {@code differential.commands} calls per target (default {@value #DEFAULT_COMMANDS},
 * a few seconds per target on two cores), cut into sequences of {@code differential.length} calls
 * with seeds {@code differential.seed}, +1, +2...; a larger count runs locally, see
 * docs/testing.md.
 */
class DifferentialTest {

    static final int DEFAULT_COMMANDS = 10_000;

    private static final int COMMANDS = Integer.getInteger("differential.commands", DEFAULT_COMMANDS);
    private static final int LENGTH = Integer.getInteger("differential.length", 500);
    private static final long SEED = Long.getLong("differential.seed", 20_261_202L);
    private static final int SHARDS = 2;
    /** Replays one shrink may take; ddmin needs about n log n for n calls. */
    private static final int MAX_SHRINK_REPLAYS = 3000;
    /** Mismatches shrunk and reported per target; later sequences still run and are counted. */
    private static final int MAX_REPORTED = 5;

    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    @BeforeAll
    static void reportWhatIsGenerated() {
        System.out.println(Families.report());
        StringBuilder avoided = new StringBuilder("differential: not generated:");
        DeliberateDifferences.AVOIDED.forEach(a -> avoided.append("\n  ").append(a.behaviour()).append(": ")
            .append(a.why()));
        System.out.println(avoided);
    }

    /** Each engine on each storage, over the default transport. */
    static Stream<Target> targets() {
        return Servers.ENGINES.stream().flatMap(engine -> Stream.of(LacewingTest.Storage.values())
            .map(storage -> new Target(engine, "auto", storage.settingValue())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void randomSequencesReplyAsRedisDoes(Target target) {
        Assumptions.assumeFalse(Families.running().isEmpty(), "-Ddifferential.families names none of these families");
        LacewingServer server = Servers.builder(target).threads(SHARDS).start();
        try {
            server.state().addCommands(new TypedValueFixture());
            assertEnabledCommandsExist(server.port());
            Replay replay = new Replay(redis.port(), server.port());
            List<String> reports = new ArrayList<>();
            int mismatches = 0;
            long started = System.nanoTime();
            for (int sent = 0, i = 0; sent < COMMANDS; i++) {
                int length = Math.min(LENGTH, COMMANDS - sent);
                Sequence sequence = Sequence.generate(SEED + i, length, Families.running());
                sent += length;
                Optional<Replay.Mismatch> mismatch = replay.firstMismatch(sequence.calls());
                if (mismatch.isPresent()) {
                    mismatches++;
                    if (reports.size() < MAX_REPORTED) {
                        reports.add(report(target, sequence, mismatch.get(), replay));
                    }
                }
            }
            System.out.printf("differential %s: %d commands in sequences of %d from seed %d, %d mismatching"
                + " sequences, %.1f s; %s%n", target, COMMANDS, LENGTH, SEED, mismatches,
                (System.nanoTime() - started) / 1e9, replay.tally());
            int found = mismatches;
            assertTrue(reports.isEmpty(), () -> found + " of the sequences differ from Redis on " + target
                + "; the first " + reports.size() + ":\n\n" + String.join("\n\n", reports));
        } finally {
            server.close();
        }
    }

    /** Enabling a family before its commands are merged fails here, naming the command. */
    private static void assertEnabledCommandsExist(int port) {
        try (RespClient client = RespClient.connect(port)) {
            for (CommandGenerator generator : Families.running()) {
                for (String command : generator.commands()) {
                    String info = client.call("COMMAND", "INFO", command);
                    assertFalse(info.contains("*-1\r\n") || info.contains("$-1\r\n"), () -> "family "
                        + generator.family() + " is enabled in Families but Lacewing has no " + command);
                }
            }
        }
    }

    private static String report(Target target, Sequence sequence, Replay.Mismatch mismatch, Replay replay) {
        Shrinker.Result<Call, Replay.Mismatch> shrunk = Shrinker.of(replay, MAX_SHRINK_REPLAYS)
            .shrink(sequence.calls(), mismatch);
        StringBuilder text = new StringBuilder();
        text.append("target ").append(target).append(", seed ").append(sequence.seed())
            .append(sequence.resp3() ? " (RESP3)" : " (RESP2)").append(", call ").append(mismatch.index() + 1)
            .append(" of ").append(sequence.calls().size()).append(": ").append(escape(mismatch.call().words()))
            .append("\n  redis:    ").append(escape(shrunk.mismatch().redis()))
            .append("\n  lacewing: ").append(escape(shrunk.mismatch().lacewing()))
            .append("\nrerun: -Ddifferential.seed=").append(sequence.seed()).append(" -Ddifferential.commands=")
            .append(sequence.calls().size())
            .append("\nshortest reproducing sequence (").append(shrunk.calls().size()).append(" calls, ")
            .append(shrunk.minimal() ? "1-minimal" : "shrinking stopped at its replay limit").append(", ")
            .append(shrunk.replays()).append(" replays), for redis-cli:\n");
        text.append("FLUSHALL\nSCRIPT FLUSH\n");
        for (Call call : shrunk.calls()) {
            call.redisCliLines().forEach(line -> text.append(line).append('\n'));
        }
        return text.toString();
    }

    private static String escape(String text) {
        return RespClient.escape(text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    /**
     * Every family's generator, enabled or not, speaks Redis: a few hundred of its calls sent to
     * redis-server alone meet no unknown command, the blocking ones return (their timeouts are
     * short), and most are not rejected for their syntax, so a family is ready the day it is
     * enabled.
     */
    @Test
    void everyGeneratorSpeaksRedis() {
        for (Families.Family family : Families.all()) {
            if (family.generator() instanceof ForeignTypeFixtureGenerator) {
                continue;
            }
            Draw draw = new Draw(SEED);
            int rejected = 0;
            int calls = 300;
            try (RespClient client = RespClient.connect(redis.port())) {
                client.call("FLUSHALL");
                for (int i = 0; i < calls; i++) {
                    Call call = family.generator().next(draw);
                    String reply = RespClient.text(client.callBytes(call.arguments()));
                    assertFalse(reply.startsWith("-ERR unknown command"), () -> family.name() + ": " + reply);
                    if (reply.startsWith("-ERR syntax error") || reply.startsWith("-ERR wrong number")) {
                        rejected++;
                    }
                }
            }
            int syntaxErrors = rejected;
            assertTrue(syntaxErrors < calls / 3, () -> family.name() + ": " + syntaxErrors + " of " + calls
                + " calls rejected as syntax or arity errors");
        }
    }
}
