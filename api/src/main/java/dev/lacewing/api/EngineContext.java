package dev.lacewing.api;

/** What the server gives an engine when it creates it. */
public interface EngineContext {

    Settings settings();

    /** The workers (I/O threads) the transport runs; shards are bound to them. */
    Workers workers();

    /** Number of databases (the {@code databases} setting). */
    int databases();

    /** The threading strategy the server runs with. */
    ThreadingPlan threading();
}
