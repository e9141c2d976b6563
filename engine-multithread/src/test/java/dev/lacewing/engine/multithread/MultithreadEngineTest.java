package dev.lacewing.engine.multithread;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.Settings;
import dev.lacewing.api.Workers;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
import dev.lacewing.core.testing.TestEngineContext;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The multithread engine's keyspace, driven on the test's thread as its one worker. */
class MultithreadEngineTest {

    private static final long MAXMEMORY = 100L * 1024 * 1024;
    /** Held so that its level stays: each eviction pass here logs CONFIG SET maxmemory's warning. */
    private static final Logger KEYSPACE_LOG = Logger.getLogger(PartitionedKeyspace.class.getName());

    /**
     * Under an eviction load the pages stay within an eighth of the live bytes whatever the
     * workers (one is the default on 2 cores), as the launcher's heap for maxmemory (G1 1.15x +
     * 32 MiB) assumes of both engines. Each stripe is a table with its open page and a sixteenth of
     * dead pages; the spares and the compaction floor are held once by all the stripes. When each
     * stripe kept its own, 4 stripes held 1.09x here and 32 (8 workers) 1.2x. The load is that of
     * benchmarks/maxmemory-rss.sh at 100mb: 256-byte values to random keys of a range 8x what
     * fits, bounded to 1,500,000 writes; eviction runs after each 10,000 of them (CONFIG SET
     * maxmemory's path, with no time limit), so used_memory overshoots by at most their 3 MB and
     * is then evicted back. The workers are all the test's thread.
     */
    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4, 8})
    void pagesStayWithinAnEighthOfTheLiveBytesUnderAnEvictionLoad(int workers) {
        KEYSPACE_LOG.setLevel(Level.SEVERE);
        Settings settings = name -> Optional.ofNullable(Map.of("maxmemory", Long.toString(MAXMEMORY),
            "maxmemory-policy", "allkeys-lru", "maxmemory-eviction-tenacity", "100").get(name));
        MultithreadEngine engine =
            new MultithreadEngine(TestEngineContext.of(settings, new TestThreadWorkers(workers)));
        Keyspace keyspace = engine.keyspace(0);
        byte[] value = new byte[256];
        int keyRange = (int) (MAXMEMORY / 300 * 8);
        Random random = new Random(15);
        for (int batch = 0; batch < 150; batch++) {
            for (int i = 0; i < 10_000; i++) {
                byte[] key = ("key:" + random.nextInt(keyRange)).getBytes(StandardCharsets.US_ASCII);
                keyspace.put(key, 0, key.length, value, Keyspace.NO_EXPIRY);
            }
            engine.maxmemoryChanged(null);
        }
        long live = engine.usedMemory();
        long allocated = engine.allocatedMemory();
        assertTrue(live > MAXMEMORY * 9 / 10, live + " bytes live for a limit of " + MAXMEMORY);
        assertTrue(allocated <= live * 9 / 8, allocated + " bytes allocated for " + live + " live");
    }

    /** Workers that are all the test's thread: tasks run at once, repeating ones never. */
    private record TestThreadWorkers(int count) implements Workers {

        @Override
        public Executor executor(int index) {
            return Runnable::run;
        }

        @Override
        public int currentIndex() {
            return 0;
        }

        @Override
        public void scheduleRepeating(int index, Runnable task, LongSupplier periodMillis) {
        }
    }
}
