package dev.lacewing.transport.epoll.osgi;

import dev.lacewing.api.TransportProvider;
import dev.lacewing.transport.epoll.EpollTransport;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** Registers the transport as an OSGi service when the bundle starts in OSGi plugin mode. */
public final class EpollActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
        context.registerService(TransportProvider.class, new EpollTransport(), null);
    }

    @Override
    public void stop(BundleContext context) {
        // Services registered by this bundle are unregistered by the framework when it stops.
    }
}
