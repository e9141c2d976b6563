package dev.lacewing.engine.sharednothing;

import dev.lacewing.api.Invocation;
import dev.lacewing.api.Workers;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A command that spans several shards, run atomically: the coordinator thread parks every
 * shard involved (each shard's worker runs a task that waits on a latch), runs the command
 * against all of them while nothing else can touch them, then releases them. No client ever
 * sees half of it.
 *
 * <p>Why one coordinator thread: two coordinators parking shards in different orders could each
 * hold a shard the other waits for; with one, parking needs no global order and cannot
 * deadlock, and a worker never blocks on anything but its own park latch. Multi-shard commands
 * are rare next to single-key ones, so one at a time is the right trade for now. Shards are
 * parked in ascending order so a later parallel coordinator can keep that rule.
 *
 * <p>Thread rule: the coordinator thread owns a transaction from submit to release.
 */
final class Transaction {

    /** Shards are a bitmask: the engine has at most 64 shards. */
    static final int MAX_SHARDS = 64;

    private Transaction() {
    }

    static long allShards(int shards) {
        return shards == MAX_SHARDS ? -1L : (1L << shards) - 1;
    }

    /**
     * The shards an invocation must hold, given those it holds: more while serving the blocked
     * clients it may wake could reach further (see SharedNothingEngine#servingReach).
     */
    interface Reach {
        long of(Invocation invocation, long held);
    }

    /** Runs transactions one at a time on its own thread. */
    static final class Coordinator {

        private final Workers workers;
        private final Reach reach;
        private final ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
            Thread t = new Thread(runnable, "lacewing-coordinator");
            t.setDaemon(true);
            return t;
        });

        Coordinator(Workers workers, Reach reach) {
            if (workers.count() > MAX_SHARDS) {
                throw new IllegalArgumentException("the shared-nothing engine supports at most " + MAX_SHARDS
                    + " threads, not " + workers.count());
            }
            this.workers = workers;
            this.reach = reach;
        }

        void submit(Invocation invocation, long shards) {
            thread.execute(() -> runParked(invocation, shards));
        }

        /**
         * Parks {@code shards}, then whatever else the invocation turns out to need once their
         * registries can be read (a woken BLMOVE's destination shard), runs it, releases them all.
         * Parking more while holding some cannot deadlock: a worker waits on nothing but a park.
         */
        private void runParked(Invocation invocation, long shards) {
            CountDownLatch released = new CountDownLatch(1);
            try {
                long held = 0;
                for (long wanted = shards; wanted != held; wanted = reach.of(invocation, held)) {
                    park(wanted & ~held, released);
                    held = wanted;
                }
                invocation.run();
            } finally {
                released.countDown();
            }
            invocation.completed();
        }

        /** Parks every shard of {@code shards} until {@code released}; returns once all are parked. */
        private void park(long shards, CountDownLatch released) {
            CountDownLatch parked = new CountDownLatch(Long.bitCount(shards));
            for (long left = shards; left != 0; left &= left - 1) {
                workers.executor(Long.numberOfTrailingZeros(left)).execute(() -> {
                    parked.countDown();
                    awaitUninterruptibly(released);
                });
            }
            awaitUninterruptibly(parked);
        }

        void close() {
            thread.shutdown();
            try {
                thread.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static void awaitUninterruptibly(CountDownLatch latch) {
            boolean interrupted = false;
            while (true) {
                try {
                    latch.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
