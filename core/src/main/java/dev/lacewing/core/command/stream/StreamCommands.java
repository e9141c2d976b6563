package dev.lacewing.core.command.stream;

import static dev.lacewing.api.CommandFlag.DENYOOM;
import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.WRITE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.BlockedCommand;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandHandler;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.command.server.ConnectionCommands;
import dev.lacewing.core.command.server.Subcommands;
import dev.lacewing.core.datatype.StreamId;
import dev.lacewing.core.datatype.StreamValue;
import dev.lacewing.core.datatype.StreamValue.Entry;
import dev.lacewing.core.persistence.aof.AofLoader;
import dev.lacewing.core.persistence.aof.AofPropagation;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The stream family (Redis's t_stream.c) over {@link StreamValue}, consumer groups aside
 * ({@link StreamGroupCommands}): XADD, XLEN, XRANGE, XREVRANGE, XDEL, XTRIM, XREAD (BLOCK waits as
 * BLPOP does, served in the order clients blocked), XSETID and XINFO. A key holding another type
 * gets WRONGTYPE. A stream stays a key when its last entry goes, as in Redis. Node bounds are read
 * from the settings at each XADD. DUMP refuses streams: they have no RDB encoding yet.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its keys.
 */
public final class StreamCommands {

    static final String NODE_MAX_BYTES = "stream-node-max-bytes";
    static final String NODE_MAX_ENTRIES = "stream-node-max-entries";

    static final String INVALID_ID = "ERR Invalid stream ID specified as stream command argument";
    static final String ID_ZERO = "ERR The ID specified in XADD must be greater than 0-0";
    static final String ID_TOO_SMALL = "ERR The ID specified in XADD is equal or smaller than the target stream top item";
    static final String EXHAUSTED = "ERR The stream has exhausted the last possible ID, unable to add more items";
    static final String MAXLEN_NEGATIVE = "ERR The MAXLEN argument must be >= 0.";
    static final String LIMIT_NEGATIVE = "ERR The LIMIT argument must be >= 0.";
    static final String MAXLEN_AND_MINID = "ERR syntax error, MAXLEN and MINID options at the same time are not compatible";
    static final String LIMIT_WITHOUT_STRATEGY = "ERR syntax error, LIMIT cannot be used without specifying a trimming strategy";
    static final String XTRIM_WITHOUT_STRATEGY = "ERR syntax error, XTRIM must be called with a trimming strategy";
    static final String LIMIT_WITHOUT_APPROX = "ERR syntax error, LIMIT cannot be used without the special ~ option";
    static final String INVALID_START = "ERR invalid start ID for the interval";
    static final String INVALID_END = "ERR invalid end ID for the interval";
    static final String GT_ONLY_XREADGROUP = "ERR The > ID can be specified only when calling XREADGROUP using the "
        + "GROUP <group> <consumer> option.";
    static final String SETID_BELOW_TOP = "ERR The ID specified in XSETID is smaller than the target stream top item";
    static final String SETID_BELOW_GIVEN_MAX_DELETED = "ERR The ID specified in XSETID is smaller than the provided "
        + "max_deleted_entry_id";
    static final String SETID_ENTRIES_BELOW_LENGTH = "ERR The entries_added specified in XSETID is smaller than the "
        + "target stream length";
    static final String ENTRIES_ADDED_NEGATIVE = "ERR entries_added must be positive";

    /** XINFO STREAM FULL's default COUNT. */
    private static final long FULL_DEFAULT_COUNT = 10;

    private StreamCommands() {
    }

    private static final Subcommands<CommandContext> XINFO = new Subcommands<CommandContext>("xinfo", "stream")
        .add("consumers", 4, 2, 2, 1, KeyScope.KEYS, "List the consumers in a consumer group",
            ctx -> xinfoOf(ctx, StreamGroupCommands::xinfoConsumers), READONLY)
        .add("groups", 3, 2, 2, 1, KeyScope.KEYS, "List the consumer groups of a stream",
            ctx -> xinfoOf(ctx, StreamGroupCommands::xinfoGroups), READONLY)
        .add("stream", -3, 2, 2, 1, KeyScope.KEYS, "Get information about a stream",
            ctx -> xinfoOf(ctx, StreamCommands::xinfoStream), READONLY)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "XINFO",
            "CONSUMERS <key> <groupname>",
            "    Show consumers of <groupname>.",
            "GROUPS <key>",
            "    Show the stream consumer groups.",
            "STREAM <key> [FULL [COUNT <count>]",
            "    Show information about the stream."));

    /** Every XINFO subcommand but HELP first needs the stream at argument 2 (xinfoCommand). */
    private static void xinfoOf(CommandContext ctx, BiConsumer<CommandContext, StreamValue> body) {
        StreamValue value = lookup(ctx, 2);
        if (value == null) {
            KeyspaceEvents.missed(ctx, ctx.arguments(), 2);
            ctx.reply().error(Errors.NO_SUCH_KEY);
            return;
        }
        body.accept(ctx, value);
    }

    public static void register(CommandRegistry registry) {
        register(registry, "xadd", -5, "Appends a new entry to a stream", StreamCommands::xadd, WRITE, DENYOOM, FAST);
        register(registry, "xlen", 2, "Return the number of entries in a stream", StreamCommands::xlen, READONLY, FAST);
        register(registry, "xrange", -4, "Return a range of elements in a stream, with IDs matching the specified IDs "
            + "interval", StreamCommands::xrange, READONLY);
        register(registry, "xrevrange", -4, "Return a range of elements in a stream, with IDs matching the specified "
            + "IDs interval, in reverse order (from greater to smaller IDs) compared to XRANGE",
            StreamCommands::xrevrange, READONLY);
        register(registry, "xdel", -3, "Removes the specified entries from the stream. Returns the number of items "
            + "actually deleted, that may be different from the number of IDs passed in case certain IDs do not exist.",
            StreamCommands::xdel, WRITE, FAST);
        register(registry, "xtrim", -4, "Trims the stream to (approximately if '~' is passed) a certain size",
            StreamCommands::xtrim, WRITE);
        register(registry, "xsetid", -3, "An internal command for replicating stream values", StreamCommands::xsetid,
            WRITE, DENYOOM, FAST);
        registry.register(CommandSpec.keysAfter("STREAMS", "xread", -4, Set.of(READONLY, CommandFlag.BLOCKING),
            "stream", "Return never seen elements in multiple streams, with IDs greater than the ones reported by the "
                + "caller for each stream. Can block."), StreamCommands::xread);
        StreamGroupCommands.register(registry);
        registry.register(XINFO.container(new CommandSpec("xinfo", -2, Set.of(), 2, 2, 1, KeyScope.KEYS, "stream",
            "A container for stream introspection commands")), XINFO::dispatch);
    }

    private static void register(CommandRegistry registry, String name, int arity, String summary,
                                 CommandHandler handler, CommandFlag... flags) {
        registry.register(new CommandSpec(name, arity, Set.of(flags), 1, 1, 1, KeyScope.KEYS, "stream", summary),
            handler);
    }

    /** The stream at argument {@code index}, or null; WRONGTYPE ends the command for another type. */
    static StreamValue lookup(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        return ctx.keyspace().aggregate(args.array(), args.offset(index), args.length(index), StreamValue.TYPE);
    }

    /** A keyspace event of class {@code t} on the key at argument {@code keyIndex}. */
    static void notify(CommandContext ctx, String event, int keyIndex) {
        KeyspaceEvents.notify(ctx, KeyspaceEvents.STREAM, event, ctx.arguments(), keyIndex);
    }

    /**
     * The stream at argument 1 had {@code changes} entries, PEL entries or consumers changed: the
     * dirty counter counts each.
     */
    static void modified(CommandContext ctx, long changes) {
        Arguments args = ctx.arguments();
        ctx.keyspace().modified(args.array(), args.offset(1), args.length(1), changes);
    }

    /**
     * As {@link #modified}, where Redis 7.0 leaves the stream's watchers alone (groups, XSETID).
     */
    static void modifiedUnwatched(CommandContext ctx, long changes) {
        Arguments args = ctx.arguments();
        ctx.keyspace().modifiedUnwatched(args.array(), args.offset(1), args.length(1), changes);
    }

    // ---- IDs -------------------------------------------------------------------------------

    /** Thrown by the ID parsers; the command replies {@link #INVALID_ID}. */
    static final class InvalidId extends RuntimeException {
        InvalidId() {
            super(null, null, false, false);
        }
    }

    static final InvalidId INVALID = new InvalidId();

    /**
     * streamGenericParseIDOrReply: {@code ms-seq}, or {@code ms} with {@code missingSeq}; {@code -}
     * and {@code +} unless {@code strict}. With {@code partial} non-null, {@code ms-*} is accepted and
     * {@code partial[0]} says so.
     */
    static StreamId parseId(Arguments args, int index, long missingSeq, boolean strict, boolean[] partial) {
        byte[] array = args.array();
        int offset = args.offset(index);
        int length = args.length(index);
        if (length > 127) {
            throw INVALID;
        }
        if (length == 1 && (array[offset] == '-' || array[offset] == '+')) {
            if (strict) {
                throw INVALID;
            }
            return array[offset] == '-' ? StreamId.MIN : StreamId.MAX;
        }
        int dash = -1;
        for (int i = offset; i < offset + length; i++) {
            if (array[i] == '-') {
                dash = i;
                break;
            }
        }
        if (dash < 0) {
            return new StreamId(parseUnsigned(array, offset, length), missingSeq);
        }
        long ms = parseUnsigned(array, offset, dash - offset);
        int seqLength = offset + length - dash - 1;
        if (partial != null && seqLength == 1 && array[dash + 1] == '*') {
            partial[0] = true;
            return new StreamId(ms, 0);
        }
        return new StreamId(ms, parseUnsigned(array, dash + 1, seqLength));
    }

    /** Redis's string2ull: an unsigned 64-bit decimal, as strtoull reads it whole (leading spaces and '+'). */
    private static long parseUnsigned(byte[] array, int offset, int length) {
        int i = offset;
        int end = offset + length;
        while (i < end && (array[i] == ' ' || array[i] >= '\t' && array[i] <= '\r')) {
            i++;
        }
        if (i < end && array[i] == '+') {
            i++;
        }
        if (i == end) {
            throw INVALID;
        }
        long value = 0;
        for (; i < end; i++) {
            int digit = array[i] - '0';
            if (digit < 0 || digit > 9) {
                throw INVALID;
            }
            if (Long.compareUnsigned(value, Long.divideUnsigned(-1L, 10)) > 0) {
                throw INVALID;
            }
            long next = value * 10 + digit;
            if (Long.compareUnsigned(next, value * 10) < 0) {
                throw INVALID;
            }
            value = next;
        }
        return value;
    }

    static void writeId(ReplyWriter reply, StreamId id) {
        writeId(reply, id.ms(), id.seq());
    }

    /** The longest ID text: two 20-digit unsigned numbers and the dash. */
    private static final int ID_TEXT_MAX = 41;

    /**
     * A thread's scratch arrays for the hot paths (XADD, the replies of reads), so that adding or
     * reading an entry leaves no garbage: the handlers are stateless and run on many threads, and
     * each use ends before the handler returns (a ReplyWriter copies what it is given).
     */
    private static final class Scratch {
        final byte[] idText = new byte[ID_TEXT_MAX];
        int[] offsets = new int[4];
        int[] lengths = new int[4];

        /** {@link #offsets} and {@link #lengths} with room for {@code count}. */
        Scratch fit(int count) {
            if (offsets.length < count) {
                offsets = new int[count];
                lengths = new int[count];
            }
            return this;
        }
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /** {@code ms-seq} in unsigned decimal, formatted in place: XADD and every read reply write IDs. */
    private static void writeId(ReplyWriter reply, long ms, long seq) {
        byte[] text = SCRATCH.get().idText;
        int start = unsignedDigits(text, ID_TEXT_MAX, seq);
        text[--start] = '-';
        start = unsignedDigits(text, start, ms);
        reply.bulk(text, start, ID_TEXT_MAX - start);
    }

    /** Writes {@code value}'s unsigned decimal digits to end before {@code end}; returns where they start. */
    static int unsignedDigits(byte[] into, int end, long value) {
        if (value < 0) {
            // Above Long.MAX_VALUE: one unsigned division by 10 brings it into range.
            long quotient = (value >>> 1) / 5;
            into[--end] = (byte) ('0' + (value - quotient * 10));
            value = quotient;
        }
        do {
            into[--end] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value != 0);
        return end;
    }

    /** Entries as streamReplyWithRange writes them: [id, [field, value, ...]] each. */
    static void writeEntries(ReplyWriter reply, StreamValue stream, List<Entry> entries) {
        reply.array(entries.size());
        for (Entry entry : entries) {
            writeEntry(reply, stream, entry);
        }
    }

    static void writeEntry(ReplyWriter reply, StreamValue stream, Entry entry) {
        reply.array(2);
        writeId(reply, entry.ms(), entry.seq());
        reply.array(stream.fieldCount(entry) * 2);
        stream.fields(entry, reply::bulk);
    }

    // ---- XADD and XTRIM --------------------------------------------------------------------

    /** XADD's and XTRIM's options (streamAddTrimArgs); {@code next} is XADD's ID argument. */
    private static final class TrimOptions {
        boolean trim;
        long maxLength;
        StreamId minId;
        boolean approx;
        /** The threshold's argument; the {@code ~} is the one before it when {@link #approx}. */
        int thresholdAt;
        long limit;
        boolean noMakeStream;
        int next;
        StreamId id;
        boolean partialId;
    }

    /** {@code XADD key * field value ...}'s options: shared, never written after this. */
    private static final TrimOptions AUTO_ID_ONLY = new TrimOptions();

    static {
        AUTO_ID_ONLY.next = 2;
    }

    /** streamParseAddOrTrimArgsOrReply; null after an error reply. */
    private static TrimOptions parseTrimOptions(CommandContext ctx, boolean xadd) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        if (xadd && args.length(2) == 1 && args.array()[args.offset(2)] == '*') {
            // The common XADD, read as the loop below reads it, without allocating.
            return AUTO_ID_ONLY;
        }
        TrimOptions options = new TrimOptions();
        boolean limitGiven = false;
        int i = 2;
        try {
            for (; i < args.count(); i++) {
                boolean more = i + 1 < args.count();
                if (xadd && args.length(i) == 1 && args.array()[args.offset(i)] == '*') {
                    break;
                } else if ((args.is(i, "MAXLEN") || args.is(i, "MINID")) && more) {
                    if (options.trim) {
                        reply.error(MAXLEN_AND_MINID);
                        return null;
                    }
                    boolean byLength = args.is(i, "MAXLEN");
                    options.approx = false;
                    if (i + 2 < args.count() && (args.length(i + 1) == 1 && args.array()[args.offset(i + 1)] == '~')) {
                        options.approx = true;
                        i++;
                    } else if (i + 2 < args.count() && args.length(i + 1) == 1
                        && args.array()[args.offset(i + 1)] == '=') {
                        i++;
                    }
                    options.thresholdAt = i + 1;
                    if (byLength) {
                        options.maxLength = Numbers.parseLong(args.array(), args.offset(i + 1), args.length(i + 1));
                        if (options.maxLength < 0) {
                            reply.error(MAXLEN_NEGATIVE);
                            return null;
                        }
                    } else {
                        options.minId = parseId(args, i + 1, 0, true, null);
                    }
                    i++;
                    options.trim = true;
                } else if (args.is(i, "LIMIT") && more) {
                    options.limit = Numbers.parseLong(args.array(), args.offset(i + 1), args.length(i + 1));
                    if (options.limit < 0) {
                        reply.error(LIMIT_NEGATIVE);
                        return null;
                    }
                    limitGiven = true;
                    i++;
                } else if (xadd && args.is(i, "NOMKSTREAM")) {
                    options.noMakeStream = true;
                } else if (xadd) {
                    boolean[] partial = new boolean[1];
                    options.id = parseId(args, i, 0, true, partial);
                    options.partialId = partial[0];
                    break;
                } else {
                    reply.error(Errors.SYNTAX);
                    return null;
                }
            }
        } catch (InvalidNumber e) {
            reply.error(Errors.NOT_INTEGER);
            return null;
        } catch (InvalidId e) {
            reply.error(INVALID_ID);
            return null;
        }
        if (options.limit != 0 && !options.trim) {
            reply.error(LIMIT_WITHOUT_STRATEGY);
            return null;
        }
        if (!xadd && !options.trim) {
            reply.error(XTRIM_WITHOUT_STRATEGY);
            return null;
        }
        if (ctx.client().id() == AofLoader.REPLAY_CLIENT_ID) {
            // mustObeyClient: the file's trim (written exact, LIMIT kept) is replayed without a limit.
            options.limit = 0;
        } else if (limitGiven) {
            if (!options.approx) {
                reply.error(LIMIT_WITHOUT_APPROX);
                return null;
            }
        } else if (options.approx) {
            long limit = 100 * nodeMaxEntries(ctx);
            options.limit = limit <= 0 ? 10_000 : Math.min(limit, 1_000_000);
        } else {
            options.limit = 0;
        }
        options.next = i;
        return options;
    }

    private static long nodeMaxEntries(CommandContext ctx) {
        return ctx.server().settings().getLong(NODE_MAX_ENTRIES, 100);
    }

    private static long trim(StreamValue stream, TrimOptions options) {
        return stream.trim(options.maxLength, options.minId, options.approx, options.limit);
    }

    private static byte[][] argv(Arguments args) {
        byte[][] argv = new byte[args.count()][];
        for (int i = 0; i < argv.length; i++) {
            argv[i] = args.copy(i);
        }
        return argv;
    }

    /**
     * streamRewriteApproxSpecifier and streamRewriteTrimArgument: {@code ~} becomes {@code =} and
     * the threshold what the trim left (MAXLEN: the length; MINID: the first ID), so that a replay
     * trims exactly as this run did.
     */
    private static void exactTrim(byte[][] argv, StreamValue stream, TrimOptions options) {
        argv[options.thresholdAt - 1] = new byte[] {'='};
        Object threshold = options.minId == null ? stream.length() : stream.firstIdWithDeleted();
        argv[options.thresholdAt] = threshold.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value [field value ...] */
    private static void xadd(CommandContext ctx) {
        TrimOptions options = parseTrimOptions(ctx, true);
        if (options == null) {
            return;
        }
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        int fields = options.next + 1;
        if (args.count() - fields < 2 || (args.count() - fields) % 2 == 1) {
            reply.error(Errors.wrongArity("xadd"));
            return;
        }
        if (options.id != null && !options.partialId && options.id.isZero()) {
            reply.error(ID_ZERO);
            return;
        }
        StreamValue value = lookup(ctx, 1);
        if (value == null && options.noMakeStream) {
            reply.nullBulk();
            return;
        }
        StreamValue stream = value == null ? new StreamValue() : value;
        StreamId last = stream.lastId();
        if (last.ms() == -1L && last.seq() == -1L) {
            reply.error(EXHAUSTED);
            return;
        }
        // The new ID in two longs (streamIncrID), not a StreamId: an object per entry would be most
        // of an XADD's garbage.
        long ms;
        long seq;
        if (options.id == null) {
            long now = ctx.now();
            if (Long.compareUnsigned(now, last.ms()) > 0) {
                ms = now;
                seq = 0;
            } else if (last.seq() != -1L) {
                ms = last.ms();
                seq = last.seq() + 1;
            } else {
                ms = last.ms() + 1;
                seq = 0;
            }
        } else if (options.partialId && options.id.ms() == last.ms()) {
            if (last.seq() == -1L) {
                reply.error(ID_TOO_SMALL);
                return;
            }
            ms = last.ms();
            seq = last.seq() + 1;
        } else {
            ms = options.id.ms();
            seq = options.id.seq();
        }
        if (StreamId.compare(ms, seq, last.ms(), last.seq()) <= 0) {
            reply.error(ID_TOO_SMALL);
            return;
        }
        int count = args.count() - fields;
        Scratch scratch = SCRATCH.get().fit(count);
        int[] offsets = scratch.offsets;
        int[] lengths = scratch.lengths;
        for (int i = 0; i < count; i++) {
            offsets[i] = args.offset(fields + i);
            lengths[i] = args.length(fields + i);
        }
        stream.add(ms, seq, args.array(), offsets, lengths, 0, count,
            ctx.server().settings().getLong(NODE_MAX_BYTES, 4096), nodeMaxEntries(ctx));
        long trimmed = options.trim ? trim(stream, options) : 0;
        if ((options.id == null || options.partialId || options.approx) && AofPropagation.propagating()) {
            // xaddCommand's rewriteClientCommandArgument: the ID it got, and an approximate trim as exact.
            byte[][] argv = argv(args);
            argv[options.next] = new StreamId(ms, seq).toString().getBytes(StandardCharsets.US_ASCII);
            if (options.approx) {
                exactTrim(argv, stream, options);
            }
            AofPropagation.instead(ctx.client().database(), argv);
        }
        if (value == null) {
            ctx.keyspace().put(args.array(), args.offset(1), args.length(1), stream, Keyspace.NO_EXPIRY);
        } else {
            modified(ctx, 1);
        }
        notify(ctx, "xadd", 1);
        if (trimmed > 0) {
            notify(ctx, "xtrim", 1);
        }
        writeId(reply, ms, seq);
    }

    /** XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count] */
    private static void xtrim(CommandContext ctx) {
        // As xtrimCommand: the arguments are parsed before the key's type is checked.
        TrimOptions options = parseTrimOptions(ctx, false);
        if (options == null) {
            return;
        }
        StreamValue value = lookup(ctx, 1);
        if (value == null) {
            ctx.reply().integer(0);
            return;
        }
        long removed = trim(value, options);
        if (removed > 0) {
            if (options.approx && AofPropagation.propagating()) {
                byte[][] argv = argv(ctx.arguments());
                exactTrim(argv, value, options);
                AofPropagation.instead(ctx.client().database(), argv);
            }
            modified(ctx, removed);
            notify(ctx, "xtrim", 1);
        }
        ctx.reply().integer(removed);
    }

    // ---- reads -----------------------------------------------------------------------------

    private static void xlen(CommandContext ctx) {
        StreamValue value = lookup(ctx, 1);
        ctx.reply().integer(value == null ? 0 : value.length());
    }

    private static void xrange(CommandContext ctx) {
        rangeGeneric(ctx, false);
    }

    private static void xrevrange(CommandContext ctx) {
        rangeGeneric(ctx, true);
    }

    /** XRANGE key start end [COUNT n] and XREVRANGE key end start [COUNT n] (xrangeGenericCommand). */
    private static void rangeGeneric(CommandContext ctx, boolean reverse) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        StreamId start;
        StreamId end;
        long count = -1;
        try {
            int startIndex = reverse ? 3 : 2;
            int endIndex = reverse ? 2 : 3;
            start = parseIntervalId(args, startIndex, 0);
            if (exclusive(args, startIndex)) {
                start = start.next();
                if (start == null) {
                    reply.error(INVALID_START);
                    return;
                }
            }
            end = parseIntervalId(args, endIndex, -1L);
            if (exclusive(args, endIndex)) {
                end = end.previous();
                if (end == null) {
                    reply.error(INVALID_END);
                    return;
                }
            }
            for (int i = 4; i < args.count(); i++) {
                if (args.is(i, "COUNT") && i + 1 < args.count()) {
                    count = Math.max(0, Numbers.parseLong(args.array(), args.offset(i + 1), args.length(i + 1)));
                    i++;
                } else {
                    reply.error(Errors.SYNTAX);
                    return;
                }
            }
        } catch (InvalidId e) {
            reply.error(INVALID_ID);
            return;
        } catch (InvalidNumber e) {
            reply.error(Errors.NOT_INTEGER);
            return;
        }
        StreamValue stream = lookup(ctx, 1);
        if (stream == null) {
            reply.array(0);
            return;
        }
        if (count == 0) {
            reply.nullArray();
            return;
        }
        List<Entry> entries = reverse ? stream.range(start, end, Math.max(count, 0), true)
            : stream.range(start, end, Math.max(count, 0), false);
        writeEntries(reply, stream, entries);
    }

    static boolean exclusive(Arguments args, int index) {
        return args.length(index) > 1 && args.array()[args.offset(index)] == '(';
    }

    /** streamParseIntervalIDOrReply: {@code (id} exclusive (strict), else any ID with - and +. */
    static StreamId parseIntervalId(Arguments args, int index, long missingSeq) {
        if (!exclusive(args, index)) {
            return parseId(args, index, missingSeq, false, null);
        }
        return parseId(new Shifted(args, index), index, missingSeq, true, null);
    }

    /** An argument list whose argument {@code index} lacks its first byte (the '(' of an exclusive ID). */
    private record Shifted(Arguments args, int shifted) implements Arguments {
        @Override
        public int count() {
            return args.count();
        }

        @Override
        public byte[] array() {
            return args.array();
        }

        @Override
        public int offset(int index) {
            return args.offset(index) + (index == shifted ? 1 : 0);
        }

        @Override
        public int length(int index) {
            return args.length(index) - (index == shifted ? 1 : 0);
        }
    }

    /** XREAD [COUNT count] [BLOCK milliseconds] STREAMS key [key ...] id [id ...] */
    private static void xread(CommandContext ctx) {
        StreamReadOptions options = StreamReadOptions.parse(ctx, false);
        if (options == null) {
            return;
        }
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        long count = options.count();
        long deadline = options.deadline();
        int streamsAt = options.streamsAt();
        int streams = options.streams();
        StreamId[] after = new StreamId[streams];
        StreamValue[] values = new StreamValue[streams];
        for (int i = 0; i < streams; i++) {
            StreamValue value = lookup(ctx, streamsAt + i);
            values[i] = value;
            int idIndex = streamsAt + streams + i;
            if (args.length(idIndex) == 1 && args.array()[args.offset(idIndex)] == '$') {
                after[i] = values[i] == null ? StreamId.MIN : values[i].lastId();
                continue;
            }
            if (args.length(idIndex) == 1 && args.array()[args.offset(idIndex)] == '>') {
                reply.error(GT_ONLY_XREADGROUP);
                return;
            }
            try {
                after[i] = parseId(args, idIndex, 0, true, null);
            } catch (InvalidId e) {
                reply.error(INVALID_ID);
                return;
            }
        }
        int served = 0;
        @SuppressWarnings("unchecked")
        List<Entry>[] found = new List[streams];
        for (int i = 0; i < streams; i++) {
            // Looked up again, as xreadCommand serves each stream: hits, misses and keymiss count twice.
            int key = streamsAt + i;
            ctx.keyspace().get(args.array(), args.offset(key), args.length(key));
            found[i] = newEntries(values[i], after[i], count);
            served += found[i] == null ? 0 : 1;
        }
        if (served > 0) {
            writeRead(ctx, streamsAt, values, found, served);
            return;
        }
        if (deadline < 0) {
            reply.nullArray();
            return;
        }
        int[] keys = new int[streams];
        for (int i = 0; i < streams; i++) {
            keys[i] = streamsAt + i;
        }
        ctx.block(deadline, keys, -1, new ReadWaiter(streamsAt, after, count));
    }

    /** The entries after {@code after}, at most {@code count} (0: all); null when there are none. */
    private static List<Entry> newEntries(StreamValue stream, StreamId after, long count) {
        if (stream == null || stream.length() == 0 || stream.edge(false).id().compareTo(after) <= 0) {
            return null;
        }
        return stream.range(after.next(), StreamId.MAX, count, false);
    }

    /** XREAD's reply: [[key, entries]...] in RESP2, {key: entries...} in RESP3, for the streams served. */
    private static void writeRead(CommandContext ctx, int streamsAt, StreamValue[] values, List<Entry>[] found,
                                  int served) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        boolean resp2 = ctx.client().protocol() == 2;
        if (resp2) {
            reply.array(served);
        } else {
            reply.map(served);
        }
        for (int i = 0; i < found.length; i++) {
            if (found[i] == null) {
                continue;
            }
            if (resp2) {
                reply.array(2);
            }
            reply.bulk(args.array(), args.offset(streamsAt + i), args.length(streamsAt + i));
            writeEntries(reply, values[i], found[i]);
        }
    }

    /**
     * A blocked XREAD: served from the first of its streams that gains an entry above the ID it
     * asked after ({@code $} resolved when it blocked), with that stream alone, as Redis serves it.
     */
    private record ReadWaiter(int streamsAt, StreamId[] after, long count) implements BlockedCommand {

        @Override
        public boolean ready(CommandContext context, int keyArgument) {
            return newEntries(stream(context, keyArgument), after[keyArgument - streamsAt], count) != null;
        }

        @Override
        public void serve(CommandContext context, int keyArgument) {
            int i = keyArgument - streamsAt;
            StreamValue[] values = new StreamValue[after.length];
            values[i] = stream(context, keyArgument);
            @SuppressWarnings("unchecked")
            List<Entry>[] found = new List[after.length];
            found[i] = newEntries(values[i], after[i], count);
            writeRead(context, streamsAt, values, found, 1);
        }

        private static StreamValue stream(CommandContext context, int keyArgument) {
            Arguments args = context.arguments();
            Object value = context.keyspace().get(args.array(), args.offset(keyArgument), args.length(keyArgument));
            return value instanceof StreamValue stream ? stream : null;
        }
    }

    // ---- XDEL, XSETID ----------------------------------------------------------------------

    /** XDEL key id [id ...]: the IDs are all checked before any goes. */
    private static void xdel(CommandContext ctx) {
        StreamValue stream = lookup(ctx, 1);
        if (stream == null) {
            ctx.reply().integer(0);
            return;
        }
        Arguments args = ctx.arguments();
        StreamId[] ids = new StreamId[args.count() - 2];
        try {
            for (int i = 2; i < args.count(); i++) {
                ids[i - 2] = parseId(args, i, 0, true, null);
            }
        } catch (InvalidId e) {
            ctx.reply().error(INVALID_ID);
            return;
        }
        int deleted = 0;
        boolean firstDeleted = false;
        for (StreamId id : ids) {
            if (stream.delete(id)) {
                firstDeleted |= id.equals(stream.firstId());
                deleted++;
            }
        }
        if (deleted > 0) {
            if (stream.length() == 0 || firstDeleted) {
                stream.settleFirstId();
            }
            modified(ctx, deleted);
            notify(ctx, "xdel", 1);
        }
        ctx.reply().integer(deleted);
    }

    /** XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id] */
    private static void xsetid(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        StreamId id;
        StreamId maxDeleted = null;
        long entriesAdded = -1;
        try {
            id = parseId(args, 2, 0, true, null);
            for (int i = 3; i < args.count(); i += 2) {
                boolean more = i + 1 < args.count();
                if (args.is(i, "ENTRIESADDED") && more) {
                    entriesAdded = Numbers.parseLong(args.array(), args.offset(i + 1), args.length(i + 1));
                    if (entriesAdded < 0) {
                        reply.error(ENTRIES_ADDED_NEGATIVE);
                        return;
                    }
                } else if (args.is(i, "MAXDELETEDID") && more) {
                    maxDeleted = parseId(args, i + 1, 0, true, null);
                    if (id.compareTo(maxDeleted) < 0) {
                        reply.error(SETID_BELOW_GIVEN_MAX_DELETED);
                        return;
                    }
                } else {
                    reply.error(Errors.SYNTAX);
                    return;
                }
            }
        } catch (InvalidId e) {
            reply.error(INVALID_ID);
            return;
        } catch (InvalidNumber e) {
            reply.error(Errors.NOT_INTEGER);
            return;
        }
        StreamValue stream = lookup(ctx, 1);
        if (stream == null) {
            reply.error(Errors.NO_SUCH_KEY);
            return;
        }
        if (stream.length() > 0) {
            if (id.compareTo(stream.edge(false).id()) < 0) {
                reply.error(SETID_BELOW_TOP);
                return;
            }
            if (entriesAdded != -1 && stream.length() > entriesAdded) {
                reply.error(SETID_ENTRIES_BELOW_LENGTH);
                return;
            }
        }
        stream.setIds(id, entriesAdded, maxDeleted == null || maxDeleted.isZero() ? null : maxDeleted);
        modifiedUnwatched(ctx, 1);
        notify(ctx, "xsetid", 1);
        reply.ok();
    }

    // ---- XINFO -----------------------------------------------------------------------------

    /** XINFO STREAM key [FULL [COUNT count]] (xinfoReplyWithStreamInfo). */
    private static void xinfoStream(CommandContext ctx, StreamValue stream) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        boolean full = false;
        long count = FULL_DEFAULT_COUNT;
        if (args.count() > 3) {
            if (!args.is(3, "FULL")) {
                reply.error(xinfoSyntax(args));
                return;
            }
            full = true;
            if (args.count() > 4) {
                if (args.count() != 6 || !args.is(4, "COUNT")) {
                    reply.error(xinfoSyntax(args));
                    return;
                }
                try {
                    count = Math.max(0, Numbers.parseLong(args.array(), args.offset(5), args.length(5)));
                } catch (InvalidNumber e) {
                    reply.error(Errors.NOT_INTEGER);
                    return;
                }
            }
        }
        reply.map(full ? 9 : 10);
        reply.bulk("length");
        reply.integer(stream.length());
        reply.bulk("radix-tree-keys");
        reply.integer(stream.nodeCount());
        reply.bulk("radix-tree-nodes");
        reply.integer(stream.radixTreeNodes());
        reply.bulk("last-generated-id");
        writeId(reply, stream.lastId());
        reply.bulk("max-deleted-entry-id");
        writeId(reply, stream.maxDeletedId());
        reply.bulk("entries-added");
        reply.integer(stream.entriesAdded());
        reply.bulk("recorded-first-entry-id");
        writeId(reply, stream.firstId());
        if (!full) {
            reply.bulk("groups");
            reply.integer(stream.groups().size());
            writeEdge(reply, "first-entry", stream, stream.edge(true));
            writeEdge(reply, "last-entry", stream, stream.edge(false));
            return;
        }
        reply.bulk("entries");
        writeEntries(reply, stream, stream.range(StreamId.MIN, StreamId.MAX, count, false));
        reply.bulk("groups");
        StreamGroupCommands.writeFullGroups(reply, stream, count);
    }

    private static String xinfoSyntax(Arguments args) {
        return "ERR unknown subcommand or wrong number of arguments for '" + args.string(1) + "'. Try XINFO HELP.";
    }

    private static void writeEdge(ReplyWriter reply, String name, StreamValue stream, Entry entry) {
        reply.bulk(name);
        if (entry == null) {
            reply.nullBulk();
        } else {
            writeEntry(reply, stream, entry);
        }
    }
}
