package dev.lacewing.core.command;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.core.pubsub.KeyspaceEvents;

/**
 * What follows a change made in place to a stored list, set, hash or sorted set, as Redis's
 * t_list.c, t_set.c, t_hash.c and t_zset.c do it: the key goes when the aggregate is left empty,
 * otherwise the keyspace hears it was modified; then the command's keyspace event, and "del" when
 * the key went.
 *
 * <p>Stateless; runs on the command's thread and allocates nothing.
 */
public final class AggregateChanges {

    private AggregateChanges() {
    }

    /**
     * The aggregate at argument {@code keyIndex} changed, {@code emptied} when nothing is left in
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
