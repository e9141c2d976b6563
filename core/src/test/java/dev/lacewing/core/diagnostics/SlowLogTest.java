package dev.lacewing.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Arguments;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlowLogTest {

    /** Words packed one after another in one array, as the request decoder holds them. */
    private static Arguments words(String... words) {
        byte[] array = String.join("", words).getBytes(StandardCharsets.ISO_8859_1);
        int[] offsets = new int[words.length];
        for (int i = 1; i < words.length; i++) {
            offsets[i] = offsets[i - 1] + words[i - 1].length();
        }
        return new Arguments() {
            @Override
            public int count() {
                return words.length;
            }

            @Override
            public byte[] array() {
                return array;
            }

            @Override
            public int offset(int index) {
                return offsets[index];
            }

            @Override
            public int length(int index) {
                return words[index].length();
            }
        };
    }

    private static List<String> logged(SlowLog.Entry entry) {
        return entry.arguments().stream().map(bytes -> new String(bytes, StandardCharsets.ISO_8859_1)).toList();
    }

    @Test
    void thresholdNegativeOrZeroLengthTurnsLoggingOff() {
        SlowLog log = new SlowLog(100, 128);
        assertFalse(log.isSlow(99));
        assertTrue(log.isSlow(100));
        log.configure(0, 128);
        assertTrue(log.isSlow(0));
        log.configure(-1, 128);
        assertFalse(log.isSlow(Long.MAX_VALUE - 1));
        log.configure(0, 0);
        assertFalse(log.isSlow(Long.MAX_VALUE - 1));
    }

    @Test
    void keepsTheNewestUpToTheMaximumAndIdsGoOnAfterReset() {
        SlowLog log = new SlowLog(0, 3);
        for (int i = 0; i < 5; i++) {
            log.add(words("GET", "k" + i), null, i, "127.0.0.1:1", "");
        }
        assertEquals(3, log.length());
        assertEquals(List.of(4L, 3L, 2L), log.newest(-1).stream().map(SlowLog.Entry::id).toList());
        assertEquals(List.of("GET", "k4"), logged(log.newest(1).get(0)));
        log.reset();
        assertEquals(0, log.length());
        log.add(words("PING"), null, 0, "127.0.0.1:1", "name");
        assertEquals(5L, log.newest(10).get(0).id());
        assertEquals("name", log.newest(10).get(0).clientName());
    }

    @Test
    void trimsArgumentsAndRedacts() {
        SlowLog log = new SlowLog(0, 10);
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 33; i++) {
            many.add("a" + i);
        }
        log.add(words(many.toArray(String[]::new)), null, 0, "p", "");
        List<String> trimmed = logged(log.newest(1).get(0));
        assertEquals(32, trimmed.size());
        assertEquals("... (2 more arguments)", trimmed.get(31));
        log.add(words("SET", "k", "x".repeat(129)), new boolean[] {false, false, true}, 0, "p", "");
        assertEquals(List.of("SET", "k", "(redacted)"), logged(log.newest(1).get(0)));
        log.add(words("SET", "k", "x".repeat(129)), null, 0, "p", "");
        assertEquals("x".repeat(128) + "... (1 more bytes)", logged(log.newest(1).get(0)).get(2));
    }

    @Test
    void concurrentWritersNeverLeaveMoreThanTheMaximum() throws InterruptedException {
        SlowLog log = new SlowLog(0, 50);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 2_000; i++) {
                    log.add(words("SET", "k", "v"), null, 0, "p", "");
                }
            });
            writers.add(writer);
            writer.start();
        }
        for (Thread writer : writers) {
            writer.join();
        }
        assertEquals(50, log.length());
        assertEquals(50, log.newest(-1).size());
        assertEquals(7_999L, log.newest(-1).stream().mapToLong(SlowLog.Entry::id).max().orElseThrow());
    }
}
