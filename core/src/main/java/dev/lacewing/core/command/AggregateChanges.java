package dev.lacewing.core.command;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.Keyspace;
import dev.lacewing.core.pubsub.KeyspaceEvents;

/**
 * What follows a change to a list, set, hash or sorted set, as Redis's t_list.c, t_set.c, t_hash.c,
 * t_zset.c, geo.c and sort.c do it: an aggregate created by the command is stored, one left empty
 * is removed with its key, otherwise the keyspace hears it was modified; then the command's keyspace
 * event, and "del" when the key went.
 *
 * <p>Stateless; runs on the command's thread and allocates nothing.
 */
public final class AggregateChanges {

    private AggregateChanges() {
    }

    /**
     * Elements were added to or updated in {@code value}, the aggregate at argument
     * {@code keyIndex}, {@code changes} of them for the dirty counter: a new value is stored, an
     * existing one modified, then the command's event. Nothing happens when nothing changed, so a
     * new value left empty is never stored.
     *
     * @param isNew whether {@code value} is not in the keyspace yet
     * @param eventClass the {@link KeyspaceEvents} class of {@code event}
     */
    public static void added(CommandContext ctx, int keyIndex, Object value, boolean isNew, long changes,
                             int eventClass, String event) {
        if (changes == 0) {
            return;
        }
        Arguments args = ctx.arguments();
        if (isNew) {
            ctx.keyspace().put(args.array(), args.offset(keyIndex), args.length(keyIndex), value, Keyspace.NO_EXPIRY,
                changes);
        } else {
            ctx.keyspace().modified(args.array(), args.offset(keyIndex), args.length(keyIndex), changes);
        }
        KeyspaceEvents.notify(ctx, eventClass, event, args, keyIndex);
    }

    /**
     * A STORE form's {@code result} replaces the key at argument {@code keyIndex}, whatever it
     * held, {@code changes} for the dirty counter, then the command's event; an empty result (null)
     * is {@link #storedEmpty}.
     *
     * @param eventClass the {@link KeyspaceEvents} class of {@code event}
     */
    public static void stored(CommandContext ctx, int keyIndex, Object result, long changes, int eventClass,
                              String event) {
        if (result == null) {
            storedEmpty(ctx, keyIndex);
            return;
        }
        Arguments args = ctx.arguments();
        ctx.keyspace().put(args.array(), args.offset(keyIndex), args.length(keyIndex), result, Keyspace.NO_EXPIRY,
            changes);
        KeyspaceEvents.notify(ctx, eventClass, event, args, keyIndex);
    }

    /** A STORE form's empty result deletes the key at argument {@code keyIndex}: "del" when there was one. */
    public static void storedEmpty(CommandContext ctx, int keyIndex) {
        Arguments args = ctx.arguments();
        if (ctx.keyspace().remove(args.array(), args.offset(keyIndex), args.length(keyIndex))) {
            KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "del", args, keyIndex);
        }
    }

    /**
     * The aggregate at argument {@code keyIndex} changed in place, {@code emptied} when nothing is left in
     * it; {@code changes} counts in the dirty counter.
     *
     * @param eventClass the {@link KeyspaceEvents} class of {@code event}
     */
    public static void changedInPlace(CommandContext ctx, int keyIndex, boolean emptied, long changes, int eventClass,
                                      String event) {
        Arguments args = ctx.arguments();
        if (emptied) {
            ctx.keyspace().remove(args.array(), args.offset(keyIndex), args.length(keyIndex), changes);
        } else {
            ctx.keyspace().modified(args.array(), args.offset(keyIndex), args.length(keyIndex), changes);
        }
        KeyspaceEvents.notify(ctx, eventClass, event, args, keyIndex);
        if (emptied) {
            KeyspaceEvents.notify(ctx, KeyspaceEvents.GENERIC, "del", args, keyIndex);
        }
    }
}
