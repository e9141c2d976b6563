package dev.lacewing.storage.compact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Keyspace;
import dev.lacewing.storage.tck.TestAccessPolicy;
import dev.lacewing.storage.tck.TestAggregate;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Tables sharing a {@link PagePool}, as the multithread engine's lock stripes do. */
class PagePoolTest {

    private static final int THREADS = 4;
    private static final int TABLES_PER_THREAD = 2;

    /**
     * Each thread owns two tables of one pool (a stripe is only ever touched by the thread holding
     * its lock) and churns them: puts of varied sizes, large ones with pages of their own,
     * deletes. The pool's counts then agree with the tables', one table counts the spares, the
     * spares stay within a 64th of the pages (at least two), every table agrees with its model,
     * and once every table is cleared the pool holds nothing.
     */
    @Test
    void tablesOnSeveralThreadsKeepThePoolsCountsExact() throws Exception {
        PagePool pool = new PagePool();
        List<CompactTable> tables = new ArrayList<>();
        for (int i = 0; i < THREADS * TABLES_PER_THREAD; i++) {
            tables.add(new CompactTable(new TestAccessPolicy(), TestAggregate.CODEC, System::currentTimeMillis, pool));
        }
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                List<CompactTable> owned = tables.subList(t * TABLES_PER_THREAD, (t + 1) * TABLES_PER_THREAD);
                long seed = t;
                done.add(threads.submit(() -> churn(owned, seed)));
            }
            for (Future<?> future : done) {
                future.get(120, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        long pages = 0;
        int holding = 0;
        long counted = 0;
        int counters = 0;
        for (CompactTable table : tables) {
            pages += table.pageCount();
            holding += table.pageCount() > 0 ? 1 : 0;
            counted += table.spareBytes();
            counters += table.spareBytes() > 0 ? 1 : 0;
        }
        assertEquals(pages, pool.pages());
        assertEquals(holding, pool.tables());
        assertEquals(pool.spareBytes(), counted, "the spares are counted once");
        assertTrue(counters <= 1, counters + " tables count the spares");
        assertTrue(pool.spareBytes() <= Math.max(2, pages / 64) * (CompactTable.PAGE_SIZE + 16L),
            pool.spareBytes() + " bytes of spares for " + pages + " pages");

        for (CompactTable table : tables) {
            table.clear();
        }
        assertEquals(0, pool.pages());
        assertEquals(0, pool.tables());
        assertEquals(0, pool.spareBytes(), "a cleared keyspace keeps no spare");
    }

    /**
     * The spares are counted by the first table made of a pool, whichever table dropped them, and
     * by no other: the pool hands the count out once instead of keeping a table it was given before
     * that table was built.
     */
    @Test
    void theFirstTableMadeCountsTheSparesWhicheverTableDroppedThem() {
        PagePool pool = new PagePool();
        CompactTable first = new CompactTable(new TestAccessPolicy(), TestAggregate.CODEC, System::currentTimeMillis, pool);
        CompactTable second = new CompactTable(new TestAccessPolicy(), TestAggregate.CODEC, System::currentTimeMillis, pool);
        byte[] value = new byte[200];
        byte[] held = "held".getBytes(StandardCharsets.US_ASCII);
        first.put(held, 0, held.length, value, Keyspace.NO_EXPIRY); // a pool whose tables hold nothing keeps no spare
        for (int i = 0; i < 10_000; i++) {
            byte[] k = ("key:" + i).getBytes(StandardCharsets.US_ASCII);
            second.put(k, 0, k.length, value, Keyspace.NO_EXPIRY);
        }
        for (int i = 0; i < 10_000; i++) {
            byte[] k = ("key:" + i).getBytes(StandardCharsets.US_ASCII);
            second.remove(k, 0, k.length, 0);
        }
        assertTrue(pool.spareBytes() > 0, "the second table's dropped pages are spares");
        assertEquals(pool.spareBytes(), first.spareBytes());
        assertEquals(0, second.spareBytes());
        assertFalse(pool.takeSpareCount(), "the count is handed out once");
    }

    /** Puts (a twentieth large) and deletes on the tables, each checked against a model at the end. */
    private static Void churn(List<CompactTable> tables, long seed) {
        Random random = new Random(seed);
        List<Map<String, byte[]>> models = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            models.add(new HashMap<>());
        }
        for (int step = 0; step < 60_000; step++) {
            int which = random.nextInt(tables.size());
            CompactTable table = tables.get(which);
            Map<String, byte[]> model = models.get(which);
            String key = "key:" + random.nextInt(4_000);
            byte[] k = key.getBytes(StandardCharsets.US_ASCII);
            if (random.nextInt(4) == 0) {
                table.remove(k, 0, k.length, 0);
                model.remove(key);
            } else {
                int length = random.nextInt(20) == 0 ? CompactTable.LARGE_ENTRY + random.nextInt(1000) : 50 + random.nextInt(400);
                byte[] value = new byte[length];
                random.nextBytes(value);
                table.put(k, 0, k.length, value, Keyspace.NO_EXPIRY);
                model.put(key, value);
            }
        }
        for (int i = 0; i < tables.size(); i++) {
            CompactTable table = tables.get(i);
            assertNull(table.indexFault());
            assertEquals(models.get(i).size(), table.size());
            for (Map.Entry<String, byte[]> entry : models.get(i).entrySet()) {
                byte[] k = entry.getKey().getBytes(StandardCharsets.US_ASCII);
                assertArrayEquals(entry.getValue(), (byte[]) table.get(k, 0, k.length, 0), entry.getKey());
            }
        }
        return null;
    }

    /**
     * The compaction floor (three pages a table alone) is held once by a pool's tables: after the
     * same deletes, sixteen small tables of one pool hold fewer dead page bytes than sixteen tables
     * each alone, and within a sixteenth of their pages, their open pages and three pages.
     */
    @Test
    void theCompactionFloorIsHeldOnceByThePoolsTables() {
        PagePool pool = new PagePool();
        long[] pooled = deadAfterDeletes(() -> new CompactTable(new TestAccessPolicy(), TestAggregate.CODEC,
            System::currentTimeMillis, pool));
        long[] alone = deadAfterDeletes(() -> new CompactTable(new TestAccessPolicy(), TestAggregate.CODEC,
            System::currentTimeMillis));
        assertTrue(pooled[0] <= pooled[1], pooled[0] + " dead bytes in pooled tables, bound " + pooled[1]);
        assertTrue(pooled[0] < alone[0], pooled[0] + " dead bytes in pooled tables, " + alone[0] + " in tables alone");
    }

    /**
     * Sixteen tables of 2 MiB (128 KiB pages) filled, then a fifth of the keys deleted at random
     * across them: the bytes of their pages that hold no live entry, and the bound for a pool: a
     * sixteenth of each table's pages and its open page, and three pages once.
     */
    private static long[] deadAfterDeletes(Supplier<CompactTable> newTable) {
        int keys = 10_000;
        byte[] value = new byte[200];
        List<CompactTable> tables = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            CompactTable table = newTable.get();
            for (int i = 0; i < keys; i++) {
                byte[] k = ("key:" + i).getBytes(StandardCharsets.US_ASCII);
                table.put(k, 0, k.length, value, Keyspace.NO_EXPIRY);
            }
            tables.add(table);
        }
        Random random = new Random(7);
        for (int i = 0; i < tables.size() * keys / 5; i++) {
            byte[] k = ("key:" + random.nextInt(keys)).getBytes(StandardCharsets.US_ASCII);
            tables.get(random.nextInt(tables.size())).remove(k, 0, k.length, 0);
        }
        long dead = 0;
        long bound = 0;
        long pageLength = 0;
        for (CompactTable table : tables) {
            long pageBytes = table.usedMemory() - table.spareBytes() - table.liveMemory() + table.liveBytes();
            pageLength = Math.max(pageLength, pageBytes / table.pageCount());
            dead += pageBytes - table.liveBytes();
            bound += pageBytes / 16 + pageBytes / table.pageCount();
        }
        return new long[] {dead, bound + 3 * pageLength};
    }
}
