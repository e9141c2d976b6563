package dev.lacewing.engine.multithread;

import dev.lacewing.api.EngineContext;
import dev.lacewing.api.StorageEngine;
import dev.lacewing.api.StorageEngineProvider;

/** Provides the {@code multithread} engine. */
public final class MultithreadEngineProvider implements StorageEngineProvider {

    @Override
    public String name() {
        return "multithread";
    }

    @Override
    public StorageEngine create(EngineContext context) {
        return new MultithreadEngine(context);
    }
}
