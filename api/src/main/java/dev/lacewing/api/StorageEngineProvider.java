package dev.lacewing.api;

/** A storage engine plugin, chosen with the {@code engine} setting by {@link #name()}. */
public interface StorageEngineProvider extends DeclaresSettings {

    String name();

    StorageEngine create(EngineContext context);
}
