package dev.lacewing.it.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.abort;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * redis-py (Debian's python3-redis, for /usr/bin/python3) as an application uses it, on every
 * engine and transport and on redis-server 7.0: each test runs one scenario of
 * src/test/python/redis_py_scenarios.py against the target and passes when the script's own
 * assertions did. Keys sit on both shards. Skipped with the reason where /usr/bin/python3 cannot
 * import redis. The availability check is guarded by the class's lock.
 */
class RedisPyClientTest {

    private static final String PYTHON = "/usr/bin/python3";
    private static final Path SCRIPT = Path.of(System.getProperty("lacewing.pythonClients", "src/test/python"),
        "redis_py_scenarios.py");
    private static final long SCRIPT_SECONDS = 60;

    private static boolean checked;
    private static String unavailable;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void pipelinesWithAndWithoutMultiReplyInOrder(ClientTarget target) {
        assertScenarioPasses("pipelines", target, target.key("redispy", "pipeline:counter", 0),
            target.key("redispy", "pipeline:hash", 1), target.key("redispy", "pipeline:list", 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void transactionRetriesOnceWhenAnotherClientChangesTheWatchedKey(ClientTarget target) {
        assertScenarioPasses("transaction", target, target.key("redispy", "transaction:balance", 0),
            target.key("redispy", "transaction:log", 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void lockBlocksASecondClientUntilReleaseAndExpiresAfterItsTimeout(ClientTarget target) {
        assertScenarioPasses("lock", target, target.key("redispy", "lock:held", 1),
            target.key("redispy", "lock:expiring", 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void registeredScriptFallsBackToEvalAfterScriptFlush(ClientTarget target) {
        assertScenarioPasses("script", target, target.key("redispy", "script", 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void pubsubReceivesSubscribeAndPatternMessages(ClientTarget target) {
        assertScenarioPasses("pubsub", target, target.key("redispy", "pubsub", 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void consumerGroupWorkersAckEveryJobOnceAndAutoclaimADeadConsumersEntries(ClientTarget target) {
        assertScenarioPasses("consumer_group", target, target.key("redispy", "jobs", 1),
            target.key("redispy", "jobs:acked", 0));
    }

    private static void assertScenarioPasses(String scenario, ClientTarget target, String... keys) {
        skipUnlessRedisPyIsInstalled();
        List<String> command = new ArrayList<>(List.of(PYTHON, SCRIPT.toString(), scenario,
            Integer.toString(target.port())));
        command.addAll(List.of(keys));
        ExternalClient.Execution run = execute(command, SCRIPT_SECONDS);
        assertEquals(0, run.exitStatus(), () -> scenario + " against " + target + ": " + run);
    }

    private static synchronized void skipUnlessRedisPyIsInstalled() {
        if (!checked) {
            checked = true;
            ExternalClient.Execution probe;
            try {
                probe = execute(List.of(PYTHON, "-c", "import redis"), 60);
            } catch (UncheckedIOException missing) {
                probe = new ExternalClient.Execution(-1, "", missing.getMessage());
            }
            if (probe.exitStatus() != 0) {
                unavailable = PYTHON + " cannot import redis (apt-get install python3-redis): "
                    + probe.stderr().strip();
            }
        }
        if (unavailable != null) {
            abort(unavailable);
        }
    }

    private static ExternalClient.Execution execute(List<String> command, long seconds) {
        try {
            return ExternalClient.run(command, Path.of("."), seconds);
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + command, e);
        }
    }
}
