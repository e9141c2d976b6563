/**
 * The shared-nothing engine: one shard per worker thread, keys routed by hash slot, commands for
 * another shard carried there by message passing, multi-shard commands ordered through per-shard
 * transaction queues with key intents.
 */
module dev.lacewing.engine.sharednothing {
    requires dev.lacewing.api;
    requires dev.lacewing.core;
    requires static osgi.core;

    provides dev.lacewing.api.StorageEngineProvider with dev.lacewing.engine.sharednothing.SharedNothingEngineProvider;
}
