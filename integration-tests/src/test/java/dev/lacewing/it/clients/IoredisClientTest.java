package dev.lacewing.it.clients;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.lacewing.it.resp.RespClient;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ioredis 5 (Node) as an application uses it, on every engine and transport and on redis-server
 * 7.0: each test runs one script of src/test/node ({@link NodeClients}) against the target and
 * passes when the script's own assertions did. Keys sit on both shards. Skipped with the reason
 * where node or npm is missing or the install fails.
 */
class IoredisClientTest {

    private static void assertScriptPasses(String script, ClientTarget target, String... arguments) {
        NodeClients.Run run = NodeClients.run(script, target.port(), arguments);
        assertTrue(run.passed(), () -> script + " against " + target + ": " + run);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void multiExecIsAtomicAndRepliesInQueueOrder(ClientTarget target) {
        assertScriptPasses("multi.js", target, target.key("ioredis", "multi:a", 0),
            target.key("ioredis", "multi:b", 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void thousandPipelinedCommandsReplyInOrder(ClientTarget target) {
        assertScriptPasses("pipeline.js", target, target.key("ioredis", "pipeline", 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void watchedKeyChangedByAnotherClientMakesExecResolveNull(ClientTarget target) {
        assertScriptPasses("watch.js", target, target.key("ioredis", "watch:a", 0),
            target.key("ioredis", "watch:b", 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void subscribeAndPsubscribeReceiveOnePublishersMessagesInOrder(ClientTarget target) {
        assertScriptPasses("pubsub.js", target, target.key("ioredis", "pubsub", 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void clientsKilledWithClientKillReconnectAndSubscribeAgain(ClientTarget target) {
        assertScriptPasses("reconnect.js", target, target.key("ioredis", "reconnect", 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.clients.ClientTarget#all")
    void defineCommandRunsByEvalThenEvalsha(ClientTarget target) {
        try (RespClient client = RespClient.connect(target.port())) {
            assumeFalse(client.call("EVAL", "return 1", "0").startsWith("-ERR unknown command"),
                "EVAL not built yet");
        }
        assertScriptPasses("define-command.js", target, target.key("ioredis", "define-command", 1));
    }
}
