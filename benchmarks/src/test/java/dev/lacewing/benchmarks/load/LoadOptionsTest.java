package dev.lacewing.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoadOptionsTest {

    @Test
    void defaultsAreMemtiers() {
        LoadOptions options = LoadOptions.parse();
        assertEquals("localhost", options.server);
        assertEquals(6379, options.port);
        assertEquals(4, options.threads);
        assertEquals(50, options.clients);
        assertEquals(10_000, options.requests);
        assertEquals(1, options.pipeline);
        assertEquals(1, options.setRatio);
        assertEquals(10, options.getRatio);
        assertEquals(32, options.dataSize);
        assertEquals("memtier-", options.keyPrefix);
        assertEquals(0, options.keyMinimum);
        assertEquals(10_000_000, options.keyMaximum);
        assertEquals(KeyPattern.RANDOM, options.setKeyPattern);
        assertEquals(KeyPattern.RANDOM, options.getKeyPattern);
        assertEquals(List.of(50.0, 99.0, 99.9), options.percentiles);
        assertFalse(options.randomData);
    }

    @Test
    void longOptionsTakeEqualsOrTheNextArgumentAndShortOnesEitherForm() {
        LoadOptions options = LoadOptions.parse("-s", "127.0.0.1", "-p6390", "-t", "2", "-c=8", "--pipeline=30",
            "--ratio", "1:1", "-d", "256", "--key-pattern=G:G", "--key-minimum=200", "--key-maximum", "100000",
            "--key-stddev=1000", "--key-median=5000", "--data-size-pattern=S", "-R", "--key-prefix=", "--test-time=5",
            "--rate-limiting=100", "--distinct-client-seed", "--hide-histogram", "--json-out-file=/tmp/x.json",
            "--print-percentiles=50,90,99.99");
        assertEquals("127.0.0.1", options.server);
        assertEquals(6390, options.port);
        assertEquals(2, options.threads);
        assertEquals(8, options.clients);
        assertEquals(30, options.pipeline);
        assertEquals(1, options.getRatio);
        assertEquals(256, options.dataSize);
        assertEquals(KeyPattern.GAUSSIAN, options.setKeyPattern);
        assertEquals(KeyPattern.GAUSSIAN, options.getKeyPattern);
        assertEquals(200, options.keyMinimum);
        assertEquals(100_000, options.keyMaximum);
        assertEquals(1000, options.keyStddev);
        assertEquals(5000, options.keyMedian);
        assertEquals('S', options.dataSizePattern);
        assertTrue(options.randomData);
        assertEquals("", options.keyPrefix);
        assertEquals(5, options.testTimeSeconds);
        assertEquals(100, options.rateLimit);
        assertTrue(options.distinctClientSeed && options.hideHistogram);
        assertEquals("/tmp/x.json", options.jsonOutFile);
        assertEquals(List.of(50.0, 90.0, 99.99), options.percentiles);
    }

    @Test
    void theDefaultWorkloadIsSetAndGetByRatioLeavingOutAZeroSide() {
        List<LoadOptions.Command> workload = LoadOptions.parse("--ratio=3:7", "--key-pattern=S:R").workload();
        assertEquals(List.of("SET", "__key__", "__data__"), workload.get(0).words());
        assertEquals(3, workload.get(0).ratio());
        assertEquals(KeyPattern.SEQUENTIAL, workload.get(0).keyPattern());
        assertEquals(List.of("GET", "__key__"), workload.get(1).words());
        assertEquals(7, workload.get(1).ratio());
        assertEquals(1, LoadOptions.parse("--ratio=1:0").workload().size());
    }

    @Test
    void commandRatioAndKeyPatternApplyToTheLastCommand() {
        LoadOptions options = LoadOptions.parse("--command=HSET __key__ field \"two words\"", "--command-ratio=3",
            "--command=HGET __key__ field", "--command-key-pattern=P");
        assertEquals(List.of("HSET", "__key__", "field", "two words"), options.workload().get(0).words());
        assertEquals(3, options.workload().get(0).ratio());
        assertEquals(KeyPattern.RANDOM, options.workload().get(0).keyPattern());
        assertEquals(1, options.workload().get(1).ratio());
        assertEquals(KeyPattern.PARALLEL, options.workload().get(1).keyPattern());
    }

    @Test
    void allkeysCoversTheRangeAndSplitsItAmongClientsForParallel() {
        assertEquals(1000, LoadOptions.parse("-n", "allkeys", "--key-minimum=1", "--key-maximum=1001").requests);
        LoadOptions parallel = LoadOptions.parse("--requests=allkeys", "--key-pattern=P:P", "-t", "2", "-c", "5",
            "--key-minimum=1", "--key-maximum=1000000");
        assertEquals(999_999 / 10 + 1, parallel.requests);
    }

    @Test
    void badInputIsRefusedWithTheOptionNamed() {
        assertMessage("unknown option --bogus", "--bogus");
        assertMessage("unknown option -z", "-z");
        assertMessage("--port must be in [1, 65535], not 0", "-p", "0");
        assertMessage("--threads must be a number, not x", "--threads=x");
        assertMessage("--pipeline needs a value", "--pipeline");
        assertMessage("--key-pattern must be SET:GET, e.g. R:R or G:G, not G", "--key-pattern=G");
        assertMessage("key pattern must be R, S, G or P, not X", "--key-pattern=X:R");
        assertMessage("--ratio must be SET:GET, e.g. 1:10, not 5", "--ratio=5");
        assertMessage("--ratio must not be 0:0", "--ratio=0:0");
        assertMessage("--key-maximum must not be below --key-minimum", "--key-minimum=10", "--key-maximum=5");
        assertMessage("--command-ratio must follow a --command", "--command-ratio=2");
        assertMessage("--hide-histogram takes no value", "--hide-histogram=yes");
        assertMessage("unbalanced quotes in --command: GET \"x", "--command=GET \"x");
    }

    @Test
    void authenticationAndDatabaseBecomeTheHandshakeAndClusterModeRefusesADatabase() {
        LoadOptions options = LoadOptions.parse("-a", "user:pass word", "--select-db=4");
        assertEquals(List.of(List.of("AUTH", "user", "pass word"), List.of("SELECT", "4")), options.handshake());
        assertEquals(List.of(List.of("AUTH", "secret")), LoadOptions.parse("-asecret").handshake());
        assertEquals(List.of(), LoadOptions.parse("--cluster-mode").handshake());
        assertTrue(LoadOptions.parse("--cluster-mode").clusterMode);
        assertMessage("--select-db cannot be used with --cluster-mode: a cluster has database 0 only",
            "--cluster-mode", "--select-db", "1");
    }

    private static void assertMessage(String message, String... args) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> LoadOptions.parse(args)).getMessage());
    }
}
