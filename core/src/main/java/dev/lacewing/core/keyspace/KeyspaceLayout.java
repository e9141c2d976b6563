package dev.lacewing.core.keyspace;

import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

/** How a database's entries are stored: the {@code keyspace-layout} setting. */
public enum KeyspaceLayout {

    /** {@link CompactTable}: entries packed in byte pages, no object per key. */
    COMPACT(CompactTable::new),
    /** {@link KeyTable}: a byte[] per key and per string value. */
    OBJECTS(KeyTable::new);

    private final BiFunction<MemoryPolicy, LongSupplier, DatabaseTable> factory;

    KeyspaceLayout(BiFunction<MemoryPolicy, LongSupplier, DatabaseTable> factory) {
        this.factory = factory;
    }

    /** A table whose keys' access fields follow {@code memory}, created at the times {@code clock} tells. */
    DatabaseTable newTable(MemoryPolicy memory, LongSupplier clock) {
        return factory.apply(memory, clock);
    }

    /** The layout a setting value names; IllegalArgumentException otherwise. */
    public static KeyspaceLayout named(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
