package dev.lacewing.storage.tiered;

import dev.lacewing.api.storage.PartitionStore;
import dev.lacewing.api.storage.StorageContext;
import dev.lacewing.api.storage.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One partition's tables and the segment file their offloaded strings share. Writing a value
 * first compacts the file when under half of it is live (so that no caller holds an extent being
 * moved: the value being stored has none yet).
 *
 * <p>Thread rule: as {@link PartitionStore}: only the thread holding the partition; INFO reads
 * the segment's figures racily.
 */
final class TieredPartition implements PartitionStore {

    /** The part of a partition's share of maxmemory its tables keep in memory before strings go to disk. */
    static final double PRESSURE_SHARE = 0.75;

    private final StorageContext context;
    private final TieredSettings settings;
    private final SegmentFile segment;
    private final List<TieredTable> tables = new ArrayList<>();
    /** This partition's even share of {@code maxmemory}; 0 for no limit. */
    private final LongSupplier share;

    TieredPartition(StorageContext context, TieredSettings settings, SegmentFile segment, LongSupplier share) {
        this.context = context;
        this.settings = settings;
        this.segment = segment;
        this.share = share;
    }

    @Override
    public Table newTable() {
        TieredTable table = new TieredTable(this, settings, context.access(), context.clock());
        tables.add(table);
        return table;
    }

    /**
     * Moves strings of this partition's tables to disk until {@code bytes} of memory are freed or
     * none is left to move; returns the bytes freed.
     */
    @Override
    public long offload(long bytes, long now) {
        long freed = 0;
        for (int i = 0; i < tables.size() && freed < bytes; i++) {
            freed += tables.get(i).offload(bytes - freed);
        }
        return freed;
    }

    /**
     * After a store: keeps the tables' memory under {@link #PRESSURE_SHARE} of this partition's
     * share of {@code maxmemory} by moving strings to disk, so that no partition holds strings in
     * memory that only a command on it could move (the server asks only the partitions a command
     * holds, {@link #offload}). The rest of the share is left to the keys and the clients.
     */
    void relieve() {
        long limit = share.getAsLong();
        if (limit == 0) {
            return;
        }
        long used = 0;
        for (TieredTable table : tables) {
            used += table.usedMemory();
        }
        long target = (long) (limit * PRESSURE_SHARE);
        if (used > target) {
            offload(used - target, 0);
        }
    }

    SegmentFile segment() {
        return segment;
    }

    long write(byte[] value, int offset, int length) {
        if (segment.wantsCompaction(settings.compactMinBytes())) {
            SegmentFile.Compaction compaction = segment.compaction();
            for (TieredTable table : tables) {
                table.relocate(compaction);
            }
            compaction.finish();
        }
        return segment.append(value, offset, length);
    }

    byte[] read(long at, int length) {
        return segment.read(at, length);
    }

    void release(int length) {
        segment.release(length);
    }
}
