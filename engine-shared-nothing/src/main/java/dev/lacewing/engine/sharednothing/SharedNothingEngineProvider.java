package dev.lacewing.engine.sharednothing;

import dev.lacewing.api.EngineContext;
import dev.lacewing.api.SettingSpec;
import dev.lacewing.api.StorageEngine;
import dev.lacewing.api.StorageEngineProvider;
import java.util.List;

/** Provides the {@code shared-nothing} engine. */
public final class SharedNothingEngineProvider implements StorageEngineProvider {

    @Override
    public String name() {
        return "shared-nothing";
    }

    @Override
    public List<SettingSpec> settings() {
        return List.of(SharedNothingEngine.SHARD_WRITES_REPLIES);
    }

    @Override
    public StorageEngine create(EngineContext context) {
        return new SharedNothingEngine(context);
    }
}
