package dev.lacewing.api;

/**
 * How many worker threads the server runs and how many shards (partitions) the keyspace has.
 *
 * @param strategy the strategy's name
 * @param workers I/O threads, each an event loop
 * @param partitions keyspace partitions; one per worker for shared-nothing
 */
public record ThreadingPlan(String strategy, int workers, int partitions) {
}
