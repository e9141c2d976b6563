package dev.lacewing.core.testing;

import dev.lacewing.api.EngineContext;
import dev.lacewing.api.Settings;
import dev.lacewing.api.ThreadingPlan;
import dev.lacewing.api.Workers;
import dev.lacewing.api.storage.Storage;
import dev.lacewing.api.storage.StorageProvider;
import dev.lacewing.core.keyspace.MemoryPolicy;
import dev.lacewing.core.keyspace.StorageSetup;
import java.util.ServiceLoader;
import java.util.function.LongSupplier;

/**
 * What an engine under test is created with: one database on the compact storage (found through
 * ServiceLoader, so a test needs lacewing-storage-compact on its class path), the test's settings
 * and workers, no threading plan and no client buffers. The engines' tests share it through core's
 * test-jar, in a package of its own: on the class path beside core's module, a class in one of
 * core's packages would not be seen.
 */
public record TestEngineContext(Settings settings, Workers workers, Storage storage) implements EngineContext {

    public static TestEngineContext of(Settings settings, Workers workers) {
        Storage storage = ServiceLoader.load(StorageProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(provider -> provider.name().equals("compact"))
            .findFirst().orElseThrow()
            .open(new StorageSetup(settings, 1, System::currentTimeMillis, MemoryPolicy.of(settings)));
        return new TestEngineContext(settings, workers, storage);
    }

    @Override
    public int databases() {
        return 1;
    }

    @Override
    public ThreadingPlan threading() {
        return null;
    }

    @Override
    public LongSupplier clientBufferBytes() {
        return () -> 0;
    }
}
