package dev.lacewing.api;

import dev.lacewing.api.storage.Aggregate;

/**
 * A token for one aggregate type, through which command code takes a stored value as that type
 * ({@link Keyspace#aggregate}): the value's class is tested once, here, and a key holding anything
 * else (a string, another aggregate) ends the command with {@link WrongTypeException}. The api's own
 * tokens ({@link #HASH}, {@link #SET}, {@link #SORTED_SET}, {@link #LIST}) give the read-only views a
 * command plugin reads; core's datatypes declare tokens of their own classes for core's command
 * families, over the same stored objects. A record, so that the JIT takes a static token's class
 * for a constant and the test compiles to a plain {@code instanceof}.
 *
 * <p>Thread rule: immutable.
 *
 * @param name the type name TYPE replies ({@code hash}, {@code set}, {@code zset}, {@code list}...)
 * @param valueClass the class or interface every stored value of the type is an instance of
 * @param <T> that class
 */
public record AggregateType<T extends Aggregate>(String name, Class<T> valueClass) {

    /** A hash, read through {@link HashView}. */
    public static final AggregateType<HashView> HASH = new AggregateType<>("hash", HashView.class);
    /** A set, read through {@link SetView}. */
    public static final AggregateType<SetView> SET = new AggregateType<>("set", SetView.class);
    /** A sorted set, read through {@link SortedSetView}. */
    public static final AggregateType<SortedSetView> SORTED_SET = new AggregateType<>("zset", SortedSetView.class);
    /** A list, read through {@link ListView}. */
    public static final AggregateType<ListView> LIST = new AggregateType<>("list", ListView.class);

    /** {@code value} as this type; null when it is null; {@link WrongTypeException} when it is another type. */
    public T of(Object value) {
        if (value == null || valueClass.isInstance(value)) {
            return valueClass.cast(value);
        }
        throw WrongTypeException.INSTANCE;
    }
}
