package dev.lacewing.core.persistence.aof;

import dev.lacewing.core.config.Config;
import dev.lacewing.core.keyspace.KeyspaceListener;
import io.netty.util.concurrent.FastThreadLocal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Keys deleted outside a command's own writes, written to the AOF as Redis's propagateDeletion
 * writes them: an expired key as DEL, or UNLINK under {@code lazyfree-lazy-expire}; an evicted key
 * as DEL, or UNLINK under {@code lazyfree-lazy-eviction}. Without them a restart from the file
 * would bring back every key evicted over maxmemory.
 *
 * <p>A deletion inside a running command (a lazy expiry) joins that command's batch, ahead of what
 * the command itself propagates, so the two become one MULTI/EXEC as Redis 7.0's
 * propagatePendingCommands wraps them. Any other (active expiry, eviction before a command, a key
 * expiring in a split command's part) is appended at once, by the thread holding the key's
 * partition, so it lands in the file before any later change to that key.
 *
 * <p>Thread rule: called on the thread holding the key's partition; the running command's batch
 * is per thread, set and cleared by that thread.
 */
public final class AofDeletions implements KeyspaceListener {

    private static final FastThreadLocal<AofBatch> RUNNING = new FastThreadLocal<>();
    private static final byte[] DEL = "DEL".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UNLINK = "UNLINK".getBytes(StandardCharsets.US_ASCII);

    private final AppendOnlyFile aof;
    /** The batch of a deletion no command runs for, per thread: an array slot on the event loops, as {@code RUNNING}. */
    private final FastThreadLocal<AofBatch> alone = new FastThreadLocal<>() {
        @Override
        protected AofBatch initialValue() {
            return new AofBatch();
        }
    };
    private volatile boolean lazyExpire;
    private volatile boolean lazyEviction;

    public AofDeletions(AppendOnlyFile aof, Config config) {
        this.aof = aof;
        lazyExpire = config.flag("lazyfree-lazy-expire");
        lazyEviction = config.flag("lazyfree-lazy-eviction");
        config.onChange((name, value) -> {
            switch (name) {
                case "lazyfree-lazy-expire" -> lazyExpire = config.flag(name);
                case "lazyfree-lazy-eviction" -> lazyEviction = config.flag(name);
                default -> {
                }
            }
        });
    }

    /**
     * The batch of the command this thread runs from now on, or null once it is done. Set only
     * while the AOF is on: a Netty FastThreadLocal, an array slot on the event loops.
     */
    public static void running(AofBatch batch) {
        RUNNING.set(batch);
    }

    /**
     * {@link #running(AofBatch)} for a command run inside another's (a blocked command served by
     * the write that readied its key): returns the batch it replaces, to be put back after.
     */
    public static AofBatch replaceRunning(AofBatch batch) {
        AofBatch outer = RUNNING.get();
        RUNNING.set(batch);
        return outer;
    }

    /** The batch of the command this thread runs, or null (none runs, the AOF is off, a replay). */
    static AofBatch running() {
        return RUNNING.get();
    }

    @Override
    public void created(int database, byte[] key, int offset, int length) {
    }

    @Override
    public void expired(int database, byte[] key, int offset, int length) {
        deleted(database, lazyExpire ? UNLINK : DEL, key, offset, length);
    }

    @Override
    public void evicted(int database, byte[] key, int offset, int length) {
        deleted(database, lazyEviction ? UNLINK : DEL, key, offset, length);
    }

    private void deleted(int database, byte[] command, byte[] key, int offset, int length) {
        if (!aof.enabled()) {
            return;
        }
        byte[][] argv = {command, Arrays.copyOfRange(key, offset, offset + length)};
        AofBatch running = RUNNING.get();
        if (running != null) {
            running.add(database, argv);
            return;
        }
        AofBatch batch = alone.get();
        batch.add(database, argv);
        aof.append(batch);
        batch.clear();
    }
}
