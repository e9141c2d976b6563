package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.BlockedCommand;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ValueView;
import dev.lacewing.api.WrongTypeException;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.keyspace.BlockedKeys;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.keyspace.ReadyKeys;
import dev.lacewing.core.persistence.aof.AofBatch;
import dev.lacewing.core.persistence.aof.AofDeletions;
import dev.lacewing.core.persistence.aof.AofPropagation;
import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One blocked command (BLPOP, BLMOVE, BZPOPMIN...): a copy of its request, the keys it waits on,
 * how to serve it ({@link BlockedCommand}), its deadline, and its state. It sits in the
 * {@link BlockedKeys} registry of each waited key's partition.
 *
 * <p>The state is the one point of agreement between threads: BLOCKED until exactly one party
 * claims it with a compare-and-set: a shard serving it, its timeout, CLIENT UNBLOCK or its
 * disconnection (-&gt; DONE). So a client waiting on keys of two shards that become ready at once is
 * served by one of them; the other finds it claimed and leaves its element to the next waiter.
 *
 * <p>Thread rule: the fields are final but {@code state} (atomic), {@code timer} (the home
 * thread's) and {@code destinationElsewhere} (set before it is registered). Replies never go
 * through the connection's own buffer: whoever serves writes into a fresh buffer handed to the
 * home thread ({@link ClientConnection#deliver}).
 */
final class BlockedClient implements BlockedKeys.Entry {

    static final int BLOCKED = 0;
    static final int DONE = 1;

    final ClientConnection connection;
    final Command<CoreContext> command;
    final CopiedArguments arguments;
    final int database;
    final int[] keyArguments;
    final BlockedCommand served;
    final long deadline;
    private final byte[] destination;
    private boolean destinationElsewhere;
    private final AtomicInteger state = new AtomicInteger(BLOCKED);
    /** The home thread's pending timeout task, if any. */
    io.netty.util.concurrent.ScheduledFuture<?> timer;

    BlockedClient(ClientConnection connection, Command<CoreContext> command, Arguments request, int database,
                  int[] keyArguments, int destinationArgument, BlockedCommand served, long deadline) {
        this.connection = connection;
        this.command = command;
        this.arguments = new CopiedArguments(request);
        this.database = database;
        this.keyArguments = keyArguments.clone();
        this.destination = destinationArgument < 0 ? null : arguments.copy(destinationArgument);
        this.served = served;
        this.deadline = deadline;
    }

    @Override
    public byte[] destination() {
        return destination;
    }

    @Override
    public boolean destinationElsewhere() {
        return destinationElsewhere;
    }

    int state() {
        return state.get();
    }

    /** Claims the blocked client; true for exactly one claimer. */
    boolean claim() {
        boolean claimed = state.compareAndSet(BLOCKED, DONE);
        if (claimed) {
            connection.server().blockedClients.decrement();
        }
        return claimed;
    }

    /** Adds it to the registry of every key it waits on; the caller has exclusive access to them. */
    void register(Database keyspace) {
        Arguments args = arguments;
        for (int argument : keyArguments) {
            destinationElsewhere |= destination != null && !keyspace.samePartition(args.array(),
                args.offset(argument), args.length(argument), destination, 0, destination.length);
            keyspace.blockedKeys(args.array(), args.offset(argument), args.length(argument))
                .add(database, args.array(), args.offset(argument), args.length(argument), this);
        }
    }

    /** The argument index of a waited key equal to {@code key}, or -1. */
    private int argumentOf(byte[] key) {
        for (int argument : keyArguments) {
            if (java.util.Arrays.equals(arguments.array(), arguments.offset(argument),
                arguments.offset(argument) + arguments.length(argument), key, 0, key.length)) {
                return argument;
            }
        }
        return -1;
    }

    // ---- serving ------------------------------------------------------------------------

    /**
     * Serves the clients blocked on every key the current thread's command made ready, and on
     * the keys serving makes ready in turn (a BLMOVE's destination), as Redis's
     * handleClientsBlockedOnKeys: each key's clients in the order they blocked, for as long as
     * the key has something for them. Runs while the thread still has exclusive access to the
     * command's keys and to every partition serving may reach (the engine took those with them,
     * see {@link dev.lacewing.core.keyspace.PartitionedKeyspace#addServingReach}), so no later
     * command can take an element first, and a BLMOVE to another partition moves at once.
     */
    static void serveReadyKeys(ServerState server) {
        if (!ReadyKeys.anyQueued()) {
            return;
        }
        ReadyKeys ready = ReadyKeys.current();
        while (!ready.isEmpty()) {
            ReadyKeys.Ready key = ready.poll();
            Iterator<BlockedKeys.Entry> waiters = key.registry().waiters(key.database(), key.key());
            if (waiters == null) {
                continue;
            }
            while (waiters.hasNext()) {
                BlockedClient client = (BlockedClient) waiters.next();
                if (client.state() == DONE) {
                    waiters.remove();
                    continue;
                }
                int argument = client.argumentOf(key.key());
                if (argument < 0) {
                    continue;
                }
                ServeContext context = new ServeContext(client);
                if (!client.served.ready(context, argument) || !client.claim()) {
                    continue;
                }
                waiters.remove();
                AofBatch propagated = server.aof().enabled() && client.command.spec().has(CommandFlag.WRITE)
                    ? new AofBatch() : null;
                AofBatch outer = AofDeletions.replaceRunning(propagated);
                try {
                    client.served.serve(context, argument);
                } catch (WrongTypeException e) {
                    context.reply().error(WrongTypeException.MESSAGE);
                } finally {
                    AofDeletions.replaceRunning(outer);
                }
                Watch.served(context, key.key(), client.destination());
                ByteBuf reply = context.takeReply();
                client.connection.deliver(client, reply, propagate(server, client, propagated, reply));
            }
            key.registry().dropIfEmpty(key.database(), key.key());
        }
    }

    /**
     * A served blocked write goes into the AOF before any later command on its keys, in one batch
     * of its own (MULTI/EXEC around several), as blocked.c propagates each client it serves: a pop
     * in its non-blocking form (BLPOP -> LPOP ...), as serveClientBlockedOnList writes it; an
     * XREADGROUP as what serving it gave {@code batch} instead (its XCLAIMs, XGROUP CREATECONSUMER
     * and SETID, as for one not blocked). Returns the offset it ends at; 0 when nothing was written
     * ({@code batch} null: the AOF is off or the command reads).
     */
    private static long propagate(ServerState server, BlockedClient client, AofBatch batch, ByteBuf reply) {
        if (batch == null) {
            return 0;
        }
        AofPropagation.add(batch, client.database, client.command.spec().name(), client.arguments,
            System.currentTimeMillis(), () -> ByteBufUtil.getBytes(reply, reply.readerIndex(), reply.readableBytes()));
        return batch.isEmpty() ? 0 : server.aof().append(batch);
    }

    // ---- clean-up, through the engine --------------------------------------------------------

    /** Removes the client from every registry it is in, through the engine, on the home thread. */
    void cleanUp() {
        connection.server().engine().execute(new CleanUp());
    }

    /** The clean-up as an engine invocation over the blocked command's keys. */
    private final class CleanUp implements Invocation {

        @Override
        public CommandSpec spec() {
            return command.spec();
        }

        @Override
        public Arguments arguments() {
            return arguments;
        }

        @Override
        public int database() {
            return database;
        }

        @Override
        public int homeWorker() {
            return connection.homeWorker();
        }

        @Override
        public int keyCount() {
            return keyArguments.length;
        }

        @Override
        public int keyArgument(int i) {
            return keyArguments[i];
        }

        @Override
        public void run() {
            Database db = connection.server().engine().keyspace(database);
            for (int argument : keyArguments) {
                db.blockedKeys(arguments.array(), arguments.offset(argument), arguments.length(argument))
                    .remove(database, arguments.array(), arguments.offset(argument),
                        arguments.length(argument), BlockedClient.this);
            }
        }

        @Override
        public void completed() {
            // Nothing to resume: the client's reply was delivered by whoever claimed it.
        }
    }

    // ---- the context serving runs in ------------------------------------------------------

    /** The blocked client's context for serving: its request, a fresh reply buffer. */
    static final class ServeContext extends DelegatingContext {
        private final BlockedClient client;
        private final RespWriter writer = new RespWriter();
        /** Allocated on the first reply: a context that only asks {@code ready} holds no buffer. */
        private ByteBuf buffer;
        private final long now = System.currentTimeMillis();

        ServeContext(BlockedClient client) {
            super(client.connection);
            this.client = client;
        }

        ByteBuf takeReply() {
            reply();
            return buffer;
        }

        @Override
        public Arguments arguments() {
            return client.arguments;
        }

        @Override
        public RespWriter reply() {
            if (buffer == null) {
                buffer = client.connection.allocate();
                writer.target(buffer);
                writer.protocol(client.connection.protocol());
            }
            return writer;
        }

        @Override
        public Keyspace keyspace() {
            return client.connection.server().engine().keyspace(client.database);
        }

        @Override
        public void swapDatabases(int first, int second) {
            throw new UnsupportedOperationException("a blocked command does not swap databases");
        }

        @Override
        public long now() {
            return now;
        }

        /** A fresh one: serving runs on the thread that readied the key, which need not be the connection's. */
        @Override
        public ValueView valueView() {
            return new ValueView();
        }

        @Override
        public void block(long deadline, int[] keyArguments, int destinationArgument, BlockedCommand command) {
            throw new IllegalStateException("serving a blocked command must reply");
        }
    }

    /** A request's arguments copied out of the connection's buffer, for as long as the client waits. */
    static final class CopiedArguments implements Arguments {
        private final byte[] bytes;
        private final int[] offsets;

        CopiedArguments(Arguments request) {
            int count = request.count();
            offsets = new int[count + 1];
            int total = 0;
            for (int i = 0; i < count; i++) {
                offsets[i] = total;
                total += request.length(i);
            }
            offsets[count] = total;
            bytes = new byte[total];
            for (int i = 0; i < count; i++) {
                System.arraycopy(request.array(), request.offset(i), bytes, offsets[i], request.length(i));
            }
        }

        @Override
        public int count() {
            return offsets.length - 1;
        }

        @Override
        public byte[] array() {
            return bytes;
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
}
