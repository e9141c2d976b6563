package dev.lacewing.storage.tiered;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.lacewing.api.Keyspace;
import dev.lacewing.storage.tck.TestAccessPolicy;
import dev.lacewing.storage.tck.TestContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prints the heap one key with its value on disk costs (run with -Dtiered.footprintKeys=N); no assertion on it. */
class TieredKeyFootprintTest {

    @TempDir
    Path directory;

    @Test
    public void aKeyWithItsValueOnDiskCostsItsRecordAndItsBucket() {
        int keys = Integer.getInteger("tiered.footprintKeys", 20_000);
        TieredSettings settings = new TieredSettings(directory, 64, true, Long.MAX_VALUE);
        TieredPartition partition = new TieredPartition(new TestContext(() -> 0L, new TestAccessPolicy()), settings,
            new SegmentFile(directory.resolve("segment")), () -> 0L, Runnable::run);
        TieredTable table = (TieredTable) partition.newTable();
        byte[] value = new byte[100];
        long before = heapAfterCollection();
        for (int i = 0; i < keys; i++) {
            byte[] key = String.format("key:%012d", i).getBytes(StandardCharsets.UTF_8);
            value[0] = (byte) i;
            table.put(key, 0, key.length, value.clone(), Keyspace.NO_EXPIRY);
        }
        long after = heapAfterCollection();
        System.out.printf("tiered footprint: %d keys of 16 bytes, values on disk: %.1f bytes a key on the heap"
            + " (%.1f beside the key), usedMemory %.1f a key%n", keys, (after - before) / (double) keys,
            (after - before) / (double) keys - 16, table.usedMemory() / (double) keys);
        byte[] key = String.format("key:%012d", keys - 1).getBytes(StandardCharsets.UTF_8);
        value[0] = (byte) (keys - 1);
        assertArrayEquals(value, (byte[]) table.get(key, 0, key.length, 0));
    }

    private static long heapAfterCollection() {
        Runtime runtime = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
        }
        return used;
    }
}
