package dev.lacewing.core.server;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.Keyspace;
import dev.lacewing.core.acl.Acl;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.resp.RespWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The context every command gets from this server: the api's, with what core's own families need
 * typed. A plugin's handler sees it as the api's {@link CommandContext}; a family handler declared
 * with {@link dev.lacewing.core.command.ContextHandler} sees it as this, so no command casts the api's
 * {@code server()} or {@code client()} to core's classes. Every context core makes is one: the
 * connection itself, the contexts built over it ({@link DelegatingContext}: EXEC's, a script's calls,
 * a served blocked client, the parts of split and gathered commands) and AOF replay's.
 *
 * <p>Thread rule: that of the context; see each implementation.
 */
public interface CoreContext extends CommandContext {

    @Override
    ServerState server();

    /** Core's writer: a script run rewinds it when the run is abandoned. */
    @Override
    RespWriter reply();

    /**
     * The connection the command runs for: its own, or the caller's for a script's call and EXEC's
     * queued commands; null where no client sent it (AOF replay).
     */
    ClientConnection connection();

    /** The connection's user's key patterns, checked for this command with its arguments; AOF replay reads all. */
    @Override
    default boolean readsEveryKey() {
        ClientConnection connection = connection();
        if (connection == null || connection.user().rules().unrestricted()) {
            return true;
        }
        Arguments args = arguments();
        Command<CoreContext> command = server().commands().lookup(args.array(), args.offset(0), args.length(0));
        return command == null || server().acl().allowsEveryKey(connection.user().rules(), command, args, Acl.READ);
    }

    /**
     * FLUSHALL holding the whole keyspace: a running BGSAVE is stopped before the databases are
     * emptied (its older image must not replace the file afterwards), and under save points the
     * empty dataset is saved at once, so a restart does not bring the flushed keys back from the last
     * dump. The flush counts one change per key removed, as in 7.0.15.
     */
    @Override
    default void flushAll() {
        ServerState state = server();
        if (state.backgroundSave().running()) {
            state.backgroundSave().cancel();
        }
        List<Keyspace> databases = new ArrayList<>(databases());
        for (int i = 0; i < databases(); i++) {
            databases.add(keyspace(i));
            keyspace(i).clear();
        }
        if (!state.settings().value("save").isEmpty() && state.snapshots().save(databases)) {
            state.backgroundSave().saved(databases);
        }
    }
}
