package dev.lacewing.core.command.string;

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
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.IndexRange;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.command.Numbers.LongDouble;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.util.Set;

/**
 * The string family (Redis's t_string.c). A string value read with {@link Keyspace#get} is a
 * {@code byte[]} never changed afterwards: INCR and its kind store a new array, while APPEND and
 * SETRANGE edit the stored string in place ({@link Keyspace#editString}), which keeps room to grow
 * as Redis's sds does, so a run of appends costs time linear in the bytes appended. Any other
 * stored value is a different type and gets WRONGTYPE.
 *
 * <p>GET, SET and INCR run without creating a String: keys are argument slices, options are
 * matched in place and numbers parsed from the slice. GET, MGET, GETRANGE and STRLEN read through
 * a {@link ValueView}, so a value goes from where the keyspace keeps it (a page of the compact
 * layout) straight into the reply; SET and MSET store from the argument slice.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its keys.
 */
public final class StringCommands {

    /* SET and GETEX options, as Redis's OBJ_* flags of parseExtendedStringArgumentsOrReply. */
    private static final int NX = 1;
    private static final int XX = 1 << 1;
    private static final int GET = 1 << 2;
    private static final int KEEPTTL = 1 << 3;
    private static final int EX = 1 << 4;
    private static final int PX = 1 << 5;
    private static final int EXAT = 1 << 6;
    private static final int PXAT = 1 << 7;
    private static final int PERSIST = 1 << 8;
    private static final int ANY_EXPIRE = EX | PX | EXAT | PXAT;
    /** Parsed options are packed into a long, without allocating: flags low, the expire's argument index high. */
    private static final long SYNTAX_ERROR = -1;

    /** Returned by the expire parser once it has replied with an error; valid times are positive. */
    private static final long EXPIRE_REFUSED = 0;

    private static final long DEFAULT_PROTO_MAX_BULK_LEN = 512L * 1024 * 1024;

    private static final byte[] EMPTY = new byte[0];

    private StringCommands() {
    }

    public static void register(CommandRegistry registry) {
        register(registry, "get", 2, 1, 1, 1, "Get the value of a key", StringCommands::get, READONLY, FAST);
        register(registry, "set", -3, 1, 1, 1, "Set the string value of a key", StringCommands::set, WRITE, DENYOOM);
        register(registry, "setnx", 3, 1, 1, 1, "Set the value of a key, only if the key does not exist",
            StringCommands::setnx, WRITE, DENYOOM, FAST);
        register(registry, "setex", 4, 1, 1, 1, "Set the value and expiration of a key",
            StringCommands::setex, WRITE, DENYOOM);
        register(registry, "psetex", 4, 1, 1, 1, "Set the value and expiration in milliseconds of a key",
            StringCommands::psetex, WRITE, DENYOOM);
        register(registry, "mget", -2, 1, -1, 1, "Get the values of all the given keys",
            StringCommands::mget, READONLY, FAST);
        register(registry, "mset", -3, 1, -1, 2, "Set multiple keys to multiple values",
            StringCommands::mset, WRITE, DENYOOM);
        register(registry, "msetnx", -3, 1, -1, 2,
            "Set multiple keys to multiple values, only if none of the keys exist",
            StringCommands::msetnx, WRITE, DENYOOM);
        register(registry, "getset", 3, 1, 1, 1, "Set the string value of a key and return its old value",
            StringCommands::getset, WRITE, DENYOOM, FAST);
        register(registry, "getdel", 2, 1, 1, 1, "Get the value of a key and delete the key",
            StringCommands::getdel, WRITE, FAST);
        register(registry, "getex", -2, 1, 1, 1, "Get the value of a key and optionally set its expiration",
            StringCommands::getex, WRITE, FAST);
        register(registry, "incr", 2, 1, 1, 1, "Increment the integer value of a key by one",
            StringCommands::incr, WRITE, DENYOOM, FAST);
        register(registry, "decr", 2, 1, 1, 1, "Decrement the integer value of a key by one",
            StringCommands::decr, WRITE, DENYOOM, FAST);
        register(registry, "incrby", 3, 1, 1, 1, "Increment the integer value of a key by the given amount",
            StringCommands::incrby, WRITE, DENYOOM, FAST);
        register(registry, "decrby", 3, 1, 1, 1, "Decrement the integer value of a key by the given number",
            StringCommands::decrby, WRITE, DENYOOM, FAST);
        register(registry, "incrbyfloat", 3, 1, 1, 1, "Increment the float value of a key by the given amount",
            StringCommands::incrbyfloat, WRITE, DENYOOM, FAST);
        register(registry, "append", 3, 1, 1, 1, "Append a value to a key",
            StringCommands::append, WRITE, DENYOOM, FAST);
        register(registry, "strlen", 2, 1, 1, 1, "Get the length of the value stored in a key",
            StringCommands::strlen, READONLY, FAST);
        register(registry, "getrange", 4, 1, 1, 1, "Get a substring of the string stored at a key",
            StringCommands::getrange, READONLY);
        register(registry, "substr", 4, 1, 1, 1, "Get a substring of the string stored at a key",
            StringCommands::getrange, READONLY);
        register(registry, "setrange", 4, 1, 1, 1, "Overwrite part of a string at key starting at the specified offset",
            StringCommands::setrange, WRITE, DENYOOM);
        register(registry, "lcs", -3, 1, 2, 1, "Find longest common substring", LongestCommonSubsequence::lcs,
            READONLY);
    }

    private static void register(CommandRegistry registry, String name, int arity, int firstKey, int lastKey,
                                 int step, String summary, CommandHandler handler, CommandFlag... flags) {
        registry.register(new CommandSpec(name, arity, Set.of(flags), firstKey, lastKey, step, KeyScope.KEYS,
            "string", summary), handler);
    }

    private static void get(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ValueView view = ctx.valueView();
        if (!ctx.keyspace().getValue(args.array(), args.offset(1), args.length(1), view)) {
            ctx.reply().nullBulk();
        } else if (view.isString()) {
            ctx.reply().bulk(view, 0, view.length());
        } else {
            ctx.reply().error(Errors.WRONG_TYPE);
        }
        view.clear();
    }

    private static void set(CommandContext ctx) {
        long options = parseOptions(ctx.arguments(), 3, true);
        if (options == SYNTAX_ERROR) {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        setGeneric(ctx, flagsOf(options), 2, expireIndexOf(options), false, "set");
    }

    private static void setnx(CommandContext ctx) {
        setGeneric(ctx, NX, 2, 0, true, "setnx");
    }

    private static void setex(CommandContext ctx) {
        setGeneric(ctx, EX, 3, 2, false, "setex");
    }

    private static void psetex(CommandContext ctx) {
        setGeneric(ctx, PX, 3, 2, false, "psetex");
    }

    /**
     * SET and its variants (setGenericCommand). The expire is validated before anything is read;
     * with GET the old value is the reply, so an NX/XX abort replies nothing more; otherwise the
     * reply is OK / nil, or 1 / 0 for SETNX.
     *
     * @param expireIndex argument index of the expire time, 0 when there is none
     */
    private static void setGeneric(CommandContext ctx, int flags, int valueIndex, int expireIndex,
                                   boolean integerReply, String command) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        long expireAt = Keyspace.NO_EXPIRY;
        if (expireIndex != 0) {
            expireAt = expireAtOrReply(ctx, expireIndex, flags, command);
            if (expireAt == EXPIRE_REFUSED) {
                return;
            }
        }
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        int keyOffset = args.offset(1);
        int keyLength = args.length(1);
        // A plain SET overwrites whatever is there, so it does not read it: reading the old value
        // copies it out of the compact keyspace's page, an allocation per request.
        boolean found = false;
        if ((flags & (GET | NX | XX)) != 0) {
            Object old = keyspace.get(array, keyOffset, keyLength);
            if ((flags & GET) != 0 && old == null) {
                KeyspaceEvents.missed(ctx, args, 1);
            }
            if ((flags & GET) != 0 && !replyString(ctx, old)) {
                return;
            }
            found = old != null;
        }
        if (((flags & NX) != 0 && found) || ((flags & XX) != 0 && !found)) {
            if ((flags & GET) == 0) {
                if (integerReply) {
                    reply.integer(0);
                } else {
                    reply.nullBulk();
                }
            }
            return;
        }
        if ((flags & KEEPTTL) != 0) {
            keyspace.putKeepExpiry(array, keyOffset, keyLength, args.copy(valueIndex));
        } else {
            keyspace.putString(array, keyOffset, keyLength, array, args.offset(valueIndex), args.length(valueIndex),
                expireAt);
        }
        KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "set", args, 1);
        if (expireAt != Keyspace.NO_EXPIRY) {
            KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "expire", args, 1);
        }
        if ((flags & GET) == 0) {
            if (integerReply) {
                reply.integer(1);
            } else {
                reply.ok();
            }
        }
    }

    /**
     * Parses SET options ({@code forSet}) or GETEX options from argument {@code first} on
     * (parseExtendedStringArgumentsOrReply). Every conflicting combination is a syntax error;
     * repeating an option is not, and the last expire given wins.
     *
     * @return the packed flags and expire index, or {@link #SYNTAX_ERROR}
     */
    private static long parseOptions(Arguments args, int first, boolean forSet) {
        int flags = 0;
        int expireIndex = 0;
        int count = args.count();
        for (int i = first; i < count; i++) {
            boolean hasNext = i + 1 < count;
            int expireFlag = 0;
            if (forSet && args.is(i, "NX") && (flags & XX) == 0) {
                flags |= NX;
            } else if (forSet && args.is(i, "XX") && (flags & NX) == 0) {
                flags |= XX;
            } else if (forSet && args.is(i, "GET")) {
                flags |= GET;
            } else if (forSet && args.is(i, "KEEPTTL") && (flags & (PERSIST | ANY_EXPIRE)) == 0) {
                flags |= KEEPTTL;
            } else if (!forSet && args.is(i, "PERSIST") && (flags & (KEEPTTL | ANY_EXPIRE)) == 0) {
                flags |= PERSIST;
            } else if (args.is(i, "EX")) {
                expireFlag = EX;
            } else if (args.is(i, "PX")) {
                expireFlag = PX;
            } else if (args.is(i, "EXAT")) {
                expireFlag = EXAT;
            } else if (args.is(i, "PXAT")) {
                expireFlag = PXAT;
            } else {
                return SYNTAX_ERROR;
            }
            if (expireFlag != 0) {
                int others = KEEPTTL | PERSIST | (ANY_EXPIRE & ~expireFlag);
                if ((flags & others) != 0 || !hasNext) {
                    return SYNTAX_ERROR;
                }
                flags |= expireFlag;
                expireIndex = ++i;
            }
        }
        return (long) expireIndex << 32 | flags;
    }

    private static int flagsOf(long options) {
        return (int) options;
    }

    private static int expireIndexOf(long options) {
        return (int) (options >>> 32);
    }

    /**
     * The absolute expire time (ms) that argument {@code index} gives under the EX/PX/EXAT/PXAT
     * flag (getExpireMillisecondsOrReply): a positive integer whose conversion to an absolute
     * millisecond time does not overflow. Replies the error and returns {@link #EXPIRE_REFUSED}
     * otherwise.
     */
    private static long expireAtOrReply(CommandContext ctx, int index, int flags, String command) {
        Arguments args = ctx.arguments();
        long value;
        try {
            value = Numbers.parseLong(args.array(), args.offset(index), args.length(index));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return EXPIRE_REFUSED;
        }
        boolean seconds = (flags & (EX | EXAT)) != 0;
        if (value <= 0 || (seconds && value > Long.MAX_VALUE / 1000)) {
            ctx.reply().error(Errors.invalidExpireTime(command));
            return EXPIRE_REFUSED;
        }
        if (seconds) {
            value *= 1000;
        }
        if ((flags & (EX | PX)) != 0) {
            value += ctx.now();
        }
        if (value <= 0) {
            ctx.reply().error(Errors.invalidExpireTime(command));
            return EXPIRE_REFUSED;
        }
        return value;
    }

    private static void mget(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        ReplyWriter reply = ctx.reply();
        int count = args.count();
        ValueView view = ctx.valueView();
        reply.array(count - 1);
        for (int i = 1; i < count; i++) {
            if (keyspace.getValue(args.array(), args.offset(i), args.length(i), view) && view.isString()) {
                reply.bulk(view, 0, view.length());
            } else {
                reply.nullBulk();
            }
        }
        view.clear();
    }

    private static void mset(CommandContext ctx) {
        msetGeneric(ctx, false, "mset");
    }

    private static void msetnx(CommandContext ctx) {
        msetGeneric(ctx, true, "msetnx");
    }

    /** MSET and MSETNX: with {@code nx} nothing is set, and 0 replied, if any key exists. */
    private static void msetGeneric(CommandContext ctx, boolean nx, String command) {
        Arguments args = ctx.arguments();
        int count = args.count();
        if (count % 2 == 0) {
            ctx.reply().error(Errors.wrongArity(command));
            return;
        }
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        if (nx) {
            for (int i = 1; i < count; i += 2) {
                if (keyspace.get(array, args.offset(i), args.length(i)) != null) {
                    ctx.reply().integer(0);
                    return;
                }
            }
        }
        for (int i = 1; i < count; i += 2) {
            keyspace.putString(array, args.offset(i), args.length(i), array, args.offset(i + 1), args.length(i + 1),
                Keyspace.NO_EXPIRY);
            KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "set", args, i);
        }
        if (nx) {
            ctx.reply().integer(1);
        } else {
            ctx.reply().ok();
        }
    }

    private static void getset(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        Object old = keyspace.get(array, args.offset(1), args.length(1));
        if (old == null) {
            KeyspaceEvents.missed(ctx, args, 1);
        }
        if (replyString(ctx, old)) {
            keyspace.put(array, args.offset(1), args.length(1), args.copy(2), Keyspace.NO_EXPIRY);
            KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "set", args, 1);
        }
    }

    private static void getdel(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        Object value = keyspace.get(array, args.offset(1), args.length(1));
        if (value == null) {
            KeyspaceEvents.missed(ctx, args, 1);
        }
        if (replyString(ctx, value) && value != null) {
            keyspace.remove(array, args.offset(1), args.length(1));
            KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "del", args, 1);
        }
    }

    /**
     * GETEX: options are checked first, then the key (nil when missing, before the expire is
     * validated), then the expire. The value is replied before the expiry changes; an EXAT/PXAT
     * time already past deletes the key.
     */
    private static void getex(CommandContext ctx) {
        Arguments args = ctx.arguments();
        long options = parseOptions(args, 2, false);
        if (options == SYNTAX_ERROR) {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        int flags = flagsOf(options);
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        int keyOffset = args.offset(1);
        int keyLength = args.length(1);
        Object value = keyspace.get(array, keyOffset, keyLength);
        if (value == null) {
            KeyspaceEvents.missed(ctx, args, 1);
            ctx.reply().nullBulk();
            return;
        }
        if (!(value instanceof byte[] bytes)) {
            ctx.reply().error(Errors.WRONG_TYPE);
            return;
        }
        long expireAt = 0;
        int expireIndex = expireIndexOf(options);
        if (expireIndex != 0) {
            expireAt = expireAtOrReply(ctx, expireIndex, flags, "getex");
            if (expireAt == EXPIRE_REFUSED) {
                return;
            }
        }
        ctx.reply().bulk(bytes);
        if ((flags & (EXAT | PXAT)) != 0 && expireAt <= ctx.now()) {
            keyspace.remove(array, keyOffset, keyLength);
            KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "del", args, 1);
        } else if (expireIndex != 0) {
            keyspace.setExpireAt(array, keyOffset, keyLength, expireAt);
            KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "expire", args, 1);
        } else if ((flags & PERSIST) != 0 && keyspace.expireAt(array, keyOffset, keyLength) != Keyspace.NO_EXPIRY) {
            keyspace.setExpireAt(array, keyOffset, keyLength, Keyspace.NO_EXPIRY);
            KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "persist", args, 1);
        }
    }

    private static void incr(CommandContext ctx) {
        incrDecr(ctx, 1);
    }

    private static void decr(CommandContext ctx) {
        incrDecr(ctx, -1);
    }

    private static void incrby(CommandContext ctx) {
        Arguments args = ctx.arguments();
        long increment;
        try {
            increment = Numbers.parseLong(args.array(), args.offset(2), args.length(2));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return;
        }
        incrDecr(ctx, increment);
    }

    private static void decrby(CommandContext ctx) {
        Arguments args = ctx.arguments();
        long decrement;
        try {
            decrement = Numbers.parseLong(args.array(), args.offset(2), args.length(2));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return;
        }
        if (decrement == Long.MIN_VALUE) {
            ctx.reply().error(Errors.DECREMENT_OVERFLOW);
            return;
        }
        incrDecr(ctx, -decrement);
    }

    /** INCR, DECR, INCRBY, DECRBY (incrDecrCommand): a missing key counts as 0; the expiry is kept. */
    private static void incrDecr(CommandContext ctx, long increment) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        int keyOffset = args.offset(1);
        int keyLength = args.length(1);
        Object old = keyspace.get(array, keyOffset, keyLength);
        long value = 0;
        if (old != null) {
            if (!(old instanceof byte[] bytes)) {
                ctx.reply().error(Errors.WRONG_TYPE);
                return;
            }
            try {
                value = Numbers.parseLong(bytes);
            } catch (InvalidNumber e) {
                ctx.reply().error(Errors.NOT_INTEGER);
                return;
            }
        }
        if (Numbers.sumOverflows(value, increment)) {
            ctx.reply().error(Errors.OVERFLOW);
            return;
        }
        value += increment;
        keyspace.putKeepExpiry(array, keyOffset, keyLength, Numbers.toBytes(value));
        KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "incrby", args, 1);
        ctx.reply().integer(value);
    }

    /**
     * INCRBYFLOAT, computed in the 80-bit long double Redis uses on x86-64 and replied in its
     * human-friendly form, which is also what is stored, as text: Redis skips the integer encoding
     * for it ({@link StringEncoding#TEXT}). The expiry is kept.
     */
    private static void incrbyfloat(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        int keyOffset = args.offset(1);
        int keyLength = args.length(1);
        Object old = keyspace.get(array, keyOffset, keyLength);
        if (old != null && !(old instanceof byte[])) {
            ctx.reply().error(Errors.WRONG_TYPE);
            return;
        }
        LongDouble sum;
        try {
            LongDouble value = old == null ? LongDouble.ZERO : Numbers.parseLongDouble((byte[]) old);
            sum = value.add(Numbers.parseLongDouble(array, args.offset(2), args.length(2)));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.NOT_FLOAT);
            return;
        }
        if (!sum.isFinite()) {
            ctx.reply().error(Errors.NAN_OR_INFINITY);
            return;
        }
        byte[] result = sum.toHumanBytes();
        keyspace.putEncodedKeepExpiry(array, keyOffset, keyLength, result, StringEncoding.TEXT);
        KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "incrbyfloat", args, 1);
        ctx.reply().bulk(result);
    }

    /**
     * APPEND: creates the key when missing (stored as SET stores it); otherwise edits the string in
     * place, grown with room to spare as sdscatlen grows it, raw as Redis's edited sds is
     * ({@link StringEncoding#RAW}), keeping the expiry.
     */
    private static void append(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        int keyOffset = args.offset(1);
        int keyLength = args.length(1);
        ValueView view = ctx.valueView();
        if (!keyspace.getValue(array, keyOffset, keyLength, view)) {
            keyspace.putString(array, keyOffset, keyLength, array, args.offset(2), args.length(2), Keyspace.NO_EXPIRY);
            KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "append", args, 1);
            ctx.reply().integer(args.length(2));
            return;
        }
        boolean string = view.isString();
        int length = view.length();
        view.clear();
        if (!string) {
            ctx.reply().error(Errors.WRONG_TYPE);
            return;
        }
        int suffix = args.length(2);
        if (!checkStringLength(ctx, length, suffix)) {
            return;
        }
        keyspace.editString(array, keyOffset, keyLength, length + suffix, view);
        view.write(length, array, args.offset(2), suffix);
        view.clear();
        KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "append", args, 1);
        ctx.reply().integer(length + suffix);
    }

    private static void strlen(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ValueView view = ctx.valueView();
        if (!ctx.keyspace().getValue(args.array(), args.offset(1), args.length(1), view)) {
            ctx.reply().integer(0);
        } else if (view.isString()) {
            ctx.reply().integer(view.length());
        } else {
            ctx.reply().error(Errors.WRONG_TYPE);
        }
        view.clear();
    }

    /**
     * GETRANGE and SUBSTR: inclusive offsets, negative ones counted from the end and clamped; an
     * empty string when the range is empty or the key missing.
     */
    private static void getrange(CommandContext ctx) {
        IndexRange asked = IndexRange.parse(ctx, 2);
        if (asked == null) {
            return;
        }
        Arguments args = ctx.arguments();
        ValueView view = ctx.valueView();
        if (!ctx.keyspace().getValue(args.array(), args.offset(1), args.length(1), view)) {
            ctx.reply().bulk(EMPTY);
            return;
        }
        if (!view.isString()) {
            view.clear();
            ctx.reply().error(Errors.WRONG_TYPE);
            return;
        }
        replyRange(ctx, view, asked.start(), asked.end());
        view.clear();
    }

    private static void replyRange(CommandContext ctx, ValueView string, long start, long end) {
        long length = string.length();
        if (start < 0 && end < 0 && start > end) {
            ctx.reply().bulk(EMPTY);
            return;
        }
        long first = IndexRange.clampStart(start, length);
        long last = IndexRange.clampEnd(end, length);
        if (first > last) {
            ctx.reply().bulk(EMPTY);
        } else {
            ctx.reply().bulk(string, (int) first, (int) (last - first + 1));
        }
    }

    /**
     * SETRANGE: overwrites from {@code offset}, padding with zero bytes, in place as APPEND does;
     * a missing key is created at its exact length, as Redis's sdsnewlen makes it. Setting nothing
     * replies the current length, creates no key and leaves the value as it was.
     */
    private static void setrange(CommandContext ctx) {
        Arguments args = ctx.arguments();
        long offset;
        try {
            offset = Numbers.parseLong(args.array(), args.offset(2), args.length(2));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return;
        }
        if (offset < 0) {
            ctx.reply().error(Errors.OFFSET_OUT_OF_RANGE);
            return;
        }
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        int keyOffset = args.offset(1);
        int keyLength = args.length(1);
        int patchLength = args.length(3);
        ValueView view = ctx.valueView();
        int length = 0;
        if (keyspace.getValue(array, keyOffset, keyLength, view)) {
            boolean string = view.isString();
            length = view.length();
            view.clear();
            if (!string) {
                ctx.reply().error(Errors.WRONG_TYPE);
                return;
            }
        }
        if (patchLength == 0) {
            ctx.reply().integer(length);
            return;
        }
        if (!checkStringLength(ctx, offset, patchLength)) {
            return;
        }
        keyspace.editString(array, keyOffset, keyLength, (int) Math.max(length, offset + patchLength), view);
        view.write((int) offset, array, args.offset(3), patchLength);
        int edited = view.length();
        view.clear();
        KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "setrange", args, 1);
        ctx.reply().integer(edited);
    }

    /**
     * Whether a string of {@code prefix + suffix} bytes is allowed (checkStringLength): at most
     * proto-max-bulk-len, and what a Java array can hold. Replies the error when not.
     */
    private static boolean checkStringLength(CommandContext ctx, long prefix, long suffix) {
        long limit = Math.min(ctx.server().settings().getLong("proto-max-bulk-len", DEFAULT_PROTO_MAX_BULK_LEN),
            Integer.MAX_VALUE - 8);
        if (prefix > limit - suffix) {
            ctx.reply().error(Errors.STRING_TOO_LONG);
            return false;
        }
        return true;
    }

    /**
     * Replies a string value, nil for a missing key, or WRONGTYPE (getGenericCommand); returns
     * false only for WRONGTYPE.
     */
    private static boolean replyString(CommandContext ctx, Object value) {
        if (value == null) {
            ctx.reply().nullBulk();
        } else if (value instanceof byte[] bytes) {
            ctx.reply().bulk(bytes);
        } else {
            ctx.reply().error(Errors.WRONG_TYPE);
            return false;
        }
        return true;
    }
}
