package dev.lacewing.api;

import dev.lacewing.api.storage.Aggregate;
import java.util.function.Consumer;

/**
 * A stored list as a command plugin reads it ({@link AggregateType#LIST}). Arrays it hands over are
 * copies the caller owns. Thread rule: as {@link Aggregate}, and valid until the keyspace next changes.
 */
public interface ListView extends Aggregate {

    /** The number of elements. */
    long size();

    /** A copy of the element at {@code index}, 0 &lt;= index &lt; size (head first). */
    byte[] get(long index);

    /** Visits copies of the elements {@code start..end} (0-based, inclusive, in range), head to tail. */
    void forEach(long start, long end, Consumer<byte[]> visitor);
}
