package dev.lacewing.api;

/**
 * What a running script sees of the server: its KEYS and ARGV, and {@link #call}, which runs one
 * command through the same checks dispatch makes (arity, the commands scripts may not call, writes
 * under a read-only script, memory) and returns its reply as RESP bytes, in the protocol the script
 * chose with {@code redis.setresp}.
 *
 * <p>Thread rule: used by the thread running the script, during {@link ScriptRuntime#run} only.
 */
public interface ScriptHost {

    /** The request: KEYS are arguments {@code firstKey .. firstKey + keyCount - 1}, ARGV the rest. */
    Arguments arguments();

    int firstKey();

    int keyCount();

    /**
     * Runs {@code argv} (the command name first) and returns its reply: RESP2 or RESP3 bytes as
     * {@code protocol} says. An error is returned as an error reply ({@code -ERR ...\r\n}), never
     * thrown; {@code raiseErrors} says whether the script will raise it (redis.call) or get it back
     * (redis.pcall), for the error statistics. The host only reads {@code argv}'s arrays, during the
     * call (they may be the runtime's own strings); the array returned is the runtime's to keep.
     */
    byte[] call(byte[][] argv, int protocol, boolean raiseErrors);

    /**
     * Called by the runtime while the script runs, about every hundred thousand Lua instructions. True
     * when the script must stop (SCRIPT KILL): the runtime then ends it at once, pcall or not, with
     * Redis's {@code ERR Script killed by user with SCRIPT KILL...} error.
     */
    boolean checkpoint();

    /** {@code redis.log}: level 0 debug, 1 verbose, 2 notice, 3 warning, as Redis's LL_* levels. */
    void log(int level, String message);
}
