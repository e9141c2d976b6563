package dev.lacewing.storage.tiered;

import dev.lacewing.api.SettingSpec;
import dev.lacewing.api.storage.Storage;
import dev.lacewing.api.storage.StorageContext;
import dev.lacewing.api.storage.StorageProvider;
import java.util.List;

/**
 * The {@code tiered} storage: keys, expiry, access fields and aggregates in memory, strings of at
 * least {@code tiered-min-value-size} bytes movable to a segment file per partition under
 * {@code tiered-dir}. Stateless; {@link #open} makes a {@link TieredDisk} per server.
 */
public final class TieredStorage implements StorageProvider {

    public static final String NAME = "tiered";

    @Override
    public String name() {
        return NAME;
    }

    /** {@link TieredSettings}'s three, all fixed at start-up. */
    @Override
    public List<SettingSpec> settings() {
        return TieredSettings.DECLARED;
    }

    @Override
    public Storage open(StorageContext context) {
        return new TieredDisk(context, TieredSettings.of(context.settings()));
    }
}
