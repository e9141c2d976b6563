package dev.lacewing.core.command.generic;

import static dev.lacewing.api.CommandFlag.DENYOOM;
import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.WRITE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.ScanOptions;
import dev.lacewing.core.command.Glob;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.datatype.TypedValue;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The generic key family (Redis's db.c): commands that work on keys whatever their type. The
 * family also takes in the expiry commands ({@link ExpireCommands}, expire.c), the database
 * commands ({@link DatabaseCommands}), OBJECT ({@link ObjectCommands}, object.c), SORT
 * ({@link SortCommands}, sort.c) and DUMP/RESTORE ({@link DumpCommands}, cluster.c); {@link #register}
 * declares all six.
 *
 * <p>COPY ... DB and MOVE reach a key of another database through {@link CommandContext#keyspace(int)}
 * while declaring only their keys: partitions hold a slot range across every database, so the
 * engine's grant for a key covers that key in every database.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its keys (or
 * the whole keyspace for KEYS, SCAN and RANDOMKEY).
 */
public final class KeyCommands {

    /** What {@link Keyspace#expireAt} returns for a key that does not exist. */
    static final long NO_KEY = -2;

    /**
     * SCAN gathers at most this many table steps of COUNT slots per call, as Redis walks at most
     * COUNT * 10 buckets while it has fewer than COUNT keys.
     */
    private static final int SCAN_STEPS = 10;

    private KeyCommands() {
    }

    /** Registers the generic family: key, expiry and database commands. */
    public static void register(CommandRegistry registry) {
        registry.register(keys("del", -2, 1, -1, "Delete a key", WRITE), KeyCommands::del);
        registry.register(keys("unlink", -2, 1, -1,
            "Delete a key asynchronously in another thread. Otherwise it is just as DEL, but non blocking.",
            WRITE, FAST), KeyCommands::del);
        registry.register(keys("exists", -2, 1, -1, "Determine if a key exists", READONLY, FAST),
            KeyCommands::exists);
        registry.register(keys("touch", -2, 1, -1,
            "Alters the last access time of a key(s). Returns the number of existing keys specified.",
            READONLY, FAST), KeyCommands::touch);
        registry.register(keys("type", 2, 1, 1, "Determine the type stored at key", READONLY, FAST),
            KeyCommands::type);
        registry.register(keys("rename", 3, 1, 2, "Rename a key", WRITE), KeyCommands::rename);
        registry.register(keys("renamenx", 3, 1, 2, "Rename a key, only if the new key does not exist",
            WRITE, FAST), KeyCommands::renamenx);
        registry.register(keys("copy", -3, 1, 2, "Copy a key", WRITE, DENYOOM), KeyCommands::copy);
        registry.register(keys("move", 3, 1, 1, "Move a key to another database", WRITE, FAST),
            KeyCommands::move);
        registry.register(wholeKeyspace("keys", 2, "Find all keys matching the given pattern", READONLY),
            KeyCommands::keys);
        registry.register(wholeKeyspace("scan", -2, "Incrementally iterate the keys space", READONLY)
            .withPartitionCursor(KeyCommands::scanCursor), KeyCommands::scan);
        registry.register(wholeKeyspace("randomkey", 1, "Return a random key from the keyspace", READONLY),
            KeyCommands::randomkey);
        ExpireCommands.register(registry);
        DatabaseCommands.register(registry);
        ObjectCommands.register(registry);
        SortCommands.register(registry);
        DumpCommands.register(registry);
    }

    /** A command on the keys from {@code firstKey} to {@code lastKey}, one after another. */
    static CommandSpec keys(String name, int arity, int firstKey, int lastKey, String summary,
                            CommandFlag... flags) {
        return new CommandSpec(name, arity, Set.of(flags), firstKey, lastKey, 1, KeyScope.KEYS, "generic", summary);
    }

    private static CommandSpec wholeKeyspace(String name, int arity, String summary, CommandFlag... flags) {
        return new CommandSpec(name, arity, Set.of(flags), 0, 0, 0, KeyScope.ALL, "generic", summary);
    }

    /** DEL and UNLINK: the number of keys deleted. UNLINK frees nothing later; the GC does. */
    private static void del(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        int deleted = 0;
        for (int i = 1; i < args.count(); i++) {
            if (keyspace.remove(args.array(), args.offset(i), args.length(i))) {
                deleted++;
                KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "del", args, i);
            }
        }
        ctx.reply().integer(deleted);
    }

    /**
     * EXISTS: the number of arguments naming a live key, a key named twice counting twice. Not an
     * access (Redis's LOOKUP_NOTOUCH), unlike TOUCH, whose purpose it is.
     */
    private static void exists(CommandContext ctx) {
        countLive(ctx, false);
    }

    /** TOUCH: EXISTS's count, each key counting as accessed (idle time reset, LFU counter bumped). */
    private static void touch(CommandContext ctx) {
        countLive(ctx, true);
    }

    private static void countLive(CommandContext ctx, boolean touch) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        int found = 0;
        for (int i = 1; i < args.count(); i++) {
            Object value = touch ? keyspace.get(args.array(), args.offset(i), args.length(i))
                : keyspace.peek(args.array(), args.offset(i), args.length(i));
            if (value != null) {
                found++;
            }
        }
        ctx.reply().integer(found);
    }

    /** TYPE does not count as an access (LOOKUP_NOTOUCH). */
    private static void type(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ctx.reply().simple(typeName(ctx.keyspace().peek(args.array(), args.offset(1), args.length(1))));
    }

    /** The name TYPE replies for a stored value, {@code none} for null. */
    static String typeName(Object value) {
        if (value == null) {
            return "none";
        }
        if (value instanceof TypedValue typed) {
            return typed.typeName();
        }
        return "string";
    }

    private static void rename(CommandContext ctx) {
        renameGeneric(ctx, false);
    }

    private static void renamenx(CommandContext ctx) {
        renameGeneric(ctx, true);
    }

    /**
     * RENAME and RENAMENX (renameGenericCommand): a missing source is an error even when both
     * names are the same; renaming a key onto itself changes nothing (RENAMENX replies 0). The
     * value moves with its expiry, replacing any destination (RENAME) or giving way to it
     * (RENAMENX, which replies 0).
     */
    private static void renameGeneric(CommandContext ctx, boolean nx) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        int source = args.offset(1);
        int sourceLength = args.length(1);
        int destination = args.offset(2);
        int destinationLength = args.length(2);
        long expireAt = keyspace.expireAt(array, source, sourceLength);
        Object value = expireAt == NO_KEY ? null : keyspace.get(array, source, sourceLength);
        if (value == null) {
            ctx.reply().error(Errors.NO_SUCH_KEY);
            return;
        }
        boolean sameKey = Arrays.equals(array, source, source + sourceLength,
            array, destination, destination + destinationLength);
        if (nx && (sameKey || keyspace.get(array, destination, destinationLength) != null)) {
            ctx.reply().integer(0);
            return;
        }
        if (!sameKey) {
            // As Redis's dbDelete then dbAdd: a key replaced is created anew (a "new" event). The
            // store alone counts in the dirty counter: Redis counts a rename as one change.
            keyspace.remove(array, destination, destinationLength, 0);
            putTaken(keyspace, array, source, sourceLength, keyspace, destination, destinationLength, value,
                expireAt, false);
            keyspace.remove(array, source, sourceLength, 0);
            KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "rename_from", args, 1);
            KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "rename_to", args, 2);
        }
        if (nx) {
            ctx.reply().integer(1);
        } else {
            ctx.reply().ok();
        }
    }

    /**
     * COPY source destination [DB index] [REPLACE] (copyCommand): options are read in order, so
     * a bad DB index is reported before a later unknown option. Replies 1 when copied, 0 when
     * the source is missing or the destination exists without REPLACE. The copy keeps the
     * source's expiry and shares nothing mutable with it.
     */
    private static void copy(CommandContext ctx) {
        Arguments args = ctx.arguments();
        int selected = ctx.client().database();
        int target = selected;
        boolean replace = false;
        for (int i = 3; i < args.count(); i++) {
            if (args.is(i, "REPLACE")) {
                replace = true;
            } else if (args.is(i, "DB") && i + 1 < args.count()) {
                long index = DatabaseCommands.databaseIndexOrReply(ctx, ++i);
                if (index == DatabaseCommands.REFUSED) {
                    return;
                }
                target = (int) index;
            } else {
                ctx.reply().error(Errors.SYNTAX);
                return;
            }
        }
        byte[] array = args.array();
        int source = args.offset(1);
        int sourceLength = args.length(1);
        int destination = args.offset(2);
        int destinationLength = args.length(2);
        if (target == selected
            && Arrays.equals(array, source, source + sourceLength, array, destination, destination + destinationLength)) {
            ctx.reply().error(Errors.SAME_OBJECT);
            return;
        }
        Keyspace from = ctx.keyspace();
        long expireAt = from.expireAt(array, source, sourceLength);
        Object value = expireAt == NO_KEY ? null : from.get(array, source, sourceLength);
        if (value == null) {
            KeyspaceEvents.missed(ctx, args, 1);
            ctx.reply().integer(0);
            return;
        }
        Keyspace to = ctx.keyspace(target);
        if (!replace && to.get(array, destination, destinationLength) != null) {
            ctx.reply().integer(0);
            return;
        }
        Object copy = value instanceof TypedValue typed ? typed.copy() : value;
        if (replace) {
            // copyCommand counts one change: the store, not the deletion of what it replaces.
            to.remove(array, destination, destinationLength, 0);
        }
        putTaken(from, array, source, sourceLength, to, destination, destinationLength, copy, expireAt, true);
        KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "copy_to", target, array, destination, destinationLength);
        ctx.reply().integer(1);
    }

    /**
     * MOVE key db (moveCommand): 1 when moved with its expiry, 0 when the key is missing here or
     * exists there.
     */
    private static void move(CommandContext ctx) {
        Arguments args = ctx.arguments();
        long target = DatabaseCommands.databaseIndexOrReply(ctx, 2);
        if (target == DatabaseCommands.REFUSED) {
            return;
        }
        if (target == ctx.client().database()) {
            ctx.reply().error(Errors.SAME_OBJECT);
            return;
        }
        byte[] array = args.array();
        int key = args.offset(1);
        int keyLength = args.length(1);
        Keyspace from = ctx.keyspace();
        long expireAt = from.expireAt(array, key, keyLength);
        Object value = expireAt == NO_KEY ? null : from.get(array, key, keyLength);
        if (value == null) {
            ctx.reply().integer(0);
            return;
        }
        Keyspace to = ctx.keyspace((int) target);
        if (to.get(array, key, keyLength) != null) {
            ctx.reply().integer(0);
            return;
        }
        putTaken(from, array, key, keyLength, to, key, keyLength, value, expireAt, false);
        // moveCommand counts one change, the store there; the key leaving here is its other half.
        from.remove(array, key, keyLength, 0);
        KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "move_from", args, 1);
        KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "move_to", (int) target, array, key, keyLength);
        ctx.reply().integer(1);
    }

    /**
     * Stores under {@code destination} of {@code to} a value taken from the live key {@code source}
     * of {@code from}, with its expiry (RENAME, COPY, MOVE): a string keeps its encoding mark, as
     * Redis moves the object itself, or, when {@code duplicate} (COPY), duplicates it with its
     * encoding, an integer in an object of its own ({@link StringEncoding#duplicated}).
     */
    private static void putTaken(Keyspace from, byte[] array, int source, int sourceLength, Keyspace to,
                                 int destination, int destinationLength, Object value, long expireAt,
                                 boolean duplicate) {
        if (value instanceof byte[] bytes) {
            StringEncoding encoding = from.stringEncoding(array, source, sourceLength);
            to.putEncoded(array, destination, destinationLength, bytes, expireAt,
                duplicate ? encoding.duplicated() : encoding);
        } else {
            to.put(array, destination, destinationLength, value, expireAt);
        }
    }

    /** KEYS pattern: every live key that matches; "*" matches every key, the empty one too. O(keys). */
    private static void keys(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        List<byte[]> matched = new ArrayList<>();
        byte[] array = args.array();
        int pattern = args.offset(1);
        int patternLength = args.length(1);
        boolean allKeys = patternLength == 1 && array[pattern] == '*';
        long cursor = 0;
        do {
            cursor = keyspace.scan(cursor, Integer.MAX_VALUE, key -> {
                if (allKeys || Glob.matches(array, pattern, patternLength, key, 0, key.length, false)) {
                    matched.add(key);
                }
            });
        } while (cursor != 0);
        replyKeys(ctx.reply(), matched);
    }

    /**
     * SCAN cursor [MATCH pattern] [COUNT count] [TYPE type] (scanGenericCommand). Gathers keys
     * from the cursor until it has COUNT of them or has taken {@link #SCAN_STEPS} steps, then
     * filters them by pattern and type, so a call may reply fewer keys than COUNT, or none, with
     * a cursor other than 0. Keys present for the whole iteration are replied at least once.
     * Keys met whose time has passed count towards COUNT, and those the pattern matches are
     * deleted, whatever TYPE asks, as 7.0 deletes them (its TYPE lookup and expireIfNeeded). The
     * command holds the whole keyspace (every shard or stripe), so deleting here is allowed.
     */
    private static void scan(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Long start = ScanOptions.cursor(ctx, 1);
        if (start == null) {
            return;
        }
        long cursor = start;
        ScanOptions options = ScanOptions.parse(ctx, 2, true);
        if (options == null) {
            return;
        }
        long count = options.count();
        int type = options.type();
        Keyspace keyspace = ctx.keyspace();
        int slots = (int) Math.min(count, Integer.MAX_VALUE);
        List<byte[]> gathered = new ArrayList<>();
        List<byte[]> expired = new ArrayList<>();
        int steps = 0;
        long previous;
        do {
            previous = cursor;
            cursor = keyspace.scan(cursor, slots, gathered::add, expired::add);
        } while (cursor != 0 && ++steps < SCAN_STEPS && gathered.size() + expired.size() < count
            && keyspace.scanStaysIn(previous, cursor));

        List<byte[]> replied = new ArrayList<>(gathered.size());
        for (byte[] key : gathered) {
            if (!options.matches(args, key)) {
                continue;
            }
            if (type != 0 && !args.is(type, typeName(keyspace.peek(key, 0, key.length)))) {
                continue;
            }
            replied.add(key);
        }
        for (byte[] key : expired) {
            if (options.matches(args, key)) {
                // The lookup reclaims it as lazy expiry does, counted in expired_keys.
                keyspace.expireAt(key, 0, key.length);
            }
        }
        ReplyWriter reply = ctx.reply();
        reply.array(2);
        reply.bulk(Long.toUnsignedString(cursor));
        replyKeys(reply, replied);
    }

    /** SCAN's cursor for the engine to route by; 0 when it is invalid (the command replies the error wherever it runs). */
    private static long scanCursor(Arguments args) {
        try {
            return ScanOptions.parseCursor(args.array(), args.offset(1), args.length(1));
        } catch (InvalidNumber e) {
            return 0;
        }
    }

    private static void randomkey(CommandContext ctx) {
        byte[] key = ctx.keyspace().randomKey();
        if (key == null) {
            ctx.reply().nullBulk();
        } else {
            ctx.reply().bulk(key);
        }
    }

    private static void replyKeys(ReplyWriter reply, List<byte[]> keys) {
        reply.array(keys.size());
        for (byte[] key : keys) {
            reply.bulk(key);
        }
    }
}
