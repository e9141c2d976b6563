package dev.lacewing.api;

import java.util.List;
import java.util.function.Function;

/**
 * One thread's interpreter. Scripts are known by the SHA1 of their body: a runtime compiles a body
 * the first time it sees its SHA and keeps the compiled form until {@link #flush()}.
 *
 * <p>Functions (Redis 7.0's FUNCTION and FCALL) are libraries: code whose load run registers
 * functions. The server keeps the libraries and validates each registration; a runtime runs a load
 * for FUNCTION LOAD ({@link #loadLibrary}) and, when a function is first called on its thread, loads
 * the library's code again for itself ({@link #callFunction}).
 *
 * <p>Thread rule: used only by the thread it was made for ({@link ScriptingProvider#newRuntime()}).
 */
public interface ScriptRuntime {

    /**
     * Compiles {@code body} under {@code sha} unless it is compiled already. Null when it compiles,
     * otherwise the error reply without its code, as Redis words it
     * ({@code "Error compiling script (new function): user_script:1: ..."}).
     */
    String compile(String sha, byte[] body);

    /**
     * Runs the script (compiling it first if needed) with the host's KEYS and ARGV, and writes its
     * result, or its error as Redis words it, as exactly one reply.
     */
    void run(String sha, byte[] body, ScriptHost host, ReplyWriter reply);

    /**
     * Runs the script as {@link #run} does, under the debugger (Redis's LDB): it stops before its
     * first line and wherever the client asks, sending the debugger's output and reading the
     * client's commands through {@code debugger}; then writes the script's one reply.
     */
    void debug(String sha, byte[] body, ScriptHost host, ReplyWriter reply, ScriptDebugger debugger);

    /** Forgets every compiled script (SCRIPT FLUSH). */
    void flush();

    /**
     * Runs a library's load: {@code code} (its shebang line included) runs where only the
     * registration function, the log function and the version constants exist, and stops with an
     * error past {@code timeoutMillis}. Each registration goes to {@code register}, which returns
     * null to accept it or the error text (without its code) the load then fails with. Returns the
     * functions registered; throws {@link IllegalArgumentException} with the error reply without its
     * {@code ERR} code, as Redis words it ({@code "Error registering functions: ERR ..."}).
     */
    List<ScriptFunction> loadLibrary(byte[] code, long timeoutMillis, Function<ScriptFunction, String> register);

    /**
     * Runs {@code function} of the library the server knows as {@code library} (a name unique to
     * that version of the library) with the host's KEYS and ARGV as its two arguments, loading
     * {@code code} first if this runtime has not loaded that library, and writes its result, or its
     * error as Redis words it, as exactly one reply.
     */
    void callFunction(String library, byte[] code, String function, ScriptHost host, ReplyWriter reply);

    /** Forgets every library loaded (after FUNCTION DELETE, FLUSH, RESTORE or a LOAD REPLACE). */
    void flushFunctions();
}
