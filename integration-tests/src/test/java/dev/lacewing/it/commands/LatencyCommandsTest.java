package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * LATENCY LATEST, HISTORY, RESET and HELP with latency-monitor-threshold, in Redis 7.0's reply
 * shapes: nothing recorded while the threshold is 0; a command at or over it is sampled under
 * "command" (FAST commands under "fast-command"), one sample per second.
 */
class LatencyCommandsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void recordsCommandsOverTheThreshold(Target target) {
        try (LacewingServer server = Servers.builder(target).set("enable-debug-command", "yes").start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("DEBUG", "SLEEP", "0.03"));
            assertEquals("*0\r\n", client.call("LATENCY", "LATEST"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "latency-monitor-threshold", "20"));
            long before = System.currentTimeMillis() / 1000;
            client.call("DEBUG", "SLEEP", "0.03");
            client.call("DEBUG", "SLEEP", "0");
            List<?> latest = (List<?>) RespClient.parse(client.call("LATENCY", "LATEST"));
            assertEquals(1, latest.size());
            List<?> command = (List<?>) latest.get(0);
            assertEquals("command", command.get(0));
            long time = (Long) command.get(1);
            assertTrue(time >= before && time <= before + 60, command.toString());
            assertTrue((Long) command.get(2) >= 30 && command.get(3).equals(command.get(2)), command.toString());
            List<?> history = (List<?>) RespClient.parse(client.call("LATENCY", "HISTORY", "command"));
            assertEquals(List.of(List.of(command.get(1), command.get(2))), history);
            assertEquals("*0\r\n", client.call("LATENCY", "HISTORY", "nosuch"));
            assertEquals(":1\r\n", client.call("LATENCY", "RESET", "nosuch", "command"));
            assertEquals("*0\r\n", client.call("LATENCY", "LATEST"));
            client.call("DEBUG", "SLEEP", "0.025");
            assertEquals(":1\r\n", client.call("LATENCY", "RESET"));
            assertEquals(":0\r\n", client.call("LATENCY", "RESET"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void badArgumentsGetRedisErrors(Target target) {
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            assertEquals("-ERR wrong number of arguments for 'latency|latest' command\r\n",
                client.call("LATENCY", "LATEST", "x"));
            assertEquals("-ERR wrong number of arguments for 'latency|history' command\r\n",
                client.call("LATENCY", "HISTORY"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'latency-monitor-threshold') - argument "
                + "must be between 0 and 9223372036854775807 inclusive\r\n",
                client.call("CONFIG", "SET", "latency-monitor-threshold", "-1"));
            assertEquals(17, RespClient.elements(client.call("LATENCY", "HELP")).size());
        }
    }
}
