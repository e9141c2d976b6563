package dev.lacewing.core.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One worker's periodic duties (active expiry, the clients cron, the instantaneous metrics' samples)
 * on one timer, as Redis's serverCron runs all of its duties from one timer event: each duty keeps
 * its own period, read again after each run, and a tick runs every duty due by then. A duty counts
 * as due up to half the shortest period early, so that a duty whose period is a multiple of the
 * shortest one falls on the same ticks as that one instead of waking the worker a moment after it:
 * at the default {@code hz} of 10, expiry, the 100 ms samples and the once-a-second clients cron
 * wake an idle worker 10 times a second. With a timer each, they woke it 10 to 21 times, as their
 * phases, set by when each was scheduled, happened to fall.
 *
 * <p>The clock is the caller's ({@link System#nanoTime()} on a worker), so that a test can step it.
 *
 * <p>Thread rule: touched only by its worker's thread.
 */
final class PeriodicDuties {

    private static final System.Logger LOG = System.getLogger(PeriodicDuties.class.getName());

    private final List<Duty> duties = new ArrayList<>();

    /** Adds {@code task}, first due one period after {@code nowNanos}. */
    void add(Runnable task, LongSupplier periodMillis, long nowNanos) {
        Duty duty = new Duty(task, periodMillis);
        duty.dueNanos = nowNanos + duty.periodNanos();
        duties.add(duty);
    }

    /**
     * Runs the duties due at {@code nowNanos}, in the order they were added; each is next due a
     * period after this tick's start, so duties that ran together stay together.
     */
    void runDue(long nowNanos) {
        long early = shortestPeriodNanos() / 2;
        for (Duty duty : duties) {
            if (duty.dueNanos - early <= nowNanos) {
                try {
                    duty.task.run();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "A periodic task failed; it runs again at its next period", e);
                }
                duty.dueNanos = nowNanos + duty.periodNanos();
            }
        }
    }

    /** When the next duty is due, {@link Long#MAX_VALUE} when there is none. */
    long nextDueNanos() {
        long next = Long.MAX_VALUE;
        for (Duty duty : duties) {
            next = Math.min(next, duty.dueNanos);
        }
        return next;
    }

    private long shortestPeriodNanos() {
        long shortest = Long.MAX_VALUE;
        for (Duty duty : duties) {
            shortest = Math.min(shortest, duty.periodNanos());
        }
        return shortest;
    }

    private static final class Duty {
        final Runnable task;
        final LongSupplier periodMillis;
        long dueNanos;

        Duty(Runnable task, LongSupplier periodMillis) {
            this.task = task;
            this.periodMillis = periodMillis;
        }

        long periodNanos() {
            return TimeUnit.MILLISECONDS.toNanos(Math.max(1, periodMillis.getAsLong()));
        }
    }
}
