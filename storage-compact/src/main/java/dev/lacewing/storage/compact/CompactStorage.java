package dev.lacewing.storage.compact;

import dev.lacewing.api.storage.PartitionStore;
import dev.lacewing.api.storage.Storage;
import dev.lacewing.api.storage.StorageContext;
import dev.lacewing.api.storage.StorageProvider;

/**
 * The {@code compact} storage: every table a {@link CompactTable}, entries packed in byte pages,
 * everything in memory. Each table keeps its own spare pages, except under {@link Storage#striped}
 * (the multithread engine's lock stripes), where the tables share one {@link PagePool}, so that
 * the slack does not grow with the stripes. Stateless beyond its context; the tables hold the data.
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
            public Storage striped() {
                PagePool pool = new PagePool();
                PartitionStore pooled = () -> new CompactTable(context.access(), context.aggregates(), context.clock(), pool);
                return new Storage() {
                    @Override
                    public PartitionStore partition(int index, int count) {
                        return pooled;
                    }

                    @Override
                    public boolean alwaysResident() {
                        return true;
                    }
                };
            }

            @Override
            public boolean alwaysResident() {
                return true;
            }
        };
    }
}
