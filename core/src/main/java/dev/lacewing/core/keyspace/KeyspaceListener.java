package dev.lacewing.core.keyspace;

/**
 * Hears what happens to keys outside a command's own writes: a key created by any store (Redis's
 * dbAdd), deleted because its time passed (lazily or by active expiry), or evicted over
 * {@code maxmemory}. The server's keyspace notifications and client-side caching listen; the key is
 * a slice valid only during the call.
 *
 * <p>Thread rule: called on the thread that holds the key's partition, in the order the events
 * happen there.
 */
public interface KeyspaceListener {

    KeyspaceListener NONE = new KeyspaceListener() {
        @Override
        public void created(int database, byte[] key, int offset, int length) {
        }

        @Override
        public void expired(int database, byte[] key, int offset, int length) {
        }

        @Override
        public void evicted(int database, byte[] key, int offset, int length) {
        }
    };

    /** Both listeners, {@code first} first. */
    static KeyspaceListener both(KeyspaceListener first, KeyspaceListener second) {
        return new KeyspaceListener() {
            @Override
            public void created(int database, byte[] key, int offset, int length) {
                first.created(database, key, offset, length);
                second.created(database, key, offset, length);
            }

            @Override
            public void expired(int database, byte[] key, int offset, int length) {
                first.expired(database, key, offset, length);
                second.expired(database, key, offset, length);
            }

            @Override
            public void evicted(int database, byte[] key, int offset, int length) {
                first.evicted(database, key, offset, length);
                second.evicted(database, key, offset, length);
            }
        };
    }

    void created(int database, byte[] key, int offset, int length);

    void expired(int database, byte[] key, int offset, int length);

    void evicted(int database, byte[] key, int offset, int length);
}
