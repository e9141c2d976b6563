package dev.lacewing.core.keyspace;

import java.util.Locale;
import java.util.function.Supplier;

/** How a database's entries are stored: the {@code keyspace-layout} setting. */
public enum KeyspaceLayout {

    /** {@link CompactTable}: entries packed in byte pages, no object per key. */
    COMPACT(CompactTable::new),
    /** {@link KeyTable}: a byte[] per key and per string value. */
    OBJECTS(KeyTable::new);

    private final Supplier<DatabaseTable> factory;

    KeyspaceLayout(Supplier<DatabaseTable> factory) {
        this.factory = factory;
    }

    DatabaseTable newTable() {
        return factory.get();
    }

    /** The layout a setting value names; IllegalArgumentException otherwise. */
    public static KeyspaceLayout named(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
