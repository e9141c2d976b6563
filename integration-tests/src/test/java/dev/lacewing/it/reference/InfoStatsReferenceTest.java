package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * INFO's statistics that move with the commands run, against redis-server 7.0 after the same
 * commands: keyspace_hits and keyspace_misses (read lookups only, MULTI's and split MGET's
 * included), the errorstats section by error prefix, and failed_calls/rejected_calls in
 * commandstats; then the fields with no reference value: run_id, config_file and the
 * instantaneous_* rates.
 */
class InfoStatsReferenceTest {

    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final List<List<String>> COMMANDS = List.of(
        List.of("SET", "{i}k", "v"),
        List.of("GET", "{i}k"),
        List.of("GET", "{i}none"),
        List.of("MGET", "{i}k", "{i}none", "other", "k"),
        List.of("EXISTS", "{i}k", "{i}none"),
        List.of("STRLEN", "{i}k"),
        List.of("INCR", "{i}n"),
        List.of("APPEND", "{i}k", "x"),
        List.of("INCR", "{i}k"),
        List.of("LPUSH", "{i}k", "x"),
        List.of("NOSUCH"),
        List.of("GET"),
        List.of("MULTI"),
        List.of("GET", "{i}k"),
        List.of("HGET", "{i}h", "f"),
        List.of("INCR", "{i}k"),
        List.of("EXEC"),
        List.of("DEL", "{i}k", "{i}n"));

    private static Map<String, String> observed(int port) {
        try (RespClient client = RespClient.connect(port)) {
            client.call("CONFIG", "RESETSTAT");
            for (List<String> command : COMMANDS) {
                client.call(command.toArray(String[]::new));
            }
            Map<String, String> fields = new LinkedHashMap<>();
            String info = (String) RespClient.parse(client.call("INFO", "everything"));
            for (String line : info.split("\r\n")) {
                int colon = line.indexOf(':');
                if (line.startsWith("keyspace_") || line.startsWith("errorstat_") || line.startsWith("cmdstat_incr")
                    || line.startsWith("cmdstat_get:") || line.startsWith("cmdstat_lpush")) {
                    fields.put(line.substring(0, colon), line.substring(colon + 1).replaceAll("usec=\\d+,usec_per_call=[\\d.]+,", ""));
                }
            }
            return fields;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void hitsMissesErrorsAndCallsMatchRedis(Target target) {
        try (LacewingServer server = Servers.builder(target).start()) {
            assertEquals(observed(redis.port()), observed(server.port()));
        }
    }

    private static Map<String, String> info(RespClient client, String section) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : ((String) RespClient.parse(client.call("INFO", section))).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void runIdConfigFileAndInstantaneousRates(Target target) throws InterruptedException {
        try (LacewingServer server = Servers.builder(target).start(); RespClient client = RespClient.connect(server.port())) {
            Map<String, String> first = info(client, "server");
            assertTrue(first.get("run_id").matches("[0-9a-f]{40}"), first.get("run_id"));
            assertTrue(first.containsKey("config_file"));
            try (LacewingServer other = Servers.builder(target).start(); RespClient otherClient = RespClient.connect(other.port())) {
                assertNotEquals(first.get("run_id"), info(otherClient, "server").get("run_id"));
            }
            byte[] pings = "PING\r\n".repeat(200).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            long deadline = System.currentTimeMillis() + 5_000;
            Map<String, String> stats = info(client, "stats");
            for (int round = 0; round < 100 && System.currentTimeMillis() < deadline
                && Long.parseLong(stats.get("instantaneous_ops_per_sec")) == 0; round++) {
                client.send(pings);
                for (int i = 0; i < 200; i++) {
                    client.readReply();
                }
                Thread.sleep(20);
                stats = info(client, "stats");
            }
            assertTrue(Long.parseLong(stats.get("instantaneous_ops_per_sec")) > 0, stats.toString());
            assertTrue(Double.parseDouble(stats.get("instantaneous_input_kbps")) > 0, stats.toString());
            assertTrue(Double.parseDouble(stats.get("instantaneous_output_kbps")) > 0, stats.toString());
        }
    }

    /** Fields dashboards read: present in both servers' INFO EVERYTHING; the machine's memory the same figure. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void fieldsRedisHasAreThere(Target target) {
        List<String> names = List.of("run_id", "config_file", "configured_hz", "multiplexing_api", "process_supervised",
            "instantaneous_ops_per_sec", "instantaneous_input_kbps", "instantaneous_output_kbps", "keyspace_hits",
            "keyspace_misses", "pubsub_channels", "pubsub_patterns", "pubsubshard_channels", "total_reads_processed",
            "total_writes_processed", "used_memory_peak_human", "mem_fragmentation_bytes", "mem_fragmentation_ratio",
            "total_system_memory", "total_system_memory_human", "used_cpu_sys_children", "used_cpu_user_children",
            "total_net_input_bytes", "total_net_output_bytes");
        try (LacewingServer server = Servers.builder(target).start(); RespClient client = RespClient.connect(server.port());
             RespClient reference = RespClient.connect(redis.port())) {
            Map<String, String> ours = info(client, "everything");
            Map<String, String> theirs = info(reference, "everything");
            for (String name : names) {
                assertTrue(theirs.containsKey(name), "redis-server has " + name);
                assertTrue(ours.containsKey(name), "Lacewing has " + name);
            }
            assertEquals(theirs.get("total_system_memory"), ours.get("total_system_memory"));
            try (RespClient subscriber = RespClient.connect(server.port())) {
                subscriber.call("SUBSCRIBE", "c1");
                subscriber.call("PSUBSCRIBE", "p*");
                Map<String, String> stats = info(client, "stats");
                assertEquals("1", stats.get("pubsub_channels"));
                assertEquals("1", stats.get("pubsub_patterns"));
                assertTrue(Long.parseLong(stats.get("total_reads_processed")) >= 3);
            }
        }
    }
}
