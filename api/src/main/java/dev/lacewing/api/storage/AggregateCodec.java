package dev.lacewing.api.storage;

/**
 * How a table turns a packed form back into a value ({@link Aggregate.Packed}) without naming the
 * datatypes, which live in core. Stateless; any thread.
 */
@FunctionalInterface
public interface AggregateCodec {

    /**
     * The value whose packed form {@code form} ({@link Aggregate.Packed#HASH_LISTPACK},
     * {@link Aggregate.Packed#SET_INTSET}) is {@code bytes}, which the value takes, not copies.
     */
    Aggregate.Packed unpack(int form, byte[] bytes);
}
