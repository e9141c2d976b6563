package dev.lacewing.transport.iouring.osgi;

import dev.lacewing.api.TransportProvider;
import dev.lacewing.transport.iouring.IoUringTransport;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** Registers the transport as an OSGi service when the bundle starts in OSGi plugin mode. */
public final class IoUringActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
        context.registerService(TransportProvider.class, new IoUringTransport(), null);
    }

    @Override
    public void stop(BundleContext context) {
        // Services registered by this bundle are unregistered by the framework when it stops.
    }
}
