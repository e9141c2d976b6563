package dev.lacewing.core.command.generic;

import static dev.lacewing.api.CommandFlag.DENYOOM;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.WRITE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.Keyspace;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.keyspace.MemoryPolicy;
import dev.lacewing.core.persistence.rdb.DumpPayload;
import dev.lacewing.core.persistence.rdb.RdbFormatException;
import dev.lacewing.core.persistence.rdb.RdbValueCodec;
import dev.lacewing.core.pubsub.KeyspaceEvents;

/**
 * DUMP and RESTORE (Redis's cluster.c): a key's value as Redis 7.0's serialized payload
 * ({@link DumpPayload}), and a key made from one, byte-compatible with redis-server in both
 * directions. A restored aggregate takes the encoding the current {@code *-max-*} settings give it
 * on load, as rdbLoadObject does.
 *
 * <p>RESTORE's IDLETIME sets the restored key's idle time under an LRU (or any non-LFU) policy,
 * FREQ its access counter under an LFU policy; the other is ignored, as objectSetLRUOrLFU does.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command's key.
 */
public final class DumpCommands {

    /** Redis 7.0's RESTORE FREQ bound. */
    private static final long MAX_FREQ = 255;

    private DumpCommands() {
    }

    public static void register(CommandRegistry registry) {
        registry.register(KeyCommands.keys("dump", 2, 1, 1,
            "Return a serialized version of the value stored at the specified key.", READONLY), DumpCommands::dump);
        registry.register(KeyCommands.keys("restore", -4, 1, 1,
            "Create a key using the provided serialized value, previously obtained using DUMP.", WRITE, DENYOOM),
            DumpCommands::restore);
    }

    /** DUMP key: the payload, or nil for a missing key; an access, as lookupKeyRead is. */
    private static void dump(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Object value = ctx.keyspace().get(args.array(), args.offset(1), args.length(1));
        if (value == null) {
            ctx.reply().nullBulk();
            return;
        }
        ctx.reply().bulk(DumpPayload.create(value, true));
    }

    /**
     * RESTORE key ttl payload [REPLACE] [ABSTTL] [IDLETIME s] [FREQ f] (restoreCommand), checked in
     * Redis's order: the options, then whether the key exists (BUSYKEY without REPLACE), then the
     * TTL, then the payload's footer, then its body. A TTL that has already passed deletes the old
     * key under REPLACE and stores nothing, replying OK.
     */
    private static void restore(CommandContext ctx) {
        Arguments args = ctx.arguments();
        boolean replace = false;
        boolean absoluteTtl = false;
        long idleSeconds = -1;
        long frequency = -1;
        for (int i = 4; i < args.count(); i++) {
            boolean hasArgument = i + 1 < args.count();
            if (args.is(i, "REPLACE")) {
                replace = true;
            } else if (args.is(i, "ABSTTL")) {
                absoluteTtl = true;
            } else if (args.is(i, "IDLETIME") && hasArgument && frequency == -1) {
                Long seconds = integer(ctx, ++i);
                if (seconds == null) {
                    return;
                }
                if (seconds < 0) {
                    ctx.reply().error(Errors.INVALID_IDLETIME);
                    return;
                }
                idleSeconds = seconds;
            } else if (args.is(i, "FREQ") && hasArgument && idleSeconds == -1) {
                Long counter = integer(ctx, ++i);
                if (counter == null) {
                    return;
                }
                if (counter < 0 || counter > MAX_FREQ) {
                    ctx.reply().error(Errors.INVALID_FREQ);
                    return;
                }
                frequency = counter;
            } else {
                ctx.reply().error(Errors.SYNTAX);
                return;
            }
        }
        Keyspace keyspace = ctx.keyspace();
        byte[] array = args.array();
        int key = args.offset(1);
        int keyLength = args.length(1);
        if (!replace && keyspace.get(array, key, keyLength) != null) {
            ctx.reply().error(Errors.BUSYKEY);
            return;
        }
        Long ttl = integer(ctx, 2);
        if (ttl == null) {
            return;
        }
        if (ttl < 0) {
            ctx.reply().error(Errors.INVALID_TTL);
            return;
        }
        int payload = args.offset(3);
        int payloadLength = args.length(3);
        if (!DumpPayload.verify(array, payload, payloadLength)) {
            ctx.reply().error(Errors.DUMP_PAYLOAD);
            return;
        }
        Object value;
        try {
            value = DumpPayload.restore(array, payload, payloadLength,
                RdbValueCodec.Encodings.of(ctx.server().settings()));
        } catch (RdbFormatException e) {
            ctx.reply().error(Errors.BAD_DATA_FORMAT);
            return;
        }
        long expireAt = ttl;
        if (ttl != 0 && !absoluteTtl) {
            expireAt = ttl + ctx.now();
        }
        if (ttl != 0 && expireAt <= ctx.now()) {
            if (replace && keyspace.remove(array, key, keyLength)) {
                KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "del", args, 1);
            }
            ctx.reply().ok();
            return;
        }
        if (replace) {
            // The value replaced is not a change of its own: restoreCommand counts its delete and add as one.
            keyspace.remove(array, key, keyLength, 0);
        }
        keyspace.put(array, key, keyLength, value, ttl == 0 ? Keyspace.NO_EXPIRY : expireAt);
        int access = MemoryPolicy.snapshot(ctx.server().settings()).restored(frequency, idleSeconds, ctx.now());
        if (access >= 0) {
            keyspace.setAccess(array, key, keyLength, access);
        }
        KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "restore", args, 1);
        ctx.reply().ok();
    }

    /** Argument {@code index} as a long, or null after replying Redis's error. */
    private static Long integer(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        try {
            return Numbers.parseLong(args.array(), args.offset(index), args.length(index));
        } catch (Numbers.InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return null;
        }
    }
}
