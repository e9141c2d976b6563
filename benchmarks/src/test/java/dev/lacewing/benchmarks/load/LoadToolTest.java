package dev.lacewing.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import java.io.ByteArrayOutputStream;
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
            .threads(1).start()) {
            LoadOptions options = LoadOptions.parse("-s", "127.0.0.1", "-p", Integer.toString(server.port()),
                "-t", "2", "-c", "4", "--pipeline=8", "--test-time=1", "--ratio=1:1", "-d", "64",
                "--data-size-pattern=S", "--random-data", "--key-minimum=200", "--key-maximum=1000",
                "--key-pattern=G:G", "--json-out-file=" + json);
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            LoadReport report = LoadTool.run(options, new PrintStream(text, true, StandardCharsets.UTF_8), null);

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

    private static double number(String json, String field) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(field) + "\": ([0-9.]+)").matcher(json);
        assertTrue(matcher.find(), field + " missing from " + json);
        return Double.parseDouble(matcher.group(1));
    }
}
