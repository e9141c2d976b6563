package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StorageEngine;
import dev.lacewing.api.Workers;
import dev.lacewing.core.keyspace.Slots;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Work that no client asked for, run through the engine's one door as a command would be, and
 * submitted from worker 0, so an engine that runs such work inline runs it on a worker thread:
 * <ul>
 * <li>over the whole keyspace ({@link #run}: loading the RDB file at start-up, the save a signal's
 *     shutdown makes, a BGSAVE's epoch), as a command of scope {@link KeyScope#ALL}: it waits for
 *     every earlier holder and holds every database while it runs; the calling thread (outside
 *     the workers) waits for the result;</li>
 * <li>over one partition ({@link #submit}: a background save's turn in it), as a command over one
 *     key of that partition ({@link #partitionKey}): it waits for the partition's earlier holders
 *     and holds only it; the caller learns it ran through the returned future.</li>
 * </ul>
 *
 * <p>Thread rule: {@link #run()} runs on whatever thread the engine grants it; the result is
 * handed back through a future.
 */
final class KeyspaceTask<T> implements Invocation, Arguments {

    private static final CommandSpec WHOLE = new CommandSpec("keyspace-task", 1, Set.of(), 0, 0, 0, KeyScope.ALL,
        "server", "Internal: work over the whole keyspace");
    private static final CommandSpec PARTITION = new CommandSpec("partition-task", 2, Set.of(), 1, 1, 1,
        KeyScope.KEYS, "server", "Internal: work over one partition");

    private final CommandSpec spec;
    private final int nameLength;
    /** The name, then the partition's key for a partition's task. */
    private final byte[] array;
    private final Supplier<T> body;
    private final CompletableFuture<T> result = new CompletableFuture<>();
    private int homeWorker;

    private KeyspaceTask(CommandSpec spec, byte[] key, Supplier<T> body) {
        byte[] name = spec.name().getBytes(StandardCharsets.US_ASCII);
        this.spec = spec;
        this.nameLength = name.length;
        this.array = new byte[name.length + key.length];
        System.arraycopy(name, 0, array, 0, name.length);
        System.arraycopy(key, 0, array, name.length, key.length);
        this.body = body;
    }

    /** Runs {@code body} over every database, holding them all; rethrows what it throws. */
    static <T> T run(StorageEngine engine, Workers workers, int databases, Function<List<Keyspace>, T> body) {
        KeyspaceTask<T> task = new KeyspaceTask<>(WHOLE, new byte[0], () -> {
            List<Keyspace> all = new ArrayList<>(databases);
            for (int i = 0; i < databases; i++) {
                all.add(engine.keyspace(i));
            }
            return body.apply(all);
        });
        workers.executor(0).execute(() -> engine.execute(task));
        try {
            return task.result.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }

    /**
     * Runs {@code body} over the whole keyspace as a command of a connection whose home is worker
     * {@code homeWorker} would, submitted through that worker's {@code executor}; the calling thread,
     * which must not be a worker, waits for the result. A script debugging session's commands.
     */
    static <T> T runFrom(StorageEngine engine, java.util.concurrent.Executor executor, int homeWorker,
                         Supplier<T> body) {
        KeyspaceTask<T> task = new KeyspaceTask<>(WHOLE, new byte[0], body);
        task.homeWorker = homeWorker;
        executor.execute(() -> engine.execute(task));
        try {
            return task.result.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /** Submits {@code body} to run holding the partition {@code key} ({@link #partitionKey}) falls in. */
    static CompletableFuture<Void> submit(StorageEngine engine, Workers workers, byte[] key, Runnable body) {
        KeyspaceTask<Void> task = new KeyspaceTask<>(PARTITION, key, () -> {
            body.run();
            return null;
        });
        workers.executor(0).execute(() -> engine.execute(task));
        return task.result;
    }

    /** A key of partition {@code partition} of {@code partitions}: the first {@code bgsave:<n>} that hashes there. */
    static byte[] partitionKey(int partition, int partitions) {
        for (int n = 0; ; n++) {
            byte[] key = ("bgsave:" + n).getBytes(StandardCharsets.US_ASCII);
            if (Slots.partitionOf(key, 0, key.length, partitions) == partition) {
                return key;
            }
        }
    }

    @Override
    public void run() {
        try {
            result.complete(body.get());
        } catch (RuntimeException | Error e) {
            result.completeExceptionally(e);
        }
    }

    @Override
    public void completed() {
        // The waiting thread has its result already.
    }

    @Override
    public CommandSpec spec() {
        return spec;
    }

    @Override
    public Arguments arguments() {
        return this;
    }

    @Override
    public int database() {
        return 0;
    }

    @Override
    public int homeWorker() {
        return homeWorker;
    }

    @Override
    public int keyCount() {
        return count() - 1;
    }

    @Override
    public int keyArgument(int i) {
        if (i >= keyCount()) {
            throw new IndexOutOfBoundsException(i);
        }
        return 1;
    }

    @Override
    public int count() {
        return spec == PARTITION ? 2 : 1;
    }

    @Override
    public byte[] array() {
        return array;
    }

    @Override
    public int offset(int index) {
        return index == 0 ? 0 : nameLength;
    }

    @Override
    public int length(int index) {
        return index == 0 ? nameLength : array.length - nameLength;
    }
}
