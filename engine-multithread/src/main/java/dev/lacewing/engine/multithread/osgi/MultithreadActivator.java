package dev.lacewing.engine.multithread.osgi;

import dev.lacewing.api.StorageEngineProvider;
import dev.lacewing.engine.multithread.MultithreadEngineProvider;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** Registers the engine as an OSGi service when the bundle starts in OSGi plugin mode. */
public final class MultithreadActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
        context.registerService(StorageEngineProvider.class, new MultithreadEngineProvider(), null);
    }

    @Override
    public void stop(BundleContext context) {
        // Services registered by this bundle are unregistered by the framework when it stops.
    }
}
