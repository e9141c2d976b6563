package dev.lacewing.api;

/**
 * One thread's interpreter. Scripts are known by the SHA1 of their body: a runtime compiles a body
 * the first time it sees its SHA and keeps the compiled form until {@link #flush()}.
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

    /** Forgets every compiled script (SCRIPT FLUSH). */
    void flush();
}
