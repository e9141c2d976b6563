package dev.lacewing.core.datatype;

import dev.lacewing.api.storage.Aggregate;

/**
 * A stored value of one of core's aggregate types (hash, list, set, zset, stream): an
 * {@link Aggregate} whose copy is again one of core's. Thread rule: as {@link Aggregate}.
 */
public interface TypedValue extends Aggregate {

    @Override
    TypedValue copy();
}
