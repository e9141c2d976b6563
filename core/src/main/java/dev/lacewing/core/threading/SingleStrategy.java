package dev.lacewing.core.threading;

import dev.lacewing.api.ThreadingPlan;
import dev.lacewing.api.ThreadingStrategy;

/** One thread for all I/O and all commands, as classic Redis runs; {@code threads} is ignored. */
public final class SingleStrategy implements ThreadingStrategy {

    @Override
    public String name() {
        return "single";
    }

    @Override
    public ThreadingPlan plan(int threads, String engine) {
        return new ThreadingPlan(name(), 1);
    }
}
