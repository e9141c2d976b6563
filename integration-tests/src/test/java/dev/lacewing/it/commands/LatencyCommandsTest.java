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
 * LATENCY LATEST, HISTORY, RESET, DOCTOR, GRAPH and HELP with latency-monitor-threshold, in Redis 7.0's reply
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
    void doctorAndGraphDescribeTheSpikes(Target target) {
        try (LacewingServer server = Servers.builder(target).set("enable-debug-command", "yes").start();
             RespClient client = RespClient.connect(server.port())) {
            assertTrue(((String) RespClient.parse(client.call("LATENCY", "DOCTOR")))
                .startsWith("I'm sorry, Dave, I can't do that. Latency monitoring is disabled"));
            assertEquals("-ERR No samples available for event 'command'\r\n", client.call("LATENCY", "GRAPH", "command"));
            client.call("CONFIG", "SET", "latency-monitor-threshold", "20");
            client.call("DEBUG", "SLEEP", "0.03");
            String doctor = (String) RespClient.parse(client.call("LATENCY", "DOCTOR"));
            assertTrue(doctor.startsWith("Dave, I have observed latency spikes in this Redis instance. You don't mind "
                + "talking about it, do you Dave?\n\n1. command: 1 latency spikes (average "), doctor);
            assertTrue(doctor.contains("\nI have a few advices for you:\n\n"), doctor);
            String graph = (String) RespClient.parse(client.call("LATENCY", "GRAPH", "command"));
            assertTrue(graph.matches("(?s)command - high \\d+ ms, low \\d+ ms \\(all time high \\d+ ms\\)\n-{80}\n"
                + " \n \n \n_\n \n\\d\n(\\d\n)?s\n"), graph);
            client.call("HELLO", "3");
            assertTrue(client.call("LATENCY", "GRAPH", "command").startsWith("="));
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
