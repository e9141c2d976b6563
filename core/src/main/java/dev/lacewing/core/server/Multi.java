package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.BlockedCommand;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.ThreadChanges;
import dev.lacewing.core.persistence.aof.AofDeletions;
import dev.lacewing.core.resp.RespWriter;
import dev.lacewing.core.tracking.Tracking;
import java.util.ArrayList;
import java.util.List;

/**
 * A connection's transaction, as Redis's multi.c: MULTI queues the commands that follow (each
 * checked as dispatch checks it, answered +QUEUED or with its error), EXEC runs them, DISCARD
 * drops them. A queueing error makes EXEC answer EXECABORT.
 *
 * <p>EXEC hands the engine one {@link Invocation} ({@link Exec}) whose keys are every queued
 * command's keys and every watched key, or the whole keyspace when a queued command needs it:
 * the engine grants them all at once (the shared-nothing engine as one transaction claiming those
 * keys, the queue run on one shard over the others' keys gathered there, {@link GatheredExec}, or
 * claiming their shards whole when a queued command needs more; the multithread engine holding their
 * stripes), and the queued commands run one after another under that grant, on one thread. No other command sees the keys between them, so the
 * transaction is atomic and isolated whatever shards its keys live on. The watch check runs under
 * the same grant, so no write slips in between the check and the run.
 *
 * <p>Thread rule: owned by its connection, touched by whichever thread runs the connection's
 * command (the engine's hand-over orders those); a {@link Watch} is flagged by any thread that
 * writes one of its keys.
 */
public final class Multi {

    /** Redis's multi.c wording. */
    static final String NESTED = "ERR MULTI calls can not be nested";
    static final String EXEC_WITHOUT_MULTI = "ERR EXEC without MULTI";
    static final String DISCARD_WITHOUT_MULTI = "ERR DISCARD without MULTI";
    static final String WATCH_INSIDE_MULTI = "ERR WATCH inside MULTI is not allowed";
    static final String NOT_ALLOWED = "ERR Command not allowed inside a transaction";
    static final String EXECABORT = "EXECABORT Transaction discarded because of previous errors.";
    static final String EXECABORT_BECAUSE = "EXECABORT Transaction discarded because of: ";

    /** A queued command with its arguments copied out of the connection's buffer. */
    private record Queued(Command<CoreContext> command, Arguments arguments) {
    }

    /** A queued command's record, its copied arguments' object and array headers. */
    private static final int QUEUED_OVERHEAD_BYTES = 64;
    /** Each argument's offset and length in the copy. */
    private static final int ARGUMENT_OVERHEAD_BYTES = 8;

    private final ClientConnection connection;
    private final List<Queued> queued = new ArrayList<>();
    /** Inside MULTI (Redis's CLIENT_MULTI). */
    private boolean active;
    /** A queued command was refused (CLIENT_DIRTY_EXEC): EXEC aborts. */
    private boolean failed;
    /**
     * What the queued commands hold (Redis's multi-mem): their arguments' bytes and a reference and
     * offsets each. It counts in the client's buffers, so used_memory and maxmemory see a transaction
     * that queues without end (Redis 7.0 then refuses queueing with OOM, as here).
     */
    private long queuedBytes;
    /** The EXEC running its queued commands, or null: a script among them runs under its grant. */
    private Exec running;
    /** The keys WATCH registered, or null while none is watched. */
    private Watch watch;

    Multi(ClientConnection connection) {
        this.connection = connection;
    }

    /** The transaction of the connection a command runs for. */
    public static Multi of(CoreContext ctx) {
        return ctx.connection().multi();
    }

    public boolean active() {
        return active;
    }

    /** Bytes the queued commands hold, for CLIENT LIST's multi-mem= and the client's memory. */
    public long queuedBytes() {
        return queuedBytes;
    }

    /** Whether a queued command writes or may replicate: EXEC then waits out CLIENT PAUSE WRITE. */
    boolean queuedWrites() {
        for (Queued q : queued) {
            if (q.command.spec().has(CommandFlag.WRITE) || q.command.spec().has(CommandFlag.MAY_REPLICATE)) {
                return true;
            }
        }
        return false;
    }

    /** Commands queued, for CLIENT LIST's multi=. */
    public int queuedCount() {
        return queued.size();
    }

    /** Redis's flagTransaction: a command refused while queueing makes EXEC abort. */
    void flagError() {
        if (active) {
            failed = true;
        }
    }

    /**
     * Called by dispatch inside MULTI for a command that passed its checks. True when it was
     * dealt with here: queued (or refused) with its reply written, or EXEC handed to the engine.
     * False for the commands that run at once even inside MULTI (DISCARD, MULTI, WATCH, QUIT,
     * RESET), as Redis's processCommand lets them through.
     */
    /**
     * processCommand's MISCONF check, as for a command outside MULTI: the error a write or PING is
     * refused with after a failed BGSAVE or while the AOF cannot be written, or null.
     */
    private String diskErrorRefusal(Command<CoreContext> command) {
        if (!command.spec().has(CommandFlag.WRITE) && !command.spec().name().equals("ping")) {
            return null;
        }
        return connection.server().diskErrorRefusal();
    }

    boolean dispatch(Command<CoreContext> command, Arguments args, RespWriter writer) {
        String name = command.spec().name();
        switch (name) {
            case "exec" -> {
                connection.runExec(command, new Exec(command));
                return true;
            }
            case "discard", "quit", "reset" -> {
                return false;
            }
            default -> {
            }
        }
        if (!connection.server().engine().reclaimMemory(new Keyless(command))) {
            // Redis's processCommand: queueing could grow without bound, so over maxmemory every
            // command but EXEC, DISCARD, QUIT and RESET is refused inside MULTI, and flags it.
            connection.rejectQueued(command, Errors.OOM);
            return true;
        }
        String diskError = diskErrorRefusal(command);
        if (diskError != null) {
            connection.rejectQueued(command, diskError);
            return true;
        }
        if (name.equals("multi") || name.equals("watch")) {
            return false;
        }
        if (command.spec().has(CommandFlag.NO_MULTI)) {
            connection.rejectQueued(command, NOT_ALLOWED);
            return true;
        }
        if (!failed) {
            queued.add(new Queued(command, new BlockedClient.CopiedArguments(args)));
            queuedBytes += QUEUED_OVERHEAD_BYTES;
            for (int i = 0; i < args.count(); i++) {
                queuedBytes += args.length(i) + ARGUMENT_OVERHEAD_BYTES;
            }
        }
        writer.simple("QUEUED");
        return true;
    }

    /**
     * Redis's execCommandAbort: an EXEC that dispatch refuses (arity, authentication, a subscribed
     * RESP2 connection), inside MULTI or not, discards the transaction and the watched keys and
     * says why.
     */
    String abortedBy(String error) {
        reset();
        return EXECABORT_BECAUSE + (error.startsWith("ERR ") ? error.substring(4) : error);
    }

    // ---- the commands ---------------------------------------------------------------------

    public void multi(ReplyWriter reply) {
        if (active) {
            reply.error(NESTED);
            return;
        }
        active = true;
        reply.ok();
    }

    public void discard(ReplyWriter reply) {
        if (!active) {
            reply.error(DISCARD_WITHOUT_MULTI);
            return;
        }
        reset();
        reply.ok();
    }

    /** EXEC outside MULTI; inside, dispatch hands it to the engine ({@link Exec}). */
    public void execWithoutMulti(ReplyWriter reply) {
        reply.error(EXEC_WITHOUT_MULTI);
    }

    /** The EXEC whose queued commands are running, or null. */
    Exec running() {
        return running;
    }

    /** Leaves MULTI and forgets the watched keys (discardTransaction, RESET, the connection's close). */
    public void reset() {
        queued.clear();
        queuedBytes = 0;
        active = false;
        failed = false;
        unwatch();
    }

    /** WATCH key...: run with its keys granted, so each registers where writers of the key look. */
    public void watch(CoreContext ctx) {
        if (active) {
            ctx.reply().error(WATCH_INSIDE_MULTI);
            return;
        }
        Watch watching = watching();
        Database database = ctx.server().engine().keyspace(ctx.connection().database());
        Arguments args = ctx.arguments();
        for (int i = 1; i < args.count(); i++) {
            byte[] key = args.copy(i);
            database.watchedKeys(key, 0, key.length).add(database.index(), key, 0, key.length, watching);
            watching.keys.add(new Watch.Watched(key, database.expireAt(key, 0, key.length)));
        }
        ctx.reply().ok();
    }

    public void unwatch() {
        if (watch != null) {
            watch.released = true;
            watch = null;
        }
    }

    /** The watched keys, for WATCH to add to; created on first use. */
    private Watch watching() {
        if (watch == null) {
            watch = new Watch();
        }
        return watch;
    }

    /**
     * EXEC as the engine sees it: the union of the queued commands' keys and the watched keys as
     * its key arguments ({@code exec k1 k2 ...}), or the whole keyspace.
     */
    final class Exec extends OnConnection {
        private final KeyList keys;
        private final KeyScope scope;
        /**
         * Per key (index below {@link #keyCount()}): {@link GatheredKeyspace#WATCHED}, {@code READ} or
         * {@code WRITTEN}; the key list's own array, which may be longer.
         */
        private final byte[] roles;
        /** Every queued command may run over a gathered view of its keys ({@link GatheredExec#eligible}). */
        private final boolean gatherable;
        /** While the queue runs over gathered keys: the gather, else null. */
        private GatheredExec gathered;

        Exec(Command<CoreContext> command) {
            super(command);
            KeyScope widest = KeyScope.NONE;
            KeyList list = new KeyList();
            if (watch != null) {
                for (Watch.Watched watched : watch.keys) {
                    list.add(watched.key(), 0, watched.key().length, GatheredKeyspace.WATCHED);
                }
            }
            boolean eligible = true;
            for (Queued q : queued) {
                CommandSpec spec = q.command.spec();
                KeyScope scope = spec.scope(q.arguments);
                if (scope == KeyScope.ALL) {
                    widest = KeyScope.ALL;
                }
                eligible &= GatheredExec.eligible(q.command, q.arguments);
                int count = scope == KeyScope.KEYS ? spec.keyCount(q.arguments) : 0;
                for (int i = 0; i < count; i++) {
                    int argument = spec.keyArgument(q.arguments, i);
                    list.add(q.arguments.array(), q.arguments.offset(argument), q.arguments.length(argument),
                        spec.has(CommandFlag.WRITE) && !Watch.onlyRead(spec, q.arguments, argument)
                            ? GatheredKeyspace.WRITTEN : GatheredKeyspace.READ);
                }
            }
            this.keys = list;
            this.roles = GatheredExec.widenWritten(keys, list.roles());
            this.gatherable = eligible;
            this.scope = widest == KeyScope.ALL ? KeyScope.ALL : keys.count() > 1 ? KeyScope.KEYS : KeyScope.NONE;
        }

        /**
         * The queue over keys of several shards as a gather ({@link GatheredExec}): its keys claimed,
         * the queue run on one shard over copies or taken-out values of the others; null (every involved
         * shard claimed whole) when a queued command may not run so.
         */
        @Override
        public Split split() {
            return gatherable && !failed ? GatheredExec.of(connection, this, roles) : null;
        }

        /** Runs the queue, on the destination's thread, over the gathered view. */
        void runGathered(GatheredExec gather) {
            gathered = gather;
            try {
                run();
            } finally {
                gathered = null;
            }
        }


        @Override
        public Arguments arguments() {
            return keys;
        }

        @Override
        public KeyScope scope() {
            return scope;
        }


        @Override
        public int keyCount() {
            return keys.count() - 1;
        }

        @Override
        public int keyArgument(int i) {
            return i + 1;
        }

        /**
         * Redis's execCommand, with every key granted: a watched key written since WATCH gives a
         * null array; over maxmemory a transaction with a DENYOOM command is refused whole, and so
         * is one with a write while the disk refuses writes (MISCONF, processCommand's check of
         * EXEC by its queued commands' flags); otherwise an array of every queued command's reply, runtime errors included.
         */
        @Override
        public void run() {
            RespWriter writer = connection.writer();
            long errorsBefore = writer.errorCount();
            long start = System.nanoTime();
            String diskError = anyWrite() ? connection.server().diskErrorRefusal() : null;
            if (failed) {
                writer.error(EXECABORT);
            } else if (watch != null && watch.changed(System.currentTimeMillis())) {
                writer.nullArray();
            } else if (!connection.server().engine().reclaimMemory(this) && anyDenyOom()) {
                writer.error(EXECABORT_BECAUSE + Errors.OOM);
            } else if (diskError != null) {
                writer.error(EXECABORT_BECAUSE + diskError);
            } else {
                writer.array(queued.size());
                running = this;
                boolean propagating = connection.server().aof().enabled();
                if (propagating) {
                    AofDeletions.running(connection.aofBatch());
                }
                try {
                    for (Queued q : queued) {
                        runQueued(q, writer);
                    }
                } finally {
                    if (propagating) {
                        AofDeletions.running(null);
                    }
                    running = null;
                }
            }
            reset();
            connection.execRan(command, (System.nanoTime() - start) / 1000, writer.errorCount() != errorsBefore);
        }

        private boolean anyWrite() {
            for (Queued q : queued) {
                if (q.command.spec().has(CommandFlag.WRITE)) {
                    return true;
                }
            }
            return false;
        }

        private boolean anyDenyOom() {
            for (Queued q : queued) {
                if (q.command.spec().has(CommandFlag.DENYOOM)) {
                    return true;
                }
            }
            return false;
        }

        private void runQueued(Queued q, RespWriter writer) {
            long errorsBefore = writer.errorCount();
            long start = System.nanoTime();
            String denied = connection.deniedAtExec(q.command, q.arguments);
            if (denied != null) {
                writer.error(denied);
                connection.queuedRan(q.command, q.arguments, 0, true, false);
                return;
            }
            long changesBefore = ThreadChanges.count();
            boolean tracked = connection.server().tracking().active();
            if (tracked) {
                Tracking.running(connection);
            }
            try {
                QueuedContext context = new QueuedContext(q.command, q.arguments);
                connection.markReply();
                q.command.execute(context);
                if (!context.refusedToBlock) {
                    Watch.written(q.command.spec(), q.arguments, context, changesBefore);
                }
            } catch (RuntimeException e) {
                writer.error("ERR " + e.getClass().getSimpleName() + ": " + e.getMessage());
            } finally {
                if (tracked) {
                    Tracking.running(null);
                }
            }
            boolean failedHere = writer.errorCount() != errorsBefore;
            connection.queuedRan(q.command, q.arguments, (System.nanoTime() - start) / 1000, failedHere,
                ThreadChanges.count() != changesBefore);
        }

        @Override
        public void completed() {
            connection.completed();
        }
    }

    /** An invocation of one of this connection's commands, in its database, from its home worker. */
    private abstract class OnConnection implements Invocation {
        final Command<CoreContext> command;

        OnConnection(Command<CoreContext> command) {
            this.command = command;
        }

        @Override
        public CommandSpec spec() {
            return command.spec();
        }

        @Override
        public int database() {
            return connection.database();
        }

        @Override
        public int homeWorker() {
            return connection.homeWorker();
        }
    }

    /** A command asking the engine only whether memory is over the limit (it names no keys, so none are evicted for it). */
    private final class Keyless extends OnConnection {

        Keyless(Command<CoreContext> command) {
            super(command);
        }


        @Override
        public Arguments arguments() {
            return new KeyList();
        }

        @Override
        public KeyScope scope() {
            return KeyScope.NONE;
        }


        @Override
        public int keyCount() {
            return 0;
        }

        @Override
        public int keyArgument(int i) {
            throw new IndexOutOfBoundsException(i);
        }

        @Override
        public void run() {
            throw new UnsupportedOperationException("only asks about memory");
        }

        @Override
        public void completed() {
            throw new UnsupportedOperationException("only asks about memory");
        }
    }

    /**
     * The key arguments of an EXEC: {@code exec} and each key, copied into one array that grows as
     * keys are added, with each key's role ({@link GatheredKeyspace#WATCHED}, {@code READ},
     * {@code WRITTEN}). Sized for a few keys, as nearly every transaction names.
     */
    private static final class KeyList implements Arguments {
        private static final byte[] EXEC = {'e', 'x', 'e', 'c'};
        private byte[] array = new byte[64];
        private int[] offsets = new int[8];
        private byte[] roles = new byte[7];
        private int count;

        KeyList() {
            System.arraycopy(EXEC, 0, array, 0, EXEC.length);
            offsets[1] = EXEC.length;
            count = 1;
        }

        void add(byte[] source, int offset, int length, byte role) {
            if (count + 2 > offsets.length) {
                offsets = java.util.Arrays.copyOf(offsets, offsets.length * 2);
                roles = java.util.Arrays.copyOf(roles, offsets.length - 1);
            }
            int end = offsets[count];
            if (end + length > array.length) {
                array = java.util.Arrays.copyOf(array, Math.max(array.length * 2, end + length));
            }
            System.arraycopy(source, offset, array, end, length);
            roles[count - 1] = role;
            offsets[++count] = end + length;
        }

        /** Key {@code i}'s role at index {@code i}, for each key; the array itself, which may be longer (no copy per EXEC). */
        byte[] roles() {
            return roles;
        }

        @Override
        public int count() {
            return count;
        }

        @Override
        public byte[] array() {
            return array;
        }

        @Override
        public int offset(int index) {
            return offsets[index];
        }

        @Override
        public int length(int index) {
            return offsets[index + 1] - offsets[index];
        }
    }

    /**
     * What a queued command sees inside EXEC: its own arguments, everything else (the clock
     * included) the connection's. A blocking command does not block: it answers as its timeout would, at once,
     * as Redis answers for a client that may not block.
     */
    private final class QueuedContext extends DelegatingContext {
        private final Command<CoreContext> command;
        private final Arguments arguments;
        /** EXEC's clock: one instant for the whole transaction, which the AOF's absolute times also use. */
        private final long now = connection.now();
        /** The command would have blocked: it answered as timed out and wrote nothing. */
        private boolean refusedToBlock;

        QueuedContext(Command<CoreContext> command, Arguments arguments) {
            super(connection);
            this.command = command;
            this.arguments = arguments;
        }

        @Override
        public boolean insideExec() {
            return true;
        }

        @Override
        public Arguments arguments() {
            return arguments;
        }

        @Override
        public Keyspace keyspace() {
            GatheredExec gather = running == null ? null : running.gathered;
            return gather == null ? connection.keyspaceFor(command) : gather.view(command);
        }

        @Override
        public Keyspace keyspace(int index) {
            GatheredExec gather = running == null ? null : running.gathered;
            return gather != null && index == gather.database() ? gather.view(command) : connection.keyspace(index);
        }

        @Override
        public long now() {
            return now;
        }

        /**
         * Redis's reply for a blocking command that may not block: a null bulk for the list moves
         * (BLMOVE, BRPOPLPUSH: the commands with a destination), a null array for the rest.
         */
        @Override
        public void block(long deadline, int[] keyArguments, int destinationArgument, BlockedCommand command) {
            refusedToBlock = true;
            if (destinationArgument >= 0) {
                connection.reply().nullBulk();
            } else {
                connection.reply().nullArray();
            }
        }
    }
}
