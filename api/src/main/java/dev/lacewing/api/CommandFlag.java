package dev.lacewing.api;

import java.util.Locale;

/** Command flags, named and reported (COMMAND INFO) as Redis names them, in the order Redis reports them. */
public enum CommandFlag {
    WRITE, READONLY, DENYOOM, ADMIN, PUBSUB, NOSCRIPT, BLOCKING, LOADING, STALE, SKIP_MONITOR,
    SKIP_SLOWLOG, FAST, NO_AUTH, MAY_REPLICATE, NO_MANDATORY_KEYS, NO_ASYNC_LOADING,
    NO_MULTI, ALLOW_BUSY,
    /**
     * Redis's CMD_PROTECTED (DEBUG, MODULE LOAD, MODULE UNLOAD): a request for command {@code name}
     * (a subcommand's container name) runs only where the setting {@code enable-name-command}
     * allows the client, and is refused with Redis's error otherwise; a protected command without
     * such a setting never runs. COMMAND does not report it, as Redis does not.
     */
    PROTECTED;

    /** The flag as Redis spells it in COMMAND replies. */
    public String redisName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether COMMAND INFO lists the flag. */
    public boolean reported() {
        return this != PROTECTED;
    }
}
