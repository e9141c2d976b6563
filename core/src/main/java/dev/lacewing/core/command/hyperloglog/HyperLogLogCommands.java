package dev.lacewing.core.command.hyperloglog;

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
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.util.Set;

/**
 * The HyperLogLog family (Redis's hyperloglog.c commands): PFADD, PFCOUNT, PFMERGE over string
 * values in Redis's own representation ({@link HyperLogLog}). A HyperLogLog is read in place
 * through the {@link ValueView}; a change is made on a working copy and stored as a new string,
 * keeping the key's expiry, as Redis's in-place edit does.
 *
 * <p>PFCOUNT and PFMERGE of several keys declare them all (first key 1, last -1), so both engines
 * give the command every key at once: on the shared-nothing engine keys of several shards make it
 * a transaction, so a union count or a merge never sees another command half done.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its keys.
 */
public final class HyperLogLogCommands {

    private HyperLogLogCommands() {
    }

    public static void register(CommandRegistry registry) {
        register(registry, "pfadd", -2, 1, 1, "Adds the specified elements to the specified HyperLogLog.",
            HyperLogLogCommands::pfadd, WRITE, DENYOOM, FAST);
        register(registry, "pfcount", -2, 1, -1,
            "Return the approximated cardinality of the set(s) observed by the HyperLogLog at key(s).",
            HyperLogLogCommands::pfcount, READONLY);
        register(registry, "pfmerge", -2, 1, -1, "Merge N different HyperLogLogs into a single one.",
            HyperLogLogCommands::pfmerge, WRITE, DENYOOM);
    }

    private static void register(CommandRegistry registry, String name, int arity, int firstKey, int lastKey,
                                 String summary, CommandHandler handler, CommandFlag... flags) {
        registry.register(new CommandSpec(name, arity, Set.of(flags), firstKey, lastKey, 1, KeyScope.KEYS,
            "hyperloglog", summary), handler);
    }

    private static long sparseMaxBytes(CommandContext ctx) {
        return ctx.server().settings().getLong("hll-sparse-max-bytes", HyperLogLog.DEFAULT_SPARSE_MAX_BYTES);
    }

    /**
     * Points the view at argument {@code index}'s value and checks it is a HyperLogLog; replies the
     * error and returns false when it is another type or a string that is not one. True also for a
     * missing key, which leaves the view empty ({@code view.isString()} false).
     */
    private static boolean lookUp(CommandContext ctx, int index, ValueView view) {
        Arguments args = ctx.arguments();
        if (!ctx.keyspace().getValue(args.array(), args.offset(index), args.length(index), view)) {
            view.clear();
            return true;
        }
        if (!view.isString()) {
            view.clear();
            ctx.reply().error(Errors.WRONG_TYPE);
            return false;
        }
        if (!HyperLogLog.isValid(view.array(), view.offset(), view.length())) {
            view.clear();
            ctx.reply().error(Errors.NOT_HYPERLOGLOG);
            return false;
        }
        return true;
    }

    /**
     * PFADD key [element...]: 1 when the key was created or a register grew, else 0. On a corrupt
     * sparse value the registers raised before the corruption was met stay raised, as in Redis,
     * which edits in place.
     */
    private static void pfadd(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ValueView view = ctx.valueView();
        if (!lookUp(ctx, 1, view)) {
            return;
        }
        boolean created = !view.isString();
        HyperLogLog hll = created ? HyperLogLog.empty()
            : HyperLogLog.copyOf(view.array(), view.offset(), view.length());
        view.clear();
        long sparseMaxBytes = sparseMaxBytes(ctx);
        int updated = created ? 1 : 0;
        int count = args.count();
        for (int i = 2; i < count; i++) {
            int result = hll.add(args.array(), args.offset(i), args.length(i), sparseMaxBytes);
            if (result < 0) {
                if (updated > 0) {
                    store(ctx, hll);
                }
                ctx.reply().error(Errors.CORRUPT_HYPERLOGLOG);
                return;
            }
            updated += result;
        }
        if (updated > 0) {
            hll.invalidateCache();
            store(ctx, hll);
            // pfaddCommand counts the creation and each register raised.
            ctx.keyspace().changed(args.array(), args.offset(1), args.length(1), updated - 1);
            KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "pfadd", args, 1);
        } else if (!isRaw(ctx)) {
            // Only unshared (dbUnshareStringValue): Redis counts no change and signals no watcher.
            ctx.keyspace().reencode(args.array(), args.offset(1), args.length(1), hll.toBytes(), StringEncoding.RAW);
        }
        ctx.reply().integer(updated > 0 ? 1 : 0);
    }

    /**
     * Stores the working copy, raw: Redis unshares the value of the key a PFADD, PFMERGE or
     * single-key PFCOUNT names before anything else (dbUnshareStringValue), so the value is raw
     * afterwards even when nothing changed, e.g. an HLL copied by SET. An existing key keeps its
     * expiry, a new one has none.
     */
    private static void store(CommandContext ctx, HyperLogLog hll) {
        Arguments args = ctx.arguments();
        ctx.keyspace().putEncodedKeepExpiry(args.array(), args.offset(1), args.length(1), hll.toBytes(),
            StringEncoding.RAW);
    }

    private static boolean isRaw(CommandContext ctx) {
        Arguments args = ctx.arguments();
        return ctx.keyspace().stringEncoding(args.array(), args.offset(1), args.length(1)) == StringEncoding.RAW;
    }

    /**
     * PFCOUNT key [key...]. One key: the cached cardinality, or a fresh one that is then cached in
     * the value (a write, as in Redis, although the command is flagged read-only). Several keys:
     * the count of their union, computed on a scratch register array, changing nothing.
     */
    private static void pfcount(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ValueView view = ctx.valueView();
        if (args.count() > 2) {
            byte[] max = new byte[HyperLogLog.REGISTERS];
            if (mergeArguments(ctx, 1, max, view, false) < 0) {
                return;
            }
            ctx.reply().integer(HyperLogLog.countRegisters(max));
            return;
        }
        if (!lookUp(ctx, 1, view)) {
            return;
        }
        if (!view.isString()) {
            ctx.reply().integer(0);
            return;
        }
        byte[] array = view.array();
        int offset = view.offset();
        int length = view.length();
        if (HyperLogLog.hasValidCache(array, offset)) {
            long cached = HyperLogLog.cachedCount(array, offset);
            HyperLogLog unshared = isRaw(ctx) ? null : HyperLogLog.copyOf(array, offset, length);
            view.clear();
            if (unshared != null) {
                store(ctx, unshared);
            }
            ctx.reply().integer(cached);
            return;
        }
        long cardinality = HyperLogLog.count(array, offset, length);
        if (cardinality < 0) {
            view.clear();
            ctx.reply().error(Errors.CORRUPT_HYPERLOGLOG);
            return;
        }
        HyperLogLog hll = HyperLogLog.copyOf(array, offset, length);
        view.clear();
        hll.cacheCount(cardinality);
        store(ctx, hll);
        ctx.reply().integer(cardinality);
    }

    /**
     * Raises {@code max} to the registers of every key from argument {@code first} on (missing keys
     * count as empty). Replies the error and returns -1 on a key that is not a HyperLogLog or is
     * corrupt; otherwise returns 1 if any of them was dense, else 0. PFMERGE, a write, reports its
     * misses itself ({@code writing}); PFCOUNT's view reports its own.
     */
    private static int mergeArguments(CommandContext ctx, int first, byte[] max, ValueView view, boolean writing) {
        int anyDense = 0;
        int count = ctx.arguments().count();
        for (int i = first; i < count; i++) {
            if (!lookUp(ctx, i, view)) {
                return -1;
            }
            if (!view.isString()) {
                if (writing) {
                    KeyspaceEvents.missed(ctx, ctx.arguments(), i);
                }
                continue;
            }
            if (view.array()[view.offset() + 4] == HyperLogLog.DENSE) {
                anyDense = 1;
            }
            boolean merged = HyperLogLog.mergeInto(max, view.array(), view.offset(), view.length());
            view.clear();
            if (!merged) {
                ctx.reply().error(Errors.CORRUPT_HYPERLOGLOG);
                return -1;
            }
        }
        return anyDense;
    }

    /**
     * PFMERGE destkey [sourcekey...]: the destination (itself one of the inputs) gets the
     * register-wise maximum; it turns dense if any input is dense, and otherwise takes the
     * registers one by one in index order through the sparse setter, so the bytes match Redis's.
     */
    private static void pfmerge(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ValueView view = ctx.valueView();
        byte[] max = new byte[HyperLogLog.REGISTERS];
        int anyDense = mergeArguments(ctx, 1, max, view, true);
        if (anyDense < 0) {
            return;
        }
        boolean created = !ctx.keyspace().getValue(args.array(), args.offset(1), args.length(1), view);
        HyperLogLog hll = created ? HyperLogLog.empty()
            : HyperLogLog.copyOf(view.array(), view.offset(), view.length());
        view.clear();
        if (anyDense == 1 && !hll.toDense()) {
            ctx.reply().error(Errors.CORRUPT_HYPERLOGLOG);
            return;
        }
        long sparseMaxBytes = sparseMaxBytes(ctx);
        for (int i = 0; i < HyperLogLog.REGISTERS; i++) {
            if (max[i] != 0) {
                hll.set(i, max[i], sparseMaxBytes);
            }
        }
        hll.invalidateCache();
        store(ctx, hll);
        KeyspaceEvents.notify(ctx, KeyspaceEvents.STRING, "pfadd", args, 1);
        ctx.reply().ok();
    }
}
