/** The compact storage: every table's entries packed in byte pages, everything in memory. */
module dev.lacewing.storage.compact {
    requires dev.lacewing.api;
    requires static osgi.core;

    provides dev.lacewing.api.storage.StorageProvider with dev.lacewing.storage.compact.CompactStorage;
}
