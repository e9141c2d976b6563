package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.Keyspace;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.keyspace.Database;
import java.util.Arrays;
import java.util.Set;

/**
 * EXEC over keys of several shards with key-level claims: the engine claims exactly the keys the
 * queued commands declare (their key specs) and the watched keys, in its global order, and runs
 * the queue in the rounds of a {@link GatheredSplit}, as {@link GatherRequest} runs one command. A
 * key written anywhere in the queue is taken out, one it only reads is copied, one claimed only
 * because it is watched is not moved. The run is the watch check and every queued command, each
 * by its own handler, on the destination's thread: the first key a queued command may write, or
 * reads, in the part the engine picks ({@link #preferLonePart}); else in the whole queue.
 *
 * <p>Other keys of every involved shard stay free throughout, so single-key traffic on them never
 * waits for the transaction; a command on one of its keys waits for its claim and sees all of it
 * or none. A queue that needs more runs with every involved shard claimed whole (null from
 * {@link #of}): while keyspace notifications or client tracking are on (their order), under
 * maxmemory (eviction and the DENYOOM check span the shards), and when a queued command is not
 * {@link #eligible}. Cost: every key of another shard is moved or copied (a read-only aggregate is
 * copied whole), and the gather adds a hand-over to the destination's thread when the gathering
 * did not end there.
 *
 * <p>Thread rule: as {@link GatheredSplit}'s.
 */
final class GatheredExec extends GatheredSplit {

    /**
     * Queued commands that reach past the keys they declare, or past one database: the connection's
     * database (SELECT), another database (MOVE, SWAPDB, COPY ... DB), keys a script finds at run
     * time, or a value's internals the gathered view does not keep (OBJECT, MEMORY USAGE).
     */
    private static final Set<String> WHOLE = Set.of("select", "move", "swapdb", "eval", "evalsha", "eval_ro",
        "evalsha_ro", "fcall", "fcall_ro", "object", "memory", "debug");

    private final Multi.Exec exec;
    private final Arguments keys;
    private final byte[] roles;

    private GatheredExec(ClientConnection connection, Multi.Exec exec, byte[] roles, int destination) {
        super(connection, destination);
        this.exec = exec;
        this.keys = exec.arguments();
        this.roles = roles;
    }

    /** Whether a queued command may run over a gathered view of the keys it declares. */
    static boolean eligible(Command<CoreContext> command, Arguments args) {
        CommandSpec spec = command.spec();
        return !spec.has(CommandFlag.BLOCKING) && !spec.has(CommandFlag.ADMIN) && !WHOLE.contains(spec.name())
            && !(spec.name().equals("copy") && args.count() > 3);
    }

    /**
     * A key written anywhere in the queue is taken out wherever it is named: every index of it is
     * {@link GatheredKeyspace#WRITTEN}. {@code roles} holds key {@code i}'s role at index {@code i}
     * for each key of {@code keys} ({@code exec k1 k2 ...}), and may be longer; it is changed in
     * place and returned. Up to {@link KeyMap#LISTED_UP_TO} keys each key not written is compared
     * with the written ones, allocating nothing (the size of nearly every transaction); past it the
     * written keys go into a {@link KeyMap}, whose lookups are hashed.
     */
    static byte[] widenWritten(Arguments keys, byte[] roles) {
        int count = keys.count() - 1;
        int written = 0;
        for (int i = 0; i < count; i++) {
            written += roles[i] == GatheredKeyspace.WRITTEN ? 1 : 0;
        }
        if (written == 0 || written == count) {
            return roles;
        }
        if (count <= KeyMap.LISTED_UP_TO) {
            widenListed(keys, roles, count);
            return roles;
        }
        KeyMap<Boolean> writtenKeys = new KeyMap<>(written);
        for (int i = 0; i < count; i++) {
            if (roles[i] == GatheredKeyspace.WRITTEN) {
                writtenKeys.putIfAbsent(keys.array(), keys.offset(i + 1), keys.length(i + 1), Boolean.TRUE);
            }
        }
        for (int i = 0; i < count; i++) {
            if (roles[i] != GatheredKeyspace.WRITTEN
                && writtenKeys.get(keys.array(), keys.offset(i + 1), keys.length(i + 1)) != null) {
                roles[i] = GatheredKeyspace.WRITTEN;
            }
        }
        return roles;
    }

    /**
     * {@link #widenWritten} by pairs, O(count^2) compares. A key widened here equals a key written
     * in the queue as given, so comparing later keys with it as well changes no outcome.
     */
    private static void widenListed(Arguments keys, byte[] roles, int count) {
        byte[] array = keys.array();
        for (int i = 0; i < count; i++) {
            int from = keys.offset(i + 1);
            int to = from + keys.length(i + 1);
            for (int j = 0; j < count && roles[i] != GatheredKeyspace.WRITTEN; j++) {
                int other = keys.offset(j + 1);
                if (roles[j] == GatheredKeyspace.WRITTEN
                    && Arrays.equals(array, from, to, array, other, other + keys.length(j + 1))) {
                    roles[i] = GatheredKeyspace.WRITTEN;
                }
            }
        }
    }

    /** The gather of an EXEC whose queued commands are all {@link #eligible}, or null when it runs whole. */
    static GatheredExec of(ClientConnection connection, Multi.Exec exec, byte[] roles) {
        ServerState server = connection.server();
        if (server.keyspaceEvents().publishing() || server.tracking().active()
            || server.memory().maxmemory() != 0) {
            return null;
        }
        int count = exec.arguments().count() - 1;
        int destination = -1;
        for (int i = 0; i < count && destination < 0; i++) {
            destination = roles[i] == GatheredKeyspace.WRITTEN ? i : -1;
        }
        for (int i = 0; i < count && destination < 0; i++) {
            destination = roles[i] == GatheredKeyspace.READ ? i : -1;
        }
        return new GatheredExec(connection, exec, roles, Math.max(destination, 0));
    }

    int database() {
        return database;
    }

    /** The keyspace a queued command sees in the run: the gathered view, through the read lookups for a read. */
    Keyspace view(Command<CoreContext> command) {
        return command.readOnly() ? connection.readLookups().of(gathered) : gathered;
    }

    /** The watch check and the queue, writing EXEC's reply into the connection's buffer. */
    @Override
    Object run(Database db) {
        gathered.over(db);
        exec.runGathered(this);
        return null;
    }

    /**
     * The queue runs on the engine's pick when that part holds a key of the queue (not only watched
     * ones): its shard ends the gathering, so the run follows there with no hand-over, and the
     * connection's home gets the release and the reply as one task.
     */
    @Override
    public void preferLonePart(int[] part) {
        int read = -1;
        for (int key : part) {
            if (roles[key] == GatheredKeyspace.WRITTEN) {
                destination = key;
                return;
            }
            read = read < 0 && roles[key] == GatheredKeyspace.READ ? key : read;
        }
        if (read >= 0) {
            destination = read;
        }
    }

    @Override
    public Arguments request() {
        return keys;
    }

    /** The EXEC's key list is {@code exec k1 k2 ...}: key {@code i} is argument {@code i + 1}. */
    @Override
    public int argument(int key) {
        return key + 1;
    }

    @Override
    public byte role(int key) {
        return roles[key];
    }

    /** EXEC's reply was written into the connection's buffer by the run, which the connection lent it. */
    @Override
    public void join(int[][] parts, Object[] replies) {
    }
}
