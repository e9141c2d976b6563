package dev.lacewing.api;

/**
 * Thrown by {@link Keyspace#aggregate} when a key holds a value of another type: the server ends
 * the command there and replies {@link #MESSAGE}, as Redis's checkType does, so a command takes
 * every aggregate it needs before it writes anything, reply or key. Preallocated, with no stack
 * trace: a wrong type is a reply, not a failure.
 */
public final class WrongTypeException extends RuntimeException {

    /** The error Redis replies, word for word. */
    public static final String MESSAGE = "WRONGTYPE Operation against a key holding the wrong kind of value";

    static final WrongTypeException INSTANCE = new WrongTypeException();

    private static final long serialVersionUID = 1L;

    private WrongTypeException() {
        super(MESSAGE, null, false, false);
    }
}
