package dev.lacewing.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LatencyReportTest {

    @Test
    void sparklineDrawsAsRedisDoes() {
        // redis-server 7.0.15's LATENCY GRAPH command after spikes of 121 ms and, a second later, 45 ms.
        assertEquals("# \n| \n| \n|_\n  \n10\nss\n", LatencyReport.sparkline(new long[] {121, 45}, new String[] {"1s", "0s"}));
    }

    @Test
    void sparklineOfEqualSamplesIsTheLowestRow() {
        assertEquals("  \n  \n  \n__\n  \n22\nmh\n", LatencyReport.sparkline(new long[] {7, 7}, new String[] {"2m", "2h"}));
    }

    @Test
    void sparklineWrapsEveryEightyColumns() {
        long[] values = new long[81];
        String[] labels = new String[81];
        java.util.Arrays.fill(labels, "1s");
        String graph = LatencyReport.sparkline(values, labels);
        String spaces = " ".repeat(80) + "\n";
        assertTrue(graph.startsWith(spaces.repeat(3) + "_".repeat(80) + "\n" + spaces + "1".repeat(80) + "\n"), graph);
        assertTrue(graph.endsWith("\n\n \n \n \n_\n \n1\ns\n"), graph);
    }

    @Test
    void graphNamesHighLowAndAllTimeHigh() {
        LatencyMonitor monitor = new LatencyMonitor(1);
        assertNull(LatencyReport.graph(monitor, "command", 0));
        monitor.add("command", 30);
        long now = monitor.history("command").get(0).unixSeconds() + 5;
        String graph = LatencyReport.graph(monitor, "command", now);
        assertTrue(graph.startsWith("command - high 30 ms, low 30 ms (all time high 30 ms)\n" + "-".repeat(80) + "\n \n \n \n_\n \n5\ns\n"),
            graph);
    }

    @Test
    void doctorWithTheMonitorOffAndNoEventsSaysSo() {
        assertTrue(LatencyReport.doctor(new LatencyMonitor(0), 10000, 0).startsWith("I'm sorry, Dave, I can't do that."));
        assertTrue(LatencyReport.doctor(new LatencyMonitor(5), 10000, 0).startsWith("Dave, no latency spike was observed"));
    }

    @Test
    void doctorReportsSpikesAndAdvice() {
        LatencyMonitor monitor = new LatencyMonitor(5);
        monitor.add("command", 40);
        monitor.add("fast-command", 9);
        String report = LatencyReport.doctor(monitor, 10000, System.currentTimeMillis() / 1000);
        assertTrue(report.startsWith("Dave, I have observed latency spikes in this Redis instance. You don't mind talking "
            + "about it, do you Dave?\n\n1. command: 1 latency spikes (average 40ms, mean deviation 0ms, period "), report);
        assertTrue(report.contains(" Worst all time event 40ms.\n2. fast-command: 1 latency spikes"), report);
        assertTrue(report.contains("\nI have a few advices for you:\n\n- Your current Slow Log configuration only logs "
            + "events that are slower than your configured latency monitor threshold. Please use 'CONFIG SET "
            + "slowlog-log-slower-than 5000'.\n- Check your Slow Log"), report);
        assertTrue(report.contains("  4) Check with 'redis-cli --intrinsic-latency 100'"), report);
        assertTrue(report.endsWith("try to fragment those objects into multiple smaller objects.\n"), report);
    }
}
