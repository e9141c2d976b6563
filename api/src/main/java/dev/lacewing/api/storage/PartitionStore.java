package dev.lacewing.api.storage;

/**
 * A storage's part for one partition (a range of hash slots across every database): it makes the
 * partition's tables. Core's partition keeps the tables it is given and swaps them between
 * databases itself (SWAPDB), so a table must not assume which database it serves.
 *
 * <p>Thread rule: as {@link Table}: only the thread holding the partition.
 */
public interface PartitionStore {

    /** A new, empty table: called once per database, when the partition is made. */
    Table newTable();

    /**
     * Asked before eviction when the keyspace is over {@code maxmemory}: moves values out of memory
     * (to disk, say) until about {@code bytes} of the tables' {@link Table#liveMemory} are freed;
     * returns the bytes freed. Keys are evicted only for what this does not cover. A storage that
     * keeps everything in memory frees nothing.
     */
    default long offload(long bytes, long now) {
        return 0;
    }
}
