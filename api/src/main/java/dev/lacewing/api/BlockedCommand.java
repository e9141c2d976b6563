package dev.lacewing.api;

/**
 * What a blocking command (BLPOP, BLMOVE, BZPOPMIN...) leaves behind when none of its keys has
 * anything for it: the way to serve it later. It is given to {@link CommandContext#block}.
 *
 * <p>Thread rule: both methods run right after a command made one of the waited keys ready (created
 * it, pushed to it), on the thread that ran that command, while it still has exclusive access to
 * that key and to the destination {@code block} named, wherever it lives. The context
 * they get is the blocked client's: its arguments are a copy of the blocked request, its replies go
 * to the blocked client.
 */
public interface BlockedCommand {

    /** Whether key argument {@code keyArgument} now holds what the command takes; changes nothing. */
    boolean ready(CommandContext context, int keyArgument);

    /**
     * Serves the command from key argument {@code keyArgument}, which {@link #ready} just accepted:
     * takes what it takes and writes the command's whole reply (an error reply is a reply too; a
     * {@link WrongTypeException} from {@link Keyspace#aggregate} is replied as WRONGTYPE, as from a command).
     */
    void serve(CommandContext context, int keyArgument);
}
