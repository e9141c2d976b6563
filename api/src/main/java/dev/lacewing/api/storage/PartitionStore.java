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
}
