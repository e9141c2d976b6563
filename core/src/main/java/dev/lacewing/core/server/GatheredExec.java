package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Invocation;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.keyspace.Database;
import dev.lacewing.core.datatype.TypedValue;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * EXEC over keys of several shards with key-level claims: the engine claims exactly the keys the
 * queued commands declare (their key specs) and the watched keys, in its global order, and runs
 * this gather in three rounds under those claims, as {@link GatherRequest} runs one command:
 * <ol>
 *   <li>gather: each shard other than the destination's, on its own thread, hands over the keys of
 *       the queue it holds: taken out with its expiry when a queued command may write it, a
 *       detached copy when the queue only reads it; a key claimed only because it is watched is
 *       not moved;</li>
 *   <li>run: on the destination's thread (the first key a queued command may write), the watch
 *       check and every queued command, each by its own handler, over a {@link GatheredKeyspace}:
 *       that shard's keys are its database, the others what was gathered;</li>
 *   <li>put back: each shard that gave up keys stores them as the queue left them (or leaves them
 *       deleted), flags the watchers of those the queue changed, and serves clients blocked on
 *       them.</li>
 * </ol>
 * Other keys of every involved shard stay free throughout, so single-key traffic on them never
 * waits for the transaction; a command on one of its keys waits for its claim and sees all of it
 * or none. A queue that needs more runs with every involved shard claimed whole (null from
 * {@link #of}): while keyspace notifications or client tracking are on (their order), under
 * maxmemory (eviction and the DENYOOM check span the shards), and when a queued command is not
 * {@link #eligible}. Cost: every key of another shard is moved or copied (a read-only aggregate is
 * copied whole) and the gather adds two cross-thread rounds to the EXEC.
 *
 * <p>Thread rule: created on the connection's thread, which then waits. Each round's parts run on
 * their shards' threads; fields are written by the running part or the thread ending a round
 * ({@link #another}), ordered by the engine's hand-offs between rounds.
 */
final class GatheredExec implements Invocation.Split {

    /** Key roles in an EXEC's key list: claimed for WATCH only, only read by the queue, or maybe written. */
    static final byte WATCHED = 0;
    static final byte READ = 1;
    static final byte WRITTEN = 2;

    private static final long NO_KEY = -2;
    private static final int GATHER = 0;
    private static final int RUN = 1;
    private static final int PUT_BACK = 2;

    /**
     * Queued commands that reach past the keys they declare, or past one database: the connection's
     * database (SELECT), another database (MOVE, SWAPDB, COPY ... DB), keys a script finds at run
     * time, or a value's internals the gathered view does not keep (OBJECT, MEMORY USAGE).
     */
    private static final Set<String> WHOLE = Set.of("select", "move", "swapdb", "eval", "evalsha", "eval_ro",
        "evalsha_ro", "fcall", "fcall_ro", "object", "memory", "debug");

    private final ClientConnection connection;
    private final Multi.Exec exec;
    private final Arguments keys;
    private final byte[] roles;
    private final int database;
    /** The key index whose part runs the queue. */
    private final int destination;
    private final GatheredKeyspace gathered = new GatheredKeyspace();
    private int round = GATHER;
    private boolean whole;
    private boolean taken;

    private GatheredExec(ClientConnection connection, Multi.Exec exec, byte[] roles, int destination) {
        this.connection = connection;
        this.exec = exec;
        this.keys = exec.arguments();
        this.roles = roles;
        this.database = connection.database();
        this.destination = destination;
    }

    /** Whether a queued command may run over a gathered view of the keys it declares. */
    static boolean eligible(Command<CoreContext> command, Arguments args) {
        CommandSpec spec = command.spec();
        return !spec.has(CommandFlag.BLOCKING) && !spec.has(CommandFlag.ADMIN) && !WHOLE.contains(spec.name())
            && !(spec.name().equals("copy") && args.count() > 3);
    }

    /** A key written anywhere in the queue is taken out wherever it is named: every index of it is {@link #WRITTEN}. */
    static byte[] widenWritten(Arguments keys, byte[] roles) {
        Set<ByteBuffer> written = new HashSet<>();
        for (int i = 0; i < roles.length; i++) {
            if (roles[i] == WRITTEN) {
                written.add(ByteBuffer.wrap(keys.array(), keys.offset(i + 1), keys.length(i + 1)));
            }
        }
        for (int i = 0; i < roles.length && !written.isEmpty(); i++) {
            if (roles[i] != WRITTEN && written.contains(ByteBuffer.wrap(keys.array(), keys.offset(i + 1),
                keys.length(i + 1)))) {
                roles[i] = WRITTEN;
            }
        }
        return roles;
    }

    /** The gather of an EXEC whose queued commands are all {@link #eligible}, or null when it runs whole. */
    static GatheredExec of(ClientConnection connection, Multi.Exec exec, byte[] roles) {
        ServerState server = connection.server();
        if (server.keyspaceEvents().publishing() || server.tracking().active()
            || server.settings().longValue("maxmemory") != 0) {
            return null;
        }
        int destination = -1;
        for (int i = 0; i < roles.length && destination < 0; i++) {
            destination = roles[i] == WRITTEN ? i : -1;
        }
        for (int i = 0; i < roles.length && destination < 0; i++) {
            destination = roles[i] == READ ? i : -1;
        }
        return new GatheredExec(connection, exec, roles, Math.max(destination, 0));
    }

    int database() {
        return database;
    }

    /** The keyspace a queued command sees in the run: the gathered view, through the read lookups for a read. */
    Keyspace view(Command<CoreContext> command) {
        return command.readOnly() ? connection.server().readLookups().of(gathered) : gathered;
    }

    @Override
    public Object runPart(int[] part) {
        boolean destinationPart = Arrays.binarySearch(part, destination) >= 0;
        Database db = (Database) connection.server().engine().keyspace(database);
        return switch (round) {
            case GATHER -> gather(db, part, destinationPart);
            case RUN -> destinationPart && !whole ? run(db) : null;
            default -> destinationPart ? null : putBack(db, part);
        };
    }

    /** Round one: this shard's keys of the queue (each once), or TRUE when a blocked client here may move elsewhere. */
    private Object gather(Database db, int[] part, boolean destinationPart) {
        byte[] array = keys.array();
        int first = part[0] + 1;
        if (db.blockedKeys(array, keys.offset(first), keys.length(first)).hasMoversElsewhere()) {
            return Boolean.TRUE;
        }
        if (destinationPart) {
            return null;
        }
        List<GatheredKeyspace.Entry> entries = new ArrayList<>(part.length);
        for (int key : part) {
            int offset = keys.offset(key + 1);
            int length = keys.length(key + 1);
            if (roles[key] == WATCHED || contains(entries, array, offset, length)) {
                continue;
            }
            boolean take = roles[key] == WRITTEN;
            long expireAt = db.expireAt(array, offset, length);
            Object value = expireAt == NO_KEY ? null : db.get(array, offset, length);
            StringEncoding encoding = value instanceof byte[] ? db.stringEncoding(array, offset, length)
                : StringEncoding.FROM_BYTES;
            if (value != null) {
                if (take) {
                    db.takeOut(array, offset, length);
                } else if (value instanceof TypedValue typed) {
                    value = typed.copy();
                }
            }
            entries.add(new GatheredKeyspace.Entry(Arrays.copyOfRange(array, offset, offset + length), take, value,
                expireAt, encoding));
        }
        return entries;
    }

    private static boolean contains(List<GatheredKeyspace.Entry> entries, byte[] array, int offset, int length) {
        for (GatheredKeyspace.Entry entry : entries) {
            if (Arrays.equals(entry.key, 0, entry.key.length, array, offset, offset + length)) {
                return true;
            }
        }
        return false;
    }

    /** Round two, on the destination's thread: EXEC itself (watch check, queue, reply) over the gathered view. */
    private Object run(Database db) {
        gathered.over(db);
        exec.runGathered(this);
        return null;
    }

    /** Round three: this shard's taken keys stored again as the queue left them; those it changed flag their watchers. */
    private Object putBack(Database db, int[] part) {
        byte[] array = keys.array();
        for (int key : part) {
            GatheredKeyspace.Entry entry = gathered.entry(array, keys.offset(key + 1), keys.length(key + 1));
            if (entry == null || !entry.taken) {
                continue;
            }
            db.putBack(entry.key, 0, entry.key.length, entry.value, entry.expireAt, entry.encoding, entry.changed);
            entry.value = null;
            entry.changed = false;
        }
        BlockedClient.serveReadyKeys(connection.server());
        return null;
    }

    /**
     * After gathering: every part's entries join the view, and the queue runs next (or, when a
     * part found a mover elsewhere, what was taken goes back unchanged and EXEC runs whole). After
     * the run: the parts that took keys put them back.
     */
    @Override
    @SuppressWarnings("unchecked")
    public boolean another(Object[] replies) {
        if (round == GATHER) {
            for (Object reply : replies) {
                if (reply == Boolean.TRUE) {
                    whole = true;
                } else if (reply != null) {
                    for (GatheredKeyspace.Entry entry : (List<GatheredKeyspace.Entry>) reply) {
                        gathered.add(entry);
                        taken |= entry.taken;
                    }
                }
            }
            round = whole ? PUT_BACK : RUN;
            return true;
        }
        if (round == RUN && taken) {
            round = PUT_BACK;
            return true;
        }
        return false;
    }

    @Override
    public boolean whole(Object[] replies) {
        return whole;
    }

    /** EXEC's reply was written into the connection's buffer by the run, which the connection lent it. */
    @Override
    public void join(int[][] parts, Object[] replies) {
    }
}
