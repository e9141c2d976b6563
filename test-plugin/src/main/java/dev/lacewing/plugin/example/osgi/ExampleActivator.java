package dev.lacewing.plugin.example.osgi;

import dev.lacewing.api.CommandProvider;
import dev.lacewing.plugin.example.ExampleCommands;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** Registers the example commands as an OSGi service when the bundle starts in OSGi plugin mode. */
public final class ExampleActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
        context.registerService(CommandProvider.class, new ExampleCommands(), null);
    }

    @Override
    public void stop(BundleContext context) {
        // The framework unregisters the bundle's services when it stops; the server then drops the commands.
    }
}
