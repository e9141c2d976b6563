package dev.lacewing.storage.tck;

import dev.lacewing.api.Settings;
import dev.lacewing.api.storage.AggregateCodec;
import dev.lacewing.api.storage.StorageContext;
import java.util.Optional;
import java.util.function.LongSupplier;

/** The {@link StorageContext} the contract opens a storage with: no settings, one database, {@link TestAggregate#CODEC}. */
public record TestContext(LongSupplier clock, TestAccessPolicy access) implements StorageContext {

    @Override
    public Settings settings() {
        return name -> Optional.empty();
    }

    @Override
    public int databases() {
        return 1;
    }

    @Override
    public AggregateCodec aggregates() {
        return TestAggregate.CODEC;
    }
}
