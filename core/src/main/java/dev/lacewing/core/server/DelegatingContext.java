package dev.lacewing.core.server;

import dev.lacewing.api.Client;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.resp.RespWriter;

/**
 * A command context that is another one's (a connection's, or a script's caller's) but for its
 * arguments and what a subclass overrides: in practice the clock, the reply writer and the
 * keyspace. The contexts of EXEC's queued commands, a script's calls, a served blocked client and
 * the parts of split and gathered commands are this with one or two differences each.
 *
 * <p>{@link #block} is not passed on: blocking the delegate's client from a context that is not
 * its own would park the wrong request, so a subclass says what its command does instead (the api's
 * default refuses).
 *
 * <p>Thread rule: the thread running the command it was made for; what is passed on follows the
 * delegate's rule, so a subclass running off the delegate's thread overrides what is not safe there.
 */
abstract class DelegatingContext implements CoreContext {

    private final CoreContext delegate;
    private final ServerState server;

    DelegatingContext(CoreContext delegate, ServerState server) {
        this.delegate = delegate;
        this.server = server;
    }

    DelegatingContext(ClientConnection connection) {
        this(connection, connection.server());
    }

    @Override
    public RespWriter reply() {
        return delegate.reply();
    }

    @Override
    public Keyspace keyspace() {
        return delegate.keyspace();
    }

    @Override
    public Keyspace keyspace(int index) {
        return delegate.keyspace(index);
    }

    @Override
    public int databases() {
        return delegate.databases();
    }

    @Override
    public void swapDatabases(int first, int second) {
        delegate.swapDatabases(first, second);
    }

    @Override
    public long now() {
        return delegate.now();
    }

    @Override
    public ValueView valueView() {
        return delegate.valueView();
    }

    @Override
    public Client client() {
        return delegate.client();
    }

    @Override
    public ServerState server() {
        return server;
    }

    @Override
    public ClientConnection connection() {
        return delegate.connection();
    }
}
