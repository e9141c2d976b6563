package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.KeySplit;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.ThreadChanges;
import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;

/**
 * A command over keys of several shards that reads some and writes one ({@link KeySplit#GATHER}:
 * RENAME, SMOVE, LMOVE, the STORE forms...), run as parts under key claims, so that the other keys
 * of those shards stay free. Two rounds and a put-back, the engine holding every part's keys
 * throughout:
 * <ol>
 *   <li>gather: each part on a shard other than the destination's, on its own thread, hands over
 *       its keys: a detached copy of a key the command only reads (its key specs say RO), or the
 *       value itself, taken out of the shard with its expiry, of a key it may write (RENAME's
 *       source, SMOVE's, LMOVE's);</li>
 *   <li>run: the destination's part alone (no other shard is woken) runs the command's own
 *       handler on its thread, over a view
 *       where its shard's keys are the database's and the others are what was gathered
 *       ({@link GatheredKeyspace}), so errors, checks and their order are the handler's own
 *       (a WRONGTYPE destination leaves LMOVE's source as it was);</li>
 *   <li>put back: after the reply is joined, each part that took keys stores them again as the
 *       command left them (or leaves them deleted), signals their watchers and serves clients
 *       blocked on them, on its own thread just before its claims there end ({@link #settle}).</li>
 * </ol>
 * A key taken out is absent from its shard until it is put back, but its claim keeps every other
 * command off it until then, so no client sees the source gone and the destination not yet
 * written. It runs whole instead (null from {@link #of}) while keyspace
 * notifications or client tracking are on (their events and invalidations would come from several
 * threads, out of Redis's order), for COPY into another database, and when a part finds a client
 * blocked to move an element to another shard ({@link #whole}).
 *
 * <p>Thread rule: created on the connection's thread, which then waits. Each round's parts run on
 * their shards' threads; the fields are written only by the thread that ends a round
 * ({@link #another}) or by the one running part, and the engine's hand-offs between rounds order
 * them.
 */
final class GatherRequest implements Invocation.Split, GatheredKeyspace.Keys {

    private static final int GATHER = 0;
    private static final int RUN = 1;

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
        Database db = GatheredKeyspace.database(connection.server(), database);
        if (round == GATHER) {
            return GatheredKeyspace.gather(db, keys, destinationPart(keys), this);
        }
        return run(db);
    }

    private boolean destinationPart(int[] keys) {
        return Arrays.binarySearch(keys, destination) >= 0;
    }

    @Override
    public Arguments request() {
        return request;
    }

    @Override
    public int argument(int key) {
        return command.spec().keyArgument(request, key);
    }

    /** A key the command may write is taken out of its shard; one it only reads (its key specs say RO) is copied. */
    @Override
    public byte role(int key) {
        return Watch.onlyRead(command.spec(), request, argument(key)) ? GatheredKeyspace.READ
            : GatheredKeyspace.WRITTEN;
    }

    /** Round two on the destination's thread: the handler over the gathered view; its keys' watchers signalled. */
    private Object run(Database db) {
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
     * After gathering, every part's entries join the view and the destination's part alone runs
     * next; after that the join, and each part's put-back as its claims end ({@link #settle}). A
     * part that found a mover elsewhere ends the rounds: the taken keys go back unchanged and the
     * command runs whole.
     */
    @Override
    public boolean another(Object[] replies) {
        if (round != GATHER) {
            return false;
        }
        whole = gathered.join(replies);
        round = RUN;
        return !whole;
    }

    @Override
    public boolean runsPart(int[] keys) {
        return destinationPart(keys);
    }

    @Override
    public boolean whole(Object[] replies) {
        return whole;
    }

    /** On each part's thread as its claims end: the keys it took stored again as the command left them. */
    @Override
    public void settle(int[] keys) {
        if (!destinationPart(keys)) {
            ServerState server = connection.server();
            gathered.putBack(database, keys[0], server);
        }
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
