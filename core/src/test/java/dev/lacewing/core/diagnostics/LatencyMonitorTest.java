package dev.lacewing.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyMonitorTest {

    @Test
    void offAtZeroAndRecordsFromTheThresholdOn() {
        LatencyMonitor monitor = new LatencyMonitor(0);
        assertFalse(monitor.exceeds(Long.MAX_VALUE - 1));
        monitor.threshold(5);
        assertFalse(monitor.exceeds(4));
        assertTrue(monitor.exceeds(5));
    }

    @Test
    void keepsTheHighestOfASecondAndTheHighestEver() {
        LatencyMonitor monitor = new LatencyMonitor(1);
        monitor.add("command", 7);
        monitor.add("command", 9);
        monitor.add("command", 3);
        monitor.add("fast-command", 2);
        List<LatencyMonitor.Latest> latest = monitor.latest();
        assertEquals(2, latest.size());
        // All in one second, unless the clock ticked between two of them.
        assertTrue(latest.get(0).sample().millis() == 9 || latest.get(0).sample().millis() == 3);
        assertEquals(9, latest.get(0).maxMillis());
        assertTrue(monitor.history("command").size() <= 2);
        assertEquals(List.of(), monitor.history("none"));
        assertEquals(1, monitor.reset(List.of("fast-command", "none")));
        assertEquals(1, monitor.reset(List.of()));
        assertEquals(List.of(), monitor.latest());
    }
}
