package dev.lacewing.storage.tiered.osgi;

import dev.lacewing.api.storage.StorageProvider;
import dev.lacewing.storage.tiered.TieredStorage;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** Registers the storage as an OSGi service when the bundle starts in OSGi plugin mode. */
public final class TieredStorageActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
        context.registerService(StorageProvider.class, new TieredStorage(), null);
    }

    @Override
    public void stop(BundleContext context) {
        // Services registered by this bundle are unregistered by the framework when it stops.
    }
}
