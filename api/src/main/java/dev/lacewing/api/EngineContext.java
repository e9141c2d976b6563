package dev.lacewing.api;

import dev.lacewing.api.storage.Storage;
import java.util.function.LongSupplier;

/** What the server gives an engine when it creates it. */
public interface EngineContext {

    Settings settings();

    /** The workers (I/O threads) the transport runs; shards are bound to them. */
    Workers workers();

    /** Number of databases (the {@code databases} setting). */
    int databases();

    /**
     * The storage chosen with the {@code storage} setting, opened: the keyspace's tables come from
     * it. The server closes it after the engine.
     */
    Storage storage();

    /** The threading strategy the server runs with. */
    ThreadingPlan threading();

    /**
     * Bytes held by normal clients' query and output buffers, which Redis 7.0 counts in used_memory
     * and against {@code maxmemory} (replica output buffers and the AOF buffer it leaves out; there
     * are none here). The engine adds it to the keyspace's bytes when it checks the limit. May be
     * called from any thread.
     */
    LongSupplier clientBufferBytes();
}
