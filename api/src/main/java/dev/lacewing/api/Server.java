package dev.lacewing.api;

/** Server-wide services a command may use. */
public interface Server {

    Settings settings();

    /** Lacewing's version. */
    String version();

    /**
     * The {@link KeyspaceEventClass} bits {@code notify-keyspace-events} enables now (Redis's
     * RedisModule_GetNotifyKeyspaceEvents): test a class here before building an event.
     */
    int keyspaceEventClasses();

    /**
     * Publishes a keyspace notification (Redis's notifyKeyspaceEvent) for a key of database
     * {@code database}: {@code __keyspace@db__:key} and {@code __keyevent@db__:event}, each where
     * {@code notify-keyspace-events} enables it and class {@code type} (one {@link KeyspaceEventClass}
     * bit). Call it after the change, from the command's thread.
     */
    void notifyKeyspaceEvent(int type, String event, int database, byte[] key, int offset, int length);
}
