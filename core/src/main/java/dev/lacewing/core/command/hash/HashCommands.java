package dev.lacewing.core.command.hash;

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
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.AggregateChanges;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.command.Numbers.LongDouble;
import dev.lacewing.core.command.RandomCount;
import dev.lacewing.core.command.ScanOptions;
import dev.lacewing.core.datatype.HashValue;
import dev.lacewing.core.datatype.Positioned;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntConsumer;
import java.util.random.RandomGenerator;

/**
 * The hash family (Redis's t_hash.c) over {@link HashValue}. A key holding another type gets
 * WRONGTYPE; a hash whose last field goes is removed, as Redis does. Encoding thresholds are read
 * from the settings at each write, so CONFIG SET applies to the next command.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its keys.
 */
public final class HashCommands {

    static final String MAX_ENTRIES = "hash-max-listpack-entries";
    static final String MAX_VALUE = "hash-max-listpack-value";
    private static final long DEFAULT_MAX_ENTRIES = 512;
    private static final long DEFAULT_MAX_VALUE = 64;

    private HashCommands() {
    }

    public static void register(CommandRegistry registry) {
        register(registry, "hset", -4, "Set the string value of a hash field", HashCommands::hset, WRITE, DENYOOM, FAST);
        register(registry, "hmset", -4, "Set multiple hash fields to multiple values", HashCommands::hmset, WRITE,
            DENYOOM, FAST);
        register(registry, "hsetnx", 4, "Set the value of a hash field, only if the field does not exist",
            HashCommands::hsetnx, WRITE, DENYOOM, FAST);
        register(registry, "hget", 3, "Get the value of a hash field", HashCommands::hget, READONLY, FAST);
        register(registry, "hmget", -3, "Get the values of all the given hash fields", HashCommands::hmget, READONLY,
            FAST);
        register(registry, "hdel", -3, "Delete one or more hash fields", HashCommands::hdel, WRITE, FAST);
        register(registry, "hlen", 2, "Get the number of fields in a hash", HashCommands::hlen, READONLY, FAST);
        register(registry, "hstrlen", 3, "Get the length of the value of a hash field", HashCommands::hstrlen,
            READONLY, FAST);
        register(registry, "hexists", 3, "Determine if a hash field exists", HashCommands::hexists, READONLY, FAST);
        register(registry, "hkeys", 2, "Get all the fields in a hash", HashCommands::hkeys, READONLY);
        register(registry, "hvals", 2, "Get all the values in a hash", HashCommands::hvals, READONLY);
        register(registry, "hgetall", 2, "Get all the fields and values in a hash", HashCommands::hgetall, READONLY);
        register(registry, "hincrby", 4, "Increment the integer value of a hash field by the given number",
            HashCommands::hincrby, WRITE, DENYOOM, FAST);
        register(registry, "hincrbyfloat", 4, "Increment the float value of a hash field by the given amount",
            HashCommands::hincrbyfloat, WRITE, DENYOOM, FAST);
        register(registry, "hrandfield", -2, "Get one or multiple random fields from a hash",
            HashCommands::hrandfield, READONLY);
        register(registry, "hscan", -3, "Incrementally iterate hash fields and associated values",
            HashCommands::hscan, READONLY);
    }

    private static void register(CommandRegistry registry, String name, int arity, String summary,
                                 CommandHandler handler, CommandFlag... flags) {
        registry.register(new CommandSpec(name, arity, Set.of(flags), 1, 1, 1, KeyScope.KEYS, "hash", summary),
            handler);
    }

    /** The hash at argument 1, or null; WRONGTYPE ends the command when the key holds another type. */
    private static HashValue lookup(CommandContext ctx) {
        Arguments args = ctx.arguments();
        return ctx.keyspace().aggregate(args.array(), args.offset(1), args.length(1), HashValue.TYPE);
    }

    /** The hash at argument 1, created (not yet stored) when absent. */
    private static HashValue lookupOrCreate(CommandContext ctx) {
        HashValue hash = lookup(ctx);
        return hash == null ? new HashValue() : hash;
    }

    /**
     * Stores a hash created by {@link #lookupOrCreate}, or tells the keyspace an existing one
     * changed, {@code changes} (at least 1) for the dirty counter; then the command's keyspace event.
     */
    private static void store(CommandContext ctx, HashValue hash, boolean created, String event, long changes) {
        AggregateChanges.added(ctx, 1, hash, created, changes, KeyspaceEvents.HASH, event);
    }

    private static long maxEntries(CommandContext ctx) {
        return ctx.server().settings().getLong(MAX_ENTRIES, DEFAULT_MAX_ENTRIES);
    }

    private static long maxValue(CommandContext ctx) {
        return ctx.server().settings().getLong(MAX_VALUE, DEFAULT_MAX_VALUE);
    }

    // ---- writes ----------------------------------------------------------------------------

    private static void hset(CommandContext ctx) {
        Integer added = setPairs(ctx, "hset");
        if (added != null) {
            ctx.reply().integer(added);
        }
    }

    private static void hmset(CommandContext ctx) {
        if (setPairs(ctx, "hmset") != null) {
            ctx.reply().ok();
        }
    }

    /** HSET / HMSET: every field,value pair from argument 2; the count of new fields, or null after an error. */
    private static Integer setPairs(CommandContext ctx, String command) {
        Arguments args = ctx.arguments();
        if (args.count() % 2 == 1) {
            ctx.reply().error(Errors.wrongArity(command));
            return null;
        }
        HashValue hash = lookupOrCreate(ctx);
        boolean created = hash.size() == 0;
        long maxEntries = maxEntries(ctx);
        long maxValue = maxValue(ctx);
        byte[] array = args.array();
        int added = 0;
        for (int i = 2; i < args.count(); i += 2) {
            if (hash.set(array, args.offset(i), args.length(i), array, args.offset(i + 1), args.length(i + 1),
                maxEntries, maxValue)) {
                added++;
            }
        }
        // hsetCommand counts every pair, new or not.
        store(ctx, hash, created, "hset", (args.count() - 2) / 2);
        return added;
    }

    private static void hsetnx(CommandContext ctx) {
        HashValue hash = lookupOrCreate(ctx);
        Arguments args = ctx.arguments();
        byte[] array = args.array();
        if (hash.find(array, args.offset(2), args.length(2)) >= 0) {
            ctx.reply().integer(0);
            return;
        }
        boolean created = hash.size() == 0;
        hash.set(array, args.offset(2), args.length(2), array, args.offset(3), args.length(3), maxEntries(ctx),
            maxValue(ctx));
        store(ctx, hash, created, "hset", 1);
        ctx.reply().integer(1);
    }

    private static void hdel(CommandContext ctx) {
        HashValue hash = lookup(ctx);
        if (hash == null) {
            ctx.reply().integer(0);
            return;
        }
        Arguments args = ctx.arguments();
        int deleted = 0;
        for (int i = 2; i < args.count() && hash.size() > 0; i++) {
            if (hash.remove(args.array(), args.offset(i), args.length(i))) {
                deleted++;
            }
        }
        // A stored hash is never empty: deleting nothing leaves it as it was.
        if (deleted > 0) {
            AggregateChanges.changedInPlace(ctx, 1, hash.size() == 0, deleted, KeyspaceEvents.HASH, "hdel");
        }
        ctx.reply().integer(deleted);
    }

    /** HINCRBY: the increment is parsed before the key is read, as Redis does. */
    private static void hincrby(CommandContext ctx) {
        Arguments args = ctx.arguments();
        byte[] array = args.array();
        long increment;
        try {
            increment = Numbers.parseLong(array, args.offset(3), args.length(3));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return;
        }
        HashValue hash = lookupOrCreate(ctx);
        long current = 0;
        int position = hash.find(array, args.offset(2), args.length(2));
        if (position >= 0) {
            try {
                current = Numbers.parseLong(hash.array(position), hash.valueOffset(position),
                    hash.valueLength(position));
            } catch (InvalidNumber e) {
                ctx.reply().error(Errors.HASH_VALUE_NOT_INTEGER);
                return;
            }
        }
        if (Numbers.sumOverflows(current, increment)) {
            ctx.reply().error(Errors.OVERFLOW);
            return;
        }
        long result = current + increment;
        byte[] bytes = Numbers.toBytes(result);
        boolean created = hash.size() == 0;
        hash.set(array, args.offset(2), args.length(2), bytes, 0, bytes.length, maxEntries(ctx), maxValue(ctx));
        store(ctx, hash, created, "hincrby", 1);
        ctx.reply().integer(result);
    }

    /** HINCRBYFLOAT: in the 80-bit long double Redis uses, the result stored as ld2string's human form. */
    private static void hincrbyfloat(CommandContext ctx) {
        Arguments args = ctx.arguments();
        byte[] array = args.array();
        LongDouble increment;
        try {
            increment = Numbers.parseLongDouble(array, args.offset(3), args.length(3));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.NOT_FLOAT);
            return;
        }
        if (!increment.isFinite()) {
            ctx.reply().error(Errors.VALUE_NAN_OR_INFINITY);
            return;
        }
        HashValue hash = lookupOrCreate(ctx);
        LongDouble current = LongDouble.ZERO;
        int position = hash.find(array, args.offset(2), args.length(2));
        if (position >= 0) {
            try {
                current = Numbers.parseLongDouble(hash.array(position), hash.valueOffset(position),
                    hash.valueLength(position));
            } catch (InvalidNumber e) {
                ctx.reply().error(Errors.HASH_VALUE_NOT_FLOAT);
                return;
            }
        }
        LongDouble sum = current.add(increment);
        if (!sum.isFinite()) {
            ctx.reply().error(Errors.NAN_OR_INFINITY);
            return;
        }
        byte[] bytes = sum.toHumanBytes();
        boolean created = hash.size() == 0;
        hash.set(array, args.offset(2), args.length(2), bytes, 0, bytes.length, maxEntries(ctx), maxValue(ctx));
        store(ctx, hash, created, "hincrbyfloat", 1);
        ctx.reply().bulk(bytes);
    }

    // ---- reads -----------------------------------------------------------------------------

    private static void hget(CommandContext ctx) {
        HashValue value = lookup(ctx);
        Arguments args = ctx.arguments();
        replyValue(ctx.reply(), value, args.array(), args.offset(2), args.length(2));
    }

    private static void hmget(CommandContext ctx) {
        HashValue value = lookup(ctx);
        Arguments args = ctx.arguments();
        ctx.reply().array(args.count() - 2);
        for (int i = 2; i < args.count(); i++) {
            replyValue(ctx.reply(), value, args.array(), args.offset(i), args.length(i));
        }
    }

    private static void replyValue(ReplyWriter reply, HashValue hash, byte[] field, int offset, int length) {
        int position = hash == null ? -1 : hash.find(field, offset, length);
        if (position < 0) {
            reply.nullBulk();
        } else {
            reply.bulk(hash.array(position), hash.valueOffset(position), hash.valueLength(position));
        }
    }

    private static void hlen(CommandContext ctx) {
        HashValue value = lookup(ctx);
        ctx.reply().integer(value == null ? 0 : value.size());
    }

    private static void hstrlen(CommandContext ctx) {
        HashValue value = lookup(ctx);
        Arguments args = ctx.arguments();
        int position = value == null ? -1 : value.find(args.array(), args.offset(2), args.length(2));
        ctx.reply().integer(position < 0 ? 0 : value.valueLength(position));
    }

    private static void hexists(CommandContext ctx) {
        HashValue value = lookup(ctx);
        Arguments args = ctx.arguments();
        boolean found = value != null && value.find(args.array(), args.offset(2), args.length(2)) >= 0;
        ctx.reply().integer(found ? 1 : 0);
    }

    private static void hkeys(CommandContext ctx) {
        replyAll(ctx, true, false);
    }

    private static void hvals(CommandContext ctx) {
        replyAll(ctx, false, true);
    }

    private static void hgetall(CommandContext ctx) {
        replyAll(ctx, true, true);
    }

    /** HKEYS, HVALS (arrays) and HGETALL (a map in RESP3), in the hash's iteration order. */
    private static void replyAll(CommandContext ctx, boolean fields, boolean values) {
        HashValue hash = lookup(ctx);
        ReplyWriter reply = ctx.reply();
        int size = hash == null ? 0 : hash.size();
        if (fields && values) {
            reply.map(size);
        } else {
            reply.array(size);
        }
        if (hash == null) {
            return;
        }
        for (int at = hash.first(); at >= 0; at = hash.next(at)) {
            if (fields) {
                reply.bulk(hash.array(at), hash.fieldOffset(at), hash.fieldLength(at));
            }
            if (values) {
                reply.bulk(hash.array(at), hash.valueOffset(at), hash.valueLength(at));
            }
        }
    }

    /**
     * HRANDFIELD key [count [WITHVALUES]] (hrandfieldCommand). Without a count: one field or nil.
     * A negative count may repeat fields; a positive one gives distinct fields, the whole hash
     * when it asks for as many or more.
     */
    private static void hrandfield(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        if (args.count() == 2) {
            HashValue hash = lookup(ctx);
            if (hash == null) {
                reply.nullBulk();
                return;
            }
            int at = hash.randomPosition(ThreadLocalRandom.current());
            reply.bulk(hash.array(at), hash.fieldOffset(at), hash.fieldLength(at));
            return;
        }
        RandomCount asked = RandomCount.parse(ctx, "WITHVALUES");
        if (asked == null) {
            return;
        }
        long count = asked.count();
        boolean withValues = asked.withFlag();
        HashValue hash = lookup(ctx);
        if (hash == null || count == 0) {
            reply.array(0);
            return;
        }
        RandomGenerator random = ThreadLocalRandom.current();
        int size = hash.size();
        if (count < 0) {
            long picks = -count;
            replyPairsHeader(reply, picks, withValues);
            for (long i = 0; i < picks; i++) {
                replyPair(reply, hash, hash.randomPosition(random), withValues);
            }
            return;
        }
        if (count >= size) {
            replyPairsHeader(reply, size, withValues);
            for (int at = hash.first(); at >= 0; at = hash.next(at)) {
                replyPair(reply, hash, at, withValues);
            }
            return;
        }
        List<Integer> chosen = Positioned.distinctRandomPositions(hash, (int) count, random);
        replyPairsHeader(reply, chosen.size(), withValues);
        for (int at : chosen) {
            replyPair(reply, hash, at, withValues);
        }
    }


    private static void replyPairsHeader(ReplyWriter reply, long pairs, boolean withValues) {
        long length = withValues && reply.protocol() == 2 ? pairs * 2 : pairs;
        reply.array((int) Math.min(length, Integer.MAX_VALUE));
    }

    private static void replyPair(ReplyWriter reply, HashValue hash, int at, boolean withValues) {
        if (withValues && reply.protocol() > 2) {
            reply.array(2);
        }
        reply.bulk(hash.array(at), hash.fieldOffset(at), hash.fieldLength(at));
        if (withValues) {
            reply.bulk(hash.array(at), hash.valueOffset(at), hash.valueLength(at));
        }
    }

    /**
     * HSCAN key cursor [MATCH pattern] [COUNT count] (scanGenericCommand): the cursor is checked
     * first, then the key, then the options. A listpack hash comes whole with cursor 0; a table is
     * walked a bucket at a time until COUNT fields and values are gathered or 10 * COUNT buckets
     * were visited.
     */
    private static void hscan(CommandContext ctx) {
        ScanOptions.KeyScan<HashValue> scan = ScanOptions.ofKey(ctx, HashValue.TYPE);
        if (scan == null) {
            return;
        }
        HashValue hash = scan.value();
        ScanOptions options = scan.options();
        List<byte[]> gathered = new ArrayList<>();
        // Redis counts a field and its value as two of COUNT.
        PairCopier visitor = new PairCopier(hash, gathered);
        long cursor = options.walk(scan.cursor(), bucket -> hash.scan(bucket, 1, visitor), gathered);
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        List<byte[]> replied = new ArrayList<>(gathered.size());
        for (int i = 0; i < gathered.size(); i += 2) {
            byte[] field = gathered.get(i);
            if (options.matches(args, field)) {
                replied.add(field);
                replied.add(gathered.get(i + 1));
            }
        }
        ScanOptions.replyHead(reply, cursor, replied.size());
        replied.forEach(reply::bulk);
    }

    /** Copies each visited field and value out: the scan's reply is written after the walk. */
    private record PairCopier(HashValue hash, List<byte[]> gathered) implements IntConsumer {
        @Override
        public void accept(int at) {
            gathered.add(Arrays.copyOfRange(hash.array(at), hash.fieldOffset(at),
                hash.fieldOffset(at) + hash.fieldLength(at)));
            gathered.add(hash.value(at));
        }
    }
}
