package dev.lacewing.it.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * metrics-port: GET /metrics in Prometheus's text format 0.0.4 with redis_exporter's names, scraped
 * with java.net.http over a real socket; every sample's family has HELP and TYPE lines, label values
 * are quoted and escaped, and the figures move with the commands run: keys per shard, and the
 * latency percentiles of INFO latencystats as redis_exporter's summary.
 */
class MetricsEndpointTest {

    /** A sample line: name, optional {labels} (each value quoted, \\, \" and \n escaped), value. */
    private static final Pattern SAMPLE = Pattern.compile(
        "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\""
            + "(?:,[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\")*})? (\\S+)");

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void scrapesRedisExporterNamesThatMoveWithCommands(Target target) throws Exception {
        int metricsPort = freePort();
        try (LacewingServer server = Servers.builder(target).set("metrics-port", Integer.toString(metricsPort)).start();
             RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "a", "1");
            client.call("GET", "a");
            client.call("GET", "missing");
            client.call("HSET", "a", "f", "v");
            Map<String, Double> first = scrape(metricsPort);
            assertEquals(1.0, first.get("redis_up"));
            assertEquals(1.0, first.get("redis_db_keys{db=\"db0\"}"));
            assertEquals(0.0, first.get("redis_db_keys_expiring{db=\"db0\"}"));
            assertEquals(2.0, first.get("redis_commands_total{cmd=\"get\"}"));
            assertTrue(first.get("redis_commands_duration_seconds_total{cmd=\"get\"}") >= 0);
            assertEquals(1.0, first.get("redis_keyspace_hits_total"));
            assertEquals(1.0, first.get("redis_keyspace_misses_total"));
            assertEquals(1.0, first.get("redis_errors_total{err=\"WRONGTYPE\"}"));
            assertEquals(1.0, first.get("redis_connected_clients"));
            assertTrue(first.get("redis_memory_used_bytes") > 0);
            assertTrue(first.get("jvm_memory_used_bytes{area=\"heap\"}") > 0);
            for (String name : new String[] {"redis_uptime_in_seconds", "redis_blocked_clients", "redis_memory_max_bytes",
                "redis_commands_processed_total", "redis_expired_keys_total", "redis_evicted_keys_total",
                "redis_net_input_bytes_total", "redis_net_output_bytes_total"}) {
                assertTrue(first.containsKey(name), name + " in " + first.keySet());
            }
            assertTrue(first.keySet().stream().anyMatch(name -> name.startsWith("jvm_gc_collections_total{gc=")));

            client.call("MSET", "b", "1", "c", "2");
            client.call("EXPIRE", "b", "100");
            client.call("GET", "b");
            Map<String, Double> second = scrape(metricsPort);
            assertEquals(3.0, second.get("redis_db_keys{db=\"db0\"}"));
            assertEquals(1.0, second.get("redis_db_keys_expiring{db=\"db0\"}"));
            assertEquals(3.0, second.get("redis_commands_total{cmd=\"get\"}"));
            assertTrue(second.get("redis_commands_processed_total") > first.get("redis_commands_processed_total"));
            assertTrue(second.get("redis_net_input_bytes_total") > first.get("redis_net_input_bytes_total"));

            Map<String, Double> shardKeys = new HashMap<>();
            second.forEach((sample, value) -> {
                if (sample.startsWith("lacewing_shard_keys{shard=")) {
                    shardKeys.put(sample, value);
                }
            });
            assertEquals(server.state().engine().shardCount(), shardKeys.size(), shardKeys::toString);
            assertTrue(shardKeys.size() > 0);
            assertEquals(3.0, shardKeys.values().stream().mapToDouble(Double::doubleValue).sum(), shardKeys::toString);
            assertTrue(second.get("lacewing_shard_memory_bytes{shard=\"0\"}") >= 0);

            assertEquals(3.0, second.get("redis_latency_percentiles_usec_count{cmd=\"get\"}"));
            assertTrue(second.get("redis_latency_percentiles_usec_sum{cmd=\"get\"}") >= 0);
            for (String quantile : new String[] {"0.5", "0.99", "0.999"}) {
                Double value = second.get("redis_latency_percentiles_usec{cmd=\"get\",quantile=\"" + quantile + "\"}");
                assertTrue(value != null && value > 0, () -> quantile + " in " + second.keySet());
            }

            assertEquals(404, HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/other"))
                .build(), HttpResponse.BodyHandlers.discarding()).statusCode());
            assertEquals(405, HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode());
        }
    }

    /**
     * One scrape, checked as Prometheus's text format: a family's HELP and TYPE come before its
     * samples, counters' samples end in _total; returns each sample (name and labels as written) and value.
     */
    private static Map<String, Double> scrape(int port) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8",
            response.headers().firstValue("Content-Type").orElse(""));
        Set<String> helped = new HashSet<>();
        Map<String, String> types = new HashMap<>();
        Map<String, Double> samples = new HashMap<>();
        for (String line : response.body().split("\n")) {
            if (line.startsWith("# HELP ")) {
                helped.add(line.split(" ")[2]);
            } else if (line.startsWith("# TYPE ")) {
                String[] words = line.split(" ");
                assertTrue(Set.of("counter", "gauge", "summary").contains(words[3]), line);
                assertTrue(helped.contains(words[2]), "TYPE without HELP: " + line);
                types.put(words[2], words[3]);
            } else {
                Matcher matcher = SAMPLE.matcher(line);
                assertTrue(matcher.matches(), "not a sample line: " + line);
                String name = matcher.group(1);
                String family = types.containsKey(name) ? name : name.replaceAll("_(total|sum|count)$", "");
                assertTrue(types.containsKey(family), "sample before its TYPE: " + line);
                assertEquals(types.get(family).equals("counter"), name.endsWith("_total"), line);
                samples.put(name + (matcher.group(2) == null ? "" : matcher.group(2)),
                    Double.parseDouble(matcher.group(3)));
            }
        }
        return samples;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
