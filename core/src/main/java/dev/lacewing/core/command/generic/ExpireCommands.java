package dev.lacewing.core.command.generic;

import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.WRITE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.Keyspace;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.pubsub.KeyspaceEvents;

/**
 * Key expiry commands (Redis's expire.c): EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, TTL, PTTL,
 * EXPIRETIME, PEXPIRETIME and PERSIST. Expiry itself (lazy on access, active in the
 * background) belongs to the keyspace; these commands only read and set absolute times.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its key.
 */
final class ExpireCommands {

    /* EXPIRE options, as Redis's EXPIRE_* flags. */
    private static final int NX = 1;
    private static final int XX = 1 << 1;
    private static final int GT = 1 << 2;
    private static final int LT = 1 << 3;

    /** Returned by the option parser once it has replied with an error. */
    private static final int REFUSED = -1;

    private ExpireCommands() {
    }

    static void register(CommandRegistry registry) {
        registry.register(KeyCommands.keys("expire", -3, 1, 1, "Set a key's time to live in seconds", WRITE, FAST),
            ctx -> expireGeneric(ctx, ctx.now(), true, "expire"));
        registry.register(KeyCommands.keys("pexpire", -3, 1, 1, "Set a key's time to live in milliseconds",
            WRITE, FAST), ctx -> expireGeneric(ctx, ctx.now(), false, "pexpire"));
        registry.register(KeyCommands.keys("expireat", -3, 1, 1, "Set the expiration for a key as a UNIX timestamp",
            WRITE, FAST), ctx -> expireGeneric(ctx, 0, true, "expireat"));
        registry.register(KeyCommands.keys("pexpireat", -3, 1, 1,
            "Set the expiration for a key as a UNIX timestamp specified in milliseconds", WRITE, FAST),
            ctx -> expireGeneric(ctx, 0, false, "pexpireat"));
        registry.register(KeyCommands.keys("ttl", 2, 1, 1, "Get the time to live for a key in seconds",
            READONLY, FAST), ctx -> ttlGeneric(ctx, false, false));
        registry.register(KeyCommands.keys("pttl", 2, 1, 1, "Get the time to live for a key in milliseconds",
            READONLY, FAST), ctx -> ttlGeneric(ctx, true, false));
        registry.register(KeyCommands.keys("expiretime", 2, 1, 1, "Get the expiration Unix timestamp for a key",
            READONLY, FAST), ctx -> ttlGeneric(ctx, false, true));
        registry.register(KeyCommands.keys("pexpiretime", 2, 1, 1,
            "Get the expiration Unix timestamp for a key in milliseconds", READONLY, FAST),
            ctx -> ttlGeneric(ctx, true, true));
        registry.register(KeyCommands.keys("persist", 2, 1, 1, "Remove the expiration from a key", WRITE, FAST),
            ExpireCommands::persist);
    }

    /**
     * EXPIRE and its variants (expireGenericCommand): options first, then the time, which may
     * be negative but must not overflow once in absolute milliseconds; then the key. Replies 1
     * when the expiry was set, 0 when the key is missing or an NX/XX/GT/LT condition fails. A
     * time not in the future deletes the key (and replies 1). A key without expiry counts as
     * an infinite TTL for GT and LT.
     *
     * @param basetime added to the time: now for EXPIRE and PEXPIRE, 0 for the absolute forms
     */
    private static void expireGeneric(CommandContext ctx, long basetime, boolean seconds, String command) {
        Arguments args = ctx.arguments();
        int flags = parseOptionsOrReply(ctx);
        if (flags == REFUSED) {
            return;
        }
        long when;
        try {
            when = Numbers.parseLong(args.array(), args.offset(2), args.length(2));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return;
        }
        if (seconds) {
            if (when > Long.MAX_VALUE / 1000 || when < Long.MIN_VALUE / 1000) {
                ctx.reply().error(Errors.invalidExpireTime(command));
                return;
            }
            when *= 1000;
        }
        if (when > Long.MAX_VALUE - basetime) {
            ctx.reply().error(Errors.invalidExpireTime(command));
            return;
        }
        when += basetime;

        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        int key = args.offset(1);
        int keyLength = args.length(1);
        long current = keyspace.expireAt(array, key, keyLength);
        if (current == KeyCommands.NO_KEY) {
            ctx.reply().integer(0);
            return;
        }
        boolean persistent = current == Keyspace.NO_EXPIRY;
        if (((flags & NX) != 0 && !persistent)
            || ((flags & XX) != 0 && persistent)
            || ((flags & GT) != 0 && (persistent || when <= current))
            || ((flags & LT) != 0 && !persistent && when >= current)) {
            ctx.reply().integer(0);
            return;
        }
        if (when <= ctx.now()) {
            keyspace.remove(array, key, keyLength);
            KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "del", args, 1);
        } else {
            keyspace.setExpireAt(array, key, keyLength, when);
            KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "expire", args, 1);
        }
        ctx.reply().integer(1);
    }

    /** The NX/XX/GT/LT flags from argument 3 on (parseExtendedExpireArgumentsOrReply), or {@link #REFUSED}. */
    private static int parseOptionsOrReply(CommandContext ctx) {
        Arguments args = ctx.arguments();
        int flags = 0;
        for (int i = 3; i < args.count(); i++) {
            if (args.is(i, "NX")) {
                flags |= NX;
            } else if (args.is(i, "XX")) {
                flags |= XX;
            } else if (args.is(i, "GT")) {
                flags |= GT;
            } else if (args.is(i, "LT")) {
                flags |= LT;
            } else {
                ctx.reply().error(Errors.unsupportedOption(args.array(), args.offset(i), args.length(i)));
                return REFUSED;
            }
        }
        if ((flags & NX) != 0 && (flags & (XX | GT | LT)) != 0) {
            ctx.reply().error(Errors.EXPIRE_NX_CONFLICT);
            return REFUSED;
        }
        if ((flags & (GT | LT)) == (GT | LT)) {
            ctx.reply().error(Errors.EXPIRE_GT_LT_CONFLICT);
            return REFUSED;
        }
        return flags;
    }

    /**
     * TTL, PTTL, EXPIRETIME and PEXPIRETIME (ttlGenericCommand): -2 for a missing key, -1 for a
     * key without expiry, otherwise the remaining time or the absolute time, at least 0; seconds
     * are rounded to the nearest.
     */
    private static void ttlGeneric(CommandContext ctx, boolean milliseconds, boolean absolute) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        // Looked up first, as Redis's lookupKeyRead: a hit or a miss (and keymiss) counted.
        if (keyspace.peek(args.array(), args.offset(1), args.length(1)) == null) {
            ctx.reply().integer(KeyCommands.NO_KEY);
            return;
        }
        long expireAt = keyspace.expireAt(args.array(), args.offset(1), args.length(1));
        if (expireAt == KeyCommands.NO_KEY || expireAt == Keyspace.NO_EXPIRY) {
            ctx.reply().integer(expireAt);
            return;
        }
        long time = Math.max(absolute ? expireAt : expireAt - ctx.now(), 0);
        // Redis's (time + 500) / 1000, without its overflow for times near the largest long.
        ctx.reply().integer(milliseconds ? time : time / 1000 + (time % 1000 >= 500 ? 1 : 0));
    }

    /** PERSIST: 1 when an expiry was removed, 0 when the key is missing or has none. */
    private static void persist(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        int key = args.offset(1);
        int keyLength = args.length(1);
        long expireAt = keyspace.expireAt(array, key, keyLength);
        if (expireAt == KeyCommands.NO_KEY || expireAt == Keyspace.NO_EXPIRY) {
            ctx.reply().integer(0);
            return;
        }
        keyspace.setExpireAt(array, key, keyLength, Keyspace.NO_EXPIRY);
        KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "persist", args, 1);
        ctx.reply().integer(1);
    }
}
