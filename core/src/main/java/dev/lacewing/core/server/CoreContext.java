package dev.lacewing.core.server;

import dev.lacewing.api.CommandContext;
import dev.lacewing.core.resp.RespWriter;

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
}
