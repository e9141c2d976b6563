package dev.lacewing.core.command.generic;

import static dev.lacewing.api.CommandFlag.READONLY;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.server.ConnectionCommands;
import dev.lacewing.core.command.server.Subcommands;
import dev.lacewing.core.keyspace.MemoryPolicy;
import dev.lacewing.core.datatype.TypedValue;
import java.util.Set;

/**
 * OBJECT (Redis's object.c): what a key's value looks like inside. Every lookup here is
 * Redis's LOOKUP_NOTOUCH ({@link dev.lacewing.api.Keyspace#peek}, {@code access}): asking about a
 * key's idle time must not reset it.
 *
 * <p>Strings keep the one fact of their encoding their bytes do not tell
 * ({@link dev.lacewing.api.Keyspace#stringEncoding}): Redis edits a string in place (APPEND,
 * SETRANGE, SETBIT, BITFIELD, BITOP, the HyperLogLog commands) as a raw sds, which stays
 * {@code raw} until a new value replaces it, and stores INCRBYFLOAT's result without trying an
 * integer, {@code embstr} up to 44 bytes, {@code raw} beyond; both have REFCOUNT 1. For any other
 * string, ENCODING and REFCOUNT derive from the bytes what Redis's tryObjectEncoding would have
 * made of them, {@code int} for a canonical integer of at most 20 characters within a long
 * (shared, REFCOUNT 2147483647, for 0..9999 unless it was stored while an LRU or LFU policy with a
 * limit forbade sharing, or by COPY: {@link StringEncoding#UNSHARED}, which a later policy change
 * does not undo), {@code embstr} up to 44 bytes, {@code raw} beyond.
 *
 * <p>Stateless; handlers run on the thread the engine gives the command's key.
 */
public final class ObjectCommands {

    /** Redis's OBJ_ENCODING_EMBSTR_SIZE_LIMIT. */
    private static final int EMBSTR_LIMIT = 44;
    /** Redis's OBJ_SHARED_INTEGERS. */
    private static final long SHARED_INTEGERS = 10_000;
    /** Redis's OBJ_SHARED_REFCOUNT (INT_MAX): what a shared object's refcount reads as. */
    private static final long SHARED_REFCOUNT = Integer.MAX_VALUE;
    /** The longest string Redis tries as an integer (tryObjectEncoding). */
    private static final int INTEGER_LIMIT = 20;

    private static final Subcommands<CommandContext> OBJECT = new Subcommands<CommandContext>("object", "generic")
        .add("encoding", 3, 2, 2, 1, KeyScope.KEYS, "Inspect the internal encoding of a Redis object",
            ObjectCommands::encoding, READONLY)
        .add("freq", 3, 2, 2, 1, KeyScope.KEYS, "Get the logarithmic access frequency counter of a Redis object",
            ObjectCommands::freq, READONLY)
        .add("idletime", 3, 2, 2, 1, KeyScope.KEYS, "Get the time since a Redis object was last accessed",
            ObjectCommands::idletime, READONLY)
        .add("refcount", 3, 2, 2, 1, KeyScope.KEYS, "Get the number of references to the value of the key",
            ObjectCommands::refcount, READONLY)
        .help(ctx -> ConnectionCommands.help(ctx.reply(), "OBJECT",
            "ENCODING <key>",
            "    Return the kind of internal representation used in order to store the value",
            "    associated with a <key>.",
            "FREQ <key>",
            "    Return the access frequency index of the <key>. The returned integer is",
            "    proportional to the logarithm of the recent access frequency of the key.",
            "IDLETIME <key>",
            "    Return the idle time of the <key>, that is the approximated number of",
            "    seconds elapsed since the last access to the key.",
            "REFCOUNT <key>",
            "    Return the number of references of the value associated with the specified",
            "    <key>."));

    private ObjectCommands() {
    }

    public static void register(CommandRegistry registry) {
        // Routed by the key of its subcommands, all at the same index (HELP has none).
        registry.register(OBJECT.container(new CommandSpec("object", -2, Set.of(), 2, 2, 1, KeyScope.KEYS, "generic",
            "A container for object introspection commands")), OBJECT::dispatch);
    }

    /** The value of the key named by argument 2 without touching it; null (and a null reply) when absent. */
    private static Object lookup(CommandContext ctx) {
        Arguments args = ctx.arguments();
        Object value = ctx.keyspace().peek(args.array(), args.offset(2), args.length(2));
        if (value == null) {
            ctx.reply().nullBulk();
        }
        return value;
    }

    private static void encoding(CommandContext ctx) {
        Object value = lookup(ctx);
        if (value instanceof TypedValue typed) {
            ctx.reply().bulk(typed.encoding());
        } else if (value instanceof byte[] bytes) {
            StringEncoding stored = stringEncoding(ctx);
            boolean raw = stored == StringEncoding.RAW || bytes.length > EMBSTR_LIMIT;
            ctx.reply().bulk(raw ? "raw" : integerEncoded(stored, bytes) != null ? "int" : "embstr");
        }
    }

    private static StringEncoding stringEncoding(CommandContext ctx) {
        Arguments args = ctx.arguments();
        return ctx.keyspace().stringEncoding(args.array(), args.offset(2), args.length(2));
    }

    /** The integer a string stored with {@code stored} is held as, int-encoded; null when it is not. */
    private static Long integerEncoded(StringEncoding stored, byte[] bytes) {
        return stored == StringEncoding.FROM_BYTES || stored == StringEncoding.UNSHARED ? integer(bytes) : null;
    }

    private static void refcount(CommandContext ctx) {
        Object value = lookup(ctx);
        if (value == null) {
            return;
        }
        // Only a string stored while sharing was allowed can be the shared object (UNSHARED says not).
        Long number = value instanceof byte[] bytes && stringEncoding(ctx) == StringEncoding.FROM_BYTES
            ? integer(bytes) : null;
        boolean shared = number != null && number >= 0 && number < SHARED_INTEGERS;
        ctx.reply().integer(shared ? SHARED_REFCOUNT : 1);
    }

    private static void idletime(CommandContext ctx) {
        int access = access(ctx);
        if (access < 0) {
            return;
        }
        MemoryPolicy memory = MemoryPolicy.snapshot(ctx.server().settings());
        if (memory.policy().lfu()) {
            ctx.reply().error(Errors.LFU_SELECTED);
            return;
        }
        ctx.reply().integer(memory.idleMillis(access, ctx.now()) / 1000);
    }

    private static void freq(CommandContext ctx) {
        int access = access(ctx);
        if (access < 0) {
            return;
        }
        MemoryPolicy memory = MemoryPolicy.snapshot(ctx.server().settings());
        if (!memory.policy().lfu()) {
            ctx.reply().error(Errors.LFU_NOT_SELECTED);
            return;
        }
        ctx.reply().integer(memory.frequency(access, ctx.now()));
    }

    /** The key's access field without touching it; -1 (and a null reply) when absent. */
    private static int access(CommandContext ctx) {
        Arguments args = ctx.arguments();
        int access = ctx.keyspace().access(args.array(), args.offset(2), args.length(2));
        if (access < 0) {
            ctx.reply().nullBulk();
        }
        return access;
    }

    /** The value of a string Redis would store as an integer, or null. */
    private static Long integer(byte[] bytes) {
        if (bytes.length > INTEGER_LIMIT) {
            return null;
        }
        try {
            return Numbers.parseLong(bytes, 0, bytes.length);
        } catch (Numbers.InvalidNumber e) {
            return null;
        }
    }
}
