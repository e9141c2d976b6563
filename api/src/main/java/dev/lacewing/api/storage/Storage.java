package dev.lacewing.api.storage;

import java.util.Map;

/**
 * One server's storage, opened once ({@link StorageProvider#open}): the keyspace asks it for one
 * {@link PartitionStore} per partition, and every engine runs over any storage, since engines see
 * it only through the keyspace.
 *
 * <p>Thread rule: {@link #partition} is called while the keyspace is built, on one thread;
 * {@link #info} from any thread; {@link #close} once, after the engine closed.
 */
public interface Storage {

    /** The store of partition {@code index} of {@code count}. */
    PartitionStore partition(int index, int count);

    /**
     * This storage for a keyspace whose partitions are lock stripes (the multithread engine): each
     * is held by one thread at a time, but by any thread in turn, so the stores it gives may share
     * what their tables keep beside the data (spare pages, say) under a lock of their own. The
     * default is this storage: nothing shared.
     */
    default Storage striped() {
        return this;
    }

    /**
     * Whether every value is always in memory, so that every table's {@link Table#resident} answers
     * true: core then asks nothing before a read. False (the default) for a storage that may answer
     * false, which core asks for each key of every read-only command.
     */
    default boolean alwaysResident() {
        return false;
    }

    /** Fields INFO shows after {@code lacewing_storage}, as given; read racily. */
    default Map<String, String> info() {
        return Map.of();
    }

    default void close() {
    }
}
