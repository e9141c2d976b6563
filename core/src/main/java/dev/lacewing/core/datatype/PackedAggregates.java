package dev.lacewing.core.datatype;

import dev.lacewing.api.storage.Aggregate;
import dev.lacewing.api.storage.AggregateCodec;

/**
 * Core's {@link AggregateCodec}: the listpack form of a hash back into a {@link HashValue}, the
 * intset form of a set into a {@link SetValue}. Stateless.
 */
public final class PackedAggregates implements AggregateCodec {

    public static final PackedAggregates CODEC = new PackedAggregates();

    private PackedAggregates() {
    }

    @Override
    public Aggregate.Packed unpack(int form, byte[] bytes) {
        return switch (form) {
            case Aggregate.Packed.HASH_LISTPACK -> HashValue.fromListpack(bytes);
            case Aggregate.Packed.SET_INTSET -> SetValue.fromIntset(bytes);
            default -> throw new IllegalArgumentException("no packed form " + form);
        };
    }
}
