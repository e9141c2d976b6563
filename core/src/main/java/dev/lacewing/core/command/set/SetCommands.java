package dev.lacewing.core.command.set;

import static dev.lacewing.api.CommandFlag.DENYOOM;
import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.WRITE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandHandler;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.AggregateChanges;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.command.RandomCount;
import dev.lacewing.core.command.ScanOptions;
import dev.lacewing.core.datatype.Positioned;
import dev.lacewing.core.datatype.SetValue;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * The set family (Redis 7.0's t_set.c) over {@link SetValue}. A key holding another type gets
 * WRONGTYPE; a set whose last member goes is removed. The multi-key commands declare every key they
 * read or write (SINTERCARD through its numkeys argument), so both engines give them all their keys
 * at once: under shared-nothing, keys on several shards run as one transaction, atomically.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its keys.
 */
public final class SetCommands {

    static final String MAX_INTSET_ENTRIES = "set-max-intset-entries";
    private static final long DEFAULT_MAX_INTSET_ENTRIES = 512;
    private SetCommands() {
    }

    public static void register(CommandRegistry registry) {
        register(registry, "sadd", -3, 1, 1, "Add one or more members to a set", SetCommands::sadd, WRITE, DENYOOM,
            FAST);
        register(registry, "srem", -3, 1, 1, "Remove one or more members from a set", SetCommands::srem, WRITE, FAST);
        register(registry, "smembers", 2, 1, 1, "Get all the members in a set", SetCommands::smembers, READONLY);
        register(registry, "sismember", 3, 1, 1, "Determine if a given value is a member of a set",
            SetCommands::sismember, READONLY, FAST);
        register(registry, "smismember", -3, 1, 1, "Returns the membership associated with the given elements for a set",
            SetCommands::smismember, READONLY, FAST);
        register(registry, "scard", 2, 1, 1, "Get the number of members in a set", SetCommands::scard, READONLY, FAST);
        register(registry, "spop", -2, 1, 1, "Remove and return one or multiple random members from a set",
            SetCommands::spop, WRITE, FAST);
        register(registry, "srandmember", -2, 1, 1, "Get one or multiple random members from a set",
            SetCommands::srandmember, READONLY);
        register(registry, "smove", 4, 1, 2, "Move a member from one set to another", SetCommands::smove, WRITE, FAST);
        register(registry, "sinter", -2, 1, -1, "Intersect multiple sets", SetCommands::sinter, READONLY);
        register(registry, "sinterstore", -3, 1, -1, "Intersect multiple sets and store the resulting set in a key",
            SetCommands::sinterstore, WRITE, DENYOOM);
        register(registry, "sunion", -2, 1, -1, "Add multiple sets", SetCommands::sunion, READONLY);
        register(registry, "sunionstore", -3, 1, -1, "Add multiple sets and store the resulting set in a key",
            SetCommands::sunionstore, WRITE, DENYOOM);
        register(registry, "sdiff", -2, 1, -1, "Subtract multiple sets", SetCommands::sdiff, READONLY);
        register(registry, "sdiffstore", -3, 1, -1, "Subtract multiple sets and store the resulting set in a key",
            SetCommands::sdiffstore, WRITE, DENYOOM);
        register(registry, "sscan", -3, 1, 1, "Incrementally iterate Set elements", SetCommands::sscan, READONLY);
        // SINTERCARD numkeys key [key ...] [LIMIT limit]: keys counted by argument 1 (movable keys).
        registry.register(new CommandSpec("sintercard", -3, Set.of(READONLY), 0, 0, 0, KeyScope.KEYS, "set",
            "Intersect multiple sets and return the cardinality of the result").withNumKeysAt(1),
            SetCommands::sintercard);
    }

    private static void register(CommandRegistry registry, String name, int arity, int firstKey, int lastKey,
                                 String summary, CommandHandler handler, CommandFlag... flags) {
        registry.register(new CommandSpec(name, arity, Set.of(flags), firstKey, lastKey, 1, KeyScope.KEYS, "set",
            summary), handler);
    }

    /**
     * keymiss for a source of a STORE form, a write whose sources Redis reads with lookupKeyRead;
     * the read-only forms' view reports theirs.
     */
    private static void missedByStore(CommandContext ctx, int destination, int index) {
        if (destination != 0) {
            KeyspaceEvents.missed(ctx, ctx.arguments(), index);
        }
    }

    /** The set at an argument, or null; WRONGTYPE ends the command when the key holds another type. */
    private static SetValue lookup(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        return ctx.keyspace().aggregate(args.array(), args.offset(index), args.length(index), SetValue.TYPE);
    }

    private static long maxIntsetEntries(CommandContext ctx) {
        return ctx.server().settings().getLong(MAX_INTSET_ENTRIES, DEFAULT_MAX_INTSET_ENTRIES);
    }

    // ---- single-key commands ---------------------------------------------------------------

    /** SADD: a new set is an intset when its first member is an integer (setTypeCreate). */
    private static void sadd(CommandContext ctx) {
        SetValue value = lookup(ctx, 1);
        Arguments args = ctx.arguments();
        byte[] array = args.array();
        SetValue set = value == null ? SetValue.forFirstMember(array, args.offset(2), args.length(2)) : value;
        long maxIntsetEntries = maxIntsetEntries(ctx);
        int added = 0;
        for (int i = 2; i < args.count(); i++) {
            if (set.add(array, args.offset(i), args.length(i), maxIntsetEntries)) {
                added++;
            }
        }
        AggregateChanges.added(ctx, 1, set, value == null, added, KeyspaceEvents.SET, "sadd");
        ctx.reply().integer(added);
    }

    private static void srem(CommandContext ctx) {
        SetValue set = lookup(ctx, 1);
        if (set == null) {
            ctx.reply().integer(0);
            return;
        }
        Arguments args = ctx.arguments();
        int removed = 0;
        for (int i = 2; i < args.count() && set.size() > 0; i++) {
            if (set.remove(args.array(), args.offset(i), args.length(i))) {
                removed++;
            }
        }
        // A stored set is never empty: removing nothing leaves it as it was.
        if (removed > 0) {
            afterRemoval(ctx, set, "srem", removed);
        }
        ctx.reply().integer(removed);
    }

    /** SMEMBERS is SINTER of one key in Redis: a set reply in the set's iteration order. */
    private static void smembers(CommandContext ctx) {
        SetValue value = lookup(ctx, 1);
        replySet(ctx.reply(), value);
    }

    private static void sismember(CommandContext ctx) {
        SetValue value = lookup(ctx, 1);
        Arguments args = ctx.arguments();
        boolean found = value != null && value.contains(args.array(), args.offset(2), args.length(2));
        ctx.reply().integer(found ? 1 : 0);
    }

    private static void smismember(CommandContext ctx) {
        SetValue value = lookup(ctx, 1);
        Arguments args = ctx.arguments();
        ctx.reply().array(args.count() - 2);
        for (int i = 2; i < args.count(); i++) {
            boolean found = value != null && value.contains(args.array(), args.offset(i), args.length(i));
            ctx.reply().integer(found ? 1 : 0);
        }
    }

    private static void scard(CommandContext ctx) {
        SetValue value = lookup(ctx, 1);
        ctx.reply().integer(value == null ? 0 : value.size());
    }

    /**
     * SPOP key [count]: without a count one member or nil; with one, a set of up to count distinct
     * members, the whole set (and the key deleted) when count reaches its size.
     */
    private static void spop(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        if (args.count() > 3) {
            reply.error(Errors.SYNTAX);
            return;
        }
        long count = 1;
        if (args.count() == 3) {
            try {
                count = Numbers.parseLong(args.array(), args.offset(2), args.length(2));
            } catch (InvalidNumber e) {
                count = -1;
            }
            if (count < 0) {
                reply.error(Errors.VALUE_MUST_BE_POSITIVE);
                return;
            }
        }
        SetValue set = lookup(ctx, 1);
        if (args.count() == 2) {
            if (set == null) {
                reply.nullBulk();
                return;
            }
            int at = set.randomPosition(ThreadLocalRandom.current());
            reply.bulk(set.member(at));
            set.removeAt(at);
            afterRemoval(ctx, set, "spop", 1);
            return;
        }
        if (set == null || count == 0) {
            reply.set(0);
            return;
        }
        if (count >= set.size()) {
            replySet(reply, union(ctx, List.of(set)));
            AggregateChanges.changedInPlace(ctx, 1, true, set.size(), KeyspaceEvents.SET, "spop");
            return;
        }
        RandomGenerator random = ThreadLocalRandom.current();
        reply.set((int) count);
        for (long i = 0; i < count; i++) {
            int at = set.randomPosition(random);
            reply.bulk(set.member(at));
            set.removeAt(at);
        }
        afterRemoval(ctx, set, "spop", count);
    }

    /**
     * The set at argument 1 lost {@code changes} members: the keyspace hears of it, then the event,
     * then "del" if it went.
     */
    private static void afterRemoval(CommandContext ctx, SetValue set, String event, long changes) {
        AggregateChanges.changedInPlace(ctx, 1, set.size() == 0, changes, KeyspaceEvents.SET, event);
    }

    /**
     * SRANDMEMBER key [count]: a negative count may repeat members, a positive one gives distinct
     * members (the whole set when it asks for as many or more); replies are arrays, as in 7.0.
     */
    private static void srandmember(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        if (args.count() > 3) {
            reply.error(Errors.SYNTAX);
            return;
        }
        if (args.count() == 2) {
            SetValue set = lookup(ctx, 1);
            if (set == null) {
                reply.nullBulk();
            } else {
                reply.bulk(set.member(set.randomPosition(ThreadLocalRandom.current())));
            }
            return;
        }
        RandomCount asked = RandomCount.parse(ctx, null);
        if (asked == null) {
            return;
        }
        long count = asked.count();
        SetValue set = lookup(ctx, 1);
        if (set == null || count == 0) {
            reply.array(0);
            return;
        }
        RandomGenerator random = ThreadLocalRandom.current();
        if (count < 0) {
            reply.array((int) Math.min(-count, Integer.MAX_VALUE));
            for (long i = 0; i < -count; i++) {
                reply.bulk(set.member(set.randomPosition(random)));
            }
            return;
        }
        if (count >= set.size()) {
            SetValue whole = union(ctx, List.of(set));
            reply.array(whole.size());
            replyMembers(reply, whole);
            return;
        }
        List<Integer> chosen = Positioned.distinctRandomPositions(set, (int) count, random);
        reply.array(chosen.size());
        for (int at : chosen) {
            reply.bulk(set.member(at));
        }
    }

    /** As HRANDFIELD: drop random positions from all of them, or draw until enough are distinct. */

    /**
     * SMOVE source destination member (smoveCommand): a missing source replies 0 before any type
     * check of the destination; the same key for both only tells membership.
     */
    private static void smove(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        Object source = keyspace.get(array, args.offset(1), args.length(1));
        Object destination = keyspace.get(array, args.offset(2), args.length(2));
        if (source == null) {
            ctx.reply().integer(0);
            return;
        }
        SetValue from = SetValue.TYPE.of(source);
        SetValue to = SetValue.TYPE.of(destination);
        int memberOffset = args.offset(3);
        int memberLength = args.length(3);
        if (source == destination) {
            ctx.reply().integer(from.contains(array, memberOffset, memberLength) ? 1 : 0);
            return;
        }
        if (!from.remove(array, memberOffset, memberLength)) {
            ctx.reply().integer(0);
            return;
        }
        afterRemoval(ctx, from, "srem", 1);
        boolean created = to == null;
        if (created) {
            to = SetValue.forFirstMember(array, memberOffset, memberLength);
        }
        boolean added = to.add(array, memberOffset, memberLength, maxIntsetEntries(ctx));
        AggregateChanges.added(ctx, 2, to, created, added ? 1 : 0, KeyspaceEvents.SET, "sadd");
        ctx.reply().integer(1);
    }

    // ---- set algebra -----------------------------------------------------------------------

    private static void sinter(CommandContext ctx) {
        intersect(ctx, 1, ctx.arguments().count() - 1, 0, false, 0);
    }

    private static void sinterstore(CommandContext ctx) {
        intersect(ctx, 2, ctx.arguments().count() - 2, 1, false, 0);
    }

    /** SINTERCARD numkeys key [key ...] [LIMIT limit]. */
    private static void sintercard(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        long numKeys;
        try {
            numKeys = Numbers.parseLong(args.array(), args.offset(1), args.length(1));
        } catch (InvalidNumber e) {
            numKeys = 0;
        }
        if (numKeys < 1) {
            reply.error(Errors.NUMKEYS_NOT_POSITIVE);
            return;
        }
        if (numKeys > args.count() - 2) {
            reply.error(Errors.NUMKEYS_OVER_ARGS);
            return;
        }
        long limit = 0;
        for (int i = 2 + (int) numKeys; i < args.count(); i++) {
            if (args.is(i, "LIMIT") && i + 1 < args.count()) {
                i++;
                try {
                    limit = Numbers.parseLong(args.array(), args.offset(i), args.length(i));
                } catch (InvalidNumber e) {
                    limit = -1;
                }
                if (limit < 0) {
                    reply.error(Errors.LIMIT_NEGATIVE);
                    return;
                }
            } else {
                reply.error(Errors.SYNTAX);
                return;
            }
        }
        intersect(ctx, 2, (int) numKeys, 0, true, limit);
    }

    /**
     * SINTER, SINTERSTORE and SINTERCARD (sinterGenericCommand). Every key is type-checked first,
     * as Redis 7.0 does; a missing one then makes the result empty.
     * The smallest set is walked and each member tested against the others.
     *
     * @param destination argument index of the destination key, 0 when none
     * @param limit SINTERCARD's LIMIT, 0 for none
     */
    private static void intersect(CommandContext ctx, int first, int keys, int destination, boolean cardinalityOnly,
                                  long limit) {
        ReplyWriter reply = ctx.reply();
        List<SetValue> sets = new ArrayList<>(keys);
        boolean empty = false;
        for (int i = first; i < first + keys; i++) {
            SetValue value = lookup(ctx, i);
            if (value == null) {
                missedByStore(ctx, destination, i);
                empty = true;
            } else {
                sets.add(value);
            }
        }
        if (empty) {
            if (destination != 0) {
                AggregateChanges.storedEmpty(ctx, destination);
                reply.integer(0);
            } else if (cardinalityOnly) {
                reply.integer(0);
            } else {
                reply.set(0);
            }
            return;
        }
        sets.sort(Comparator.comparingInt(SetValue::size));
        SetValue smallest = sets.get(0);
        List<byte[]> result = new ArrayList<>();
        long cardinality = 0;
        for (int at = smallest.first(); at >= 0; at = smallest.next(at)) {
            byte[] member = smallest.member(at);
            boolean inAll = true;
            for (int j = 1; j < sets.size() && inAll; j++) {
                SetValue other = sets.get(j);
                inAll = other == smallest || other.contains(member, 0, member.length);
            }
            if (inAll) {
                cardinality++;
                if (cardinalityOnly) {
                    if (limit != 0 && cardinality >= limit) {
                        break;
                    }
                } else {
                    result.add(member);
                }
            }
        }
        if (cardinalityOnly) {
            reply.integer(cardinality);
        } else if (destination != 0) {
            SetValue stored = new SetValue();
            long maxIntsetEntries = maxIntsetEntries(ctx);
            for (byte[] member : result) {
                stored.add(member, 0, member.length, maxIntsetEntries);
            }
            storeResult(ctx, destination, stored, "sinterstore");
        } else {
            reply.set(result.size());
            result.forEach(reply::bulk);
        }
    }

    private static void sunion(CommandContext ctx) {
        unionOrDiff(ctx, 1, 0, false);
    }

    private static void sunionstore(CommandContext ctx) {
        unionOrDiff(ctx, 2, 1, false);
    }

    private static void sdiff(CommandContext ctx) {
        unionOrDiff(ctx, 1, 0, true);
    }

    private static void sdiffstore(CommandContext ctx) {
        unionOrDiff(ctx, 2, 1, true);
    }

    /**
     * SUNION, SDIFF and their STORE forms (sunionDiffGenericCommand): every key is type-checked
     * first, a missing key is an empty set. The result is built as Redis builds it, in a set that
     * starts as an intset, and replied in that set's order (ascending for an intset).
     */
    private static void unionOrDiff(CommandContext ctx, int first, int destination, boolean diff) {
        Arguments args = ctx.arguments();
        List<SetValue> sets = new ArrayList<>();
        for (int i = first; i < args.count(); i++) {
            SetValue value = lookup(ctx, i);
            if (value == null) {
                missedByStore(ctx, destination, i);
            }
            sets.add(value);
        }
        SetValue result;
        if (!diff) {
            result = union(ctx, sets);
        } else {
            result = new SetValue();
            SetValue base = sets.get(0);
            long maxIntsetEntries = maxIntsetEntries(ctx);
            if (base != null) {
                for (int at = base.first(); at >= 0; at = base.next(at)) {
                    byte[] member = base.member(at);
                    boolean elsewhere = false;
                    for (int j = 1; j < sets.size() && !elsewhere; j++) {
                        SetValue other = sets.get(j);
                        elsewhere = other != null && (other == base || other.contains(member, 0, member.length));
                    }
                    if (!elsewhere) {
                        result.add(member, 0, member.length, maxIntsetEntries);
                    }
                }
            }
        }
        if (destination != 0) {
            storeResult(ctx, destination, result, diff ? "sdiffstore" : "sunionstore");
        } else {
            replySet(ctx.reply(), result);
        }
    }

    /** The union of some sets (null ones are empty), built from an empty intset. */
    private static SetValue union(CommandContext ctx, List<SetValue> sets) {
        SetValue result = new SetValue();
        long maxIntsetEntries = maxIntsetEntries(ctx);
        for (SetValue set : sets) {
            if (set == null) {
                continue;
            }
            for (int at = set.first(); at >= 0; at = set.next(at)) {
                byte[] member = set.member(at);
                result.add(member, 0, member.length, maxIntsetEntries);
            }
        }
        return result;
    }

    /** A *STORE result replaces the destination (whatever its type), or deletes it when empty. */
    private static void storeResult(CommandContext ctx, int destination, SetValue result, String event) {
        AggregateChanges.stored(ctx, destination, result.size() > 0 ? result : null, 1, KeyspaceEvents.SET, event);
        ctx.reply().integer(result.size());
    }

    private static void replySet(ReplyWriter reply, SetValue set) {
        reply.set(set == null ? 0 : set.size());
        if (set != null) {
            replyMembers(reply, set);
        }
    }

    private static void replyMembers(ReplyWriter reply, SetValue set) {
        for (int at = set.first(); at >= 0; at = set.next(at)) {
            reply.bulk(set.member(at));
        }
    }

    /** SSCAN key cursor [MATCH pattern] [COUNT count]: as HSCAN, over members. */
    private static void sscan(CommandContext ctx) {
        ScanOptions.KeyScan<SetValue> scan = ScanOptions.ofKey(ctx, SetValue.TYPE);
        if (scan == null) {
            return;
        }
        SetValue set = scan.value();
        ScanOptions options = scan.options();
        List<byte[]> gathered = new ArrayList<>();
        long cursor = options.walk(scan.cursor(), bucket -> set.scan(bucket, 1, at -> gathered.add(set.member(at))),
            gathered);
        Arguments args = ctx.arguments();
        List<byte[]> replied = new ArrayList<>(gathered.size());
        for (byte[] member : gathered) {
            if (options.matches(args, member)) {
                replied.add(member);
            }
        }
        ReplyWriter reply = ctx.reply();
        ScanOptions.replyHead(reply, cursor, replied.size());
        replied.forEach(reply::bulk);
    }
}
