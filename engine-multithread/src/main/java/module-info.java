/** The multithread engine: one keyspace shared by every worker, lock striping by hash slot. */
module dev.lacewing.engine.multithread {
    requires dev.lacewing.api;
    requires dev.lacewing.core;
    requires static osgi.core;

    provides dev.lacewing.api.StorageEngineProvider with dev.lacewing.engine.multithread.MultithreadEngineProvider;
}
