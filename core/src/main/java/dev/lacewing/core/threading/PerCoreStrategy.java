package dev.lacewing.core.threading;

import dev.lacewing.api.ThreadingPlan;
import dev.lacewing.api.ThreadingStrategy;

/**
 * Thread per core (the default): every worker does its connections' I/O and, under the
 * shared-nothing engine, owns one shard of the keyspace, as Dragonfly does; under the multithread
 * engine it runs its own clients' commands under the keyspace's stripe locks (KeyDB's and Garnet's
 * I/O-thread model).
 */
public final class PerCoreStrategy implements ThreadingStrategy {

    @Override
    public String name() {
        return "per-core";
    }

    @Override
    public ThreadingPlan plan(int threads, String engine) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1");
        }
        return new ThreadingPlan(name(), threads);
    }
}
