/**
 * An example command plugin: EXAMPLE.ECHO and EXAMPLE.SUM. It depends on the API alone and is
 * found three ways: {@code provides} here (JPMS layer), META-INF/services (class path) and the
 * bundle activator (OSGi).
 */
module dev.lacewing.plugin.example {
    requires dev.lacewing.api;
    requires static osgi.core;

    provides dev.lacewing.api.CommandProvider with dev.lacewing.plugin.example.ExampleCommands;
}
