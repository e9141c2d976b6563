package dev.lacewing.script.lua.osgi;

import dev.lacewing.api.ScriptingProvider;
import dev.lacewing.script.lua.LuaScripting;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** Registers Lua scripting as an OSGi service when the bundle starts in OSGi plugin mode. */
public final class LuaScriptingActivator implements BundleActivator {

    @Override
    public void start(BundleContext context) {
        context.registerService(ScriptingProvider.class, new LuaScripting(), null);
    }

    @Override
    public void stop(BundleContext context) {
        // Services registered by this bundle are unregistered by the framework when it stops.
    }
}
