package dev.lacewing.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** client-output-buffer-limit's syntax and errors, as redis-server 7.0.15 answers CONFIG SET and GET. */
class OutputBufferLimitsTest {

    @Test
    void theDefaultIsRedisSevenZeros() {
        assertEquals("normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60",
            new Config().value("client-output-buffer-limit"));
    }

    @Test
    void aSetChangesOnlyTheClassesItNamesWithMemoryUnits() {
        Config config = new Config();
        config.set("client-output-buffer-limit", "normal 1mb 2mb 3");
        assertEquals("normal 1048576 2097152 3 slave 268435456 67108864 60 pubsub 33554432 8388608 60",
            config.value("client-output-buffer-limit"));
        config.set("client-output-buffer-limit", "replica 1 2 3 PUBSUB 4k 5 6");
        assertEquals("normal 1048576 2097152 3 slave 1 2 3 pubsub 4000 5 6", config.value("client-output-buffer-limit"));
        config.set("client-output-buffer-limit", "");
        assertEquals("normal 1048576 2097152 3 slave 1 2 3 pubsub 4000 5 6", config.value("client-output-buffer-limit"));
    }

    @Test
    void configFileLinesAccumulateClassByClass() {
        Config config = new Config();
        config.initialize("client-output-buffer-limit", "normal 0 0 0");
        config.initialize("client-output-buffer-limit", "pubsub 32mb 8mb 60");
        config.initialize("client-output-buffer-limit", "slave 256mb 64mb 60");
        assertEquals(OutputBufferLimits.DEFAULT.text(), config.value("client-output-buffer-limit"));
    }

    @Test
    void badValuesGetRedisReasonsAndChangeNothing() {
        Config config = new Config();
        String[][] cases = {
            {"foo 1 2 3", "Invalid client class specified in buffer limit configuration."},
            {"master 1 2 3", "Invalid client class specified in buffer limit configuration."},
            {"normal 1 2", "Wrong number of arguments in buffer limit configuration."},
            {"normal x 2 3", "Error in hard, soft or soft_seconds setting in buffer limit configuration."},
            {"normal -1 2 3", "Error in hard, soft or soft_seconds setting in buffer limit configuration."},
            {"normal 1 2 -3", "Error in hard, soft or soft_seconds setting in buffer limit configuration."},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> config.set("client-output-buffer-limit", c[0]), c[0]);
            assertEquals(c[1], e.getMessage(), c[0]);
        }
        assertEquals(OutputBufferLimits.DEFAULT.text(), config.value("client-output-buffer-limit"));
    }

    @Test
    void theLimitsAreReadBack() {
        OutputBufferLimits limits = OutputBufferLimits.parse("normal 10mb 5mb 7");
        assertEquals(new OutputBufferLimits.Limit(10L << 20, 5L << 20, 7), limits.normal());
        assertEquals(OutputBufferLimits.DEFAULT.pubsub(), limits.pubsub());
    }
}
