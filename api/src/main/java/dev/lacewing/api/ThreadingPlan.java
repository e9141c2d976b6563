package dev.lacewing.api;

/**
 * How many worker threads the server runs. What a worker does beyond its connections' I/O is the
 * engine's choice: under shared-nothing it owns one shard of the keyspace (so there are as many
 * shards as workers), under multithread it runs its own clients' commands under the keyspace's
 * stripe locks.
 *
 * @param strategy the strategy's name
 * @param workers I/O threads, each an event loop
 */
public record ThreadingPlan(String strategy, int workers) {
}
