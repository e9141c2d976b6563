package dev.lacewing.core.threading;

import dev.lacewing.api.ThreadingPlan;
import dev.lacewing.api.ThreadingStrategy;

/**
 * N I/O threads over one shared keyspace (KeyDB and Garnet style): each I/O thread executes its
 * connections' commands under the keyspace's stripe locks. Needs an engine whose keyspace is
 * shared between threads; shared-nothing shards are owned by one thread each, so it is refused.
 */
public final class IoPoolStrategy implements ThreadingStrategy {

    @Override
    public String name() {
        return "io-pool";
    }

    @Override
    public ThreadingPlan plan(int threads, String engine) {
        if ("shared-nothing".equals(engine)) {
            throw new IllegalArgumentException(
                "threading io-pool needs an engine with a shared keyspace (engine multithread), not shared-nothing");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1");
        }
        return new ThreadingPlan(name(), threads, threads);
    }
}
