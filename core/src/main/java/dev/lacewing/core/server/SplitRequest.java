package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.KeySplit;
import dev.lacewing.core.keyspace.ThreadChanges;
import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.FastThreadLocal;
import java.nio.charset.StandardCharsets;

/**
 * A request split into independent parts over groups of its keys ({@link Invocation.Split}): MGET,
 * MSET, DEL, UNLINK, EXISTS, TOUCH, and MSETNX in two rounds (its parts check, then set). A part runs the command's own handler over a request naming
 * only its keys (with their values, for MSET), replying into a buffer of its own; the join makes
 * the reply Redis's response policy describes ({@link KeySplit}), as a cluster client would, and
 * writes it into the connection's buffer.
 *
 * <p>Thread rule: created on the connection's thread, which then waits: parts run at once on the
 * threads holding their keys and share only the request bytes, which nobody writes meanwhile; the
 * join runs alone, on the thread that ran the last part, which owns the connection's buffers until
 * {@link Invocation#completed()}.
 */
final class SplitRequest implements Invocation.Split {

    private final ClientConnection connection;
    private final Command<CoreContext> command;
    private final Arguments request;
    private final int database;
    private final long now;
    /** The round the parts run in ({@link KeySplit#NONE_EXISTED}): 0 checks, 1 runs the command. */
    private int round;
    /** Handler time of the rounds before the last, in nanoseconds. */
    private long earlierNanos;

    private SplitRequest(ClientConnection connection, Command<CoreContext> command, Arguments request) {
        this.connection = connection;
        this.command = command;
        this.request = request;
        this.database = connection.database();
        this.now = connection.now();
    }

    /** The split of the connection's current request, or null when it runs whole. */
    static SplitRequest of(ClientConnection connection, Command<CoreContext> command, Arguments request) {
        CommandSpec spec = command.spec();
        if (command.keySplit() == KeySplit.NONE || (request.count() - spec.firstKey()) % spec.step() != 0) {
            return null;
        }
        // Parts run at once on several threads: a DEL's or MSET's events would come in any order,
        // not in key order as Redis publishes them. While notifications are on, it runs whole.
        if (connection.server().keyspaceEvents().publishing()) {
            return null;
        }
        return new SplitRequest(connection, command, request);
    }

    /** A part's reply when some of its keys were cold ({@link ClientConnection#coldPart}): it ran nothing. */
    private static final Object COLD = new Object();

    /**
     * The writer a part replies through, one per thread: a part writes only while it runs, on its
     * shard's thread, and its reply outlives the run in its buffer alone. A writer (and its scratch)
     * per part was about 8% of an MSET10's allocation on two shards. Netty's thread local, as the
     * other per-loop state: an array slot on the event loops, not a ThreadLocalMap probe per part.
     */
    private static final FastThreadLocal<RespWriter> PART_WRITER = new FastThreadLocal<>() {
        @Override
        protected RespWriter initialValue() {
            return new RespWriter();
        }
    };

    @Override
    public Object runPart(int[] keys) {
        if (connection.coldPart(keys)) {
            return COLD;
        }
        PartContext part = new PartContext(keys, PART_WRITER.get());
        long start = System.nanoTime();
        long changesBefore = ThreadChanges.count();
        try {
            if (command.keySplit() == KeySplit.NONE_EXISTED && round == 0) {
                part.writer.integer(part.existing());
            } else {
                command.execute(part);
                Watch.written(command.spec(), part, part, changesBefore);
            }
        } catch (RuntimeException e) {
            part.writer.error("ERR " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        part.nanos = System.nanoTime() - start;
        part.changed |= ThreadChanges.count() != changesBefore;
        return part;
    }

    /** MGET, EXISTS, TOUCH: one round that writes nothing, so each part's claims end when it ran. */
    @Override
    public boolean releasesEachPart() {
        return command.readOnly() && command.keySplit() != KeySplit.NONE_EXISTED;
    }

    /**
     * MSETNX goes on to its second round only when no part found one of its keys: the claims are
     * held meanwhile, so none can appear in between. Otherwise nothing is written or signalled.
     */
    @Override
    public boolean another(Object[] replies) {
        if (command.keySplit() != KeySplit.NONE_EXISTED || round > 0 || failed(replies) != null
            || sum(replies) != 0) {
            return false;
        }
        for (Object reply : replies) {
            PartContext part = (PartContext) reply;
            earlierNanos += part.nanos;
            part.buffer.release();
        }
        round++;
        return true;
    }

    /** Every part ran, or found its keys cold: then nothing is written, and the request runs again once they landed. */
    @Override
    public void join(int[][] keys, Object[] replies) {
        for (Object reply : replies) {
            if (reply == COLD) {
                for (Object other : replies) {
                    if (other != COLD) {
                        ((PartContext) other).abandon();
                    }
                }
                connection.splitCold();
                return;
            }
        }
        RespWriter writer = connection.writer();
        long errorsBefore = writer.errorCount();
        long nanos = earlierNanos;
        boolean changed = false;
        for (Object reply : replies) {
            nanos += ((PartContext) reply).nanos;
            changed |= ((PartContext) reply).changed;
        }
        PartContext failed = failed(replies);
        if (failed != null) {
            ByteBuf error = failed.buffer;
            writer.error(line(error, 1));
        } else {
            switch (command.keySplit()) {
                case SUM -> writer.integer(sum(replies));
                case ALL_SUCCEEDED -> {
                    ByteBuf first = ((PartContext) replies[0]).buffer;
                    writer.raw(first, first.readerIndex(), first.readableBytes());
                }
                case VALUES -> values(writer, keys, replies);
                case NONE_EXISTED -> writer.integer(round > 0 ? 1 : 0);
                default -> throw new IllegalStateException("not a split command: " + command.spec().name());
            }
        }
        for (Object reply : replies) {
            ((PartContext) reply).buffer.release();
        }
        connection.splitRan(nanos / 1000, writer.errorCount() != errorsBefore, changed);
    }

    /** The first part that replied an error, or null. */
    private static PartContext failed(Object[] replies) {
        for (Object reply : replies) {
            PartContext part = (PartContext) reply;
            if (part.buffer.getByte(0) == '-') {
                return part;
            }
        }
        return null;
    }

    private static long sum(Object[] replies) {
        long total = 0;
        for (Object reply : replies) {
            ByteBuf buffer = ((PartContext) reply).buffer;
            total += Long.parseLong(new String(line(buffer, 1), StandardCharsets.US_ASCII));
        }
        return total;
    }

    /** Each key's element, taken from its part's array reply, in the request's key order. */
    private void values(RespWriter writer, int[][] keys, Object[] replies) {
        int keyCount = 0;
        for (int[] part : keys) {
            keyCount += part.length;
        }
        int[] starts = new int[keyCount];
        int[] ends = new int[keyCount];
        ByteBuf[] sources = new ByteBuf[keyCount];
        for (int p = 0; p < keys.length; p++) {
            ByteBuf buffer = ((PartContext) replies[p]).buffer;
            int index = lineEnd(buffer, buffer.readerIndex());
            for (int key : keys[p]) {
                sources[key] = buffer;
                starts[key] = index;
                index = elementEnd(buffer, index);
                ends[key] = index;
            }
        }
        writer.array(keyCount);
        for (int key = 0; key < keyCount; key++) {
            writer.raw(sources[key], starts[key], ends[key] - starts[key]);
        }
    }

    /** The bytes of the line at the reader index, from {@code skip} bytes in, without its CRLF. */
    private static byte[] line(ByteBuf buffer, int skip) {
        int start = buffer.readerIndex() + skip;
        byte[] bytes = new byte[lineEnd(buffer, start) - 2 - start];
        buffer.getBytes(start, bytes);
        return bytes;
    }

    /** The index just past the CRLF ending the line at {@code index}. */
    private static int lineEnd(ByteBuf buffer, int index) {
        return buffer.indexOf(index, buffer.writerIndex(), (byte) '\n') + 1;
    }

    /** The index just past the one RESP element (with whatever it nests) at {@code index}. */
    private static int elementEnd(ByteBuf buffer, int index) {
        byte type = buffer.getByte(index);
        int next = lineEnd(buffer, index);
        if (type != '$' && type != '=' && type != '!' && type != '*' && type != '~' && type != '>' && type != '%'
            && type != '|') {
            return next;
        }
        long length = Long.parseLong(buffer.toString(index + 1, next - 2 - index - 1, StandardCharsets.US_ASCII));
        if (length < 0) {
            return next;
        }
        if (type == '$' || type == '=' || type == '!') {
            return next + (int) length + 2;
        }
        long elements = type == '%' || type == '|' ? length * 2 : length;
        for (long i = 0; i < elements; i++) {
            next = elementEnd(buffer, next);
        }
        return type == '|' ? elementEnd(buffer, next) : next;
    }

    /**
     * What one part's run of the handler sees: a request of its keys only, its own reply buffer
     * and value view, the connection's database and clock.
     */
    private final class PartContext extends DelegatingContext implements Arguments {
        private final int[] arguments;
        private final ByteBuf buffer = Unpooled.buffer(64);
        /** This thread's part writer, aimed at {@link #buffer} while the part runs. */
        private final RespWriter writer;
        /** Made on first use: a split that only writes (MSET, DEL) needs neither. */
        private ValueView valueView;
        private ReadLookups reads;
        private long nanos;
        /** Whether the part changed anything on its thread ({@link ThreadChanges}). */
        private boolean changed;

        PartContext(int[] keys, RespWriter writer) {
            super(connection);
            this.writer = writer;
            int step = command.spec().step();
            arguments = new int[1 + keys.length * step];
            int next = 1;
            for (int key : keys) {
                int first = command.spec().keyArgument(request, key);
                for (int i = 0; i < step; i++) {
                    arguments[next++] = first + i;
                }
            }
            writer.target(buffer);
            writer.protocol(connection.protocol());
        }

        /** The request runs again (another part's keys were cold): drop the reply and the counts. */
        void abandon() {
            buffer.release();
            if (reads != null) {
                reads.uncount();
            }
        }

        /**
         * How many of this part's keys exist, looked up as a write looks (MSETNX's lookupKeyWrite:
         * no hit or miss counted, an expired key removed).
         */
        int existing() {
            Keyspace keyspace = keyspace();
            int step = command.spec().step();
            int found = 0;
            for (int i = 1; i < arguments.length; i += step) {
                if (keyspace.get(array(), offset(i), length(i)) != null) {
                    found++;
                }
            }
            return found;
        }

        @Override
        public int count() {
            return arguments.length;
        }

        @Override
        public byte[] array() {
            return request.array();
        }

        @Override
        public int offset(int index) {
            return request.offset(arguments[index]);
        }

        @Override
        public int length(int index) {
            return request.length(arguments[index]);
        }

        @Override
        public Arguments arguments() {
            return this;
        }

        @Override
        public RespWriter reply() {
            return writer;
        }

        /** Each part runs on its own shard's thread, so each counts its reads in a view of its own. */
        @Override
        public Keyspace keyspace() {
            Keyspace keyspace = connection.server().engine().keyspace(database);
            if (!command.readOnly()) {
                return keyspace;
            }
            if (reads == null) {
                reads = connection.server().readLookups();
            }
            return reads.of(keyspace);
        }

        @Override
        public void swapDatabases(int first, int second) {
            throw new UnsupportedOperationException("a split command does not swap databases");
        }

        @Override
        public long now() {
            return now;
        }

        @Override
        public ValueView valueView() {
            if (valueView == null) {
                valueView = new ValueView();
            }
            return valueView;
        }
    }
}
