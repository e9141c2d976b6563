package dev.lacewing.api;

/**
 * The classes of keyspace notifications, Redis's NOTIFY_* bits (and a module's
 * REDISMODULE_NOTIFY_*), bit for bit: what {@link Server#keyspaceEventClasses} reports and what
 * {@link Server#notifyKeyspaceEvent} is given.
 */
public final class KeyspaceEventClass {

    public static final int KEYSPACE = 1;
    public static final int KEYEVENT = 1 << 1;
    public static final int GENERIC = 1 << 2;
    public static final int STRING = 1 << 3;
    public static final int LIST = 1 << 4;
    public static final int SET = 1 << 5;
    public static final int HASH = 1 << 6;
    public static final int ZSET = 1 << 7;
    public static final int EXPIRED = 1 << 8;
    public static final int EVICTED = 1 << 9;
    public static final int STREAM = 1 << 10;
    public static final int KEY_MISS = 1 << 11;
    public static final int LOADED = 1 << 12;
    public static final int MODULE = 1 << 13;
    public static final int NEW = 1 << 14;

    private KeyspaceEventClass() {
    }
}
