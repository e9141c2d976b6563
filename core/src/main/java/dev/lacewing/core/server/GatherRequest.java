package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.KeySplit;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.ThreadChanges;
import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A command over keys of several shards that reads some and writes one ({@link KeySplit#GATHER}:
 * RENAME, SMOVE, LMOVE, the STORE forms...), run as parts under key claims in the rounds of a
 * {@link GatheredSplit}, so that the other keys of those shards stay free. The destination is the
 * last key the command may write (RENAME's, SMOVE's, LMOVE's source is taken out), or the first;
 * the run is the command's own handler over the gathered view, so errors, checks and their order
 * are the handler's own (a WRONGTYPE destination leaves LMOVE's source as it was). A key taken out
 * is absent from its shard until it is put back, but its claim keeps every other command off it
 * until then, so no client sees the source gone and the destination not yet written. It runs
 * whole instead (null from {@link #of}) while keyspace notifications or client tracking are on
 * (their events and invalidations would come from several threads, out of Redis's order), and for
 * COPY into another database.
 *
 * <p>Thread rule: as {@link GatheredSplit}'s; the joined reply is written by the thread that ran
 * the last round.
 */
final class GatherRequest extends GatheredSplit {

    private final Command<CoreContext> command;
    private final Arguments request;
    private final long now;
    private RunContext ran;

    private GatherRequest(ClientConnection connection, Command<CoreContext> command, Arguments request, int destination) {
        super(connection, destination);
        this.command = command;
        this.request = request;
        this.now = connection.now();
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
    @Override
    Object run(Database db) {
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
