package dev.lacewing.api;

import dev.lacewing.api.storage.Aggregate;
import java.util.function.Consumer;

/**
 * A stored set as a command plugin reads it ({@link AggregateType#SET}). Arrays it hands over are
 * copies the caller owns. Thread rule: as {@link Aggregate}, and valid until the keyspace next changes.
 */
public interface SetView extends Aggregate {

    /** The number of members. */
    int size();

    boolean contains(byte[] member, int offset, int length);

    default boolean contains(byte[] member) {
        return contains(member, 0, member.length);
    }

    /** Visits every member, in the set's iteration order. */
    void forEach(Consumer<byte[]> visitor);
}
