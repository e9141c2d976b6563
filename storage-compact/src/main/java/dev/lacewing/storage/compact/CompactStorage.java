package dev.lacewing.storage.compact;

import dev.lacewing.api.storage.PartitionStore;
import dev.lacewing.api.storage.Storage;
import dev.lacewing.api.storage.StorageContext;
import dev.lacewing.api.storage.StorageProvider;

/**
 * The {@code compact} storage: every table a {@link CompactTable}, entries packed in byte pages,
 * everything in memory. Stateless beyond its context; the tables hold the data.
 */
public final class CompactStorage implements StorageProvider {

    public static final String NAME = "compact";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Storage open(StorageContext context) {
        PartitionStore store = () -> new CompactTable(context.access(), context.aggregates(), context.clock());
        return new Storage() {
            @Override
            public PartitionStore partition(int index, int count) {
                return store;
            }

            @Override
            public boolean alwaysResident() {
                return true;
            }
        };
    }
}
