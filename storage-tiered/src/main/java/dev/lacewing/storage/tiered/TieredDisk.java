package dev.lacewing.storage.tiered;

import dev.lacewing.api.FileReads;
import dev.lacewing.api.storage.PartitionStore;
import dev.lacewing.api.storage.Storage;
import dev.lacewing.api.storage.StorageContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One server's tiered storage: a directory of its own under {@code tiered-dir} (so that servers
 * sharing a directory never meet) holding one segment file per partition; the directory is
 * deleted when the storage closes. Cold reads go through the transport's file reads when it offers
 * them (io_uring: {@code tiered_file_reads} in INFO counts them); otherwise, or while those are busy,
 * they run on {@link #READER_THREADS} reader threads of its own, behind a queue of at most
 * {@link #READ_QUEUE} reads; a read that finds the queue full is made synchronously by the command
 * instead.
 *
 * <p>Thread rule: {@link #partition} on the thread building the keyspace, {@link #info} from any
 * thread (racy sums), {@link #close} once, after the engine closed.
 */
final class TieredDisk implements Storage {

    private final StorageContext context;
    private final TieredSettings settings;
    private final Path directory;
    private final List<TieredPartition> partitions = new CopyOnWriteArrayList<>();
    /** Threads reading cold values: a few suffice, since each read is one positional file read. */
    static final int READER_THREADS = 2;
    static final int READ_QUEUE = 1024;
    private final ThreadPoolExecutor readers;
    /** {@code maxmemory} as CONFIG SET leaves it; 0 for no limit. */
    private volatile long maxmemory;

    TieredDisk(StorageContext context, TieredSettings settings) {
        this.context = context;
        this.settings = settings;
        this.maxmemory = context.settings().getLong("maxmemory", 0);
        context.settings().onChange((name, value) -> {
            if (name.equals("maxmemory")) {
                maxmemory = Long.parseLong(value);
            }
        });
        AtomicInteger readerCount = new AtomicInteger();
        this.readers = new ThreadPoolExecutor(READER_THREADS, READER_THREADS, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(READ_QUEUE), task -> {
                Thread thread = new Thread(task, "lacewing-tiered-read-" + readerCount.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
        try {
            Files.createDirectories(settings.directory());
            this.directory = Files.createTempDirectory(settings.directory(), "storage-");
        } catch (IOException e) {
            throw new UncheckedIOException("tiered storage cannot create a directory in " + settings.directory(), e);
        }
    }

    @Override
    public PartitionStore partition(int index, int count) {
        TieredPartition partition = new TieredPartition(context, settings,
            new SegmentFile(directory.resolve("partition-" + index + ".segment"), context.fileReads()),
            () -> maxmemory / count, readers);
        partitions.add(partition);
        return partition;
    }

    @Override
    public Map<String, String> info() {
        long disk = 0;
        long values = 0;
        long reads = 0;
        long asyncReads = 0;
        long snapshotReads = 0;
        long promotions = 0;
        long fileReads = 0;
        for (TieredPartition partition : partitions) {
            disk += partition.segment().size();
            values += partition.segment().liveValues();
            reads += partition.segment().reads();
            asyncReads += partition.asyncReads();
            snapshotReads += partition.snapshotReads();
            promotions += partition.promotions();
            fileReads += partition.segment().fileReads();
        }
        Map<String, String> info = new LinkedHashMap<>();
        info.put("tiered_disk_bytes", Long.toString(disk));
        info.put("tiered_offloaded_values", Long.toString(values));
        info.put("tiered_reads", Long.toString(reads + asyncReads + snapshotReads));
        info.put("tiered_async_reads", Long.toString(asyncReads));
        info.put("tiered_snapshot_reads", Long.toString(snapshotReads));
        info.put("tiered_async_read_mechanism", context.fileReads().map(FileReads::name).orElse("threads"));
        info.put("tiered_file_reads", Long.toString(fileReads));
        info.put("tiered_promotions", Long.toString(promotions));
        return info;
    }

    @Override
    public void close() {
        readers.shutdownNow();
        for (TieredPartition partition : partitions) {
            partition.segment().close();
        }
        try {
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("tiered storage cannot delete " + directory, e);
        }
    }
}
