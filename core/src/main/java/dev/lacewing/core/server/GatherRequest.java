package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.KeySplit;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.ThreadChanges;
import dev.lacewing.core.datatype.TypedValue;
import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A command over keys of several shards that reads some and writes one ({@link KeySplit#GATHER}:
 * RENAME, SMOVE, LMOVE, the STORE forms...), run as parts under key claims, so that the other keys
 * of those shards stay free. Three rounds, the engine holding every part's keys throughout:
 * <ol>
 *   <li>gather: each part on a shard other than the destination's, on its own thread, hands over
 *       its keys: a detached copy of a key the command only reads (its key specs say RO), or the
 *       value itself, taken out of the shard with its expiry, of a key it may write (RENAME's
 *       source, SMOVE's, LMOVE's);</li>
 *   <li>run: the destination's part runs the command's own handler on its thread, over a view
 *       where its shard's keys are the database's and the others are what was gathered
 *       ({@link GatheredKeyspace}), so errors, checks and their order are the handler's own
 *       (a WRONGTYPE destination leaves LMOVE's source as it was);</li>
 *   <li>put back: each part that took keys stores them again as the command left them (or leaves
 *       them deleted), signals their watchers and serves clients blocked on them.</li>
 * </ol>
 * A key taken out is absent from its shard between rounds one and three, but the claims keep
 * every other command off it until the last round, so no client sees the source gone and the
 * destination not yet written. It runs whole instead (null from {@link #of}) while keyspace
 * notifications or client tracking are on (their events and invalidations would come from several
 * threads, out of Redis's order), for COPY into another database, and when a part finds a client
 * blocked to move an element to another shard ({@link #whole}).
 *
 * <p>Thread rule: created on the connection's thread, which then waits. Each round's parts run on
 * their shards' threads; the fields are written only by the thread that ends a round
 * ({@link #another}) or by the one running part, and the engine's hand-offs between rounds order
 * them.
 */
final class GatherRequest implements Invocation.Split {

    private static final long NO_KEY = -2;
    private static final int GATHER = 0;
    private static final int RUN = 1;
    private static final int PUT_BACK = 2;

    private final ClientConnection connection;
    private final Command<CoreContext> command;
    private final Arguments request;
    private final int database;
    private final long now;
    /** The key index whose part runs the handler: the last key the command may write, or the first. */
    private final int destination;
    private final GatheredKeyspace gathered = new GatheredKeyspace();
    private int round = GATHER;
    private boolean whole;
    /** Whether a part took keys out of its shard, to put back after the run. */
    private boolean taken;
    private RunContext ran;

    private GatherRequest(ClientConnection connection, Command<CoreContext> command, Arguments request, int destination) {
        this.connection = connection;
        this.command = command;
        this.request = request;
        this.database = connection.database();
        this.now = connection.now();
        this.destination = destination;
    }

    /** The gather of the connection's current request, or null when it runs whole. */
    static GatherRequest of(ClientConnection connection, Command<CoreContext> command, Arguments request) {
        CommandSpec spec = command.spec();
        ServerState server = connection.server();
        if (command.keySplit() != KeySplit.GATHER || spec.has(CommandFlag.BLOCKING)
            || server.keyspaceEvents().publishing() || server.tracking().active()
            || (spec.name().equals("copy") && request.count() > 3)) {
            return null;
        }
        int keys = spec.keyCount(request);
        int destination = 0;
        for (int i = keys - 1; i >= 0; i--) {
            if (!Watch.onlyRead(spec, request, spec.keyArgument(request, i))) {
                destination = i;
                break;
            }
        }
        return new GatherRequest(connection, command, request, destination);
    }

    @Override
    public Object runPart(int[] keys) {
        boolean destinationPart = Arrays.binarySearch(keys, destination) >= 0;
        Database db = (Database) connection.server().engine().keyspace(database);
        return switch (round) {
            case GATHER -> gather(db, keys, destinationPart);
            case RUN -> destinationPart && !whole ? run(db, keys) : null;
            default -> destinationPart ? null : putBack(db, keys);
        };
    }

    /**
     * Round one on a part's own thread: the keys of a part other than the destination's, each once
     * (a list of entries), or, where serving clients blocked on this shard may reach another
     * shard, nothing: the command then runs whole.
     */
    private Object gather(Database db, int[] keys, boolean destinationPart) {
        CommandSpec spec = command.spec();
        byte[] array = request.array();
        int first = spec.keyArgument(request, keys[0]);
        if (db.blockedKeys(array, request.offset(first), request.length(first)).hasMoversElsewhere()) {
            return Boolean.TRUE;
        }
        if (destinationPart) {
            return null;
        }
        List<GatheredKeyspace.Entry> entries = new ArrayList<>(keys.length);
        for (int key : keys) {
            int argument = spec.keyArgument(request, key);
            int offset = request.offset(argument);
            int length = request.length(argument);
            if (contains(entries, array, offset, length)) {
                continue;
            }
            boolean taken = !Watch.onlyRead(spec, request, argument);
            long expireAt = db.expireAt(array, offset, length);
            Object value = expireAt == NO_KEY ? null : db.get(array, offset, length);
            StringEncoding encoding = value instanceof byte[] ? db.stringEncoding(array, offset, length)
                : StringEncoding.FROM_BYTES;
            if (value != null) {
                if (taken) {
                    db.takeOut(array, offset, length);
                } else if (value instanceof TypedValue typed) {
                    value = typed.copy();
                }
            }
            entries.add(new GatheredKeyspace.Entry(Arrays.copyOfRange(array, offset, offset + length), taken, value,
                expireAt, encoding));
        }
        return entries;
    }

    private static boolean contains(List<GatheredKeyspace.Entry> entries, byte[] array, int offset, int length) {
        for (GatheredKeyspace.Entry entry : entries) {
            if (Arrays.equals(entry.key, 0, entry.key.length, array, offset, offset + length)) {
                return true;
            }
        }
        return false;
    }

    /** Round two on the destination's thread: the handler over the gathered view; its keys' watchers signalled. */
    private Object run(Database db, int[] keys) {
        RunContext context = new RunContext(db);
        long start = System.nanoTime();
        long changesBefore = ThreadChanges.count();
        try {
            command.execute(context);
        } catch (RuntimeException e) {
            context.writer.error("ERR " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        context.nanos = System.nanoTime() - start;
        context.changed = ThreadChanges.count() != changesBefore;
        BlockedClient.serveReadyKeys(connection.server());
        ran = context;
        return context;
    }

    /**
     * Round three on a part's own thread: its taken keys stored again as the command left them; those
     * the command changed count as changed there (their watchers flagged).
     */
    private Object putBack(Database db, int[] keys) {
        CommandSpec spec = command.spec();
        byte[] array = request.array();
        for (int key : keys) {
            int argument = spec.keyArgument(request, key);
            GatheredKeyspace.Entry entry = gathered.entry(array, request.offset(argument), request.length(argument));
            if (entry == null || !entry.taken) {
                continue;
            }
            db.putBack(entry.key, 0, entry.key.length, entry.value, entry.expireAt, entry.encoding, entry.changed);
            entry.value = null;
            entry.changed = false;
        }
        BlockedClient.serveReadyKeys(connection.server());
        return null;
    }

    /**
     * After gathering: every part's entries join the view, and the destination runs next. After
     * running: the parts that took keys put them back. A part that found a mover elsewhere makes
     * the run a no-op, so what was taken goes back unchanged before the command runs whole.
     */
    @Override
    @SuppressWarnings("unchecked")
    public boolean another(Object[] replies) {
        if (round == GATHER) {
            for (Object reply : replies) {
                if (reply == Boolean.TRUE) {
                    whole = true;
                } else if (reply != null) {
                    for (GatheredKeyspace.Entry entry : (List<GatheredKeyspace.Entry>) reply) {
                        gathered.add(entry);
                        taken |= entry.taken;
                    }
                }
            }
            round = whole ? PUT_BACK : RUN;
            return true;
        }
        if (round == RUN && taken) {
            round = PUT_BACK;
            return true;
        }
        return false;
    }

    @Override
    public boolean whole(Object[] replies) {
        return whole;
    }

    @Override
    public void join(int[][] keys, Object[] replies) {
        ByteBuf reply = ran.buffer;
        connection.writer().raw(reply, reply.readerIndex(), reply.readableBytes());
        reply.release();
        // The gathered view counts its changes to other shards' keys in this thread's changes too,
        // so a RENAME or SMOVE that changed nothing is not propagated, as in Redis.
        connection.splitRan(ran.nanos / 1000, ran.writer.errorCount() != 0, ran.changed);
    }

    /** What the handler sees on the destination's thread: the whole request, the gathered view, its own reply buffer. */
    private final class RunContext extends DelegatingContext {
        private final ByteBuf buffer = Unpooled.buffer(64);
        private final RespWriter writer = new RespWriter();
        private final ValueView valueView = new ValueView();
        private final Keyspace keyspace;
        private long nanos;
        /** Whether the handler changed a key, the destination's own or a gathered one. */
        private boolean changed;

        RunContext(Database db) {
            super(connection);
            writer.target(buffer);
            writer.protocol(connection.protocol());
            gathered.over(db);
            keyspace = command.readOnly() ? connection.server().readLookups().of(gathered) : gathered;
        }

        @Override
        public Arguments arguments() {
            return request;
        }

        @Override
        public RespWriter reply() {
            return writer;
        }

        @Override
        public Keyspace keyspace() {
            return keyspace;
        }

        @Override
        public Keyspace keyspace(int index) {
            return index == database ? gathered : connection.server().engine().keyspace(index);
        }

        @Override
        public void swapDatabases(int first, int second) {
            throw new UnsupportedOperationException("a gathered command does not swap databases");
        }

        @Override
        public long now() {
            return now;
        }

        @Override
        public ValueView valueView() {
            return valueView;
        }
    }
}
