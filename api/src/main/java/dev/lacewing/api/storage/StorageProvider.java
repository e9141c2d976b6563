package dev.lacewing.api.storage;

import dev.lacewing.api.DeclaresSettings;

/**
 * A storage plugin, chosen with the {@code storage} setting by {@link #name()} and found by
 * ServiceLoader (class path, JPMS module layer or the OSGi service registry), as engines are.
 */
public interface StorageProvider extends DeclaresSettings {

    String name();

    /** Opens the storage of one server, once, before the engine is created. */
    Storage open(StorageContext context);
}
