package dev.lacewing.api;

/**
 * A scripting language for EVAL, EVALSHA and their read-only forms (Redis's script engine), found
 * as engines and transports are: {@link java.util.ServiceLoader} on the class path or in a JPMS
 * layer, or an OSGi service. The server asks for one {@link ScriptRuntime} per thread that runs
 * scripts and uses it only there, so a runtime needs no locking of its own state (a Lua state is
 * not thread-safe).
 */
public interface ScriptingProvider {

    /** The language a shebang names ({@code #!lua}), lower case. */
    String language();

    /** A fresh runtime, for the calling thread only. */
    ScriptRuntime newRuntime();
}
