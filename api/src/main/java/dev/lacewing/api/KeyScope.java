package dev.lacewing.api;

/** Which part of the keyspace a command touches; the engine uses it to decide where it runs. */
public enum KeyScope {
    /** No keyspace access: connection and server commands, run on the connection's thread. */
    NONE,
    /** The keys named by the command's key positions. */
    KEYS,
    /** The whole selected database, or all of them (KEYS, SCAN, DBSIZE, FLUSHALL, SWAPDB...). */
    ALL
}
