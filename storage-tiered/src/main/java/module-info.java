/**
 * The tiered storage: keys, expiry, access fields and aggregates in memory, long strings in a
 * per-partition segment file on disk. Built against the API alone, as a third party would.
 */
module dev.lacewing.storage.tiered {
    requires dev.lacewing.api;
    requires static osgi.core;

    provides dev.lacewing.api.storage.StorageProvider with dev.lacewing.storage.tiered.TieredStorage;
}
