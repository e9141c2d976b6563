package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.StorageEngine;
import dev.lacewing.api.Workers;
import dev.lacewing.core.keyspace.Slots;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Work over one partition that no client asked for (a background save's turn in it), run through
 * the engine's one door as a command over one key of that partition would be: it waits for the
 * partition's earlier holders and holds only it. The key is found once per partition: the first
 * {@code bgsave:<n>} that hashes there.
 *
 * <p>Thread rule: {@link #run} runs on whatever thread the engine grants the partition to; the
 * caller learns it ran through the returned future.
 */
final class PartitionTask implements Invocation, Arguments {

    private static final CommandSpec SPEC = new CommandSpec("partition-task", 2, Set.of(), 1, 1, 1, KeyScope.KEYS,
        "server", "Internal: work over one partition");
    private static final byte[] NAME = SPEC.name().getBytes(StandardCharsets.US_ASCII);

    /** The name, then the key. */
    private final byte[] array;
    private final Runnable body;
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    private PartitionTask(byte[] key, Runnable body) {
        this.array = new byte[NAME.length + key.length];
        System.arraycopy(NAME, 0, array, 0, NAME.length);
        System.arraycopy(key, 0, array, NAME.length, key.length);
        this.body = body;
    }

    /** Submits {@code body} to run holding partition {@code partition} of {@code partitions}. */
    static CompletableFuture<Void> submit(StorageEngine engine, Workers workers, int partitions, int partition,
                                          Runnable body) {
        PartitionTask task = new PartitionTask(keyOf(partition, partitions), body);
        workers.executor(0).execute(() -> engine.execute(task));
        return task.done;
    }

    private static byte[] keyOf(int partition, int partitions) {
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
            body.run();
            done.complete(null);
        } catch (RuntimeException | Error e) {
            done.completeExceptionally(e);
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
        return this;
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
        return 1;
    }

    @Override
    public int keyArgument(int i) {
        return 1;
    }

    @Override
    public int count() {
        return 2;
    }

    @Override
    public byte[] array() {
        return array;
    }

    @Override
    public int offset(int index) {
        return index == 0 ? 0 : NAME.length;
    }

    @Override
    public int length(int index) {
        return index == 0 ? NAME.length : array.length - NAME.length;
    }
}
