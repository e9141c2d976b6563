package dev.lacewing.core.persistence;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.config.Config;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.EvictionPolicy;
import dev.lacewing.core.keyspace.MemoryPolicy;
import dev.lacewing.core.keyspace.PartitionSnapshot;
import dev.lacewing.core.persistence.rdb.RdbEntryBuffer;
import dev.lacewing.core.persistence.rdb.RdbFileWriter;
import dev.lacewing.core.server.Functions;
import dev.lacewing.core.server.Scripts;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * BGSAVE without fork (Redis's rdbSaveBackground), the {@code save} schedule (serverCron's save
 * points) and {@code stop-writes-on-bgsave-error}.
 *
 * <p>The epoch ({@link #start}) runs holding the whole keyspace, briefly: it installs a
 * {@link PartitionSnapshot} on every partition and reads the dirty counter. A saving thread then
 * writes the file: each partition, in turn, walks its tables for about 2 ms through the engine's
 * door ({@link Door#partition}), holding only that partition, and the entries it encoded (those
 * of the walk, and those written early because a command was about to change them) go into the
 * file. The file is the keyspace as it was at the epoch; it is written as
 * {@code temp-<pid>-bg.rdb}, forced, renamed over {@code dbfilename}, and the directory forced,
 * as SAVE writes it.
 *
 * <p>Another writer that wants a point-in-time image (an AOF rewrite's RDB preamble) takes one with
 * {@link #image}, holding the whole keyspace, and writes it into its own channel with
 * {@link Image#writeTo} from its own thread.
 *
 * <p>The schedule is checked once a second by {@link #checkSchedule}, which the server runs on a
 * worker's periodic timer, as serverCron checks the save points: the check reads counters only, and
 * hands a due save to the {@code lacewing-save-cron} thread, which waits for the keyspace and starts
 * it. That thread sleeps until a save is due, so an idle server has no thread of its own for this.
 *
 * <p>Thread rule: {@link #start} runs on the thread holding the whole keyspace; the saving thread
 * touches partitions only inside {@link Door#partition}; the figures INFO reads are volatile, and
 * the state that decides whether a save may start is guarded by this object.
 */
public final class BackgroundSave implements AutoCloseable {

    /** How the saving thread and the schedule reach the keyspace: the engine's one door. */
    public interface Door {

        /** Runs {@code body} holding the whole keyspace; returns once it ran. */
        void keyspace(Consumer<List<Keyspace>> body);

        /** Runs {@code body} holding partition {@code partition}; completes once it ran. */
        CompletableFuture<Void> partition(int partition, Runnable body);
    }

    public static final String STARTED = "Background saving started";
    public static final String IN_PROGRESS = "ERR Background save already in progress";
    public static final String SCHEDULED = "Background saving scheduled";
    public static final String REWRITE_ACTIVE = "ERR Another child process is active (AOF?): can't BGSAVE right now. "
        + "Use BGSAVE SCHEDULE in order to schedule a BGSAVE whenever possible.";
    public static final String MISCONF = "MISCONF Redis is configured to save RDB snapshots, but it's currently "
        + "unable to persist to disk. Commands that may modify the data set are disabled, because this instance is "
        + "configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). "
        + "Please check the Redis logs for details about the RDB error.";

    private static final System.Logger LOG = System.getLogger(BackgroundSave.class.getName());
    /**
     * One turn in a partition walks steps of this many home buckets (about 750 entries) until
     * {@link #TURN_NANOS} passed: each turn costs a trip through the door, which under load waits
     * behind the partition's queue, so a turn does as much as a short pause allows.
     */
    private static final int BUCKETS_PER_STEP = 1024;
    private static final long TURN_NANOS = 2_000_000;
    /** Redis's CONFIG_BGSAVE_RETRY_DELAY: after a failed save the schedule waits this long. */
    private static final long RETRY_DELAY_MILLIS = 5000;

    private final Config config;
    private final Snapshots snapshots;
    private final String redisVersion;
    private final LongSupplier usedMemory;
    private final Supplier<Scripts> scripts;
    private final ScheduledExecutorService cron = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "lacewing-save-cron");
        thread.setDaemon(true);
        return thread;
    });
    private volatile Door door;
    private volatile Database keyspace;
    private volatile BooleanSupplier rewriting = () -> false;

    private boolean running;
    /** A due save handed to {@code cron} and not yet started or dropped: the next checks leave it be. */
    private boolean handedOff;
    private boolean cancelled;
    private Image current;
    private volatile boolean scheduled;
    private volatile long startedMillis;
    private volatile boolean inProgress;
    private volatile boolean lastFailed;
    private volatile long lastTryMillis;
    private volatile long lastSeconds = -1;
    private volatile long lastCopiedBytes;
    private volatile long dirtyAtLastSave;
    private long dirtyAtEpoch;

    public BackgroundSave(Config config, Snapshots snapshots, String redisVersion, LongSupplier usedMemory,
                          Supplier<Scripts> scripts) {
        this.config = config;
        this.snapshots = snapshots;
        this.redisVersion = redisVersion;
        this.usedMemory = usedMemory;
        this.scripts = scripts;
    }

    /** Connects the engine's door, once the keyspace is loaded: {@link #checkSchedule} may then start saves. */
    public void open(Door door, Database keyspace) {
        this.door = door;
        this.keyspace = keyspace;
        dirtyAtLastSave = keyspace.dirty();
    }

    /**
     * The AOF rewrite's state: while it writes its image, a BGSAVE is refused or scheduled and the
     * save points wait, as Redis waits for its other child. Read holding the whole keyspace.
     */
    public void rewriting(BooleanSupplier rewriting) {
        this.rewriting = rewriting;
    }

    /** rdb_bgsave_in_progress. */
    public boolean inProgress() {
        return inProgress;
    }

    /** rdb_last_bgsave_status: false after a failed BGSAVE until one succeeds. */
    public boolean lastFailed() {
        return lastFailed;
    }

    /** rdb_last_bgsave_time_sec, -1 before the first. */
    public long lastSeconds() {
        return lastSeconds;
    }

    /** rdb_current_bgsave_time_sec, -1 when none runs. */
    public long currentSeconds() {
        return inProgress ? (System.currentTimeMillis() - startedMillis) / 1000 : -1;
    }

    /** rdb_last_cow_size: bytes of entries written early because they were about to change. */
    public long lastCopiedBytes() {
        return lastCopiedBytes;
    }

    /** rdb_changes_since_last_save. */
    public long changesSinceLastSave() {
        Database database = keyspace;
        return database == null ? 0 : Math.max(0, database.dirty() - dirtyAtLastSave);
    }

    /** A SAVE (holding the whole keyspace) succeeded: the changes so far are on disk. */
    public void saved(List<Keyspace> databases) {
        dirtyAtLastSave = ((Database) databases.get(0)).dirty();
        lastFailed = false;
    }

    /**
     * Redis's writeCommandsDeniedByDiskError for RDB: the last BGSAVE failed, a save point is set
     * and {@code stop-writes-on-bgsave-error} is on. One volatile read while saves succeed.
     */
    public boolean refusesWrites() {
        return lastFailed && config.flag("stop-writes-on-bgsave-error") && !config.value("save").isEmpty();
    }

    /**
     * BGSAVE [SCHEDULE], holding the whole keyspace: the reply's text, {@link #STARTED},
     * {@link #IN_PROGRESS}, or, while an AOF rewrite writes its image, {@link #SCHEDULED} with
     * SCHEDULE (the save starts once the rewrite ended) and {@link #REWRITE_ACTIVE} without. Inside
     * EXEC it is always {@link #SCHEDULED}, started by the next second's check, as Redis's serverCron
     * starts it. A failure to write shows later, in INFO and the log.
     */
    public synchronized String request(List<Keyspace> databases, boolean schedule, boolean insideExec) {
        if (running) {
            return IN_PROGRESS;
        }
        if (insideExec) {
            scheduled = true;
            return SCHEDULED;
        }
        if (rewriting.getAsBoolean()) {
            if (!schedule) {
                return REWRITE_ACTIVE;
            }
            scheduled = true;
            return SCHEDULED;
        }
        start(databases);
        return STARTED;
    }

    /** SAVE's check: Redis refuses it while a background save runs. */
    public synchronized boolean running() {
        return running;
    }

    /**
     * Stops the save in progress before a shutdown's own save: its file, of an older epoch, must
     * not replace the newer one. Called holding the whole keyspace.
     */
    public synchronized void cancel() {
        scheduled = false;
        if (running) {
            cancelled = true;
            current.stop();
            LOG.log(System.Logger.Level.WARNING, "There is a child saving an .rdb. Killing it!");
        }
    }

    @Override
    public void close() {
        cancel();
        cron.shutdownNow();
    }

    /** The epoch, holding the whole keyspace; the saving thread opens the file, as Redis's child does. */
    private void start(List<Keyspace> databases) {
        lastTryMillis = System.currentTimeMillis();
        Image image = image(databases);
        current = image;
        scheduled = false;
        running = true;
        cancelled = false;
        inProgress = true;
        startedMillis = System.currentTimeMillis();
        dirtyAtEpoch = ((Database) databases.get(0)).dirty();
        LOG.log(System.Logger.Level.INFO, "Background saving started");
        Thread thread = new Thread(() -> finish(image), "lacewing-bgsave");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * A point-in-time image of the keyspace taken now, holding the whole keyspace; {@link Image#writeTo}
     * then writes it as an RDB file into any channel, from any thread, while the server serves.
     */
    public Image image(List<Keyspace> databases) {
        List<byte[]> libraries = new ArrayList<>();
        for (Functions.Library library : scripts.get().functions().libraries()) {
            libraries.add(library.code());
        }
        boolean compress = config.flag("rdbcompression");
        MemoryPolicy memory = MemoryPolicy.snapshot(config);
        List<EntryEncoder> early = new ArrayList<>();
        PartitionSnapshot[] partitions = PartitionSnapshot.begin(databases, partition -> {
            EntryEncoder encoder = new EntryEncoder(new RdbEntryBuffer(compress), memory);
            early.add(encoder);
            return encoder;
        });
        return new Image(partitions, early, new EntryEncoder(new RdbEntryBuffer(compress), memory), libraries,
            System.currentTimeMillis() / 1000);
    }

    /**
     * Encodes a snapshot's entries into a buffer, with the idle time (LRU policies) or the counter
     * (LFU policies) that Redis writes for the {@code maxmemory-policy} of the epoch.
     */
    private static final class EntryEncoder implements PartitionSnapshot.Sink {

        private final RdbEntryBuffer buffer;
        private final MemoryPolicy memory;
        private final EvictionPolicy.Victim victim;

        EntryEncoder(RdbEntryBuffer buffer, MemoryPolicy memory) {
            this.buffer = buffer;
            this.memory = memory;
            this.victim = memory.policy().victim();
        }

        @Override
        public int entry(int database, byte[] key, int offset, int length, ValueView value, long expireAt, int access) {
            long idleSeconds = -1;
            int frequency = -1;
            if (victim == EvictionPolicy.Victim.LRU) {
                idleSeconds = memory.idleMillis(access, System.currentTimeMillis()) / 1000;
            } else if (victim == EvictionPolicy.Victim.LFU) {
                frequency = memory.frequency(access, System.currentTimeMillis());
            }
            return buffer.entry(database, key, offset, length, value, expireAt, idleSeconds, frequency);
        }
    }

    /** A point-in-time image being written out ({@link #image}). */
    public final class Image {

        private final PartitionSnapshot[] partitions;
        /** Per partition: the entries it wrote early, taken into the file at its next turn. */
        private final List<EntryEncoder> early;
        /**
         * One turn's entries: lent by the writing thread to the partition whose turn it is, then
         * written into the file by the writing thread, and reused.
         */
        private final EntryEncoder turn;
        private final List<byte[]> libraries;
        private final long createdSeconds;
        private long copiedBytes;
        private volatile boolean stopped;

        private Image(PartitionSnapshot[] partitions, List<EntryEncoder> early, EntryEncoder turn,
                      List<byte[]> libraries, long createdSeconds) {
            this.partitions = partitions;
            this.early = early;
            this.turn = turn;
            this.libraries = libraries;
            this.createdSeconds = createdSeconds;
        }

        /**
         * Writes the whole RDB file (without forcing it) into {@code channel}, partition after
         * partition in turns through the door; {@code aofBase}: the AUX field aof-base is 1, as in
         * an AOF's base file. Each turn moves the partition's early entries into the turn's buffer
         * and walks on into it; the file gets the buffer once the turn ended, while the partition
         * serves. Whatever happens, every partition's snapshot is removed before it returns;
         * IOException("cancelled") once {@link #stop} was called.
         */
        public void writeTo(WritableByteChannel channel, boolean aofBase) throws IOException {
            boolean[] done = new boolean[partitions.length];
            int turnOf = -1;
            try {
                RdbFileWriter writer = new RdbFileWriter(channel, config.flag("rdbcompression"),
                    config.flag("rdbchecksum"));
                writer.header();
                writer.aux("redis-ver", redisVersion);
                writer.aux("redis-bits", "64");
                writer.aux("ctime", Long.toString(createdSeconds));
                writer.aux("used-mem", Long.toString(usedMemory.getAsLong()));
                writer.aux("aof-base", aofBase ? "1" : "0");
                for (byte[] code : libraries) {
                    writer.function(code);
                }
                int remaining = partitions.length;
                while (remaining > 0) {
                    for (int p = 0; p < partitions.length; p++) {
                        if (done[p]) {
                            continue;
                        }
                        int partition = p;
                        turnOf = partition;
                        await(door.partition(partition, () -> {
                            early.get(partition).buffer.moveTo(turn.buffer);
                            long deadline = System.nanoTime() + TURN_NANOS;
                            do {
                                done[partition] = partitions[partition].step(BUCKETS_PER_STEP, turn);
                            } while (!done[partition] && System.nanoTime() < deadline);
                        }));
                        turnOf = -1;
                        writer.entries(turn.buffer);
                        if (done[partition]) {
                            remaining--;
                        }
                    }
                }
                writer.finish();
            } finally {
                // Strings handed over on disk hold their storage's place until released; a turn
                // cut short may still be filling its buffer on the partition's thread.
                if (turnOf < 0) {
                    turn.buffer.discard();
                } else {
                    try {
                        door.partition(turnOf, turn.buffer::discard);
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.DEBUG, "snapshot left on a closed engine: " + e);
                    }
                }
                for (int p = 0; p < partitions.length; p++) {
                    if (!done[p]) {
                        int partition = p;
                        try {
                            door.partition(p, () -> {
                                partitions[partition].abandon();
                                early.get(partition).buffer.discard();
                            });
                        } catch (RuntimeException e) {
                            LOG.log(System.Logger.Level.DEBUG, "snapshot left on a closed engine: " + e);
                        }
                    }
                }
                for (int p = 0; p < partitions.length; p++) {
                    copiedBytes += partitions[p].preservedBytes();
                }
            }
        }

        /** Removes every partition's snapshot without writing: the file could not be opened. */
        public void abandon() {
            for (int p = 0; p < partitions.length; p++) {
                int partition = p;
                try {
                    door.partition(p, () -> {
                        partitions[partition].abandon();
                        early.get(partition).buffer.discard();
                    });
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "snapshot left on a closed engine: " + e);
                }
            }
        }

        /** Stops {@link #writeTo} at its next turn, from any thread: its writer gives up. */
        public void stop() {
            stopped = true;
        }

        private void await(CompletableFuture<Void> step) throws IOException {
            while (true) {
                if (stopped) {
                    throw new IOException("cancelled");
                }
                try {
                    step.get(100, TimeUnit.MILLISECONDS);
                    return;
                } catch (TimeoutException e) {
                    // Look at the stop flag again.
                } catch (ExecutionException e) {
                    throw new IOException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
        }

        /** Bytes of entries written early, because they were about to change. */
        public long copiedBytes() {
            return copiedBytes;
        }
    }

    /** The saving thread: the file, then the parent's bookkeeping (backgroundSaveDoneHandler). */
    private void finish(Image image) {
        Path directory = Path.of(config.value("dir"));
        String tempName = "temp-" + ProcessHandle.current().pid() + "-bg.rdb";
        Path temp = directory.resolve(tempName);
        Path target = directory.resolve(config.value("dbfilename"));
        boolean ok = false;
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            try {
                image.writeTo(channel, false);
                channel.force(true);
                ok = true;
            } catch (IOException | RuntimeException e) {
                if (!isCancelled()) {
                    LOG.log(System.Logger.Level.WARNING, "Write error saving DB on disk: " + Snapshots.reason(e));
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Failed opening the temp RDB file " + tempName + " (in server root dir "
                + directory + ") for saving: " + Snapshots.reason(e));
            image.abandon();
        }
        synchronized (this) {
            if (ok && !cancelled) {
                ok = rename(temp, target);
            } else {
                ok = false;
            }
            if (!ok) {
                Snapshots.deleteQuietly(temp);
            }
            lastSeconds = (System.currentTimeMillis() - startedMillis) / 1000;
            lastCopiedBytes = image.copiedBytes();
            if (ok) {
                LOG.log(System.Logger.Level.INFO, "DB saved on disk");
                LOG.log(System.Logger.Level.INFO, "Background saving terminated with success");
                dirtyAtLastSave = dirtyAtEpoch;
                snapshots.recordSave();
                lastFailed = false;
            } else if (cancelled) {
                LOG.log(System.Logger.Level.WARNING, "Background saving terminated by signal");
            } else {
                LOG.log(System.Logger.Level.WARNING, "Background saving error");
                lastFailed = true;
            }
            running = false;
            current = null;
            cancelled = false;
            inProgress = false;
        }
    }

    private synchronized boolean isCancelled() {
        return cancelled;
    }

    private boolean rename(Path temp, Path target) {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel directory = FileChannel.open(temp.getParent(), StandardOpenOption.READ)) {
                directory.force(true);
            }
            return true;
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Error moving temp DB file " + temp.getFileName()
                + " on the final destination " + target.getFileName() + ": " + Snapshots.reason(e));
            return false;
        }
    }

    /**
     * serverCron's save points, once a second from a worker's timer: a BGSAVE when {@code changes}
     * keys changed and {@code seconds} passed since the last save, for any pair; after a failure
     * only once the retry delay passed; and a scheduled BGSAVE once no rewrite runs. A due save goes
     * to the {@code cron} thread, as taking the whole keyspace must not wait on a worker.
     */
    public void checkSchedule() {
        synchronized (this) {
            if (running || handedOff || door == null || !(scheduled || savePointReached(true))) {
                return;
            }
            handedOff = true;
        }
        try {
            cron.execute(this::startWhenDue);
        } catch (RejectedExecutionException closed) {
            synchronized (this) {
                handedOff = false;
            }
        }
    }

    /** The {@code cron} thread: the save {@link #checkSchedule} found due, if it still is once the keyspace is held. */
    private void startWhenDue() {
        try {
            door.keyspace(databases -> {
                synchronized (this) {
                    if (!running && !rewriting.getAsBoolean() && (scheduled || savePointReached(false))) {
                        start(databases);
                    }
                }
            });
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "save schedule: " + e);
        } finally {
            synchronized (this) {
                handedOff = false;
            }
        }
    }

    /** {@code announce}: logs the point reached, as Redis does once per save. */
    private boolean savePointReached(boolean announce) {
        String save = config.value("save");
        if (save.isBlank()) {
            return false;
        }
        String[] points = save.trim().split("\\s+");
        long now = System.currentTimeMillis();
        long changes = changesSinceLastSave();
        long sinceSave = now / 1000 - snapshots.lastSaveSeconds();
        boolean mayTry = !lastFailed || now - lastTryMillis > RETRY_DELAY_MILLIS;
        for (int i = 0; i + 1 < points.length; i += 2) {
            long seconds = Long.parseLong(points[i]);
            long wanted = Long.parseLong(points[i + 1]);
            if (changes >= wanted && sinceSave > seconds && mayTry) {
                if (announce) {
                    LOG.log(System.Logger.Level.INFO, wanted + " changes in " + seconds + " seconds. Saving...");
                }
                return true;
            }
        }
        return false;
    }
}
