package dev.lacewing.engine.sharednothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Workers;
import dev.lacewing.core.keyspace.Slots;
import dev.lacewing.core.testing.TestEngineContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The door for multi-shard work on two shards whose threads are played by the test: each worker's
 * tasks wait in a list until the test runs them as that worker, so every interleaving is chosen.
 */
class SharedNothingEngineTest {

    private final StepWorkers workers = new StepWorkers(2);
    private final SharedNothingEngine engine = new SharedNothingEngine(TestEngineContext.of(name -> Optional.empty(), workers));
    private final List<String> events = new ArrayList<>();
    private final String onZero = keyOn(0);
    private final String onOne = keyOn(1);

    /**
     * A split from a connection on worker 0 holds its shard-0 keys once its dispatch returns: a GET
     * of one, dispatched next on that thread, waits for the split instead of reading the old value
     * before the split was taken in.
     */
    @Test
    void aSplitHoldsItsHomeShardsKeysWhenItsDispatchReturns() {
        assertFalse(engine.execute(split("mset", onZero, onOne)));
        assertFalse(engine.execute(get(onZero)), "the GET of a held key waits");
        assertEquals(List.of("mset part [0] on 0"), events, "the home part ran in the dispatch; shard 1 did nothing yet");

        workers.runTasks(1);
        workers.runTasks(0);
        assertEquals(List.of("mset part [0] on 0", "mset part [1] on 1", "mset join on 1",
            "get ran on 0", "get completed on 0", "mset completed on 0"), events);
    }

    /** When the last part ends on another shard, the home shard gets its release and the completion as one task. */
    @Test
    void theHomeShardGetsItsReleaseAndTheCompletionAsOneTask() {
        engine.execute(split("mset", onZero, onOne));
        workers.runTasks(1);
        assertEquals(1, workers.pending(0));
        workers.runTasks(0);
        assertEquals("mset completed on 0", events.get(events.size() - 1));
    }

    /**
     * A split taken in on its caller's own shard never overtakes an earlier one still in that
     * shard's arrivals: the earlier one, from a worker-1 connection, goes in and runs first.
     */
    @Test
    void aSplitTakenInOnItsCallersShardGoesInAfterEarlierArrivals() {
        workers.current = 1;
        engine.execute(split("first", onZero, onOne));
        workers.current = 0;
        engine.execute(split("second", onZero, onOne));
        assertEquals(List.of("first part [1] on 1", "first part [0] on 0", "first join on 0", "second part [0] on 0"),
            events, "shard 0 took in the first split, then the second once the first released its key");

        workers.runTasks(1);
        workers.runTasks(0);
        assertEquals(List.of("first part [1] on 1", "first part [0] on 0", "first join on 0", "second part [0] on 0",
            "first completed on 1", "second part [1] on 1", "second join on 1", "second completed on 0"), events,
            "shard 1 was woken for the second split after its home part ran, behind the first's completion");
    }

    /**
     * A split that runs a second round on one part of its choosing (a gathered EXEC) is offered its
     * part off the caller's shard: that shard ends the first round, runs the lone round at once,
     * and the home gets the release and completion as one task: two hand-overs in all, not three.
     */
    @Test
    void aLoneRoundRunsOnTheShardThatEndedTheFirstRound() {
        Command exec = new Command("exec", 0, new String[] {onZero, onOne}, true);
        exec.lone = new int[] {0};
        exec.rounds = 2;
        engine.execute(exec);
        workers.runTasks(1);
        assertEquals(List.of("exec prefers [1] on 0", "exec part [0] on 0", "exec part [1] on 1", "exec part [1] on 1",
            "exec join on 1"), events);
        assertEquals(1, workers.pending(0));
        assertEquals(0, workers.pending(1));
        workers.runTasks(0);
        assertEquals("exec completed on 0", events.get(events.size() - 1));
    }

    /**
     * The other shard is woken only after the home part ran: a shard 1 that runs whatever reaches it
     * while shard 0 still runs its part (as a second core does) finds nothing yet, so it ends the
     * first round and runs the lone round at once: two hand-overs in all. Woken first, it ran its
     * part before shard 0's ended, and the lone round was handed over to it again.
     */
    @Test
    void theOtherShardIsWokenAfterTheHomePartSoItEndsTheRound() {
        Command exec = new Command("exec", 0, new String[] {onZero, onOne}, true);
        exec.lone = new int[] {0};
        exec.rounds = 2;
        exec.whilePartRunsOnZero = () -> workers.runTasks(1);
        engine.execute(exec);
        assertEquals(List.of("exec prefers [1] on 0", "exec part [0] on 0"), events);
        assertEquals(1, workers.pending(1), "one take-in posted to shard 1");

        workers.runTasks(1);
        assertEquals(List.of("exec prefers [1] on 0", "exec part [0] on 0", "exec part [1] on 1", "exec part [1] on 1",
            "exec join on 1"), events);
        assertEquals(1, workers.pending(0), "the release and the completion, as one task");
        assertEquals(0, workers.pending(1));
        workers.runTasks(0);
        assertEquals("exec completed on 0", events.get(events.size() - 1));
    }

    /**
     * A shard that has a burst of other shards' parts to run starts a pass's budget of them, then
     * returns to its I/O: a GET hopped to it behind the burst runs before the rest, which follow
     * after the I/O in their order.
     */
    @Test
    void aShardRunsABudgetOfPartsThenWhatQueuedBehindThemBeforeTheRest() {
        int burst = TransactionQueue.PARTS_PER_PASS + 2;
        List<String> zeros = keysOn(0, burst);
        List<String> ones = keysOn(1, burst + 1);
        for (int i = 0; i < burst; i++) {
            engine.execute(split("m" + i, zeros.get(i), ones.get(i)));
        }
        engine.execute(get(ones.get(burst)));
        events.clear();

        workers.runTasks(1);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < TransactionQueue.PARTS_PER_PASS; i++) {
            expected.addAll(List.of("m" + i + " part [1] on 1", "m" + i + " join on 1"));
        }
        expected.addAll(List.of("get ran on 1", "get completed on 1"));
        assertEquals(expected, events, "the parts past the budget wait for the I/O");

        // Shard 0 ran every home part within its dispatches, past its own budget: each part here joins.
        workers.runAfterIo(1);
        for (int i = TransactionQueue.PARTS_PER_PASS; i < burst; i++) {
            expected.addAll(List.of("m" + i + " part [1] on 1", "m" + i + " join on 1"));
        }
        assertEquals(expected, events);
    }

    private static String keyOn(int shard) {
        return keysOn(shard, 1).get(0);
    }

    private static List<String> keysOn(int shard, int count) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; keys.size() < count; i++) {
            String key = "k" + i;
            byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
            if (Slots.partitionOf(bytes, 0, bytes.length, 2) == shard) {
                keys.add(key);
            }
        }
        return keys;
    }

    /** A command named {@code name} over {@code keys} that splits into one part per shard, on worker {@code current}'s connection. */
    private Command split(String name, String... keys) {
        return new Command(name, workers.current, keys, true);
    }

    private Command get(String key) {
        return new Command("get", workers.current, new String[] {key}, false);
    }

    /** Records what the engine does with it, and on which worker. */
    private final class Command implements Invocation, Invocation.Split {

        private final String name;
        private final int home;
        private final boolean splits;
        private final byte[] bytes;
        private final int[] offsets;
        /** Rounds it runs; after the first, only the part over {@link #lone} runs. */
        int rounds = 1;
        int[] lone;
        /** Runs while a part of it runs on worker 0, as another core's worker would meanwhile. */
        Runnable whilePartRunsOnZero;
        private int round;
        private final Arguments arguments = new Arguments() {
            @Override
            public int count() {
                return offsets.length - 1;
            }

            @Override
            public byte[] array() {
                return bytes;
            }

            @Override
            public int offset(int index) {
                return offsets[index];
            }

            @Override
            public int length(int index) {
                return offsets[index + 1] - offsets[index];
            }
        };

        Command(String name, int home, String[] keys, boolean splits) {
            this.name = name;
            this.home = home;
            this.splits = splits;
            String joined = name + String.join("", keys);
            bytes = joined.getBytes(StandardCharsets.UTF_8);
            offsets = new int[keys.length + 2];
            offsets[1] = name.length();
            for (int i = 0; i < keys.length; i++) {
                offsets[i + 2] = offsets[i + 1] + keys[i].length();
            }
        }

        private void record(String what) {
            events.add(name + " " + what + " on " + workers.current);
        }

        @Override
        public CommandSpec spec() {
            throw new UnsupportedOperationException();
        }

        @Override
        public KeyScope scope() {
            return KeyScope.KEYS;
        }

        @Override
        public Arguments arguments() {
            return arguments;
        }

        @Override
        public int database() {
            return 0;
        }

        @Override
        public int homeWorker() {
            return home;
        }

        @Override
        public int keyCount() {
            return offsets.length - 2;
        }

        @Override
        public int keyArgument(int i) {
            return i + 1;
        }

        @Override
        public void run() {
            record("ran");
        }

        @Override
        public void completed() {
            record("completed");
        }

        @Override
        public Split split() {
            return splits ? this : null;
        }

        @Override
        public Object runPart(int[] keys) {
            record("part " + java.util.Arrays.toString(keys));
            if (workers.current == 0 && whilePartRunsOnZero != null) {
                whilePartRunsOnZero.run();
            }
            return "OK";
        }

        @Override
        public void join(int[][] keys, Object[] replies) {
            record("join");
        }

        @Override
        public void preferLonePart(int[] keys) {
            if (lone != null) {
                record("prefers " + java.util.Arrays.toString(keys));
                lone = keys;
            }
        }

        @Override
        public boolean another(Object[] replies) {
            return ++round < rounds;
        }

        @Override
        public boolean runsPart(int[] keys) {
            return lone == null || java.util.Arrays.equals(keys, lone);
        }
    }

    /** Workers whose tasks wait until the test runs them; {@link #current} is the worker the test plays. */
    private static final class StepWorkers implements Workers {

        private final List<ArrayDeque<Runnable>> tasks = new ArrayList<>();
        private final List<ArrayDeque<Runnable>> afterIo = new ArrayList<>();
        private final List<ArrayDeque<Runnable>> atPassEnd = new ArrayList<>();
        int current;

        StepWorkers(int count) {
            for (int i = 0; i < count; i++) {
                tasks.add(new ArrayDeque<>());
                afterIo.add(new ArrayDeque<>());
                atPassEnd.add(new ArrayDeque<>());
            }
        }

        /** Runs the tasks worker {@code worker} was to run after its I/O, then its tasks. */
        void runAfterIo(int worker) {
            ArrayDeque<Runnable> due = new ArrayDeque<>(afterIo.get(worker));
            afterIo.get(worker).clear();
            tasks.get(worker).addAll(due);
            runTasks(worker);
        }

        /**
         * Runs worker {@code worker}'s tasks, those they post to it included, as that worker: one
         * pass, ended by the tasks asked for at its end.
         */
        void runTasks(int worker) {
            int was = current;
            current = worker;
            for (Runnable task = tasks.get(worker).poll(); task != null; task = tasks.get(worker).poll()) {
                task.run();
            }
            for (Runnable task = atPassEnd.get(worker).poll(); task != null; task = atPassEnd.get(worker).poll()) {
                task.run();
            }
            current = was;
        }

        int pending(int worker) {
            return tasks.get(worker).size();
        }

        @Override
        public int count() {
            return tasks.size();
        }

        @Override
        public Executor executor(int index) {
            return tasks.get(index)::add;
        }

        @Override
        public void executeAfterIo(int index, Runnable task) {
            afterIo.get(index).add(task);
        }

        @Override
        public void executeAtPassEnd(int index, Runnable task) {
            atPassEnd.get(index).add(task);
        }

        @Override
        public int currentIndex() {
            return current;
        }

        @Override
        public void scheduleRepeating(int index, Runnable task, LongSupplier periodMillis) {
        }
    }
}
