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

    /**
     * Empties every database as FLUSHALL does (Redis's flushAllDataAndResetRDB): the server's
     * persistence is told too, so a restart does not bring the keys back; only for commands of
     * scope {@link KeyScope#ALL}.
     */
    void flushAll();

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

    /**
     * Blocks the client instead of replying (BLPOP on empty lists): the command returns, the client
     * gets no reply and its later requests wait, until a command of any client makes one of the keys
     * ready and {@code command} serves it, until {@code deadline} passes (a null array reply), until
     * CLIENT UNBLOCK, or until it disconnects. Call it only from the command's body, which holds every
     * key named here: the registration is then atomic with the check that found nothing.
     *
     * <p>Clients blocked on one key are served in the order they blocked, right after the command that
     * made it ready and before any later command runs against it. A client waiting on keys of several
     * shards is served once, by the first that is ready.
     *
     * @param deadline milliseconds since the epoch, or 0 to wait for ever
     * @param keyArguments argument indexes of the keys to wait on
     * @param destinationArgument argument index of one more key serving writes (BLMOVE's destination),
     *                            or -1; when it lives apart from the ready key, serving runs the whole
     *                            command again through the engine with both keys
     * @throws UnsupportedOperationException where the server cannot block clients
     */
    default void block(long deadline, int[] keyArguments, int destinationArgument, BlockedCommand command) {
        throw new UnsupportedOperationException("this context cannot block a client");
    }

    Server server();

    /**
     * Whether the client's user may read every key with this command (Redis's
     * ACLUserCheckCmdWithUnrestrictedKeyAccess): a command that reaches keys its spec does not
     * declare, as SORT's BY and GET patterns do, must refuse to where not.
     */
    boolean readsEveryKey();

    /** Whether the command runs as one of EXEC's queued commands (Redis's server.in_exec). */
    default boolean insideExec() {
        return false;
    }
}
