package dev.lacewing.core.command.list;

import static dev.lacewing.api.CommandFlag.BLOCKING;
import static dev.lacewing.api.CommandFlag.DENYOOM;
import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
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
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.AggregateChanges;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.IndexRange;
import dev.lacewing.core.command.MultiPopOptions;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Timeouts;
import dev.lacewing.core.datatype.Quicklist;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.util.Set;

/**
 * The list family (Redis's t_list.c), over {@link Quicklist}. Lists are never empty: the command
 * that takes the last element removes the key, as Redis does. The blocking commands first try what
 * their non-blocking forms do; when every key is empty they block through
 * {@link CommandContext#block} with a {@link BlockedCommand} that serves them later from whichever
 * key becomes ready.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its keys.
 */
public final class ListCommands {

    private static final boolean HEAD = true;
    private static final boolean TAIL = false;

    private static final String INDEX_OUT_OF_RANGE = "ERR index out of range";
    private static final String NOT_POSITIVE = "ERR value is out of range, must be positive";
    private static final String RANK_ZERO = "ERR RANK can't be zero: use 1 to start from the first match, 2 from "
        + "the second ... or use negative to start from the end of the list";
    private static final String COUNT_NEGATIVE = "ERR COUNT can't be negative";
    private static final String MAXLEN_NEGATIVE = "ERR MAXLEN can't be negative";

    private ListCommands() {
    }

    public static void register(CommandRegistry registry) {
        register(registry, "lpush", -3, 1, 1, "Prepend one or multiple elements to a list",
            ctx -> push(ctx, HEAD, false), WRITE, DENYOOM, FAST);
        register(registry, "rpush", -3, 1, 1, "Append one or multiple elements to a list",
            ctx -> push(ctx, TAIL, false), WRITE, DENYOOM, FAST);
        register(registry, "lpushx", -3, 1, 1, "Prepend an element to a list, only if the list exists",
            ctx -> push(ctx, HEAD, true), WRITE, DENYOOM, FAST);
        register(registry, "rpushx", -3, 1, 1, "Append an element to a list, only if the list exists",
            ctx -> push(ctx, TAIL, true), WRITE, DENYOOM, FAST);
        register(registry, "lpop", -2, 1, 1, "Remove and get the first elements in a list",
            ctx -> pop(ctx, HEAD), WRITE, FAST);
        register(registry, "rpop", -2, 1, 1, "Remove and get the last elements in a list",
            ctx -> pop(ctx, TAIL), WRITE, FAST);
        register(registry, "llen", 2, 1, 1, "Get the length of a list", ListCommands::llen, READONLY, FAST);
        register(registry, "lrange", 4, 1, 1, "Get a range of elements from a list", ListCommands::lrange, READONLY);
        register(registry, "lindex", 3, 1, 1, "Get an element from a list by its index", ListCommands::lindex,
            READONLY);
        register(registry, "lset", 4, 1, 1, "Set the value of an element in a list by its index",
            ListCommands::lset, WRITE, DENYOOM);
        register(registry, "lrem", 4, 1, 1, "Remove elements from a list", ListCommands::lrem, WRITE);
        register(registry, "ltrim", 4, 1, 1, "Trim a list to the specified range", ListCommands::ltrim, WRITE);
        register(registry, "linsert", 5, 1, 1, "Insert an element before or after another element in a list",
            ListCommands::linsert, WRITE, DENYOOM);
        register(registry, "lpos", -3, 1, 1, "Return the index of matching elements on a list",
            ListCommands::lpos, READONLY);
        register(registry, "lmove", 5, 1, 2, "Pop an element from a list, push it to another list and return it",
            ListCommands::lmove, WRITE, DENYOOM);
        register(registry, "rpoplpush", 3, 1, 2,
            "Remove the last element in a list, prepend it to another list and return it",
            ListCommands::rpoplpush, WRITE, DENYOOM);
        registry.register(CommandSpec.countedKeys("lmpop", -4, Set.of(WRITE), 1, "list",
            "Pop elements from a list"), ctx -> mpop(ctx, 1, 0));
        register(registry, "blpop", -3, 1, -2,
            "Remove and get the first element in a list, or block until one is available",
            ctx -> blockingPop(ctx, HEAD), WRITE, NOSCRIPT, BLOCKING);
        register(registry, "brpop", -3, 1, -2,
            "Remove and get the last element in a list, or block until one is available",
            ctx -> blockingPop(ctx, TAIL), WRITE, NOSCRIPT, BLOCKING);
        register(registry, "blmove", 6, 1, 2,
            "Pop an element from a list, push it to another list and return it; or block until one is available",
            ListCommands::blmove, WRITE, DENYOOM, NOSCRIPT, BLOCKING);
        register(registry, "brpoplpush", 4, 1, 2,
            "Pop an element from a list, push it to another list and return it; or block until one is available",
            ListCommands::brpoplpush, WRITE, DENYOOM, NOSCRIPT, BLOCKING);
        registry.register(CommandSpec.countedKeys("blmpop", -5, Set.of(WRITE, BLOCKING), 2, "list",
            "Pop elements from a list, or block until one is available"), ListCommands::blmpop);
    }

    private static void register(CommandRegistry registry, String name, int arity, int firstKey, int lastKey,
                                 String summary, CommandHandler handler, CommandFlag... flags) {
        registry.register(new CommandSpec(name, arity, Set.of(flags), firstKey, lastKey, 1, KeyScope.KEYS, "list",
            summary), handler);
    }

    // ---- helpers ------------------------------------------------------------------------

    /** The list at key argument {@code index}, or null; WRONGTYPE ends the command for another type. */
    private static Quicklist list(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        return ctx.keyspace().aggregate(args.array(), args.offset(index), args.length(index), Quicklist.TYPE);
    }

    /**
     * An empty list with the server's {@code list-max-listpack-size} and {@code list-compress-depth}:
     * as in Redis, a list keeps both as they were when it was made.
     */
    public static Quicklist newList(CommandContext ctx) {
        return new Quicklist((int) ctx.server().settings().getLong("list-max-listpack-size", -2),
            (int) ctx.server().settings().getLong("list-compress-depth", 0));
    }

    /**
     * Stores a new list at key argument {@code index}: a key creation, which wakes its blocked
     * clients, counting {@code changes} in the dirty counter; then the keyspace event of the
     * command that made it.
     */
    private static void store(CommandContext ctx, int index, Quicklist list, String event, long changes) {
        AggregateChanges.stored(ctx, index, list, changes, KeyspaceEvents.LIST, event);
    }

    /**
     * Tells the keyspace the list changed, or removes the key once it is empty, as Redis does; then
     * the command's keyspace event, and "del" when the key went.
     */
    private static void changed(CommandContext ctx, int index, Quicklist list, String event) {
        changed(ctx, index, list, event, 1);
    }

    /**
     * As the one-change form, counting {@code changes} in the dirty counter: one per element pushed
     * or popped, as Redis counts them, 0 where Redis counts none.
     */
    private static void changed(CommandContext ctx, int index, Quicklist list, String event, long changes) {
        AggregateChanges.changedInPlace(ctx, index, list.size() == 0, changes, KeyspaceEvents.LIST, event);
    }

    private static String pushEvent(boolean where) {
        return where == HEAD ? "lpush" : "rpush";
    }

    private static String popEvent(boolean where) {
        return where == HEAD ? "lpop" : "rpop";
    }

    private static long parseLong(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        return Numbers.parseLong(args.array(), args.offset(index), args.length(index));
    }

    private static void bulkArgument(ReplyWriter reply, Arguments args, int index) {
        reply.bulk(args.array(), args.offset(index), args.length(index));
    }

    /** LEFT or RIGHT as getListPositionFromObjectOrReply reads it; null after a syntax error reply. */
    private static Boolean side(CommandContext ctx, int index) {
        if (ctx.arguments().is(index, "left")) {
            return HEAD;
        }
        if (ctx.arguments().is(index, "right")) {
            return TAIL;
        }
        ctx.reply().error(Errors.SYNTAX);
        return null;
    }

    private static byte[] popFrom(Quicklist list, boolean where) {
        return where == HEAD ? list.popHead() : list.popTail();
    }

    private static void pushTo(Quicklist list, boolean where, byte[] value) {
        if (where == HEAD) {
            list.pushHead(value);
        } else {
            list.pushTail(value);
        }
    }

    // ---- push and pop -------------------------------------------------------------------

    private static void push(CommandContext ctx, boolean where, boolean onlyIfExists) {
        Arguments args = ctx.arguments();
        Quicklist list = list(ctx, 1);
        if (list == null) {
            if (onlyIfExists) {
                ctx.reply().integer(0);
                return;
            }
            list = newList(ctx);
            for (int i = 2; i < args.count(); i++) {
                pushTo(list, where, args.copy(i));
            }
            store(ctx, 1, list, pushEvent(where), args.count() - 2);
        } else {
            for (int i = 2; i < args.count(); i++) {
                pushTo(list, where, args.copy(i));
            }
            changed(ctx, 1, list, pushEvent(where), args.count() - 2);
        }
        ctx.reply().integer(list.size());
    }

    private static void pop(CommandContext ctx, boolean where) {
        Arguments args = ctx.arguments();
        long count = -1;
        if (args.count() > 3) {
            ctx.reply().error(Errors.wrongArity(where == HEAD ? "lpop" : "rpop"));
            return;
        }
        if (args.count() == 3) {
            try {
                count = parseLong(ctx, 2);
            } catch (Numbers.InvalidNumber e) {
                count = -1;
            }
            if (count < 0) {
                ctx.reply().error(NOT_POSITIVE);
                return;
            }
        }
        Quicklist list = list(ctx, 1);
        if (list == null) {
            if (count >= 0) {
                ctx.reply().nullArray();
            } else {
                ctx.reply().nullBulk();
            }
            return;
        }
        long popping = count < 0 ? 1 : Math.min(count, list.size());
        if (count < 0) {
            ctx.reply().bulk(popFrom(list, where));
        } else {
            ctx.reply().array((int) popping);
            for (long i = 0; i < popping; i++) {
                ctx.reply().bulk(popFrom(list, where));
            }
        }
        if (popping != 0) {
            changed(ctx, 1, list, popEvent(where), popping);
        }
    }

    private static void llen(CommandContext ctx) {
        Quicklist list = list(ctx, 1);
        ctx.reply().integer(list == null ? 0 : list.size());
    }

    // ---- by index -----------------------------------------------------------------------

    private static void lrange(CommandContext ctx) {
        IndexRange asked = IndexRange.parse(ctx, 2);
        if (asked == null) {
            return;
        }
        Quicklist list = list(ctx, 1);
        IndexRange range = list == null ? null : asked.within(list.size());
        if (range == null) {
            ctx.reply().array(0);
            return;
        }
        ReplyWriter reply = ctx.reply();
        reply.array((int) (range.end() - range.start() + 1));
        list.writeRange(range.start(), range.end(), reply);
    }

    private static void lindex(CommandContext ctx) {
        Quicklist list = list(ctx, 1);
        if (list == null) {
            ctx.reply().nullBulk();
            return;
        }
        long index = index(ctx, list);
        if (index == REPLIED) {
            return;
        }
        if (index < 0) {
            ctx.reply().nullBulk();
        } else {
            ctx.reply().bulk(list.get(index));
        }
    }

    private static void lset(CommandContext ctx) {
        Quicklist list = list(ctx, 1);
        if (list == null) {
            ctx.reply().error(Errors.NO_SUCH_KEY);
            return;
        }
        long index = index(ctx, list);
        if (index == REPLIED) {
            return;
        }
        if (index < 0) {
            ctx.reply().error(INDEX_OUT_OF_RANGE);
            return;
        }
        list.set(index, ctx.arguments().copy(3));
        changed(ctx, 1, list, "lset");
        ctx.reply().ok();
    }

    private static void ltrim(CommandContext ctx) {
        IndexRange asked = IndexRange.parse(ctx, 2);
        if (asked == null) {
            return;
        }
        Quicklist list = list(ctx, 1);
        if (list == null) {
            ctx.reply().ok();
            return;
        }
        long size = list.size();
        IndexRange kept = asked.within(size);
        long leftTrim = kept == null ? size : kept.start();
        long rightTrim = kept == null ? 0 : size - kept.end() - 1;
        list.removeRange(0, leftTrim);
        list.removeRange(list.size() - rightTrim, rightTrim);
        changed(ctx, 1, list, "ltrim");
        ctx.reply().ok();
    }

    /** What {@link #index} returns once it replied the error. */
    private static final long REPLIED = Long.MIN_VALUE;

    /**
     * The index at argument 2 within the list (LINDEX, LSET, read after the key): from the end
     * when negative, -1 when out of range, {@link #REPLIED} once the error reply is written.
     */
    private static long index(CommandContext ctx, Quicklist list) {
        try {
            return IndexRange.element(parseLong(ctx, 2), list.size());
        } catch (Numbers.InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return REPLIED;
        }
    }

    // ---- by value -----------------------------------------------------------------------

    private static boolean argumentEquals(Arguments args, int index, byte[] value) {
        return java.util.Arrays.equals(args.array(), args.offset(index), args.offset(index) + args.length(index),
            value, 0, value.length);
    }

    private static void lrem(CommandContext ctx) {
        long count;
        try {
            count = parseLong(ctx, 2);
        } catch (Numbers.InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return;
        }
        Quicklist list = list(ctx, 1);
        if (list == null) {
            ctx.reply().integer(0);
            return;
        }
        Arguments args = ctx.arguments();
        long limit = count == 0 ? Long.MAX_VALUE : Math.abs(count == Long.MIN_VALUE ? Long.MAX_VALUE : count);
        long removed = list.removeEqual(args.array(), args.offset(3), args.length(3), limit, count >= 0);
        if (removed > 0) {
            changed(ctx, 1, list, "lrem");
        }
        ctx.reply().integer(removed);
    }

    private static void linsert(CommandContext ctx) {
        Arguments args = ctx.arguments();
        boolean after;
        if (args.is(2, "after")) {
            after = true;
        } else if (args.is(2, "before")) {
            after = false;
        } else {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        Quicklist list = list(ctx, 1);
        if (list == null) {
            ctx.reply().integer(0);
            return;
        }
        Quicklist.Cursor cursor = list.cursor(0, true);
        while (cursor.hasNext()) {
            long index = cursor.index();
            if (argumentEquals(args, 3, cursor.next())) {
                list.insert(after ? index + 1 : index, args.copy(4));
                changed(ctx, 1, list, "linsert");
                ctx.reply().integer(list.size());
                return;
            }
        }
        ctx.reply().integer(-1);
    }

    private static void lpos(CommandContext ctx) {
        Arguments args = ctx.arguments();
        long rank = 1;
        long count = -1;
        long maxlen = 0;
        for (int i = 3; i < args.count(); i += 2) {
            if (i + 1 >= args.count()) {
                ctx.reply().error(Errors.SYNTAX);
                return;
            }
            long value;
            try {
                value = parseLong(ctx, i + 1);
            } catch (Numbers.InvalidNumber e) {
                // COUNT and MAXLEN are read with getPositiveLongFromObjectOrReply and their own message.
                if (args.is(i, "rank")) {
                    ctx.reply().error(Errors.NOT_INTEGER);
                } else if (args.is(i, "count")) {
                    ctx.reply().error(COUNT_NEGATIVE);
                } else if (args.is(i, "maxlen")) {
                    ctx.reply().error(MAXLEN_NEGATIVE);
                } else {
                    ctx.reply().error(Errors.SYNTAX);
                }
                return;
            }
            if (args.is(i, "rank")) {
                if (value == 0) {
                    ctx.reply().error(RANK_ZERO);
                    return;
                }
                rank = value;
            } else if (args.is(i, "count")) {
                if (value < 0) {
                    ctx.reply().error(COUNT_NEGATIVE);
                    return;
                }
                count = value;
            } else if (args.is(i, "maxlen")) {
                if (value < 0) {
                    ctx.reply().error(MAXLEN_NEGATIVE);
                    return;
                }
                maxlen = value;
            } else {
                ctx.reply().error(Errors.SYNTAX);
                return;
            }
        }
        Quicklist list = list(ctx, 1);
        if (list == null) {
            if (count != -1) {
                ctx.reply().array(0);
            } else {
                ctx.reply().nullBulk();
            }
            return;
        }
        /* Redis negates a negative rank in place; -LONG_MIN stays negative there, so every match
         * from the tail counts as reached, as rank -1 does. */
        boolean towardsTail = rank > 0;
        long wanted = rank == Long.MIN_VALUE ? 1 : Math.abs(rank);
        Quicklist.Cursor cursor = list.cursor(towardsTail ? 0 : list.size() - 1, towardsTail);
        long matches = 0;
        long examined = 0;
        long[] found = count > 0 ? new long[(int) Math.min(count, list.size())] : null;
        java.util.ArrayList<Long> all = count == 0 ? new java.util.ArrayList<>() : null;
        int foundCount = 0;
        while (cursor.hasNext() && (maxlen == 0 || examined < maxlen)) {
            long index = cursor.index();
            byte[] entry = cursor.next();
            examined++;
            if (argumentEquals(args, 2, entry)) {
                matches++;
                if (matches >= wanted) {
                    if (count == -1) {
                        ctx.reply().integer(index);
                        return;
                    }
                    if (all != null) {
                        all.add(index);
                    } else {
                        found[foundCount++] = index;
                        if (foundCount == found.length) {
                            break;
                        }
                    }
                }
            }
        }
        if (count == -1) {
            ctx.reply().nullBulk();
        } else if (all != null) {
            ctx.reply().array(all.size());
            all.forEach(ctx.reply()::integer);
        } else {
            ctx.reply().array(foundCount);
            for (int i = 0; i < foundCount; i++) {
                ctx.reply().integer(found[i]);
            }
        }
    }

    // ---- moves --------------------------------------------------------------------------

    private static void lmove(CommandContext ctx) {
        Boolean from = side(ctx, 3);
        if (from == null) {
            return;
        }
        Boolean to = side(ctx, 4);
        if (to != null) {
            move(ctx, from, to);
        }
    }

    private static void rpoplpush(CommandContext ctx) {
        move(ctx, TAIL, HEAD);
    }

    /**
     * lmoveGenericCommand: pops from the list at argument 1 and pushes onto argument 2 (created if
     * absent), the source removed once empty; null when the source does not exist. Source and
     * destination may be one key: the element rotates.
     */
    private static void move(CommandContext ctx, boolean from, boolean to) {
        Quicklist source = list(ctx, 1);
        if (source == null) {
            ctx.reply().nullBulk();
            return;
        }
        moveFrom(ctx, source, from, to, 1);
    }

    /**
     * The move once the source is known to be a non-empty list; replies WRONGTYPE for another
     * destination. The move counts {@code changes} in the dirty counter, at the destination:
     * lmoveGenericCommand counts one (server.dirty++), not one per list; a served BLMOVE none.
     */
    private static void moveFrom(CommandContext ctx, Quicklist source, boolean from, boolean to, long changes) {
        Quicklist destination = list(ctx, 2);
        byte[] value = popFrom(source, from);
        if (destination == null) {
            destination = newList(ctx);
            pushTo(destination, to, value);
            store(ctx, 2, destination, pushEvent(to), changes);
        } else {
            pushTo(destination, to, value);
            changed(ctx, 2, destination, pushEvent(to), changes);
        }
        if (destination != source) {
            changed(ctx, 1, source, popEvent(from), 0);
        } else {
            KeyspaceEvents.notify(ctx, KeyspaceEvents.LIST, popEvent(from), ctx.arguments(), 1);
        }
        ctx.reply().bulk(value);
    }

    // ---- LMPOP --------------------------------------------------------------------------

    /**
     * mpopGenericCommand for LMPOP ({@code numkeysIndex} 1) and BLMPOP (2): numkeys, keys, LEFT or
     * RIGHT, [COUNT n]. Pops from the first non-empty list; when there is none, LMPOP
     * ({@code timeoutIndex} 0) replies a null array and BLMPOP blocks until the timeout at
     * {@code timeoutIndex} (0 seconds: for ever).
     */
    private static void mpop(CommandContext ctx, int numkeysIndex, int timeoutIndex) {
        MultiPopOptions options = MultiPopOptions.parse(ctx, numkeysIndex, "left", "right");
        if (options == null) {
            return;
        }
        boolean where = options.firstEnd() ? HEAD : TAIL;
        // BLMPOP's timeout is read after numkeys, the side and COUNT, as blockingPopGenericCommand reads it.
        long deadline = -1;
        if (timeoutIndex > 0) {
            deadline = Timeouts.deadline(ctx, timeoutIndex);
            if (deadline == Timeouts.INVALID) {
                return;
            }
        }
        long popCount = options.count();
        int firstKey = numkeysIndex + 1;
        int[] keys = new int[options.numKeys()];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = firstKey + k;
            Quicklist list = list(ctx, firstKey + k);
            if (list != null) {
                popMany(ctx, list, firstKey + k, where, popCount);
                return;
            }
        }
        if (deadline < 0) {
            ctx.reply().nullArray();
            return;
        }
        ctx.block(deadline, keys, -1, new ListWaiter(where, popCount, true));
    }

    /** Replies [key, [elements...]] for up to {@code count} elements popped from one end. */
    private static void popMany(CommandContext ctx, Quicklist list, int keyIndex, boolean where, long count) {
        ReplyWriter reply = ctx.reply();
        long popping = Math.min(count, list.size());
        reply.array(2);
        bulkArgument(reply, ctx.arguments(), keyIndex);
        reply.array((int) popping);
        for (long i = 0; i < popping; i++) {
            reply.bulk(popFrom(list, where));
        }
        changed(ctx, keyIndex, list, popEvent(where), popping);
    }

    // ---- blocking -----------------------------------------------------------------------

    /** BLPOP / BRPOP key [key ...] timeout. */
    private static void blockingPop(CommandContext ctx, boolean where) {
        Arguments args = ctx.arguments();
        long deadline = Timeouts.deadline(ctx, args.count() - 1);
        if (deadline == Timeouts.INVALID) {
            return;
        }
        int[] keys = new int[args.count() - 2];
        for (int k = 1; k < args.count() - 1; k++) {
            keys[k - 1] = k;
            Quicklist list = list(ctx, k);
            if (list != null) {
                popOne(ctx, list, k, where, 1);
                return;
            }
        }
        ctx.block(deadline, keys, -1, new ListWaiter(where, 1, false));
    }

    /** Replies [key, element] for one element popped from one end, counting {@code changes}. */
    private static void popOne(CommandContext ctx, Quicklist list, int keyIndex, boolean where, long changes) {
        ReplyWriter reply = ctx.reply();
        reply.array(2);
        bulkArgument(reply, ctx.arguments(), keyIndex);
        reply.bulk(popFrom(list, where));
        changed(ctx, keyIndex, list, popEvent(where), changes);
    }

    private static void blmove(CommandContext ctx) {
        Boolean from = side(ctx, 3);
        if (from == null) {
            return;
        }
        Boolean to = side(ctx, 4);
        if (to != null) {
            blockingMove(ctx, from, to, 5);
        }
    }

    private static void brpoplpush(CommandContext ctx) {
        blockingMove(ctx, TAIL, HEAD, 3);
    }

    /**
     * blmoveGenericCommand: only the source decides whether to block; a destination of another
     * type is found when the element would move (WRONGTYPE then, the element staying put).
     */
    private static void blockingMove(CommandContext ctx, boolean from, boolean to, int timeoutIndex) {
        long deadline = Timeouts.deadline(ctx, timeoutIndex);
        if (deadline == Timeouts.INVALID) {
            return;
        }
        Quicklist source = list(ctx, 1);
        if (source != null) {
            moveFrom(ctx, source, from, to, 1);
            return;
        }
        ctx.block(deadline, new int[] {1}, 2, new MoveWaiter(from, to));
    }

    private static void blmpop(CommandContext ctx) {
        mpop(ctx, 2, 1);
    }

    /** Whether key argument {@code index} holds a list (never empty, so something to pop). */
    private static boolean holdsList(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        return ctx.keyspace().get(args.array(), args.offset(index), args.length(index)) instanceof Quicklist;
    }

    /**
     * A blocked BLPOP, BRPOP (one element, [key, element]) or BLMPOP (up to count, [key, [elements]]).
     * Redis 7.0 counts no change for the element served to a BLPOP or BRPOP (serveClientBlockedOnList
     * leaves server.dirty alone), but one for each a served BLMPOP pops.
     */
    private record ListWaiter(boolean where, long count, boolean many) implements BlockedCommand {
        @Override
        public boolean ready(CommandContext context, int keyArgument) {
            return holdsList(context, keyArgument);
        }

        @Override
        public void serve(CommandContext context, int keyArgument) {
            Quicklist list = list(context, keyArgument);
            if (many) {
                popMany(context, list, keyArgument, where, count);
            } else {
                popOne(context, list, keyArgument, where, 0);
            }
        }
    }

    /**
     * A blocked BLMOVE or BRPOPLPUSH: served as LMOVE once its source holds a list, though counting
     * no change, as serveClientBlockedOnList counts none.
     */
    private record MoveWaiter(boolean from, boolean to) implements BlockedCommand {
        @Override
        public boolean ready(CommandContext context, int keyArgument) {
            return holdsList(context, keyArgument);
        }

        @Override
        public void serve(CommandContext context, int keyArgument) {
            // A destination of another type ends the serve with WRONGTYPE; the element stays.
            moveFrom(context, list(context, 1), from, to, 0);
        }
    }
}
