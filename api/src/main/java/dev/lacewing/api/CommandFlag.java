package dev.lacewing.api;

import java.util.Locale;

/** Command flags, named and reported (COMMAND INFO) as Redis names them, in the order Redis reports them. */
public enum CommandFlag {
    WRITE, READONLY, DENYOOM, ADMIN, PUBSUB, NOSCRIPT, BLOCKING, LOADING, STALE, SKIP_MONITOR,
    SKIP_SLOWLOG, FAST, NO_AUTH, MAY_REPLICATE, NO_MANDATORY_KEYS, NO_ASYNC_LOADING,
    NO_MULTI, MOVABLEKEYS, ALLOW_BUSY;

    /** The flag as Redis spells it in COMMAND replies. */
    public String redisName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
