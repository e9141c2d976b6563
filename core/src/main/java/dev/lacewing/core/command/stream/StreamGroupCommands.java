package dev.lacewing.core.command.stream;

import static dev.lacewing.api.CommandFlag.BLOCKING;
import static dev.lacewing.api.CommandFlag.DENYOOM;
import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.WRITE;
import static dev.lacewing.core.command.stream.StreamCommands.INVALID_ID;
import static dev.lacewing.core.command.stream.StreamCommands.lookup;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.BlockedCommand;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.command.server.ConnectionCommands;
import dev.lacewing.core.command.server.Subcommands;
import dev.lacewing.core.command.stream.StreamCommands.InvalidId;
import dev.lacewing.core.datatype.StreamGroup;
import dev.lacewing.core.datatype.StreamGroup.Consumer;
import dev.lacewing.core.datatype.StreamGroup.Pending;
import dev.lacewing.core.datatype.StreamId;
import dev.lacewing.core.datatype.StreamValue;
import dev.lacewing.core.datatype.StreamValue.Entry;
import dev.lacewing.core.persistence.aof.AofPropagation;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;

/**
 * Consumer groups (Redis 7.0's t_stream.c): XGROUP CREATE, SETID, DESTROY, CREATECONSUMER and
 * DELCONSUMER, XREADGROUP ({@code >} and history, NOACK, COUNT, BLOCK), XACK and XPENDING (summary
 * and extended, IDLE, consumer), XCLAIM and XAUTOCLAIM, and what XINFO tells of groups.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its keys.
 */
final class StreamGroupCommands {

    static final String KEY_REQUIRED = "ERR The XGROUP subcommand requires the key to exist. Note that for CREATE "
        + "you may want to use the MKSTREAM option to create an empty stream automatically.";
    static final String BUSYGROUP = "BUSYGROUP Consumer Group name already exists";
    static final String ENTRIES_READ_NEGATIVE = "ERR value for ENTRIESREAD must be positive or -1";
    static final String DOLLAR_IN_XREADGROUP = "ERR The $ ID is meaningless in the context of XREADGROUP: you want "
        + "to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The $ "
        + "ID would just return an empty result set.";
    static final String GROUP_GONE = "NOGROUP the consumer group this client was blocked on no longer exists";

    private StreamGroupCommands() {
    }

    private static final Subcommands<CommandContext> XGROUP = new Subcommands<CommandContext>("xgroup", "stream")
        .add("create", -5, 2, 2, 1, KeyScope.KEYS, "Create a consumer group.", StreamGroupCommands::create, WRITE,
            DENYOOM)
        .add("setid", -5, 2, 2, 1, KeyScope.KEYS, "Set a consumer group to an arbitrary last delivered ID value.",
            StreamGroupCommands::setId, WRITE)
        .add("destroy", 4, 2, 2, 1, KeyScope.KEYS, "Destroy a consumer group.", StreamGroupCommands::destroy, WRITE)
        .add("createconsumer", 5, 2, 2, 1, KeyScope.KEYS, "Create a consumer in a consumer group.",
            StreamGroupCommands::createConsumer, WRITE, DENYOOM)
        .add("delconsumer", 5, 2, 2, 1, KeyScope.KEYS, "Delete a consumer from a consumer group.",
            StreamGroupCommands::deleteConsumer, WRITE)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "XGROUP",
            "CREATE <key> <groupname> <id|$> [option]",
            "    Create a new consumer group. Options are:",
            "    * MKSTREAM",
            "      Create the empty stream if it does not exist.",
            "    * ENTRIESREAD entries_read",
            "      Set the group's entries_read counter (internal use).",
            "CREATECONSUMER <key> <groupname> <consumer>",
            "    Create a new consumer in the specified group.",
            "DELCONSUMER <key> <groupname> <consumer>",
            "    Remove the specified consumer.",
            "DESTROY <key> <groupname>",
            "    Remove the specified group.",
            "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
            "    Set the current group ID and entries_read counter."));

    static void register(CommandRegistry registry) {
        registry.register(XGROUP.container(new CommandSpec("xgroup", -2, Set.of(), 2, 2, 1, KeyScope.KEYS, "stream",
            "A container for consumer groups commands")), XGROUP::dispatch);
        registry.register(CommandSpec.keysAfter("STREAMS", "xreadgroup", -7, Set.of(WRITE, BLOCKING), "stream",
            "Return new entries from a stream using a consumer group, or access the history of the pending entries "
                + "for a given consumer. Can block."), StreamGroupCommands::xreadgroup);
        registry.register(new CommandSpec("xack", -4, Set.of(WRITE, FAST), 1, 1, 1, KeyScope.KEYS, "stream",
            "Marks a pending message as correctly processed, effectively removing it from the pending entries list of "
                + "the consumer group. Return value of the command is the number of messages successfully acknowledged, "
                + "that is, the IDs we were actually able to resolve in the PEL."), StreamGroupCommands::xack);
        registry.register(new CommandSpec("xpending", -3, Set.of(READONLY), 1, 1, 1, KeyScope.KEYS, "stream",
            "Return information and entries from a stream consumer group pending entries list, that are messages "
                + "fetched but never acknowledged."), StreamGroupCommands::xpending);
        registerClaims(registry);
    }

    private static void registerClaims(CommandRegistry registry) {
        registry.register(new CommandSpec("xclaim", -6, Set.of(WRITE, FAST), 1, 1, 1, KeyScope.KEYS, "stream",
            "Changes (or acquires) ownership of a message in a consumer group, as if the message was delivered to the "
                + "specified consumer."), StreamGroupCommands::xclaim);
        registry.register(new CommandSpec("xautoclaim", -6, Set.of(WRITE, FAST), 1, 1, 1, KeyScope.KEYS, "stream",
            "Changes (or acquires) ownership of messages in a consumer group, as if the messages were delivered to "
                + "the specified consumer."), StreamGroupCommands::xautoclaim);
    }

    private static byte[] argument(Arguments args, int index) {
        return args.copy(index);
    }

    /**
     * An argument as Redis's {@code %s} prints it in an error: up to its first NUL byte, each byte one
     * char, for {@link #cError}.
     */
    private static String text(Arguments args, int index) {
        int end = args.offset(index);
        int limit = end + args.length(index);
        byte[] array = args.array();
        while (end < limit && array[end] != 0) {
            end++;
        }
        return new String(array, args.offset(index), end - args.offset(index), StandardCharsets.ISO_8859_1);
    }

    /** An error that holds {@link #text} arguments, written back byte for byte. */
    private static byte[] cError(String message) {
        return message.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static boolean isWord(Arguments args, int index, char c) {
        return args.length(index) == 1 && args.array()[args.offset(index)] == c;
    }

    private static byte[] noGroup(Arguments args, int group, int key) {
        return cError("NOGROUP No such consumer group '" + text(args, group) + "' for key name '" + text(args, key) + "'");
    }

    // ---- XGROUP ----------------------------------------------------------------------------

    /**
     * What every XGROUP subcommand but HELP checks first (xgroupCommand): the key holds a stream
     * (unless CREATE's MKSTREAM), and for {@code needsGroup} the group exists. Null after an error
     * reply; {@code NO_STREAM} for a missing key under MKSTREAM.
     */
    private static Object streamFor(CommandContext ctx, boolean mkstream, boolean needsGroup) {
        Arguments args = ctx.arguments();
        StreamValue value = lookup(ctx, 2);
        if (mkstream) {
            return value == null ? NO_STREAM : value;
        }
        if (value == null) {
            ctx.reply().error(KEY_REQUIRED);
            return null;
        }
        if (needsGroup && value.group(argument(args, 3)) == null) {
            ctx.reply().error(noGroup(args, 3, 2));
            return null;
        }
        return value;
    }

    private static final Object NO_STREAM = new Object();

    private static long parseEntriesRead(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        long entriesRead;
        try {
            entriesRead = Numbers.parseLong(args.array(), args.offset(index), args.length(index));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return Long.MIN_VALUE;
        }
        if (entriesRead < -1) {
            ctx.reply().error(ENTRIES_READ_NEGATIVE);
            return Long.MIN_VALUE;
        }
        return entriesRead;
    }

    /** XGROUP CREATE key group id|$ [MKSTREAM] [ENTRIESREAD entries-read] */
    private static void create(CommandContext ctx) {
        Arguments args = ctx.arguments();
        boolean mkstream = false;
        long entriesRead = -1;
        for (int i = 5; i < args.count(); i++) {
            if (args.is(i, "MKSTREAM")) {
                mkstream = true;
            } else if (args.is(i, "ENTRIESREAD") && i + 1 < args.count()) {
                entriesRead = parseEntriesRead(ctx, ++i);
                if (entriesRead == Long.MIN_VALUE) {
                    return;
                }
            } else {
                ctx.reply().error(subcommandSyntax(args));
                return;
            }
        }
        Object value = streamFor(ctx, mkstream, false);
        if (value == null) {
            return;
        }
        StreamValue stream = value == NO_STREAM ? null : (StreamValue) value;
        StreamId id;
        if (isWord(args, 4, '$')) {
            id = stream == null ? StreamId.MIN : stream.lastId();
        } else {
            try {
                id = StreamCommands.parseId(args, 4, 0, true, null);
            } catch (InvalidId e) {
                ctx.reply().error(INVALID_ID);
                return;
            }
        }
        boolean created = stream == null;
        if (created) {
            stream = new StreamValue();
        }
        if (stream.createGroup(argument(args, 3), id, entriesRead) == null) {
            ctx.reply().error(BUSYGROUP);
            return;
        }
        if (created) {
            // xgroupCommand counts the group alone (server.dirty++), not the stream MKSTREAM made.
            ctx.keyspace().put(args.array(), args.offset(2), args.length(2), stream, Keyspace.NO_EXPIRY);
        } else {
            ctx.keyspace().modifiedUnwatched(args.array(), args.offset(2), args.length(2));
        }
        StreamCommands.notify(ctx, "xgroup-create", 2);
        ctx.reply().ok();
    }

    private static byte[] subcommandSyntax(Arguments args) {
        return cError("ERR unknown subcommand or wrong number of arguments for '" + text(args, 1)
            + "'. Try XGROUP HELP.");
    }

    /**
     * XGROUP SETID key group id|$ [ENTRIESREAD entries-read]. As xgroupCommand, the options are
     * parsed before the key is looked up, and the argument count is checked after.
     */
    private static void setId(CommandContext ctx) {
        Arguments args = ctx.arguments();
        long entriesRead = -1;
        for (int i = 5; i < args.count(); i += 2) {
            if (!args.is(i, "ENTRIESREAD") || i + 1 >= args.count()) {
                ctx.reply().error(subcommandSyntax(args));
                return;
            }
            entriesRead = parseEntriesRead(ctx, i + 1);
            if (entriesRead == Long.MIN_VALUE) {
                return;
            }
        }
        Object value = streamFor(ctx, false, true);
        if (value == null) {
            return;
        }
        if (args.count() != 5 && args.count() != 7) {
            ctx.reply().error(subcommandSyntax(args));
            return;
        }
        StreamValue stream = (StreamValue) value;
        StreamId id;
        if (isWord(args, 4, '$')) {
            id = stream.lastId();
        } else {
            try {
                id = StreamCommands.parseId(args, 4, 0, false, null);
            } catch (InvalidId e) {
                ctx.reply().error(INVALID_ID);
                return;
            }
        }
        stream.group(argument(args, 3)).setLastId(id, entriesRead);
        ctx.keyspace().modifiedUnwatched(args.array(), args.offset(2), args.length(2));
        StreamCommands.notify(ctx, "xgroup-setid", 2);
        ctx.reply().ok();
    }

    /** XGROUP DESTROY key group */
    private static void destroy(CommandContext ctx) {
        Object value = streamFor(ctx, false, false);
        if (value == null) {
            return;
        }
        Arguments args = ctx.arguments();
        boolean destroyed = ((StreamValue) value).destroyGroup(argument(args, 3));
        if (destroyed) {
            ctx.keyspace().modifiedUnwatched(args.array(), args.offset(2), args.length(2));
            StreamCommands.notify(ctx, "xgroup-destroy", 2);
        }
        ctx.reply().integer(destroyed ? 1 : 0);
    }

    /** XGROUP CREATECONSUMER key group consumer */
    private static void createConsumer(CommandContext ctx) {
        Object value = streamFor(ctx, false, true);
        if (value == null) {
            return;
        }
        Arguments args = ctx.arguments();
        StreamGroup group = ((StreamValue) value).group(argument(args, 3));
        boolean created = group.createConsumer(argument(args, 4), System.currentTimeMillis()) != null;
        if (created) {
            ctx.keyspace().modifiedUnwatched(args.array(), args.offset(2), args.length(2));
            StreamCommands.notify(ctx, "xgroup-createconsumer", 2);
        }
        ctx.reply().integer(created ? 1 : 0);
    }

    /** XGROUP DELCONSUMER key group consumer: the count of entries it had pending. */
    private static void deleteConsumer(CommandContext ctx) {
        Object value = streamFor(ctx, false, true);
        if (value == null) {
            return;
        }
        Arguments args = ctx.arguments();
        long pending = ((StreamValue) value).group(argument(args, 3)).deleteConsumer(argument(args, 4));
        if (pending >= 0) {
            ctx.keyspace().modifiedUnwatched(args.array(), args.offset(2), args.length(2));
            StreamCommands.notify(ctx, "xgroup-delconsumer", 2);
        }
        ctx.reply().integer(Math.max(pending, 0));
    }

    // ---- XREADGROUP ------------------------------------------------------------------------

    /** XREADGROUP GROUP group consumer [COUNT count] [BLOCK milliseconds] [NOACK] STREAMS key [key ...] id [id ...] */
    private static void xreadgroup(CommandContext ctx) {
        StreamReadOptions options = StreamReadOptions.parse(ctx, true);
        if (options == null) {
            return;
        }
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        long count = options.count();
        long deadline = options.deadline();
        boolean noAck = options.noAck();
        int groupAt = options.groupAt();
        int streamsAt = options.streamsAt();
        int streams = options.streams();
        byte[] groupName = argument(args, groupAt);
        StreamId[] after = new StreamId[streams];
        StreamValue[] values = new StreamValue[streams];
        for (int i = 0; i < streams; i++) {
            StreamValue value = lookup(ctx, streamsAt + i);
            if (value == null) {
                KeyspaceEvents.missed(ctx, args, streamsAt + i);
            }
            if (value == null || value.group(groupName) == null) {
                reply.error(cError("NOGROUP No such key '" + text(args, streamsAt + i) + "' or consumer group '"
                    + text(args, groupAt) + "' in XREADGROUP with GROUP option"));
                return;
            }
            values[i] = value;
            int idIndex = streamsAt + streams + i;
            if (isWord(args, idIndex, '$')) {
                reply.error(DOLLAR_IN_XREADGROUP);
                return;
            }
            if (isWord(args, idIndex, '>')) {
                after[i] = null;
                continue;
            }
            try {
                after[i] = StreamCommands.parseId(args, idIndex, 0, true, null);
            } catch (InvalidId e) {
                reply.error(INVALID_ID);
                return;
            }
            // xreadCommand stands for ">" by the largest ID, so that ID given explicitly reads new entries too.
            if (after[i].equals(StreamId.MAX)) {
                after[i] = null;
            }
        }
        byte[] consumerName = argument(args, groupAt + 1);
        long now = System.currentTimeMillis();
        boolean[] serve = new boolean[streams];
        int served = 0;
        for (int i = 0; i < streams; i++) {
            StreamGroup group = values[i].group(groupName);
            serve[i] = after[i] != null || hasNew(values[i], group);
            served += serve[i] ? 1 : 0;
        }
        if (served > 0) {
            // xreadCommand: written as its XCLAIMs and XGROUP SETID, or not at all (preventCommandPropagation).
            AofPropagation.prevent();
            writeHeader(ctx, served);
            for (int i = 0; i < streams; i++) {
                if (!serve[i]) {
                    continue;
                }
                StreamGroup group = values[i].group(groupName);
                boolean created = group.consumer(consumerName) == null;
                Consumer consumer = consumerSeen(ctx, group, consumerName, now, streamsAt + i);
                if (created && noAck) {
                    // streamPropagateConsumerCreation: with NOACK no XCLAIM would create it on replay.
                    AofPropagation.instead(ctx.client().database(), XGROUP_NAME, CREATECONSUMER,
                        argument(args, streamsAt + i), groupName, consumerName);
                }
                writeKey(ctx, streamsAt + i);
                if (after[i] == null) {
                    deliverNew(ctx, values[i], group, consumer, count, noAck, now, streamsAt + i, groupAt);
                } else {
                    writeHistory(ctx.reply(), values[i], consumer, after[i], count, now);
                }
                // xreadCommand: server.dirty++ per stream served, streamCreateConsumer's one more for a new consumer.
                ctx.keyspace().modifiedUnwatched(args.array(), args.offset(streamsAt + i), args.length(streamsAt + i),
                    created ? 2 : 1);
            }
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
        ctx.block(deadline, keys, -1, new GroupWaiter(streamsAt, groupAt, count, noAck));
    }

    /** The consumer, created when absent with its keyspace event (streamCreateConsumer), now seen. */
    private static Consumer consumerSeen(CommandContext ctx, StreamGroup group, byte[] name, long now, int keyIndex) {
        boolean created = group.consumer(name) == null;
        Consumer consumer = group.consumerSeen(name, now);
        if (created) {
            StreamCommands.notify(ctx, "xgroup-createconsumer", keyIndex);
        }
        return consumer;
    }

    /** Whether the stream has a live entry above what the group delivered. */
    private static boolean hasNew(StreamValue stream, StreamGroup group) {
        if (stream.length() == 0) {
            return false;
        }
        return stream.edge(false).id().compareTo(group.lastId()) > 0;
    }

    private static void writeHeader(CommandContext ctx, int served) {
        if (ctx.client().protocol() == 2) {
            ctx.reply().array(served);
        } else {
            ctx.reply().map(served);
        }
    }

    private static void writeKey(CommandContext ctx, int keyIndex) {
        Arguments args = ctx.arguments();
        if (ctx.client().protocol() == 2) {
            ctx.reply().array(2);
        }
        ctx.reply().bulk(args.array(), args.offset(keyIndex), args.length(keyIndex));
    }

    /**
     * XREADGROUP {@code >}: the entries after the group's last ID, now delivered to {@code consumer};
     * propagated as streamReplyWithRange does, served at once or later: an XCLAIM per entry, or
     * with NOACK one XGROUP SETID.
     */
    private static void deliverNew(CommandContext ctx, StreamValue stream, StreamGroup group, Consumer consumer,
                                   long count, boolean noAck, long now, int keyIndex, int groupAt) {
        List<Entry> entries = stream.range(group.lastId().next(), StreamId.MAX, count, false);
        StreamCommands.writeEntries(ctx.reply(), stream, entries);
        boolean propagating = AofPropagation.propagating();
        for (Entry entry : entries) {
            group.delivered(entry.id(), consumer, now, noAck, stream.entriesReadAt(group, entry.id()));
            if (propagating && !noAck) {
                propagateClaim(ctx, keyIndex, groupAt, group, entry.id(), group.pending().get(entry.id()));
            }
        }
        if (propagating && noAck && !entries.isEmpty()) {
            propagateGroupId(ctx, keyIndex, groupAt, group);
        }
    }

    private static final byte[] XCLAIM = ascii("XCLAIM");
    private static final byte[] ZERO = ascii("0");
    private static final byte[] TIME = ascii("TIME");
    private static final byte[] RETRYCOUNT = ascii("RETRYCOUNT");
    private static final byte[] FORCE = ascii("FORCE");
    private static final byte[] JUSTID = ascii("JUSTID");
    private static final byte[] LASTID = ascii("LASTID");
    private static final byte[] XGROUP_NAME = ascii("XGROUP");
    private static final byte[] SETID = ascii("SETID");
    private static final byte[] CREATECONSUMER = ascii("CREATECONSUMER");
    private static final byte[] ENTRIESREAD = ascii("ENTRIESREAD");

    private static byte[] ascii(Object value) {
        return value.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * streamPropagateXCLAIM: the pending entry as an XCLAIM that sets it whatever the replica has,
     * {@code XCLAIM key group consumer 0 id TIME ms RETRYCOUNT n FORCE JUSTID LASTID group-last-id}.
     */
    private static void propagateClaim(CommandContext ctx, int keyIndex, int groupAt, StreamGroup group, StreamId id,
                                       Pending entry) {
        Arguments args = ctx.arguments();
        byte[] owner = entry.consumer() == null ? new byte[0] : entry.consumer().name();
        AofPropagation.instead(ctx.client().database(), XCLAIM, argument(args, keyIndex), argument(args, groupAt),
            owner, ZERO, ascii(id), TIME, ascii(entry.deliveryTime()), RETRYCOUNT, ascii(entry.deliveryCount()),
            FORCE, JUSTID, LASTID, ascii(group.lastId()));
    }

    /** streamPropagateGroupID: {@code XGROUP SETID key group last-id ENTRIESREAD n}. */
    private static void propagateGroupId(CommandContext ctx, int keyIndex, int groupAt, StreamGroup group) {
        Arguments args = ctx.arguments();
        AofPropagation.instead(ctx.client().database(), XGROUP_NAME, SETID, argument(args, keyIndex),
            argument(args, groupAt), ascii(group.lastId()), ENTRIESREAD, ascii(group.entriesRead()));
    }

    /**
     * XREADGROUP with an ID (streamReplyWithRangeFromConsumerPEL): the consumer's pending entries
     * above it, each delivered once more; one the stream no longer has comes as [id, nil].
     */
    private static void writeHistory(ReplyWriter reply, StreamValue stream, Consumer consumer, StreamId after,
                                     long count, long now) {
        StreamId start = after.next();
        Map<StreamId, Pending> pending = start == null ? Map.of() : consumer.pending().tailMap(start, true);
        int size = (int) Math.min(pending.size(), count == 0 ? Long.MAX_VALUE : count);
        reply.array(size);
        int written = 0;
        for (Map.Entry<StreamId, Pending> entry : pending.entrySet()) {
            if (written == size) {
                break;
            }
            written++;
            List<Entry> found = stream.range(entry.getKey(), entry.getKey(), 1, false);
            if (found.isEmpty()) {
                reply.array(2);
                StreamCommands.writeId(reply, entry.getKey());
                reply.nullArray();
            } else {
                StreamCommands.writeEntry(reply, stream, found.get(0));
                entry.getValue().redelivered(now);
            }
        }
    }

    /**
     * A blocked XREADGROUP {@code >}: served from the first of its streams that gains an entry above
     * what its group delivered; when the group is gone by then, the client gets NOGROUP, as in Redis.
     */
    private record GroupWaiter(int streamsAt, int groupAt, long count, boolean noAck) implements BlockedCommand {

        @Override
        public boolean ready(CommandContext context, int keyArgument) {
            StreamValue stream = stream(context, keyArgument);
            if (stream == null) {
                return false;
            }
            StreamGroup group = stream.group(argument(context.arguments(), groupAt));
            return group == null || hasNew(stream, group);
        }

        @Override
        public void serve(CommandContext context, int keyArgument) {
            // serveClientsBlockedOnStreamKey: written as what it delivered, as when not blocked, never as sent.
            AofPropagation.prevent();
            Arguments args = context.arguments();
            StreamValue stream = stream(context, keyArgument);
            StreamGroup group = stream.group(argument(args, groupAt));
            if (group == null) {
                context.reply().error(GROUP_GONE);
                return;
            }
            long now = System.currentTimeMillis();
            byte[] consumerName = argument(args, groupAt + 1);
            boolean created = group.consumer(consumerName) == null;
            Consumer consumer = consumerSeen(context, group, consumerName, now, keyArgument);
            if (created && noAck) {
                AofPropagation.instead(context.client().database(), XGROUP_NAME, CREATECONSUMER,
                    argument(args, keyArgument), argument(args, groupAt), consumerName);
            }
            writeHeader(context, 1);
            writeKey(context, keyArgument);
            deliverNew(context, stream, group, consumer, count, noAck, now, keyArgument, groupAt);
            context.keyspace().modifiedUnwatched(args.array(), args.offset(keyArgument), args.length(keyArgument));
        }

        private static StreamValue stream(CommandContext context, int keyArgument) {
            Arguments args = context.arguments();
            Object value = context.keyspace().get(args.array(), args.offset(keyArgument), args.length(keyArgument));
            return value instanceof StreamValue stream ? stream : null;
        }
    }

    // ---- XCLAIM, XAUTOCLAIM ----------------------------------------------------------------

    private static StreamGroup claimGroup(CommandContext ctx) {
        Arguments args = ctx.arguments();
        StreamValue value = lookup(ctx, 1);
        StreamGroup group = value == null ? null : value.group(argument(args, 2));
        if (group == null) {
            ctx.reply().error(cError("NOGROUP No such key '" + text(args, 1) + "' or consumer group '" + text(args, 2) + "'"));
        }
        return group;
    }

    private static boolean exists(StreamValue stream, StreamId id) {
        return !stream.range(id, id, 1, false).isEmpty();
    }

    private static void writeClaimed(ReplyWriter reply, StreamValue stream, StreamId id, boolean justId) {
        if (justId) {
            StreamCommands.writeId(reply, id);
        } else {
            StreamCommands.writeEntry(reply, stream, stream.range(id, id, 1, false).get(0));
        }
    }

    /**
     * XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME unix-ms] [RETRYCOUNT count]
     * [FORCE] [JUSTID] [LASTID id]: the IDs end at the first argument that is not one; a pending entry
     * whose stream entry is gone leaves the pending list instead of being claimed.
     */
    private static void xclaim(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        StreamGroup group = claimGroup(ctx);
        if (group == null) {
            return;
        }
        StreamValue stream = ctx.keyspace().aggregate(args.array(), args.offset(1), args.length(1), StreamValue.TYPE);
        long minIdle;
        try {
            minIdle = Math.max(0, Numbers.parseLong(args.array(), args.offset(4), args.length(4)));
        } catch (InvalidNumber e) {
            reply.error("ERR Invalid min-idle-time argument for XCLAIM");
            return;
        }
        List<StreamId> ids = new ArrayList<>();
        int j = 5;
        for (; j < args.count(); j++) {
            try {
                ids.add(StreamCommands.parseId(args, j, 0, true, null));
            } catch (InvalidId e) {
                break;
            }
        }
        long now = System.currentTimeMillis();
        long deliveryTime = -1;
        long retryCount = -1;
        boolean force = false;
        boolean justId = false;
        StreamId lastId = StreamId.MIN;
        for (; j < args.count(); j++) {
            boolean more = j + 1 < args.count();
            try {
                if (args.is(j, "FORCE")) {
                    force = true;
                } else if (args.is(j, "JUSTID")) {
                    justId = true;
                } else if (args.is(j, "IDLE") && more) {
                    deliveryTime = now - parseOption(args, ++j, "IDLE");
                } else if (args.is(j, "TIME") && more) {
                    deliveryTime = parseOption(args, ++j, "TIME");
                } else if (args.is(j, "RETRYCOUNT") && more) {
                    retryCount = parseOption(args, ++j, "RETRYCOUNT");
                } else if (args.is(j, "LASTID") && more) {
                    lastId = StreamCommands.parseId(args, ++j, 0, true, null);
                } else {
                    reply.error(cError("ERR Unrecognized XCLAIM option '" + text(args, j) + "'"));
                    return;
                }
            } catch (InvalidOption e) {
                reply.error(e.getMessage());
                return;
            } catch (InvalidId e) {
                reply.error(INVALID_ID);
                return;
            }
        }
        boolean propagating = AofPropagation.propagating();
        if (propagating) {
            // xclaimCommand: written as its XCLAIMs, or XGROUP SETID when only LASTID moved the group.
            AofPropagation.prevent();
        }
        boolean propagateLastId = false;
        boolean lastIdMoved = lastId.compareTo(group.lastId()) > 0;
        if (lastIdMoved) {
            group.setLastId(lastId, group.entriesRead());
            propagateLastId = true;
        }
        if (deliveryTime < 0 || deliveryTime > now) {
            deliveryTime = now;
        }
        List<StreamId> claimed = new ArrayList<>();
        int dropped = 0;
        Consumer consumer = null;
        boolean created = false;
        for (StreamId id : ids) {
            Pending entry = group.pending().get(id);
            if (!exists(stream, id)) {
                if (entry != null) {
                    group.dropPending(id);
                    dropped++;
                    if (propagating) {
                        propagateClaim(ctx, 1, 2, group, id, entry);
                        propagateLastId = false;
                    }
                }
                continue;
            }
            if (force && entry == null) {
                entry = group.pendingOrCreate(id);
            }
            if (entry == null) {
                continue;
            }
            if (entry.consumer() != null && minIdle > 0 && now - entry.deliveryTime() < minIdle) {
                continue;
            }
            if (consumer == null) {
                created = group.consumer(argument(args, 3)) == null;
                consumer = consumerSeen(ctx, group, argument(args, 3), now, 1);
            }
            group.claim(id, entry, consumer, deliveryTime, retryCount, justId);
            claimed.add(id);
            if (propagating) {
                propagateClaim(ctx, 1, 2, group, id, entry);
                propagateLastId = false;
            }
        }
        if (propagating && propagateLastId) {
            propagateGroupId(ctx, 1, 2, group);
        }
        reply.array(claimed.size());
        for (StreamId id : claimed) {
            writeClaimed(reply, stream, id, justId);
        }
        // xclaimCommand's server.dirty: one per entry claimed or dropped as deleted, one for a new
        // consumer, and one for a LASTID that moved the group when no entry did.
        long moved = claimed.size() + dropped;
        long changes = moved + (created ? 1 : 0) + (lastIdMoved && moved == 0 ? 1 : 0);
        if (changes > 0) {
            StreamCommands.modifiedUnwatched(ctx, changes);
        }
    }

    /** An XCLAIM option's value that is not an integer: the error names the option. */
    private static final class InvalidOption extends RuntimeException {
        InvalidOption(String message) {
            super(message, null, false, false);
        }
    }

    private static long parseOption(Arguments args, int index, String option) {
        try {
            return Numbers.parseLong(args.array(), args.offset(index), args.length(index));
        } catch (InvalidNumber e) {
            throw new InvalidOption("ERR Invalid " + option + " option argument for XCLAIM");
        }
    }

    /** XAUTOCLAIM's attempts per entry asked: it looks at most COUNT times this many pending entries. */
    private static final long ATTEMPTS_FACTOR = 10;

    /**
     * XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID]: [the cursor for the
     * next call (0-0 at the end), the claimed entries or IDs, the IDs dropped as deleted].
     */
    private static void xautoclaim(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        long minIdle;
        try {
            minIdle = Math.max(0, Numbers.parseLong(args.array(), args.offset(4), args.length(4)));
        } catch (InvalidNumber e) {
            reply.error("ERR Invalid min-idle-time argument for XAUTOCLAIM");
            return;
        }
        StreamId start;
        try {
            start = StreamCommands.parseIntervalId(args, 5, 0);
        } catch (InvalidId e) {
            reply.error(INVALID_ID);
            return;
        }
        if (StreamCommands.exclusive(args, 5)) {
            start = start.next();
            if (start == null) {
                reply.error(StreamCommands.INVALID_START);
                return;
            }
        }
        long count = 100;
        boolean justId = false;
        for (int j = 6; j < args.count(); j++) {
            if (args.is(j, "COUNT") && j + 1 < args.count()) {
                long maxCount = Long.MAX_VALUE / 16;
                try {
                    count = Numbers.parseLong(args.array(), args.offset(j + 1), args.length(j + 1));
                } catch (InvalidNumber e) {
                    count = 0;
                }
                if (count < 1 || count > maxCount) {
                    reply.error("ERR COUNT must be > 0");
                    return;
                }
                j++;
            } else if (args.is(j, "JUSTID")) {
                justId = true;
            } else {
                reply.error(Errors.SYNTAX);
                return;
            }
        }
        StreamGroup group = claimGroup(ctx);
        if (group == null) {
            return;
        }
        StreamValue stream = ctx.keyspace().aggregate(args.array(), args.offset(1), args.length(1), StreamValue.TYPE);
        boolean propagating = AofPropagation.propagating();
        if (propagating) {
            // xautoclaimCommand: written as an XCLAIM per entry claimed or dropped as deleted.
            AofPropagation.prevent();
        }
        long now = System.currentTimeMillis();
        long attempts = count * ATTEMPTS_FACTOR;
        List<StreamId> claimed = new ArrayList<>();
        List<StreamId> deleted = new ArrayList<>();
        Consumer consumer = null;
        boolean created = false;
        StreamId cursor = start;
        boolean end = false;
        while (attempts-- > 0 && count > 0) {
            StreamId id = cursor == null ? null : group.pending().ceilingKey(cursor);
            if (id == null) {
                end = true;
                break;
            }
            cursor = id.next();
            Pending entry = group.pending().get(id);
            if (!exists(stream, id)) {
                if (propagating) {
                    propagateClaim(ctx, 1, 2, group, id, entry);
                }
                group.dropPending(id);
                deleted.add(id);
                count--;
                continue;
            }
            if (minIdle > 0 && now - entry.deliveryTime() < minIdle) {
                continue;
            }
            if (consumer == null) {
                created = group.consumer(argument(args, 3)) == null;
                consumer = consumerSeen(ctx, group, argument(args, 3), now, 1);
            }
            group.claim(id, entry, consumer, now, -1, justId);
            claimed.add(id);
            if (propagating) {
                propagateClaim(ctx, 1, 2, group, id, entry);
            }
            count--;
        }
        StreamId next = end || cursor == null ? null : group.pending().ceilingKey(cursor);
        reply.array(3);
        StreamCommands.writeId(reply, next == null ? StreamId.MIN : next);
        reply.array(claimed.size());
        for (StreamId id : claimed) {
            writeClaimed(reply, stream, id, justId);
        }
        reply.array(deleted.size());
        for (StreamId id : deleted) {
            StreamCommands.writeId(reply, id);
        }
        // xautoclaimCommand's server.dirty: one per entry claimed or dropped as deleted, one for a new consumer.
        long changes = claimed.size() + deleted.size() + (created ? 1 : 0);
        if (changes > 0) {
            StreamCommands.modifiedUnwatched(ctx, changes);
        }
    }

    // ---- XACK, XPENDING --------------------------------------------------------------------

    /** XACK key group id [id ...]: 0 without the key or the group, the IDs checked first otherwise. */
    private static void xack(CommandContext ctx) {
        Arguments args = ctx.arguments();
        StreamValue value = lookup(ctx, 1);
        StreamGroup group = value == null ? null : value.group(argument(args, 2));
        if (group == null) {
            ctx.reply().integer(0);
            return;
        }
        StreamId[] ids = new StreamId[args.count() - 3];
        try {
            for (int i = 3; i < args.count(); i++) {
                ids[i - 3] = StreamCommands.parseId(args, i, 0, true, null);
            }
        } catch (InvalidId e) {
            ctx.reply().error(INVALID_ID);
            return;
        }
        int acknowledged = 0;
        for (StreamId id : ids) {
            if (group.acknowledge(id)) {
                acknowledged++;
            }
        }
        if (acknowledged > 0) {
            StreamCommands.modifiedUnwatched(ctx, acknowledged);
        }
        ctx.reply().integer(acknowledged);
    }

    /** XPENDING key group [[IDLE min-idle-time] start end count [consumer]] */
    private static void xpending(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        int argc = args.count();
        if (argc != 3 && (argc < 6 || argc > 9)) {
            reply.error(Errors.SYNTAX);
            return;
        }
        long minIdle = 0;
        long count = 0;
        StreamId start = null;
        StreamId end = null;
        int consumerAt = -1;
        if (argc >= 6) {
            int startAt = 3;
            try {
                if (args.is(3, "IDLE")) {
                    minIdle = Numbers.parseLong(args.array(), args.offset(4), args.length(4));
                    if (argc < 8) {
                        reply.error(Errors.SYNTAX);
                        return;
                    }
                    startAt += 2;
                }
                count = Math.max(0, Numbers.parseLong(args.array(), args.offset(startAt + 2),
                    args.length(startAt + 2)));
            } catch (InvalidNumber e) {
                reply.error(Errors.NOT_INTEGER);
                return;
            }
            try {
                start = StreamCommands.parseIntervalId(args, startAt, 0);
                if (StreamCommands.exclusive(args, startAt)) {
                    start = start.next();
                    if (start == null) {
                        reply.error(StreamCommands.INVALID_START);
                        return;
                    }
                }
                end = StreamCommands.parseIntervalId(args, startAt + 1, -1L);
                if (StreamCommands.exclusive(args, startAt + 1)) {
                    end = end.previous();
                    if (end == null) {
                        reply.error(StreamCommands.INVALID_END);
                        return;
                    }
                }
            } catch (InvalidId e) {
                reply.error(INVALID_ID);
                return;
            }
            if (startAt + 3 < argc) {
                consumerAt = startAt + 3;
            }
        }
        StreamValue value = lookup(ctx, 1);
        StreamGroup group = value == null ? null : value.group(argument(args, 2));
        if (group == null) {
            reply.error(cError("NOGROUP No such key '" + text(args, 1) + "' or consumer group '" + text(args, 2) + "'"));
            return;
        }
        if (argc == 3) {
            writeSummary(reply, group);
            return;
        }
        NavigableMap<StreamId, Pending> list = group.pending();
        if (consumerAt > 0) {
            Consumer consumer = group.consumer(argument(args, consumerAt));
            if (consumer == null) {
                reply.array(0);
                return;
            }
            list = consumer.pending();
        }
        long now = System.currentTimeMillis();
        List<Map.Entry<StreamId, Pending>> shown = new ArrayList<>();
        if (start.compareTo(end) <= 0) {
            for (Map.Entry<StreamId, Pending> entry : list.subMap(start, true, end, true).entrySet()) {
                if (shown.size() >= count) {
                    break;
                }
                if (minIdle > 0 && now - entry.getValue().deliveryTime() < minIdle) {
                    continue;
                }
                shown.add(entry);
            }
        }
        reply.array(shown.size());
        for (Map.Entry<StreamId, Pending> entry : shown) {
            reply.array(4);
            StreamCommands.writeId(reply, entry.getKey());
            reply.bulk(entry.getValue().consumer().name());
            reply.integer(Math.max(0, now - entry.getValue().deliveryTime()));
            reply.integer(entry.getValue().deliveryCount());
        }
    }

    /** XPENDING key group: the count, the first and last IDs, and each consumer with entries pending. */
    private static void writeSummary(ReplyWriter reply, StreamGroup group) {
        reply.array(4);
        reply.integer(group.pending().size());
        if (group.pending().isEmpty()) {
            reply.nullBulk();
            reply.nullBulk();
            reply.nullArray();
            return;
        }
        StreamCommands.writeId(reply, group.pending().firstKey());
        StreamCommands.writeId(reply, group.pending().lastKey());
        int consumers = 0;
        for (Consumer consumer : group.consumers().values()) {
            consumers += consumer.pending().isEmpty() ? 0 : 1;
        }
        reply.array(consumers);
        for (Consumer consumer : group.consumers().values()) {
            if (!consumer.pending().isEmpty()) {
                reply.array(2);
                reply.bulk(consumer.name());
                reply.bulk(Long.toString(consumer.pending().size()));
            }
        }
    }
    // ---- XINFO GROUPS, CONSUMERS, STREAM FULL's groups -------------------------------------

    /** XINFO GROUPS key: each group's name, consumers, pending count, last ID, entries read and lag. */
    static void xinfoGroups(CommandContext ctx, StreamValue stream) {
        ReplyWriter reply = ctx.reply();
        reply.array(stream.groups().size());
        for (Map.Entry<byte[], StreamGroup> named : stream.groups().entrySet()) {
            StreamGroup group = named.getValue();
            reply.map(6);
            reply.bulk("name");
            reply.bulk(named.getKey());
            reply.bulk("consumers");
            reply.integer(group.consumers().size());
            reply.bulk("pending");
            reply.integer(group.pending().size());
            reply.bulk("last-delivered-id");
            StreamCommands.writeId(reply, group.lastId());
            writeReadAndLag(reply, stream, group);
        }
    }

    private static void writeReadAndLag(ReplyWriter reply, StreamValue stream, StreamGroup group) {
        reply.bulk("entries-read");
        if (group.entriesRead() == -1) {
            reply.nullBulk();
        } else {
            reply.integer(group.entriesRead());
        }
        reply.bulk("lag");
        long lag = stream.lag(group);
        if (lag == StreamValue.LAG_UNKNOWN) {
            reply.nullBulk();
        } else {
            reply.integer(lag);
        }
    }

    /** XINFO CONSUMERS key group: each consumer's name, pending count and idle time. */
    static void xinfoConsumers(CommandContext ctx, StreamValue stream) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        StreamGroup group = stream.group(argument(args, 3));
        if (group == null) {
            reply.error(noGroup(args, 3, 2));
            return;
        }
        long now = System.currentTimeMillis();
        reply.array(group.consumers().size());
        for (Consumer consumer : group.consumers().values()) {
            reply.map(3);
            reply.bulk("name");
            reply.bulk(consumer.name());
            reply.bulk("pending");
            reply.integer(consumer.pending().size());
            reply.bulk("idle");
            reply.integer(Math.max(0, now - consumer.seenTime()));
        }
    }

    /** XINFO STREAM FULL's groups, with at most {@code count} pending entries each (0: all). */
    static void writeFullGroups(ReplyWriter reply, StreamValue stream, long count) {
        reply.array(stream.groups().size());
        for (Map.Entry<byte[], StreamGroup> named : stream.groups().entrySet()) {
            StreamGroup group = named.getValue();
            reply.map(7);
            reply.bulk("name");
            reply.bulk(named.getKey());
            reply.bulk("last-delivered-id");
            StreamCommands.writeId(reply, group.lastId());
            writeReadAndLag(reply, stream, group);
            reply.bulk("pel-count");
            reply.integer(group.pending().size());
            reply.bulk("pending");
            List<Map.Entry<StreamId, Pending>> shown = first(group.pending(), count);
            reply.array(shown.size());
            for (Map.Entry<StreamId, Pending> entry : shown) {
                reply.array(4);
                StreamCommands.writeId(reply, entry.getKey());
                reply.bulk(entry.getValue().consumer().name());
                reply.integer(entry.getValue().deliveryTime());
                reply.integer(entry.getValue().deliveryCount());
            }
            reply.bulk("consumers");
            reply.array(group.consumers().size());
            for (Consumer consumer : group.consumers().values()) {
                reply.map(4);
                reply.bulk("name");
                reply.bulk(consumer.name());
                reply.bulk("seen-time");
                reply.integer(consumer.seenTime());
                reply.bulk("pel-count");
                reply.integer(consumer.pending().size());
                reply.bulk("pending");
                List<Map.Entry<StreamId, Pending>> own = first(consumer.pending(), count);
                reply.array(own.size());
                for (Map.Entry<StreamId, Pending> entry : own) {
                    reply.array(3);
                    StreamCommands.writeId(reply, entry.getKey());
                    reply.integer(entry.getValue().deliveryTime());
                    reply.integer(entry.getValue().deliveryCount());
                }
            }
        }
    }

    private static List<Map.Entry<StreamId, Pending>> first(Map<StreamId, Pending> pending, long count) {
        List<Map.Entry<StreamId, Pending>> out = new ArrayList<>();
        for (Map.Entry<StreamId, Pending> entry : pending.entrySet()) {
            if (count > 0 && out.size() >= count) {
                break;
            }
            out.add(entry);
        }
        return out;
    }
}
