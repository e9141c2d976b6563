package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.junit.LacewingMatrix;
import dev.lacewing.junit.LacewingTest;
import dev.lacewing.junit.LacewingServerInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The latency monitor's events after scripts, against redis-server 7.0: Redis's scriptCall runs each
 * command through call(), which samples it as any client's command, so a FAST command a script
 * runs over latency-monitor-threshold is a "fast-command" event beside the script's own "command".
 * The slow FAST command is a GET of a 64 MiB string (made by SETRANGE) with the threshold at 1 ms:
 * its copy takes longer than that on any machine, and a busier machine only makes it slower.
 * Times and latencies differ by nature: the events' names are compared, and the number of
 * "fast-command" samples (one: the LATENCY commands themselves, slow on a busy machine, are not FAST,
 * so "command" may hold a sample of theirs beside the script's).
 */
class LatencyReferenceTest {

    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final List<List<String>> RUNS = List.of(
        List.of("EVAL", "redis.call('get',KEYS[1]) return 1", "1", "{r}big"),
        List.of("EVAL", "redis.pcall('get',KEYS[1]) return 1", "1", "{r}big"),
        List.of("FCALL", "getbig", "1", "{r}big"));

    @SuppressWarnings("unchecked")
    private static List<Object> observed(int port) {
        try (RespClient client = RespClient.connect(port)) {
            client.call("SETRANGE", "{r}big", String.valueOf(64 * 1024 * 1024 - 1), "x");
            client.call("FUNCTION", "LOAD", "REPLACE", "#!lua name=latencylib\nredis.register_function('getbig', "
                + "function(keys, args) redis.call('get', keys[1]) return 1 end)");
            client.call("CONFIG", "SET", "latency-monitor-threshold", "1");
            List<Object> observed = new ArrayList<>();
            for (List<String> run : RUNS) {
                client.call("LATENCY", "RESET");
                observed.add(client.call(run.toArray(String[]::new)));
                List<String> events = new ArrayList<>();
                for (Object latest : (List<Object>) RespClient.parse(client.call("LATENCY", "LATEST"))) {
                    events.add((String) ((List<Object>) latest).get(0));
                }
                events.sort(null);
                observed.add(events);
                observed.add(((List<Object>) RespClient.parse(client.call("LATENCY", "HISTORY", "fast-command"))).size());
            }
            client.call("CONFIG", "SET", "latency-monitor-threshold", "0");
            client.call("LATENCY", "RESET");
            client.call("FUNCTION", "DELETE", "latencylib");
            client.call("DEL", "{r}big");
            return observed;
        }
    }

    @LacewingMatrix(storages = {LacewingTest.Storage.COMPACT, LacewingTest.Storage.TIERED}, settings = "threads 2")
    void aScriptsSlowCommandsAreLatencyEventsAsInRedis(LacewingServerInfo server) {
        assertEquals(observed(redis.port()), observed(server.port()));
    }
}
