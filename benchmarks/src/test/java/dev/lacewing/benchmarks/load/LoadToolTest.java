package dev.lacewing.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.core.server.LacewingServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tool against an embedded Lacewing over a real socket: about one second of mixed load. */
class LoadToolTest {

    @Test
    void aOneSecondMixedRunReportsSaneNumbersAndNoErrors(@TempDir Path directory) throws Exception {
        Path json = directory.resolve("result.json");
        try (LacewingServer server = LacewingServer.builder().port(0).engine("multithread").transport("nio")
            .set("save", "").threads(1).start()) {
            LoadOptions options = LoadOptions.parse("-s", "127.0.0.1", "-p", Integer.toString(server.port()),
                "-t", "2", "-c", "4", "--pipeline=8", "--test-time=1", "--ratio=1:1", "-d", "64",
                "--data-size-pattern=S", "--random-data", "--key-minimum=200", "--key-maximum=1000",
                "--key-pattern=G:G", "--json-out-file=" + json);
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            LoadReport report = LoadTool.run(options, new PrintStream(text, true, StandardCharsets.UTF_8), null, false);

            assertNull(report.connectionError());
            assertEquals(0, report.totalErrors(), report.firstError());
            assertTrue(report.totalRequests() > 100, Long.toString(report.totalRequests()));
            String output = text.toString(StandardCharsets.UTF_8);
            assertTrue(output.contains("ALL STATS") && output.contains("Request Latency Distribution"), output);

            String result = Files.readString(json);
            String totals = result.substring(result.indexOf("\"Totals\""));
            double ops = number(totals, "Ops/sec");
            double average = number(totals, "Average Latency");
            double p50 = number(totals, "p50.00");
            double p99 = number(totals, "p99.00");
            double p999 = number(totals, "p99.90");
            double max = number(totals, "Max Latency");
            assertTrue(ops > 100, result);
            assertTrue(0 < p50 && p50 <= p99 && p99 <= p999 && p999 <= max, result);
            assertTrue(average > 0 && average <= max, result);
            assertEquals(0, number(totals, "Errors"), result);
            double duration = number(result, "Total duration");
            assertTrue(duration >= 1000 && duration < 10_000, result);
            assertEquals(report.totalRequests(), (long) number(totals, "Count"), result);
            double sets = number(result.substring(result.indexOf("\"Sets\"")), "Count");
            double gets = number(result.substring(result.indexOf("\"Gets\"")), "Count");
            assertTrue(Math.abs(sets - gets) <= 8, result);
        }
    }

    @Test
    void withoutATerminalPrintsOneProgressLinePerSecond() throws Exception {
        try (LacewingServer server = LacewingServer.builder().port(0).engine("multithread").transport("nio")
            .threads(1).start()) {
            LoadOptions options = LoadOptions.parse("-s", "127.0.0.1", "-p", Integer.toString(server.port()),
                "-t", "1", "-c", "2", "--test-time=3", "--ratio=1:1", "-d", "16");
            ByteArrayOutputStream progress = new ByteArrayOutputStream();
            LoadTool.run(options, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(progress, true, StandardCharsets.UTF_8), false);
            String text = progress.toString(StandardCharsets.UTF_8);
            assertTrue(text.indexOf('\r') < 0, text);
            String[] lines = text.strip().split(System.lineSeparator());
            assertTrue(lines.length >= 2 && lines.length <= 3, text);
            Pattern line = Pattern.compile("\\[RUN #1 +\\d+%, +(\\d+) secs\\]  1 threads: +\\d+ ops, +\\d+ \\(avg: +\\d+\\) "
                + "ops/sec, [0-9.]+MB/sec \\(avg: [0-9.]+MB/sec\\), +[0-9.]+ \\(avg: +[0-9.]+\\) msec latency");
            for (int i = 0; i < lines.length; i++) {
                Matcher matcher = line.matcher(lines[i]);
                assertTrue(matcher.matches(), lines[i]);
                assertEquals(i + 1, Integer.parseInt(matcher.group(1)), text);
            }
        }
    }

    @Test
    void authenticatesAndSelectsTheDatabaseOnEveryConnectionBeforeTheRun() throws Exception {
        try (LacewingServer server = LacewingServer.builder().port(0).engine("multithread").transport("nio")
            .set("save", "").threads(2).set("requirepass", "secret").start()) {
            LoadOptions options = LoadOptions.parse("-s", "127.0.0.1", "-p", Integer.toString(server.port()),
                "-t", "1", "-c", "3", "-a", "secret", "--select-db", "3", "--ratio=1:0", "--key-pattern=P:P",
                "--key-minimum=1", "--key-maximum=300", "--requests=allkeys", "--hide-histogram");
            LoadReport report = LoadTool.run(options, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), null, false);
            assertNull(report.connectionError());
            assertEquals(0, report.totalErrors(), report.firstError());
            try (RawConnection connection = new RawConnection("127.0.0.1", server.port())) {
                assertEquals("+OK", connection.call("AUTH", "secret"));
                assertEquals("+OK", connection.call("SELECT", "3"));
                assertEquals(":300", connection.call("DBSIZE"));
                assertEquals("+OK", connection.call("SELECT", "0"));
                assertEquals(":0", connection.call("DBSIZE"));
            }

            LoadOptions wrong = LoadOptions.parse("-s", "127.0.0.1", "-p", Integer.toString(server.port()),
                "-t", "1", "-c", "1", "-a", "nope", "-n", "10");
            IOException refused = assertThrows(IOException.class, () -> LoadTool.run(wrong,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), null, false));
            assertTrue(refused.getMessage().contains("AUTH or SELECT refused: WRONGPASS"), refused.getMessage());
        }
    }

    /**
     * Against a real two-master Redis Cluster (Debian's redis-server, slots split by hand, since
     * redis-cli --cluster create wants three masters): every key lands on the master of its slot,
     * with no MOVED error, and P:P over all keys writes each key once.
     */
    @Test
    void clusterModeSendsEveryKeyToTheMasterOfItsSlot(@TempDir Path directory) throws Exception {
        assumeTrue(RedisCluster.available(), "redis-server is not installed");
        try (RedisCluster cluster = RedisCluster.start(directory, 2)) {
            LoadOptions options = LoadOptions.parse("-s", "127.0.0.1", "-p", Integer.toString(cluster.port(0)),
                "--cluster-mode", "-t", "2", "-c", "2", "--pipeline=4", "--ratio=1:0", "--key-pattern=P:P",
                "--key-minimum=1", "--key-maximum=2000", "--requests=allkeys", "--hide-histogram");
            LoadReport report = LoadTool.run(options, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), null, false);
            assertNull(report.connectionError());
            assertEquals(0, report.totalErrors(), report.firstError());
            long first = cluster.dbsize(0);
            long second = cluster.dbsize(1);
            assertEquals(2000, first + second);
            assertTrue(first > 800 && second > 800, first + " and " + second);
            assertEquals(2000, report.totalRequests());
        }
    }

    private static double number(String json, String field) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(field) + "\": ([0-9.]+)").matcher(json);
        assertTrue(matcher.find(), field + " missing from " + json);
        return Double.parseDouble(matcher.group(1));
    }
}
