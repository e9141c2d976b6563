package dev.lacewing.api;

/**
 * Everything one command execution sees. The engine guarantees that, for the duration of
 * {@link CommandHandler#execute}, the executing thread has exclusive access to every key the
 * command declares (or to the whole keyspace for {@link KeyScope#ALL}).
 */
public interface CommandContext {

    Arguments arguments();

    ReplyWriter reply();

    /** The database the connection has selected. */
    Keyspace keyspace();

    /** Database {@code index} (0..databases-1); for ALL-scope commands such as SWAPDB and FLUSHALL. */
    Keyspace keyspace(int index);

    int databases();

    /** Swaps two databases (SWAPDB); only for commands of scope {@link KeyScope#ALL}. */
    void swapDatabases(int first, int second);

    /** Milliseconds since the epoch, read once per command so that a command sees one clock. */
    long now();

    /**
     * A view for reading values without copying ({@link Keyspace#getValue}), reused by every
     * command of the connection; clear it once the reply is written.
     */
    default ValueView valueView() {
        return new ValueView();
    }

    Client client();

    Server server();
}
