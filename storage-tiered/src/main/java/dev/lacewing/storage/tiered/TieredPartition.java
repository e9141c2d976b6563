package dev.lacewing.storage.tiered;

import dev.lacewing.api.StringHandle;
import dev.lacewing.api.storage.PartitionStore;
import dev.lacewing.api.storage.StorageContext;
import dev.lacewing.api.storage.Table;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * One partition's tables and the segment file their offloaded strings share. Writing a value
 * first compacts the file when under half of it is live (so that no caller holds an extent being
 * moved: the value being stored has none yet).
 *
 * <p>A cold read ({@link #readLater}) runs through the transport's file reads (io_uring) or on the
 * storage's reader threads, and leaves the value in
 * {@link #landed}, keyed by its offset and tagged with the segment's generation, where the rerun of
 * the command that asked takes it ({@link #read}). Landed values are bounded by
 * {@link #LANDED_BYTES} a partition: past it a read still lands nothing, and the rerun reads
 * synchronously.
 *
 * <p>Thread rule: as {@link PartitionStore}: only the thread holding the partition, except
 * {@link #readLater}'s work on a reader or completion thread, which touches only the segment's file and
 * {@link #landed}; INFO reads the segment's figures racily.
 */
final class TieredPartition implements PartitionStore {

    /** The part of a partition's share of maxmemory its tables keep in memory before strings go to disk. */
    static final double PRESSURE_SHARE = 0.75;
    /**
     * Buckets of each table the offload hand may walk to make room for one promoted string: a
     * read pays for a bounded walk, and a promotion that finds nothing cold enough in it waits.
     */
    static final int PROMOTION_WALK = 64;

    private final StorageContext context;
    private final TieredSettings settings;
    private final SegmentFile segment;
    private final List<TieredTable> tables = new ArrayList<>();
    /** This partition's even share of {@code maxmemory}; 0 for no limit. */
    private final LongSupplier share;
    private final Executor readers;
    /** Values read by {@link #readLater} and not yet taken, by offset. */
    private final Map<Long, Landed> landed = new ConcurrentHashMap<>();
    private final AtomicLong landedBytes = new AtomicLong();
    private final AtomicLong asyncReads = new AtomicLong();
    private final AtomicLong snapshotReads = new AtomicLong();
    /** Offloaded strings brought back to memory by a read; written by the holding thread, read racily. */
    private volatile long promotions;
    /**
     * Handles a snapshot holds ({@link #handle}): while any is out, no offset may come to hold other
     * bytes, so the file is neither compacted nor emptied.
     */
    private final AtomicInteger handlesOut = new AtomicInteger();

    /** Bytes of landed values a partition keeps for the reruns that will take them. */
    static final long LANDED_BYTES = 8 << 20;

    /** A value read off the worker: the bytes of the extent at its offset in {@code generation}. */
    private record Landed(long generation, byte[] value) {
    }

    TieredPartition(StorageContext context, TieredSettings settings, SegmentFile segment, LongSupplier share,
                    Executor readers) {
        this.context = context;
        this.settings = settings;
        this.segment = segment;
        this.share = share;
        this.readers = readers;
    }

    @Override
    public Table newTable() {
        TieredTable table = new TieredTable(this, settings, context.access(), context.clock());
        tables.add(table);
        return table;
    }

    /**
     * Moves strings of this partition's tables to disk, those read least recently first (the
     * tables' CLOCK), until {@code bytes} of memory are freed or none is left to move; returns the
     * bytes freed.
     */
    @Override
    public long offload(long bytes, long now) {
        long freed = 0;
        for (int i = 0; i < tables.size() && freed < bytes; i++) {
            TieredTable table = tables.get(i);
            freed += table.offload(bytes - freed, 2L * table.capacity());
        }
        return freed;
    }

    /**
     * Whether {@code bytes} more fit in memory under {@link #PRESSURE_SHARE} of this partition's
     * share, after moving out strings the hand finds cold within {@link #PROMOTION_WALK} buckets a
     * table; never without a maxmemory (then nothing goes to disk under pressure, and an eager
     * storage keeps its strings there).
     */
    boolean makeRoom(long bytes) {
        long limit = share.getAsLong();
        if (limit == 0) {
            return false;
        }
        long target = (long) (limit * PRESSURE_SHARE);
        long excess = usedMemory() + bytes - target;
        for (int i = 0; i < tables.size() && excess > 0; i++) {
            excess -= tables.get(i).offload(excess, PROMOTION_WALK);
        }
        return excess <= 0;
    }

    /** Whether the tables hold over {@link #PRESSURE_SHARE} of this partition's share; never without maxmemory. */
    boolean overPressureShare() {
        long limit = share.getAsLong();
        return limit != 0 && usedMemory() > (long) (limit * PRESSURE_SHARE);
    }

    void promoted() {
        promotions++;
    }

    long promotions() {
        return promotions;
    }

    private long usedMemory() {
        long used = 0;
        for (TieredTable table : tables) {
            used += table.usedMemory();
        }
        return used;
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
        long used = usedMemory();
        long target = (long) (limit * PRESSURE_SHARE);
        if (used > target) {
            offload(used - target, 0);
        }
    }

    SegmentFile segment() {
        return segment;
    }

    long write(byte[] value, int offset, int length) {
        if (handlesOut.get() == 0 && segment.wantsCompaction(settings.compactMinBytes())) {
            SegmentFile.Compaction compaction = segment.compaction();
            for (TieredTable table : tables) {
                table.relocate(compaction);
            }
            compaction.finish();
            dropLanded();
        }
        return segment.append(value, offset, length);
    }

    /** The value of an extent: the one a reader landed for it, or else read synchronously. */
    byte[] read(long at, int length) {
        if (!landed.isEmpty()) {
            Landed value = landed.remove(at);
            if (value != null) {
                landedBytes.addAndGet(-value.value.length);
                if (value.generation == segment.generation() && value.value.length == length) {
                    return value.value;
                }
            }
        }
        settings.pauseBeforeRead();
        return segment.read(at, length);
    }

    /** Whether a reader landed the extent's value, for the rerun to take. */
    boolean landed(long at, int length) {
        Landed value = landed.isEmpty() ? null : landed.get(at);
        return value != null && value.generation == segment.generation() && value.value.length == length;
    }

    /**
     * Reads an extent off the holding thread and runs {@code ready} once it landed in
     * {@link #landed}, or failed (the rerun then reads synchronously and meets the error itself):
     * through the transport's file reads when it offers them, on their completion thread;
     * otherwise, or when they are busy, on a reader thread. False, running nothing, when the
     * readers' queue is full too: the caller reads synchronously. The test hook's read delay
     * ({@link TieredSettings#readDelayMillis}) takes the reader threads, where it may sleep.
     */
    boolean readLater(long at, int length, Runnable ready) {
        long generation = segment.generation();
        if (settings.readDelayMillis() == 0 && segment.readThroughFileReads(at, length, value -> {
            try {
                if (value != null) {
                    asyncReads.incrementAndGet();
                    land(at, generation, value);
                }
            } finally {
                ready.run();
            }
        })) {
            return true;
        }
        try {
            readers.execute(() -> {
                try {
                    settings.pauseBeforeRead();
                    byte[] value = segment.readConcurrently(at, length);
                    asyncReads.incrementAndGet();
                    land(at, generation, value);
                } catch (UncheckedIOException e) {
                    // Compacted or emptied under the read, or a failing disk: nothing lands.
                } finally {
                    ready.run();
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Keeps a value read in {@code generation} for the rerun, unless stale or over {@link #LANDED_BYTES}. */
    private void land(long at, long generation, byte[] value) {
        int length = value.length;
        if (segment.generation() == generation && landedBytes.addAndGet(length) <= LANDED_BYTES) {
            Landed old = landed.put(at, new Landed(generation, value));
            if (old != null) {
                landedBytes.addAndGet(-old.value.length);
            }
        } else if (segment.generation() == generation) {
            landedBytes.addAndGet(-length);
        }
    }

    long asyncReads() {
        return asyncReads.get();
    }

    /** An extent is dead: its bytes, and any value landed for it, go. */
    void release(long at, int length) {
        if (!landed.isEmpty()) {
            Landed value = landed.remove(at);
            if (value != null) {
                landedBytes.addAndGet(-value.value.length);
            }
        }
        segment.release(length, handlesOut.get() == 0);
    }

    /**
     * A snapshot's handle on an extent: read on the snapshot writer's thread, and until released
     * the extent's bytes stay where they are, even once the key changed (no compaction, no
     * emptying the file meanwhile).
     */
    StringHandle handle(long at, int length) {
        handlesOut.incrementAndGet();
        return new StringHandle() {
            @Override
            public int length() {
                return length;
            }

            @Override
            public byte[] read() {
                settings.pauseBeforeRead();
                byte[] value = segment.readConcurrently(at, length);
                snapshotReads.incrementAndGet();
                return value;
            }

            @Override
            public void release() {
                handlesOut.decrementAndGet();
            }
        };
    }

    long snapshotReads() {
        return snapshotReads.get();
    }

    /** Every offset may now hold other bytes: landed values are stale. */
    void dropLanded() {
        landed.clear();
        landedBytes.set(0);
    }
}
