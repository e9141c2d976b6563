package dev.lacewing.it.reference.differential;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.reference.ReferenceRedisExtension;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pub/sub family of the differential test: seeded random {@link PubSubScenario}s on several
 * connections go to redis-server and to each engine (two shards, so that subscribers and
 * publishers sit on different threads), and after every step each connection's replies and
 * pushed messages must agree in order ({@link PubSubReplay}). On a mismatch it prints the seed
 * and the shortest scenario found that reproduces it, one line per step with its connection.
 *
 * <p>Bounded: {@code differential.pubsub.steps} steps per engine (default
 * {@value #DEFAULT_STEPS}, a few seconds), cut into scenarios of {@code differential.pubsub.length}
 * steps with seeds {@code differential.seed}, +1, +2...; it runs unless {@code
 * -Ddifferential.families} names families without {@code pubsub}.
 */
class PubSubDifferentialTest {

    static final int DEFAULT_STEPS = 3_000;

    private static final int STEPS = Integer.getInteger("differential.pubsub.steps", DEFAULT_STEPS);
    private static final int LENGTH = Integer.getInteger("differential.pubsub.length", 300);
    private static final long SEED = Long.getLong("differential.seed", 20_261_202L);
    private static final int SHARDS = 2;
    private static final int MAX_SHRINK_REPLAYS = 1500;
    private static final int MAX_REPORTED = 3;

    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    static Stream<String> engines() {
        return Servers.ENGINES.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void pubSubScenariosDeliverAsRedisDoes(String engine) {
        String named = System.getProperty("differential.families", "");
        Assumptions.assumeTrue(named.isEmpty() || List.of(named.split(",")).contains("pubsub"),
            "-Ddifferential.families does not name pubsub");
        LacewingServer server = LacewingServer.builder().port(0).engine(engine).threads(SHARDS)
            .set("dir", Servers.freshDirectory().toString()).set("save", "").start();
        try {
            PubSubScenario scenarios = new PubSubScenario(Families.running());
            PubSubReplay replay = new PubSubReplay(redis.port(), server.port());
            List<String> reports = new ArrayList<>();
            int mismatches = 0;
            long started = System.nanoTime();
            for (int sent = 0, i = 0; sent < STEPS; i++) {
                int length = Math.min(LENGTH, STEPS - sent);
                List<PubSubScenario.Step> steps = scenarios.generate(SEED + i, length);
                sent += length;
                Optional<PubSubReplay.Mismatch> mismatch = replay.firstMismatch(steps);
                if (mismatch.isPresent()) {
                    mismatches++;
                    if (reports.size() < MAX_REPORTED) {
                        reports.add(report(engine, SEED + i, steps, mismatch.get(), replay));
                    }
                }
            }
            System.out.printf("differential pubsub %s: %d steps in scenarios of %d from seed %d, %d mismatching"
                + " scenarios, %.1f s; %s%n", engine, STEPS, LENGTH, SEED, mismatches,
                (System.nanoTime() - started) / 1e9, replay.tally());
            int found = mismatches;
            assertTrue(reports.isEmpty(), () -> found + " of the pub/sub scenarios differ from Redis on " + engine
                + "; the first " + reports.size() + ":\n\n" + String.join("\n\n", reports));
        } finally {
            server.close();
        }
    }

    private static String report(String engine, long seed, List<PubSubScenario.Step> steps,
                                 PubSubReplay.Mismatch mismatch, PubSubReplay replay) {
        Shrinker.Result<PubSubScenario.Step, PubSubReplay.Mismatch> shrunk = new Shrinker<>(replay::firstMismatch,
            PubSubReplay.Mismatch::index, PubSubDifferentialTest::kind, MAX_SHRINK_REPLAYS)
            .shrink(steps, mismatch);
        PubSubReplay.Mismatch last = shrunk.mismatch();
        StringBuilder text = new StringBuilder();
        text.append("engine ").append(engine).append(", seed ").append(seed).append(", step ")
            .append(mismatch.index() + 1).append(" of ").append(steps.size()).append(": ").append(line(mismatch.step()))
            .append("\n  frames on connection ").append(last.connection())
            .append(" after the shortest sequence's last step:")
            .append("\n  redis:    ").append(frames(last.redis()))
            .append("\n  lacewing: ").append(frames(last.lacewing()))
            .append("\nrerun: -Ddifferential.seed=").append(seed).append(" -Ddifferential.pubsub.steps=")
            .append(steps.size()).append(" -Ddifferential.pubsub.length=").append(steps.size())
            .append("\nshortest reproducing scenario (").append(shrunk.calls().size()).append(" steps, ")
            .append(shrunk.minimal() ? "1-minimal" : "shrinking stopped at its replay limit").append(", ")
            .append(shrunk.replays()).append(" replays), connection: redis-cli line(s):\n");
        for (PubSubScenario.Step step : shrunk.calls()) {
            text.append(line(step)).append('\n');
        }
        return text.toString();
    }

    /** The same failure: the same command, seen on the stepping connection or on another one. */
    private static String kind(PubSubReplay.Mismatch mismatch) {
        List<Call> calls = mismatch.step().calls();
        boolean own = mismatch.connection() == mismatch.step().connection();
        return calls.get(calls.size() - 1).name() + (own ? "" : " (other)");
    }

    private static String line(PubSubScenario.Step step) {
        return "c" + step.connection() + ": " + String.join(" ; ", step.calls().stream()
            .map(call -> Call.redisCliLine(call.arguments())).toList());
    }

    private static String frames(List<String> frames) {
        return String.join(" | ", frames.stream()
            .map(frame -> RespClient.escape(frame.getBytes(StandardCharsets.ISO_8859_1))).toList());
    }
}
