package dev.lacewing.core.persistence.aof;

import dev.lacewing.api.Keyspace;
import dev.lacewing.core.config.Config;
import dev.lacewing.core.persistence.BackgroundSave;
import dev.lacewing.core.persistence.Snapshots;
import dev.lacewing.core.persistence.rdb.RdbFileReader;
import dev.lacewing.core.persistence.rdb.RdbValueCodec;
import io.netty.util.concurrent.FastThreadLocal;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * The append-only file, Redis 7.0's multi-part form: {@code dir/appenddirname} holds a manifest
 * ({@link AofManifest}), one base file (an RDB image, {@code <appendfilename>.<seq>.base.rdb}, or with
 * {@code aof-use-rdb-preamble no} the commands that rebuild the dataset, {@code .base.aof}) and the
 * incr files of RESP commands written since ({@code <appendfilename>.<seq>.incr.aof}).
 *
 * <p>Writing. A command's thread encodes what it propagates into its connection's {@link AofBatch}
 * while it still holds the command's keys, and {@link #append} copies it into one shared buffer
 * (with SELECT when the database changes, MULTI/EXEC around a batch of several), so the buffer is
 * in the order the keys were changed. Replies wait for the file: a connection with appended
 * commands hands its flush to {@link #afterCommit}, which gathers every such flush of one event-loop
 * iteration behind one task. Under {@code appendfsync always}, with one event loop, that task
 * writes and forces everything appended by then and only then releases the iteration's replies,
 * as Redis's beforeSleep does, with no thread hop; with several loops it hands the iteration's
 * flushes to the fsync thread as one ticket and the loop serves on, and the fsync thread forces
 * once for every ticket that waits (group commit across loops). Under {@code everysec} the task
 * writes the buffer and a background thread forces the file once a second; under {@code no} the
 * OS does.
 *
 * <p>Rewrite (BGREWRITEAOF, the auto-rewrite), Redis 7.0's flow without the fork. The epoch runs
 * holding every database (the engine's whole-keyspace door, {@link WholeKeyspace}), briefly: it
 * takes a point-in-time image ({@link BackgroundSave#image}), ends the current incr file, opens the
 * next one and names it in the manifest after the old ones, so commands after the epoch go to the
 * new incr file and the directory stays loadable (old base, old incr files, new incr file). The
 * hold is then released and the rewrite's own thread writes the base from the image while the
 * server serves, forces it, renames it into place, replaces the manifest atomically (new base and
 * the new incr file only) and deletes the history files. A failure leaves the manifest as the epoch
 * wrote it. At start-up and on CONFIG SET appendonly yes, the first base is written holding every
 * database ({@link #rewrite}), as SAVE writes a file.
 *
 * <p>Thread rule: {@link #append} from any command thread (under {@code this}); the file is written
 * under {@code writeLock} and forced under {@code syncLock}, taken in that order; the group of
 * waiting flushes is per event-loop thread, the tickets for the fsync thread are under
 * {@code tickets}; whether a rewrite runs is decided under {@code rewriteLock}; the rest is
 * volatile.
 */
public final class AppendOnlyFile {

    private static final System.Logger LOG = System.getLogger(AppendOnlyFile.class.getName());
    private static final byte[] MULTI = "*1\r\n$5\r\nMULTI\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EXEC = "*1\r\n$4\r\nEXEC\r\n".getBytes(StandardCharsets.US_ASCII);

    /** Runs work over every database, holding them all; how the rewrite's image is taken. */
    public interface WholeKeyspace {
        <T> T run(Function<List<Keyspace>, T> body);
    }

    /** appendfsync. */
    public enum Fsync { ALWAYS, EVERYSEC, NO }

    /**
     * How commands reach the incr file: {@link #DIRECT}, the file's own write and force, or a test's
     * (a slow or failing disk), set through {@code LacewingServer.Builder#aofIncrWrites}. Called on the
     * thread that writes or forces, under the lock that orders it; one implementation per server,
     * so the call costs what a direct one does once compiled.
     */
    public interface IncrWrites {
        IncrWrites DIRECT = new IncrWrites() {
            @Override
            public void write(FileChannel file, ByteBuffer bytes) throws IOException {
                file.write(bytes);
            }

            @Override
            public void force(FileChannel file) throws IOException {
                file.force(false);
            }
        };

        void write(FileChannel file, ByteBuffer bytes) throws IOException;

        void force(FileChannel file) throws IOException;
    }

    private final IncrWrites writes;
    private final Consumer<String> exit;
    private final Config config;
    private final Snapshots snapshots;
    private final BackgroundSave backgroundSave;
    private volatile WholeKeyspace wholeKeyspace;
    private volatile boolean enabled;
    private volatile Fsync fsync;

    // Under this: the buffer of appended bytes not yet written (pendingView wraps it when it was
    // handed out before), and the database the file is in.
    private byte[] pending = new byte[64 * 1024];
    private ByteBuffer pendingView = ByteBuffer.wrap(pending);
    private int pendingSize;
    private long appended;
    private int selected = -1;
    /** {@code appended} as the last append left it, read without the lock by {@link #replyBarrier}. */
    private volatile long appendedSoFar;

    private final Object writeLock = new Object();
    /** Under writeLock: the buffer appends go on into while the writer writes the one it took, swapped each write. */
    private ByteBuffer spare = ByteBuffer.wrap(new byte[64 * 1024]);
    private final Object syncLock = new Object();
    private FileChannel incr;
    private AofManifest manifest;
    private volatile long written;
    private volatile long synced;
    private volatile long incrSize;
    private volatile long baseSize;
    private volatile long sizeAfterRewrite;
    private volatile boolean lastWriteOk = true;
    private volatile boolean lastFsyncOk = true;
    private volatile String lastWriteError = "";
    private volatile boolean rewriteInProgress;
    private volatile boolean rewriteScheduled;
    private volatile boolean lastRewriteOk = true;
    private volatile long rewrites;
    private volatile long rewriteStartedMillis;
    private volatile long lastRewriteSeconds = -1;
    private volatile BackgroundSave.Image rewriting;
    private final Object rewriteLock = new Object();
    private ScheduledExecutorService cron;
    /**
     * Under dutiesLock: {@link #everySecond} on {@code cron}, scheduled only while the AOF is on, so
     * that with it off the thread sleeps until CONFIG SET appendonly yes hands it work.
     */
    private ScheduledFuture<?> duties;
    private final Object dutiesLock = new Object();

    /** Per event-loop thread: Netty's indexed thread-local, an array slot on the loops, as their other state. */
    private final FastThreadLocal<Group> groups = new FastThreadLocal<>() {
        @Override
        protected Group initialValue() {
            loops.incrementAndGet();
            return new Group(AppendOnlyFile.this);
        }
    };
    // How many event-loop threads have waited for the file: while only one has, it forces the file itself.
    private final AtomicInteger loops = new AtomicInteger();
    // Under itself: the tickets waiting for the fsync thread, which runs while syncer is set.
    private final ArrayDeque<Ticket> tickets = new ArrayDeque<>();
    private Thread syncer;
    private boolean syncerStopping;

    /** {@code writes}: how the incr file is written and forced, {@link IncrWrites#DIRECT} but in tests. */
    public AppendOnlyFile(Config config, Snapshots snapshots, BackgroundSave backgroundSave, IncrWrites writes) {
        this(config, snapshots, backgroundSave, writes, line -> {
            LOG.log(System.Logger.Level.ERROR, line);
            // As Redis's exit(1): no shutdown work, which would write the AOF again.
            Runtime.getRuntime().halt(1);
        });
    }

    /**
     * {@code writes}: how the incr file is written and forced; a test puts waits or faults there.
     * {@code exit}: what a failed write or fsync under appendfsync always does with Redis's log line.
     */
    AppendOnlyFile(Config config, Snapshots snapshots, BackgroundSave backgroundSave, IncrWrites writes,
                   Consumer<String> exit) {
        this.writes = writes;
        this.exit = exit;
        this.config = config;
        this.snapshots = snapshots;
        this.backgroundSave = backgroundSave;
        this.fsync = fsyncOf(config.value("appendfsync"));
        config.onChange((name, value) -> {
            switch (name) {
                case "appendfsync" -> fsync = fsyncOf(value);
                case "appendonly" -> switched(config.flag("appendonly"));
                default -> {
                }
            }
        });
    }

    private static Fsync fsyncOf(String value) {
        return Fsync.valueOf(value.toUpperCase(Locale.ROOT));
    }

    public boolean enabled() {
        return enabled;
    }

    public boolean rewriteInProgress() {
        return rewriteInProgress;
    }

    public boolean rewriteScheduled() {
        return rewriteScheduled;
    }

    public boolean lastWriteOk() {
        return lastWriteOk;
    }

    /**
     * processCommand's writeCommandsDeniedByDiskError for the AOF: the error writes and PING get
     * while the AOF is on and its last write or fsync failed, or null. A later write that succeeds
     * (the next commit, or the background thread's retry each second) lifts it.
     */
    public String refusal() {
        if (!enabled || (lastWriteOk && lastFsyncOk)) {
            return null;
        }
        return "MISCONF Errors writing to the AOF file: " + lastWriteError;
    }

    public boolean lastRewriteOk() {
        return lastRewriteOk;
    }

    public long rewrites() {
        return rewrites;
    }

    /** aof_last_rewrite_time_sec, -1 before the first. */
    public long lastRewriteSeconds() {
        return lastRewriteSeconds;
    }

    /** aof_current_rewrite_time_sec, -1 when none runs. */
    public long currentRewriteSeconds() {
        return rewriteInProgress ? (System.currentTimeMillis() - rewriteStartedMillis) / 1000 : -1;
    }

    /** aof_current_size: the base file and every incr file. */
    public long currentSize() {
        return baseSize + incrSize;
    }

    /** aof_base_size: the AOF's size right after the last rewrite. */
    public long baseSize() {
        return sizeAfterRewrite;
    }

    /** aof_buffer_length: appended bytes not yet written. */
    public synchronized long bufferLength() {
        return pendingSize;
    }

    private Path directory() {
        return Path.of(config.value("dir")).resolve(config.value("appenddirname"));
    }

    private String manifestName() {
        return config.value("appendfilename") + ".manifest";
    }

    // ---- start-up --------------------------------------------------------------------------

    /**
     * loadAppendOnlyFiles at start-up, when appendonly is yes: the base, then every incr file in
     * the manifest's order. No manifest: nothing is loaded (Redis then ignores the RDB file too).
     * IllegalStateException with Redis's log line for a file it refuses.
     */
    public void load(List<Keyspace> databases, AofLoader loader) {
        Path directory = directory();
        Path manifestFile = directory.resolve(manifestName());
        AofManifest found;
        try {
            found = AofManifest.read(manifestFile);
        } catch (NoSuchFileException e) {
            found = new AofManifest(null, List.of());
        } catch (IOException e) {
            throw new IllegalStateException("Fatal error: can't open the AOF manifest " + manifestName()
                + " for reading: " + e.getMessage(), e);
        }
        if (isUpgrade(found)) {
            found = upgrade();
        }
        if (found.base() == null && found.incrs().isEmpty()) {
            return;
        }
        long started = System.nanoTime();
        List<AofManifest.AofFile> files = new ArrayList<>();
        if (found.base() != null) {
            files.add(found.base());
        }
        files.addAll(found.incrs());
        for (int i = 0; i < files.size(); i++) {
            AofManifest.AofFile file = files.get(i);
            Path path = directory.resolve(file.name());
            boolean last = i == files.size() - 1;
            boolean tolerateTruncation = last && config.flag("aof-load-truncated");
            if (file.type() == 'b' && startsWithRdbSignature(path)) {
                LOG.log(System.Logger.Level.INFO, "Reading RDB base file on AOF loading...");
                long preamble = snapshots.load(databases, path, false);
                if (preamble < size(path)) {
                    // A pre-7.0 AOF with aof-use-rdb-preamble: commands follow the RDB image.
                    LOG.log(System.Logger.Level.INFO, "Reading the remaining AOF tail...");
                    loader.replay(databases, path, preamble, tolerateTruncation, last);
                }
                LOG.log(System.Logger.Level.INFO, "DB loaded from base file " + file.name() + ": "
                    + seconds(started) + " seconds");
            } else {
                loader.replay(databases, path, 0, tolerateTruncation, last);
                LOG.log(System.Logger.Level.INFO, "DB loaded from " + (file.type() == 'b' ? "base" : "incr")
                    + " file " + file.name() + ": " + seconds(started) + " seconds");
            }
        }
        LOG.log(System.Logger.Level.INFO, "DB loaded from append only file: " + seconds(started) + " seconds");
    }

    /**
     * loadAppendOnlyFiles's test for a pre-7.0 single-file AOF, {@code dir/appendfilename}: the
     * AOF directory has no manifest, or (a crash between the two steps of {@link #upgrade}) its
     * manifest names only that file, as the base, and the file is not in the directory yet.
     */
    private boolean isUpgrade(AofManifest found) {
        String name = config.value("appendfilename");
        if (!Files.isRegularFile(Path.of(config.value("dir")).resolve(name))) {
            return false;
        }
        if (found.base() == null && found.incrs().isEmpty()) {
            return true;
        }
        return found.base() != null && found.incrs().isEmpty() && found.base().name().equals(name)
            && !Files.exists(directory().resolve(name));
    }

    /**
     * aofUpgradePrepare: the old file becomes the base (seq 1, same name) of a new AOF directory.
     * The manifest is written before the file moves, so a crash in between is finished by the
     * next start ({@link #isUpgrade}); {@link #start} then opens the first incr file.
     */
    private AofManifest upgrade() {
        String name = config.value("appendfilename");
        Path directory = directory();
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new IllegalStateException("Can't open or create append-only dir " + config.value("appenddirname")
                + ": " + e.getMessage(), e);
        }
        AofManifest upgraded = new AofManifest(new AofManifest.AofFile(name, 1, 'b'), List.of());
        try {
            upgraded.write(directory, manifestName());
        } catch (IOException e) {
            throw new IllegalStateException("Can't persist the AOF manifest " + manifestName() + ": "
                + e.getMessage(), e);
        }
        try {
            Files.move(Path.of(config.value("dir")).resolve(name), directory.resolve(name),
                StandardCopyOption.ATOMIC_MOVE);
            AofManifest.forceDirectory(directory);
            AofManifest.forceDirectory(Path.of(config.value("dir")));
        } catch (IOException e) {
            throw new IllegalStateException("Error trying to rename the existing AOF to " + directory.resolve(name)
                + ": " + e.getMessage(), e);
        }
        LOG.log(System.Logger.Level.INFO, "Successfully migrated an old-style AOF file (" + name
            + ") into the AOF directory (" + config.value("appenddirname") + ").");
        return upgraded;
    }

    private static long size(Path path) {
        try {
            return Files.size(path);
        } catch (IOException e) {
            throw new IllegalStateException("Unrecoverable error reading the append only file " + path.getFileName()
                + ": " + e.getMessage(), e);
        }
    }

    private static String seconds(long startedNanos) {
        return String.format(Locale.ROOT, "%.3f", (System.nanoTime() - startedNanos) / 1e9);
    }

    private static boolean startsWithRdbSignature(Path path) {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(5);
            while (head.hasRemaining() && channel.read(head) > 0) {
                // reads the signature
            }
            return Arrays.equals(head.array(), "REDIS".getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new IllegalStateException("Fatal error: can't open the append log file " + path.getFileName()
                + " for reading: " + e.getMessage(), e);
        }
    }

    /**
     * After loading, before the port opens: starts the background thread and, with appendonly
     * yes, opens the last incr file for appending, or writes a first base and incr file when the
     * directory has no manifest yet (holding {@code databases}).
     */
    public void start(List<Keyspace> databases, WholeKeyspace wholeKeyspace) {
        this.wholeKeyspace = wholeKeyspace;
        cron = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "aof-cron");
            thread.setDaemon(true);
            return thread;
        });
        startSyncer();
        if (!config.flag("appendonly")) {
            return;
        }
        Path directory = directory();
        try {
            Files.createDirectories(directory);
            Path manifestFile = directory.resolve(manifestName());
            if (Files.exists(manifestFile)) {
                manifest = AofManifest.read(manifestFile);
                if (manifest.incrs().isEmpty()) {
                    startIncr(manifest.base(), 1);
                } else {
                    AofManifest.AofFile last = manifest.incrs().get(manifest.incrs().size() - 1);
                    incr = FileChannel.open(directory.resolve(last.name()), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE, StandardOpenOption.APPEND);
                    measure();
                }
                sizeAfterRewrite = currentSize();
                enabled = true;
                followEnabled();
                return;
            }
        } catch (IOException e) {
            throw new IllegalStateException("Can't open the append-only file: " + e.getMessage(), e);
        }
        if (!rewrite(databases, true, true)) {
            throw new IllegalStateException("Can't open the append-only file " + directory);
        }
    }

    private void measure() throws IOException {
        Path directory = directory();
        long base = manifest.base() == null ? 0 : Files.size(directory.resolve(manifest.base().name()));
        long incrs = 0;
        for (AofManifest.AofFile file : manifest.incrs()) {
            incrs += Files.size(directory.resolve(file.name()));
        }
        baseSize = base;
        incrSize = incrs;
    }

    private void startIncr(AofManifest.AofFile base, long seq) throws IOException {
        AofManifest.AofFile file = new AofManifest.AofFile(config.value("appendfilename") + "." + seq + ".incr.aof",
            seq, 'i');
        incr = FileChannel.open(directory().resolve(file.name()), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
        manifest = new AofManifest(base, List.of(file));
        manifest.write(directory(), manifestName());
        measure();
    }

    /** Writes and forces what is appended, then closes the file: SHUTDOWN and close. */
    public void close() {
        synchronized (dutiesLock) {
            if (cron != null) {
                cron.shutdownNow();
            }
        }
        stopSyncer();
        stopRewrite();
        synchronized (writeLock) {
            if (incr == null) {
                return;
            }
            commit(Long.MAX_VALUE, true);
            synchronized (syncLock) {
                closeQuietly(incr);
                incr = null;
            }
        }
        enabled = false;
    }

    // ---- writing ------------------------------------------------------------------------

    /**
     * feedAppendOnlyFile for one command's batch: SELECT when its database is not the file's, and
     * MULTI/EXEC around it when it holds several commands (propagatePendingCommands). Returns the
     * offset the batch ends at, for {@link #afterCommit}; 0 when the AOF is off.
     */
    public synchronized long append(AofBatch batch) {
        if (!enabled || batch.isEmpty()) {
            return 0;
        }
        boolean transaction = batch.count() > 1;
        for (int i = 0; i < batch.count(); i++) {
            int database = batch.database(i);
            if (database != selected) {
                byte[] digits = Integer.toString(database).getBytes(StandardCharsets.US_ASCII);
                put(("*2\r\n$6\r\nSELECT\r\n$" + digits.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                put(digits);
                put(new byte[] {'\r', '\n'});
                selected = database;
            }
            if (i == 0 && transaction) {
                put(MULTI);
            }
            put(batch.bytes(), batch.start(i), batch.end(i) - batch.start(i));
        }
        if (transaction) {
            put(EXEC);
        }
        appendedSoFar = appended;
        return appended;
    }

    /**
     * The offset replies leaving now wait for: everything appended so far, or 0 when that is
     * already committed (written, and forced under always). Redis writes, and under always
     * fsyncs, every write of an event-loop pass before any reply of the pass leaves, so no reply,
     * a read's included, shows a write that a crash can take back; here a connection's flush asks
     * this before its replies leave and waits for that offset through {@link #afterCommit}, sharing
     * the group commit of the writes it may show. Two volatile reads.
     */
    public long replyBarrier() {
        long upTo = appendedSoFar;
        return upTo > committed() ? upTo : 0;
    }

    /** What is on disk as the policy promises it: forced under always, written otherwise. */
    private long committed() {
        return fsync == Fsync.ALWAYS ? synced : written;
    }

    private void put(byte[] bytes) {
        put(bytes, 0, bytes.length);
    }

    private void put(byte[] bytes, int offset, int length) {
        if (pendingSize + length > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingSize + length));
        }
        System.arraycopy(bytes, offset, pending, pendingSize, length);
        pendingSize += length;
        appended += length;
    }

    /**
     * The appended bytes, handed to the writer (under writeLock) as they are, and appends go on
     * into the spare buffer: a write copies and allocates nothing. {@link #giveBack} returns it.
     */
    private synchronized ByteBuffer takePending() {
        ByteBuffer taken = pendingView.array() == pending ? pendingView : ByteBuffer.wrap(pending);
        taken.clear().limit(pendingSize);
        pendingView = spare;
        pending = spare.array();
        pendingSize = 0;
        return taken;
    }

    /** Under writeLock: a buffer {@link #takePending} handed out is the spare one again, or a small new one past 1 MiB. */
    private void giveBack(ByteBuffer taken) {
        spare = taken.capacity() > 1024 * 1024 ? ByteBuffer.wrap(new byte[64 * 1024]) : taken;
    }

    private synchronized long appended() {
        return appended;
    }

    /**
     * Runs {@code then} on this event-loop thread once everything appended up to {@code offset} is
     * written, and forced under appendfsync always. Every call of one loop iteration shares one
     * commit: the first schedules it as a task of {@code loop}, which runs after the iteration's
     * reads, and the commit covers all that was appended by then (Redis's beforeSleep). Under
     * always, while this loop is the only one that waited for the file, it writes and forces the
     * file itself and then releases the iteration's replies, as Redis does; once several loops
     * have, the iteration's flushes go to the fsync thread as one ticket ({@link #syncLoop}) and
     * the loop serves on, so the loops share fsyncs rather than queue for them one behind the
     * other (measured: a loop forcing beside the fsync thread made more, smaller fsyncs).
     */
    public void afterCommit(long offset, Executor loop, LongConsumer then) {
        Group group = groups.get();
        group.waiting.add(then);
        if (!group.scheduled) {
            group.scheduled = true;
            group.loop = loop;
            loop.execute(group);
        }
    }

    /**
     * The flushes of one event-loop thread waiting for the file, and the commit task itself, so
     * scheduling it allocates nothing. {@code waiting} and {@code spare} swap each commit, so a
     * commit the loop runs itself allocates nothing either.
     */
    private static final class Group implements Runnable {
        private final AppendOnlyFile aof;
        private List<LongConsumer> waiting = new ArrayList<>();
        private List<LongConsumer> spare = new ArrayList<>();
        private boolean scheduled;
        private Executor loop;

        Group(AppendOnlyFile aof) {
            this.aof = aof;
        }

        @Override
        public void run() {
            scheduled = false;
            boolean always = aof.fsync == Fsync.ALWAYS;
            if (always && aof.loops.get() > 1 && aof.syncing()) {
                aof.sync(new Ticket(loop, new ArrayList<>(waiting)));
                waiting.clear();
                return;
            }
            List<LongConsumer> ready = waiting;
            waiting = spare;
            long upTo = aof.appended();
            aof.commit(upTo, always);
            Ticket.release(ready, upTo);
            ready.clear();
            spare = ready;
        }
    }

    /** One loop iteration's flushes waiting for an fsync; released on {@code loop}. */
    private record Ticket(Executor loop, List<LongConsumer> waiting) {

        static void release(List<LongConsumer> waiting, long committed) {
            for (LongConsumer then : waiting) {
                then.accept(committed);
            }
        }
    }

    private boolean syncing() {
        synchronized (tickets) {
            return syncer != null && !syncerStopping;
        }
    }

    private void sync(Ticket ticket) {
        synchronized (tickets) {
            tickets.add(ticket);
            tickets.notifyAll();
        }
    }

    /**
     * The fsync thread, appendfsync always's group commit when several event loops wait: takes
     * every ticket waiting, writes and forces all that was appended by then, which covers every
     * taken ticket, and hands the replies back, one task per loop however many of its iterations
     * waited. Tickets that come while it forces wait for the next round. Ends once {@link #close}
     * asked and no ticket waits.
     */
    private void syncLoop() {
        List<Ticket> taken = new ArrayList<>();
        while (true) {
            synchronized (tickets) {
                while (tickets.isEmpty() && !syncerStopping) {
                    try {
                        tickets.wait();
                    } catch (InterruptedException e) {
                        syncerStopping = true;
                    }
                }
                if (tickets.isEmpty()) {
                    return;
                }
                taken.addAll(tickets);
                tickets.clear();
            }
            long upTo = appended();
            try {
                commit(upTo, true);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "AOF fsync failed", e);
            }
            releaseByLoop(taken, upTo);
        }
    }

    /** Releases {@code taken} (emptied) with one task per loop, after a commit up to {@code upTo}. */
    private static void releaseByLoop(List<Ticket> taken, long upTo) {
        while (!taken.isEmpty()) {
            Executor loop = taken.get(0).loop();
            List<LongConsumer> waiting = new ArrayList<>();
            taken.removeIf(ticket -> {
                if (ticket.loop() != loop) {
                    return false;
                }
                waiting.addAll(ticket.waiting());
                return true;
            });
            try {
                loop.execute(() -> Ticket.release(waiting, upTo));
            } catch (RejectedExecutionException e) {
                LOG.log(System.Logger.Level.DEBUG, "event loop gone before the AOF fsync ended");
            }
        }
    }

    private void startSyncer() {
        Thread thread = new Thread(this::syncLoop, "aof-fsync");
        thread.setDaemon(true);
        synchronized (tickets) {
            syncer = thread;
            syncerStopping = false;
        }
        thread.start();
    }

    /** Lets the fsync thread release what waits, then end. */
    private void stopSyncer() {
        Thread thread;
        synchronized (tickets) {
            thread = syncer;
            syncerStopping = true;
            tickets.notifyAll();
        }
        if (thread == null) {
            return;
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Writes the buffer up to at least {@code upTo}; forces the file up to it when {@code force}.
     * As flushAppendOnlyFile: a failed write leaves its bytes in the buffer for the next try (a
     * partial write truncated away first, or, when that fails too, kept and only the rest
     * retried), and the server refuses writes until a write succeeds ({@link #refusal}); under
     * appendfsync always a failed write or fsync ends the server, since replies may already have
     * shown what is not on disk.
     */
    private void commit(long upTo, boolean force) {
        synchronized (writeLock) {
            if (written < upTo && incr != null) {
                ByteBuffer bytes = takePending();
                try {
                    while (bytes.hasRemaining()) {
                        writes.write(incr, bytes);
                    }
                    written += bytes.limit();
                    incrSize += bytes.limit();
                    if (!lastWriteOk) {
                        LOG.log(System.Logger.Level.WARNING, "AOF write error looks solved, Redis can write again.");
                    }
                    lastWriteOk = true;
                } catch (IOException e) {
                    writeFailed(bytes, bytes.position(), e);
                    return;
                } finally {
                    giveBack(bytes);
                }
            }
        }
        if (force) {
            synchronized (syncLock) {
                long target = written;
                if (synced < Math.min(upTo, target) && incr != null) {
                    try {
                        writes.force(incr);
                        synced = target;
                        lastFsyncOk = true;
                    } catch (IOException e) {
                        lastWriteError = e.getMessage();
                        lastFsyncOk = false;
                        if (fsync == Fsync.ALWAYS) {
                            exit.accept("Can't persist append only file to disk: " + e.getMessage() + ". Exiting...");
                            return;
                        }
                        LOG.log(System.Logger.Level.WARNING, "Can't persist the AOF file: " + e.getMessage());
                    }
                }
            }
        }
    }

    /** A write of {@code chunk} (its bytes up to its limit) failed after {@code done} of them were written. */
    private void writeFailed(ByteBuffer chunk, int done, IOException e) {
        lastWriteError = e.getMessage();
        lastWriteOk = false;
        LOG.log(System.Logger.Level.WARNING, "Error writing to the AOF file: " + e.getMessage());
        if (fsync == Fsync.ALWAYS) {
            exit.accept("Can't recover from AOF write error when the AOF fsync policy is 'always'. Exiting...");
            return;
        }
        int kept = done;
        if (done > 0) {
            try {
                incr.truncate(incr.position() - done);
                kept = 0;
            } catch (IOException truncateFailed) {
                LOG.log(System.Logger.Level.WARNING, "Could not remove short write from the append-only file. "
                    + "Redis may refuse to load the AOF the next time it starts. ftruncate: " + truncateFailed.getMessage());
            }
        }
        written += kept;
        incrSize += kept;
        synchronized (this) {
            int rest = chunk.limit() - kept;
            byte[] joined = new byte[Math.max(pending.length, rest + pendingSize)];
            System.arraycopy(chunk.array(), kept, joined, 0, rest);
            System.arraycopy(pending, 0, joined, rest, pendingSize);
            pending = joined;
            pendingSize += rest;
        }
    }

    /**
     * Schedules the once-a-second duties while the AOF is on and cancels them once it is off
     * (CONFIG SET appendonly no): an idle server with the AOF off has no thread that wakes for it.
     */
    private void followEnabled() {
        synchronized (dutiesLock) {
            if (cron == null) {
                return;
            }
            if (enabled && duties == null && !cron.isShutdown()) {
                duties = cron.scheduleWithFixedDelay(this::everySecond, 1, 1, TimeUnit.SECONDS);
            } else if (!enabled && duties != null) {
                duties.cancel(false);
                duties = null;
            }
        }
    }

    /** The background thread while the AOF is on: everysec's fsync and the auto-rewrite check (serverCron). */
    private void everySecond() {
        try {
            if (!enabled) {
                return;
            }
            commit(appended(), fsync == Fsync.EVERYSEC);
            if (rewriteScheduled && !rewriteInProgress && !backgroundSave.running()) {
                rewriteFromCron();
                return;
            }
            long percentage = config.longValue("auto-aof-rewrite-percentage");
            long size = currentSize();
            if (percentage > 0 && size > config.longValue("auto-aof-rewrite-min-size") && !rewriteInProgress
                && !rewriteScheduled && !backgroundSave.running()) {
                long base = Math.max(1, sizeAfterRewrite);
                long growth = size * 100 / base - 100;
                if (growth >= percentage) {
                    LOG.log(System.Logger.Level.INFO, "Starting automatic rewriting of AOF on " + growth + "% growth");
                    rewriteFromCron();
                }
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "AOF background work failed", e);
        }
    }

    // ---- rewriting ----------------------------------------------------------------------

    /**
     * BGREWRITEAOF (rewriteAppendOnlyFileBackground), holding every database: the epoch now, then
     * the rewrite's own thread writes the base; aof_rewrite_in_progress is 1 until it ended. False
     * when one is already in progress, before start-up ended, or when the epoch failed. The caller
     * made sure no BGSAVE runs.
     */
    public boolean rewriteInBackground(List<Keyspace> databases) {
        synchronized (rewriteLock) {
            if (rewriteInProgress || wholeKeyspace == null) {
                return false;
            }
            rewriteInProgress = true;
            rewriteScheduled = false;
            rewriteStartedMillis = System.currentTimeMillis();
        }
        Epoch epoch;
        try {
            epoch = epoch(databases);
        } catch (RuntimeException e) {
            lastRewriteOk = false;
            LOG.log(System.Logger.Level.WARNING, "Can't rewrite append only file in background: " + e.getMessage());
            synchronized (rewriteLock) {
                rewriteInProgress = false;
            }
            return false;
        }
        LOG.log(System.Logger.Level.INFO, "Background append only file rewriting started");
        Thread thread = new Thread(() -> rewriteNow(epoch), "aof-rewrite");
        thread.setDaemon(true);
        thread.start();
        return true;
    }

    /** The background thread's rewrites (auto-rewrite, a scheduled one): the epoch through the door. */
    private void rewriteFromCron() {
        wholeKeyspace.run(databases -> {
            if (backgroundSave.running()) {
                rewriteScheduled = true;
                return false;
            }
            return rewriteInBackground(databases);
        });
    }

    /** BGREWRITEAOF during a BGSAVE: the background thread starts the rewrite once the save ended. */
    public void scheduleRewrite() {
        rewriteScheduled = true;
    }

    /** The files of one rewrite, fixed at its epoch. {@code incrOpened}: the AOF appends to {@code next}. */
    private record Epoch(AofManifest old, AofManifest.AofFile base, AofManifest.AofFile next,
                         BackgroundSave.Image image, boolean incrOpened) {
    }

    /** The rewrite's thread: the base written outside the hold, then the bookkeeping. */
    private void rewriteNow(Epoch epoch) {
        boolean ok = writeBase(epoch);
        lastRewriteSeconds = (System.currentTimeMillis() - rewriteStartedMillis) / 1000;
        lastRewriteOk = ok;
        synchronized (rewriteLock) {
            rewriting = null;
            rewriteInProgress = false;
        }
    }

    /**
     * The epoch, holding every database: the image, and (with the AOF on) the next incr file opened
     * and named in the manifest after the old ones (openNewIncrAofForAppend).
     */
    private Epoch epoch(List<Keyspace> databases) {
        Path directory = directory();
        String name = config.value("appendfilename");
        AofManifest old = manifest;
        long baseSeq = (old == null ? 0 : old.baseSeq()) + 1;
        long incrSeq = (old == null ? 0 : old.lastIncrSeq()) + 1;
        AofManifest.AofFile base = baseFile(baseSeq);
        AofManifest.AofFile next = new AofManifest.AofFile(name + "." + incrSeq + ".incr.aof", incrSeq, 'i');
        BackgroundSave.Image image = backgroundSave.image(databases);
        boolean incrOpened = false;
        synchronized (writeLock) {
            if (enabled && incr != null && old != null) {
                commit(appended(), true);
                synchronized (syncLock) {
                    FileChannel started = null;
                    try {
                        started = FileChannel.open(directory.resolve(next.name()), StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                        List<AofManifest.AofFile> incrs = new ArrayList<>(old.incrs());
                        incrs.add(next);
                        AofManifest during = new AofManifest(old.base(), List.copyOf(incrs));
                        during.write(directory, manifestName());
                        closeQuietly(incr);
                        incr = started;
                        manifest = during;
                        synchronized (this) {
                            selected = -1;
                        }
                        synced = written;
                        incrOpened = true;
                    } catch (IOException e) {
                        closeQuietly(started);
                        image.abandon();
                        throw new IllegalStateException(e.getMessage(), e);
                    }
                }
            }
        }
        rewriting = image;
        return new Epoch(manifest, base, next, image, incrOpened);
    }

    /**
     * The rewrite's thread, outside the hold (backgroundRewriteDoneHandler): the base from the
     * image into a temp file, forced and renamed; then the manifest names the new base and the new
     * incr file only, and the files it no longer names are deleted. False, with the epoch's
     * manifest left in place, when it failed.
     */
    private boolean writeBase(Epoch epoch) {
        Path directory = directory();
        Path temp = directory.resolve("temp-rewriteaof-bg-" + ProcessHandle.current().pid() + ".aof");
        try {
            FileChannel channel;
            try {
                Files.createDirectories(directory);
                channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            } catch (IOException e) {
                epoch.image().abandon();
                throw e;
            }
            try (channel) {
                writeBase(epoch.base(), channel, temp, into -> epoch.image().writeTo(into, true));
                channel.force(true);
            }
            Files.move(temp, directory.resolve(epoch.base().name()), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
            synchronized (writeLock) {
                if (!epoch.incrOpened()) {
                    Files.newByteChannel(directory.resolve(epoch.next().name()), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING).close();
                }
                AofManifest replacing = new AofManifest(epoch.base(), List.of(epoch.next()));
                replacing.write(directory, manifestName());
                manifest = replacing;
                baseSize = Files.size(directory.resolve(epoch.base().name()));
                incrSize = epoch.incrOpened() ? Files.size(directory.resolve(epoch.next().name())) : 0;
                sizeAfterRewrite = baseSize + incrSize;
            }
            deleteHistory(directory, epoch.old(), epoch.base(), epoch.next());
            rewrites++;
            LOG.log(System.Logger.Level.INFO, "Background AOF rewrite finished successfully");
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Background AOF rewrite terminated with error: " + e.getMessage());
            Snapshots.deleteQuietly(temp);
            return false;
        }
    }

    /** Stops the rewrite writing its base (killAppendOnlyChild): its files stay as the epoch left them. */
    private void stopRewrite() {
        BackgroundSave.Image image = rewriting;
        if (image != null) {
            image.stop();
            LOG.log(System.Logger.Level.INFO, "Killing running AOF rewrite child");
        }
    }

    /** CONFIG SET appendonly: on, a rewrite then the AOF (startAppendOnly); off, the file closes. */
    private void switched(boolean on) {
        if (cron == null) {
            return;
        }
        if (on && !enabled) {
            cron.execute(() -> {
                WholeKeyspace holder = wholeKeyspace;
                if (holder != null && config.flag("appendonly")) {
                    holder.run(databases -> rewrite(databases, true));
                }
            });
        } else if (!on && enabled) {
            stopRewrite();
            cron.execute(() -> {
                synchronized (writeLock) {
                    commit(appended(), true);
                    enabled = false;
                    synchronized (syncLock) {
                        closeQuietly(incr);
                        incr = null;
                    }
                }
                followEnabled();
                LOG.log(System.Logger.Level.INFO, "Background append only file rewriting stopped");
            });
        }
    }

    /**
     * rewriteAppendOnlyFile and its completion, at one instant: the caller holds every database.
     * Writes the new base, ends the current incr file and starts the next, replaces the manifest,
     * then deletes the files the new manifest no longer names. {@code enable}: the AOF is on
     * afterwards (start-up, CONFIG SET appendonly yes). False, with the old files untouched,
     * when it failed.
     */
    public boolean rewrite(List<Keyspace> databases, boolean enable) {
        return rewrite(databases, enable, false);
    }

    /** {@code starting}: the first base of a directory at start-up, which aof_rewrites does not count. */
    private boolean rewrite(List<Keyspace> databases, boolean enable, boolean starting) {
        rewriteInProgress = true;
        Path directory = directory();
        String name = config.value("appendfilename");
        AofManifest old = manifest;
        long baseSeq = (old == null ? 0 : old.baseSeq()) + 1;
        long incrSeq = (old == null ? 0 : old.lastIncrSeq()) + 1;
        AofManifest.AofFile base = baseFile(baseSeq);
        AofManifest.AofFile next = new AofManifest.AofFile(name + "." + incrSeq + ".incr.aof", incrSeq, 'i');
        Path temp = directory.resolve("temp-rewriteaof-" + ProcessHandle.current().pid() + ".aof");
        try {
            Files.createDirectories(directory);
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
                writeBase(base, channel, temp, into -> snapshots.write(into, databases, true));
                channel.force(true);
            }
            Files.move(temp, directory.resolve(base.name()), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
            synchronized (writeLock) {
                commit(appended(), true);
                synchronized (syncLock) {
                    FileChannel started = FileChannel.open(directory.resolve(next.name()), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
                    AofManifest replacing = new AofManifest(base, List.of(next));
                    try {
                        replacing.write(directory, manifestName());
                    } catch (IOException e) {
                        closeQuietly(started);
                        throw e;
                    }
                    closeQuietly(incr);
                    incr = started;
                    manifest = replacing;
                    synchronized (this) {
                        selected = -1;
                    }
                    synced = written;
                    if (enable) {
                        enabled = true;
                    }
                }
            }
            if (enable) {
                followEnabled();
            }
            deleteHistory(directory, old, base, next);
            baseSize = Files.size(directory.resolve(base.name()));
            incrSize = 0;
            sizeAfterRewrite = baseSize;
            if (old != null || !starting) {
                rewrites++;
            }
            lastRewriteOk = true;
            if (starting) {
                LOG.log(System.Logger.Level.INFO, "Creating AOF base file " + base.name() + " on server start");
                LOG.log(System.Logger.Level.INFO, "Creating AOF incr file " + next.name() + " on server start");
            } else {
                LOG.log(System.Logger.Level.INFO, "Background AOF rewrite finished successfully");
            }
            return true;
        } catch (IOException | RuntimeException e) {
            lastRewriteOk = false;
            LOG.log(System.Logger.Level.WARNING, "Background AOF rewrite failed: " + e.getMessage());
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                LOG.log(System.Logger.Level.DEBUG, "could not delete " + temp);
            }
            return false;
        } finally {
            rewriteInProgress = false;
        }
    }

    /** Writes an RDB image into a channel. */
    private interface RdbImage {
        void writeTo(FileChannel channel) throws IOException;
    }

    /**
     * The base file for sequence {@code seq}: an RDB image ({@code .base.rdb}), or, with
     * aof-use-rdb-preamble no, commands ({@code .base.aof}), as getNewBaseFileNameAndMarkPreAsHistory
     * names it. Read at each rewrite, so CONFIG SET applies from the next one.
     */
    private AofManifest.AofFile baseFile(long seq) {
        String suffix = config.flag("aof-use-rdb-preamble") ? ".base.rdb" : ".base.aof";
        return new AofManifest.AofFile(config.value("appendfilename") + "." + seq + suffix, seq, 'b');
    }

    /**
     * Writes the base into {@code channel}: the RDB image itself, or, for a {@code .base.aof}, the
     * image into {@code <temp>.rdb} first and then that file as commands ({@link AofRewriter}),
     * one value decoded at a time; the temp image is deleted either way.
     */
    private void writeBase(AofManifest.AofFile base, FileChannel channel, Path temp, RdbImage image)
        throws IOException {
        if (!base.name().endsWith(".base.aof")) {
            image.writeTo(channel);
            return;
        }
        Path rdb = temp.resolveSibling(temp.getFileName() + ".rdb");
        try {
            try (FileChannel into = FileChannel.open(rdb, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
                image.writeTo(into);
            }
            try (FileChannel from = FileChannel.open(rdb, StandardOpenOption.READ)) {
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 64 * 1024);
                RdbFileReader.read(from, from.size(), RdbValueCodec.Encodings.of(config), false,
                    new AofRewriter(out, (int) config.longValue("databases")));
                out.flush();
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            Snapshots.deleteQuietly(rdb);
        }
    }

    private static void deleteHistory(Path directory, AofManifest old, AofManifest.AofFile base,
                                      AofManifest.AofFile next) {
        if (old == null) {
            return;
        }
        List<AofManifest.AofFile> history = new ArrayList<>(old.incrs());
        if (old.base() != null) {
            history.add(old.base());
        }
        for (AofManifest.AofFile file : history) {
            if (file.name().equals(base.name()) || file.name().equals(next.name())) {
                continue;
            }
            try {
                Files.deleteIfExists(directory.resolve(file.name()));
                LOG.log(System.Logger.Level.INFO, "Removing the history file " + file.name() + " in the background");
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "Can't remove the history file " + file.name() + ": "
                    + e.getMessage());
            }
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing the AOF: " + e.getMessage());
        }
    }
}
