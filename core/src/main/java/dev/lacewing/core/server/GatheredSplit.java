package dev.lacewing.core.server;

import dev.lacewing.api.Invocation;
import dev.lacewing.core.keyspace.Database;
import java.util.Arrays;

/**
 * The rounds of a split that gathers its keys on one shard: a command ({@link GatherRequest}) or an
 * EXEC's queue ({@link GatheredExec}), under claims the engine holds on every part's keys
 * throughout:
 * <ol>
 *   <li>gather: each part other than the destination's, on its own shard's thread, hands over its
 *       keys ({@link GatheredKeyspace#gather}): taken out with its expiry when the work may write
 *       it, a detached copy when it only reads it;</li>
 *   <li>run: the destination's part alone ({@link #runsPart}, no other shard is woken) runs the
 *       work on its thread over a {@link GatheredKeyspace}: that shard's keys are its database, the
 *       others what was gathered ({@link #run});</li>
 *   <li>put back: each part that gave up keys stores them as the work left them (or leaves them
 *       deleted), signals their watchers and serves clients blocked on them, on its own thread just
 *       before its claims end ({@link #settle}).</li>
 * </ol>
 * A part that found a client blocked to move an element to another shard ends the rounds after
 * the gather: the taken keys go back unchanged and the work runs whole ({@link #whole}).
 *
 * <p>Thread rule: created on the connection's thread, which then waits. Each round's parts run on
 * their shards' threads; the fields are written only by the running part or by the thread that
 * ends a round ({@link #another}), and the engine's hand-offs between rounds order them.
 */
abstract class GatheredSplit implements Invocation.Split, GatheredKeyspace.Keys {

    final ClientConnection connection;
    final int database;
    final GatheredKeyspace gathered = new GatheredKeyspace();
    /** The key index whose part runs the work; the subclass picks it before the first round. */
    int destination;
    private boolean gathering = true;
    private boolean whole;

    GatheredSplit(ClientConnection connection, int destination) {
        this.connection = connection;
        this.database = connection.database();
        this.destination = destination;
    }

    @Override
    public final Object runPart(int[] keys) {
        Database db = GatheredKeyspace.database(connection.server(), database);
        return gathering ? GatheredKeyspace.gather(db, keys, destinationPart(keys), this) : run(db);
    }

    /** Round two, on the destination's thread alone: the work over the gathered view; its part's reply. */
    abstract Object run(Database db);

    final boolean destinationPart(int[] keys) {
        return Arrays.binarySearch(keys, destination) >= 0;
    }

    /** After gathering, every part's entries join the view and the destination's part alone runs next. */
    @Override
    public final boolean another(Object[] replies) {
        if (!gathering) {
            return false;
        }
        whole = gathered.join(replies);
        gathering = false;
        return !whole;
    }

    @Override
    public final boolean runsPart(int[] keys) {
        return destinationPart(keys);
    }

    @Override
    public final boolean whole(Object[] replies) {
        return whole;
    }

    /** On each part's thread as its claims end: the keys it took stored again as the work left them. */
    @Override
    public final void settle(int[] keys) {
        if (!destinationPart(keys)) {
            gathered.putBack(database, keys[0], connection.server());
        }
    }
}
