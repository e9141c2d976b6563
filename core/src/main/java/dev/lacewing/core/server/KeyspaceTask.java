package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StorageEngine;
import dev.lacewing.api.Workers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Work over the whole keyspace that no client asked for (loading the RDB file at start-up, the
 * save a signal's shutdown makes), run through the engine's one door as a command of scope
 * {@link KeyScope#ALL} would be: it waits for every earlier holder and holds every database
 * while it runs. Submitted from worker 0, so an engine that runs such work inline runs it on a
 * worker thread; the calling thread (outside the workers) waits for the result.
 *
 * <p>Thread rule: {@link #run} runs on whatever thread the engine grants it; the result is
 * handed back through a future.
 */
final class KeyspaceTask<T> implements Invocation {

    private static final CommandSpec SPEC = new CommandSpec("keyspace-task", 1, Set.of(), 0, 0, 0, KeyScope.ALL,
        "server", "Internal: work over the whole keyspace");
    private static final byte[] NAME = SPEC.name().getBytes(StandardCharsets.US_ASCII);

    private final StorageEngine engine;
    private final int databases;
    private final Function<List<Keyspace>, T> body;
    private final CompletableFuture<T> result = new CompletableFuture<>();

    private KeyspaceTask(StorageEngine engine, int databases, Function<List<Keyspace>, T> body) {
        this.engine = engine;
        this.databases = databases;
        this.body = body;
    }

    /** Runs {@code body} over every database, holding them all; rethrows what it throws. */
    static <T> T run(StorageEngine engine, Workers workers, int databases, Function<List<Keyspace>, T> body) {
        KeyspaceTask<T> task = new KeyspaceTask<>(engine, databases, body);
        workers.executor(0).execute(() -> engine.execute(task));
        try {
            return task.result.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }

    @Override
    public void run() {
        try {
            List<Keyspace> all = new ArrayList<>(databases);
            for (int i = 0; i < databases; i++) {
                all.add(engine.keyspace(i));
            }
            result.complete(body.apply(all));
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
        return SPEC;
    }

    @Override
    public Arguments arguments() {
        return NameOnly.INSTANCE;
    }

    @Override
    public int database() {
        return 0;
    }

    @Override
    public int homeWorker() {
        return 0;
    }

    @Override
    public int keyCount() {
        return 0;
    }

    @Override
    public int keyArgument(int i) {
        throw new IndexOutOfBoundsException(i);
    }

    /** The task's arguments: its name alone. */
    private enum NameOnly implements Arguments {
        INSTANCE;

        @Override
        public int count() {
            return 1;
        }

        @Override
        public byte[] array() {
            return NAME;
        }

        @Override
        public int offset(int index) {
            return 0;
        }

        @Override
        public int length(int index) {
            return NAME.length;
        }
    }
}
