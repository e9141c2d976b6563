package dev.lacewing.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A worker's duties on one timer, on a stepped clock: the worker wakes at {@link
 * PeriodicDuties#nextDueNanos()}, late by a little as a real timer is.
 */
class PeriodicDutiesTest {

    private static final long MILLIS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How late each simulated wake-up comes: more than a real timer's slack, so drift shows. */
    private static final long LATE = 300_000;

    /** The server's duties at the default hz of 10: active expiry, the 100 ms samples, the clients cron. */
    @Test
    void dutiesAtHzTheSamplesAndTheClientsCronWakeAnIdleWorkerTenTimesASecond() {
        PeriodicDuties duties = new PeriodicDuties();
        AtomicInteger expiry = new AtomicInteger();
        AtomicInteger samples = new AtomicInteger();
        AtomicInteger clients = new AtomicInteger();
        long start = 5 * MILLIS;
        duties.add(expiry::incrementAndGet, () -> 100, start);
        // Added later, as the server adds its duties after the engine has started: another phase.
        duties.add(samples::incrementAndGet, () -> 100, start + 37 * MILLIS);
        duties.add(clients::incrementAndGet, () -> 1000, start + 41 * MILLIS);

        int wakes = wakesUntil(duties, start + TimeUnit.SECONDS.toNanos(10));

        assertTrue(wakes <= 100, wakes + " wake-ups in 10 s");
        // A wake-up comes LATE after the due time, so 10 s hold a little under 100 periods.
        assertTrue(expiry.get() >= 95 && samples.get() >= 95, expiry + " expiry cycles, " + samples + " samples");
        assertTrue(clients.get() >= 9 && clients.get() <= 10, clients + " clients cron runs");
    }

    @Test
    void aDutyWhosePeriodIsNotAMultipleKeepsItsOwnRate() {
        PeriodicDuties duties = new PeriodicDuties();
        AtomicInteger fast = new AtomicInteger();
        AtomicInteger odd = new AtomicInteger();
        duties.add(fast::incrementAndGet, () -> 100, 0);
        duties.add(odd::incrementAndGet, () -> 330, 0);

        wakesUntil(duties, TimeUnit.SECONDS.toNanos(10));

        assertTrue(fast.get() >= 95 && fast.get() <= 100, fast + " runs of the 100 ms duty");
        // Never more often than every 280 ms (330 less half of 100), never later than 380 ms.
        assertTrue(odd.get() >= 26 && odd.get() <= 35, odd + " runs of the 330 ms duty");
    }

    /** CONFIG SET hz: a duty's new period counts from its next run. */
    @Test
    void aChangedPeriodTakesEffectAfterTheNextRun() {
        PeriodicDuties duties = new PeriodicDuties();
        AtomicLong period = new AtomicLong(100);
        AtomicInteger runs = new AtomicInteger();
        duties.add(runs::incrementAndGet, period::get, 0);

        wakesUntil(duties, TimeUnit.SECONDS.toNanos(1));
        int atHz10 = runs.get();
        period.set(10);
        wakesUntil(duties, TimeUnit.SECONDS.toNanos(2));

        assertTrue(atHz10 >= 9 && atHz10 <= 10, atHz10 + " runs in the first second");
        int atHz100 = runs.get() - atHz10;
        assertTrue(atHz100 >= 90 && atHz100 <= 101, atHz100 + " runs in the second second");
    }

    @Test
    void aFailingDutyDoesNotStopTheOthers() {
        PeriodicDuties duties = new PeriodicDuties();
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger runs = new AtomicInteger();
        duties.add(() -> {
            failures.incrementAndGet();
            throw new IllegalStateException("test");
        }, () -> 100, 0);
        duties.add(runs::incrementAndGet, () -> 100, 0);

        wakesUntil(duties, TimeUnit.SECONDS.toNanos(1));

        assertEquals(failures.get(), runs.get());
        assertTrue(runs.get() >= 9, runs + " runs");
    }

    /** Steps the clock from one due time to the next until {@code endNanos}; the wake-ups it took. */
    private static int wakesUntil(PeriodicDuties duties, long endNanos) {
        int wakes = 0;
        for (long now = duties.nextDueNanos() + LATE; now <= endNanos && wakes < 100_000; now = duties.nextDueNanos() + LATE) {
            duties.runDue(now);
            wakes++;
        }
        return wakes;
    }
}
