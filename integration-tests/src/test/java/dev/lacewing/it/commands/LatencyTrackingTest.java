package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Redis 7.0's latency tracking: LATENCY HISTOGRAM's per-command {@code calls} and cumulative
 * {@code histogram_usec} buckets in powers of two (RESP2 arrays, RESP3 maps), INFO latencystats'
 * percentile lines, {@code latency-tracking} and {@code latency-tracking-info-percentiles}, and
 * CONFIG RESETSTAT.
 */
class LatencyTrackingTest {

    /** highest_equivalent_value(1024 * 2^k) / 1000 for hdr_histogram's two significant digits. */
    private static final List<Long> BUCKET_MICROS = List.of(1L, 2L, 4L, 8L, 16L, 33L, 66L, 132L, 264L, 528L,
        1056L, 2113L, 4227L, 8454L, 16908L, 33816L, 67633L, 135266L, 270532L, 541065L, 1082130L);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void histogramCountsEachCommandsCallsInCumulativeBuckets(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            for (int i = 0; i < 3; i++) {
                client.call("SET", "k" + i, "v");
            }
            client.call("GET", "k0");
            client.call("GET", "k1");
            client.call("CLIENT", "LIST");
            List<?> reply = (List<?>) RespClient.parse(client.call("LATENCY", "HISTOGRAM", "set", "get", "client",
                "nosuch"));
            assertEquals(List.of("set", "get", "client|list"), List.of(reply.get(0), reply.get(2), reply.get(4)));
            assertHistogram(3, (List<?>) reply.get(1));
            assertHistogram(2, (List<?>) reply.get(3));
            assertHistogram(1, (List<?>) reply.get(5));
            assertEquals("*0\r\n", client.call("LATENCY", "HISTOGRAM", "nosuch"));
            List<?> all = (List<?>) RespClient.parse(client.call("LATENCY", "HISTOGRAM"));
            assertTrue(all.containsAll(List.of("set", "get", "client|list", "latency|histogram")), all.toString());

            client.call("HELLO", "3");
            String resp3 = client.call("LATENCY", "HISTOGRAM", "get");
            assertTrue(resp3.startsWith("%1\r\n$3\r\nget\r\n%2\r\n$5\r\ncalls\r\n:2\r\n$14\r\nhistogram_usec\r\n%"),
                resp3);
        }
    }

    /** {@code calls N histogram_usec [micros cumulative ...]}: bucket bounds rise, counts rise to N. */
    private static void assertHistogram(long calls, List<?> histogram) {
        assertEquals(List.of("calls", calls, "histogram_usec"), histogram.subList(0, 3));
        List<?> buckets = (List<?>) histogram.get(3);
        assertFalse(buckets.isEmpty());
        long previousCount = 0;
        int previousBucket = -1;
        for (int i = 0; i < buckets.size(); i += 2) {
            int bucket = BUCKET_MICROS.indexOf(buckets.get(i));
            long count = (Long) buckets.get(i + 1);
            assertTrue(bucket > previousBucket && count > previousCount, buckets.toString());
            previousBucket = bucket;
            previousCount = count;
        }
        assertEquals(calls, previousCount, buckets.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void infoLatencystatsReportsTheConfiguredPercentiles(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            client.call("SET", "k", "v");
            String info = client.call("INFO", "latencystats");
            assertTrue(info.contains("# Latencystats\r\n"), info);
            assertTrue(Pattern.compile("latency_percentiles_usec_set:p50=\\d+\\.\\d{3},p99=\\d+\\.\\d{3},p99\\.9=\\d+\\.\\d{3}\r\n")
                .matcher(info).find(), info);
            assertFalse(client.call("INFO").contains("# Latencystats"));
            assertTrue(client.call("INFO", "everything").contains("latency_percentiles_usec_set:"));
            assertTrue(client.call("INFO", "all").contains("latency_percentiles_usec_set:"));

            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "latency-tracking-info-percentiles", "50.0 99.99 0"));
            assertEquals(List.of("latency-tracking-info-percentiles", "50 99.99 0"),
                RespClient.parse(client.call("CONFIG", "GET", "latency-tracking-info-percentiles")));
            assertTrue(Pattern.compile("latency_percentiles_usec_set:p50=[0-9.]+,p99.99=[0-9.]+,p0=[0-9.]+\r\n")
                .matcher(client.call("INFO", "latencystats")).find());
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'latency-tracking-info-percentiles') - "
                + "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]\r\n",
                client.call("CONFIG", "SET", "latency-tracking-info-percentiles", "50 101"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'latency-tracking-info-percentiles') - "
                + "Invalid latency-tracking-info-percentiles parameters\r\n",
                client.call("CONFIG", "SET", "latency-tracking-info-percentiles", "abc"));

            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "latency-tracking", "no"));
            client.call("SET", "k", "v");
            assertEquals("# Latencystats", RespClient.parse(client.call("INFO", "latencystats")).toString().strip());
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "latency-tracking", "yes"));
            List<?> set = (List<?>) RespClient.parse(client.call("LATENCY", "HISTOGRAM", "set"));
            assertEquals(1L, ((List<?>) set.get(1)).get(1), "a SET while tracking was off is not recorded");

            assertEquals("+OK\r\n", client.call("CONFIG", "RESETSTAT"));
            assertEquals("*0\r\n", client.call("LATENCY", "HISTOGRAM", "set"));
        }
    }
}
