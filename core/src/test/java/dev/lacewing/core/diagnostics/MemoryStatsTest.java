package dev.lacewing.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryStatsTest {

    private static final long MIB = 1 << 20;

    @Test
    void statsDeriveRatiosFromTheJvmsFigures() {
        MemoryStats.Server server = new MemoryStats.Server(100 * MIB, 200 * MIB, 10 * MIB, 5, Map.of(0, 1000L), 0);
        MemoryStats.Jvm jvm = new MemoryStats.Jvm(80 * MIB, 160 * MIB, 1024 * MIB, 40 * MIB, 0, 300 * MIB);
        Map<String, Object> stats = MemoryStats.stats(server, jvm);
        assertEquals(100 * MIB, stats.get("total.allocated"));
        assertEquals(200 * MIB, stats.get("peak.allocated"));
        assertEquals(1000L, stats.get("keys.count"));
        assertEquals(100 * MIB / 1000, stats.get("keys.bytes-per-key"));
        assertEquals(90 * MIB, stats.get("dataset.bytes"));
        assertEquals(90.0, stats.get("dataset.percentage"));
        assertEquals(50.0, stats.get("peak.percentage"));
        assertEquals(2.0, stats.get("allocator-fragmentation.ratio"));
        assertEquals(200 * MIB, stats.get("allocator.resident"));
        assertEquals(1.25, stats.get("allocator-rss.ratio"));
        assertEquals(1.5, stats.get("rss-overhead.ratio"));
        assertEquals(3.0, stats.get("fragmentation"));
        assertEquals(200 * MIB, stats.get("fragmentation.bytes"));
    }

    @Test
    void doctorOfAnAlmostEmptyInstanceSaysSo() {
        MemoryStats.Server server = new MemoryStats.Server(MIB, MIB, 0, 1, Map.of(), 0);
        assertTrue(MemoryStats.doctor(server, new MemoryStats.Jvm(MIB, MIB, MIB * 100, 0, 0, MIB))
            .startsWith("Hi Sam, this instance is empty or is using very little memory"));
    }

    @Test
    void doctorFindsNothingInAHealthyInstance() {
        MemoryStats.Server server = new MemoryStats.Server(100 * MIB, 110 * MIB, 0, 1, Map.of(), 0);
        assertEquals("Hi Sam, I can't find any memory issue in your instance. I can only account for what occurs on this "
            + "base.\n", MemoryStats.doctor(server, new MemoryStats.Jvm(100 * MIB, 120 * MIB, 1024 * MIB, 0, 0, 120 * MIB)));
    }

    @Test
    void doctorReportsPeakFragmentationHeadroomBuffersAndScripts() {
        MemoryStats.Server server = new MemoryStats.Server(100 * MIB, 200 * MIB, 50 * MIB, 2, Map.of(), 1001);
        String report = MemoryStats.doctor(server, new MemoryStats.Jvm(950 * MIB, 1000 * MIB, 1000 * MIB, 0, 0,
            1100 * MIB));
        assertTrue(report.startsWith("Sam, I detected a few issues in this Redis instance memory implants:\n\n * Peak memory:"),
            report);
        for (String issue : new String[] {" * High total RSS:", " * Little heap headroom: the heap in use is 95.0%",
            " * Big client buffers:", " * Many scripts:"}) {
            assertTrue(report.contains("\n\n" + issue), issue + " in " + report);
        }
        assertTrue(report.endsWith("\n\nI'm here to keep you safe, Sam. I want to help you.\n"), report);
    }
}
