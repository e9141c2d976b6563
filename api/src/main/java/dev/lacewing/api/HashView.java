package dev.lacewing.api;

import dev.lacewing.api.storage.Aggregate;
import java.util.function.BiConsumer;

/**
 * A stored hash as a command plugin reads it ({@link AggregateType#HASH}). Arrays it hands over are
 * copies the caller owns. Thread rule: as {@link Aggregate}, and valid until the keyspace next changes.
 */
public interface HashView extends Aggregate {

    /** The number of fields. */
    int size();

    /** A copy of the value of {@code field}, or null when the hash has no such field. */
    byte[] get(byte[] field, int offset, int length);

    default byte[] get(byte[] field) {
        return get(field, 0, field.length);
    }

    /** Visits every field and its value, in the hash's iteration order. */
    void forEach(BiConsumer<byte[], byte[]> visitor);
}
