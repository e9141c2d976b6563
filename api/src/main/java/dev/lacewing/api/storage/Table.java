package dev.lacewing.api.storage;

import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import java.util.function.Consumer;

/**
 * One database of one partition: what a storage keeps for core's {@code Database}, which applies
 * WATCH, blocked keys, tracking, the dirty counter, notifications and BGSAVE's copy-before-change
 * before it calls the table. A value is a string ({@code byte[]}, or bytes read through a
 * {@link ValueView}) or an {@link Aggregate}; methods typed {@code Object} take and return one of
 * those two.
 *
 * <p>Expiry is judged against {@code now}; a lookup that meets a key whose time has passed
 * deletes it. Thread rule: touched only by the thread the engine grants the partition to, except
 * the counters ({@link #size}, {@link #expiringSize}, {@link #expiredCount}, {@link #usedMemory}),
 * which INFO reads racily.
 */
public interface Table {

    /**
     * Hears the keys a table creates (any store or edit of an absent key) and those it deletes
     * because their time passed; the key is a slice valid only during the call.
     */
    interface Events {

        Events NONE = new Events() {
            @Override
            public void created(byte[] key, int offset, int length) {
            }

            @Override
            public void expired(byte[] key, int offset, int length) {
            }
        };

        void created(byte[] key, int offset, int length);

        void expired(byte[] key, int offset, int length);
    }

    /** Sets who hears this table's events ({@link Events#NONE} until then). */
    void events(Events events);

    int size();

    int expiringSize();

    /** Keys deleted because their time had passed, lazily or actively. */
    long expiredCount();

    /** The live value; counts as an access (the key's access field is updated). */
    Object get(byte[] key, int offset, int length, long now);

    /** The live value without counting as an access (Redis's LOOKUP_NOTOUCH). */
    Object peek(byte[] key, int offset, int length, long now);

    /** The 24-bit access field of a live key ({@link AccessPolicy}), -1 when absent; not an access. */
    int access(byte[] key, int offset, int length, long now);

    /** Sets the access field of a live key ({@link dev.lacewing.api.Keyspace#setAccess}); false when absent. */
    boolean setAccess(byte[] key, int offset, int length, int access, long now);

    /** Counts as an access, as {@link #get}. */
    boolean getValue(byte[] key, int offset, int length, long now, ValueView view);

    /**
     * Whether the key's value can be read now without waiting for I/O: true for an absent key and
     * for any value held in memory. False when the value lies elsewhere (on disk, say): the table
     * has then started reading it on a thread of its own and calls {@code ready} once, on that
     * thread, when the read landed (or failed), so that a command rerun after it finds the value
     * without waiting. A rerun that finds it cold again reads synchronously. Not an access; a
     * storage that keeps every value in memory keeps this default.
     */
    default boolean resident(byte[] key, int offset, int length, long now, Runnable ready) {
        return true;
    }

    /** The aggregate value of a live key was changed in place: recount the bytes it holds. */
    void modified(byte[] key, int offset, int length, long now);

    long expireAt(byte[] key, int offset, int length, long now);

    void put(byte[] key, int offset, int length, Object value, long expireAt);

    void putString(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength,
                   long expireAt);

    void putKeepExpiry(byte[] key, int offset, int length, Object value, long now);

    /** {@link dev.lacewing.api.Keyspace#putEncoded}: a string with its encoding, in the entry's spare bits. */
    void putEncoded(byte[] key, int offset, int length, byte[] value, long expireAt, StringEncoding encoding);

    void putEncodedKeepExpiry(byte[] key, int offset, int length, byte[] value, long now, StringEncoding encoding);

    /** The encoding a live key's string was stored with; not an access. */
    StringEncoding stringEncoding(byte[] key, int offset, int length, long now);

    /** {@link dev.lacewing.api.Keyspace#editString}; not an access. */
    boolean editString(byte[] key, int offset, int length, int minLength, long now, ValueView view);

    /** {@link dev.lacewing.api.Keyspace#valueMemory}: the bytes counted for a live key's value, -1 when absent. */
    long valueMemory(byte[] key, int offset, int length, long now);

    boolean setExpireAt(byte[] key, int offset, int length, long expireAt, long now);

    boolean remove(byte[] key, int offset, int length, long now);

    void clear();

    default long scan(long cursor, int count, long now, Consumer<byte[]> visitor) {
        return scan(cursor, count, now, visitor, key -> { });
    }

    /**
     * A scan step; keys whose time has passed go to {@code expired}, the others to {@code visitor}.
     * SCAN's guarantee: a full scan returns every key present throughout it; any cursor, as an
     * unsigned number, ends the scan within one pass over the table; a cursor returned is 0 at the
     * end and otherwise below 2^38 (the keyspace composes it with the partition number).
     */
    long scan(long cursor, int count, long now, Consumer<byte[]> visitor, Consumer<byte[]> expired);

    byte[] randomKey(long now);

    /** What {@link #forEachLive} hands over for each live key. */
    @FunctionalInterface
    interface EntryVisitor {
        /**
         * One live key: its bytes (the visitor's to keep), its value as {@link #peek} returns it,
         * its expiry ({@link dev.lacewing.api.Keyspace#NO_EXPIRY} for none) and its access field.
         */
        void visit(byte[] key, Object value, long expireAt, int access);
    }

    /**
     * What {@link #scanEntries} and {@link #readEntry} hand over: one live entry read where it
     * lies, without a copy. The key's bytes and the view are valid only during the call, and the
     * reader must not change the table.
     */
    @FunctionalInterface
    interface EntryReader {
        /**
         * The key is {@code key[offset, offset + length)}; {@code value} views the string's bytes
         * or holds the value of another type (as {@link #peek} gives it); the expiry is
         * {@link dev.lacewing.api.Keyspace#NO_EXPIRY} for none; the access field as {@link #access}.
         */
        void read(byte[] key, int offset, int length, ValueView value, long expireAt, int access);
    }

    /**
     * A {@link #scan} step that hands each live entry to {@code reader} in place, through
     * {@code view}, instead of a copy of its key: a snapshot's walk, which encodes each entry
     * straight from the table. Keys whose time has passed are skipped, not deleted; nothing counts
     * as an access. Into a view that {@link ValueView#takesHandles}, a string held out of memory
     * may be handed as a {@link dev.lacewing.api.StringHandle}, which the reader then owns; the same
     * holds for {@link #readEntry}.
     */
    long scanEntries(long cursor, int count, long now, ValueView view, EntryReader reader);

    /**
     * Whether a walk of {@link #scanEntries} that has issued {@code cursor} (not 0) has passed the
     * key: the entry was handed over already if it lay there then, and will not be again. The
     * answer must hold across growth since the cursor was issued, so that a snapshot can tell a key
     * behind its walk (written) from one ahead of it (to preserve before a change). Pure: the key
     * need not be present.
     */
    boolean visited(long cursor, byte[] key, int offset, int length);

    /**
     * Hands the live entry of the key to {@code reader} in place, through {@code view}; false when
     * the key is absent (deleted first if its time has passed, as any lookup). Not an access.
     */
    boolean readEntry(byte[] key, int offset, int length, long now, ValueView view, EntryReader reader);

    /**
     * Visits every key whose time has not passed at {@code now}, in table order, without counting
     * an access or deleting anything: the walk a snapshot makes. The visitor must not change the
     * table. O(capacity).
     */
    void forEachLive(long now, EntryVisitor visitor);

    /**
     * Offers up to {@code count} keys picked at random (only keys with an expiry when
     * {@code volatileOnly}) to an eviction pool; returns how many it offered. The receiver must
     * not change the table.
     */
    int sample(int count, boolean volatileOnly, EvictionCandidates candidates);

    /** One step of active expiry over up to {@code slots} index slots; returns how many keys it deleted. */
    int expireSome(long now, int slots);

    /** Index slots: a power of two. */
    int capacity();

    /** Bytes this table holds; safe to read from any thread (racily). */
    long usedMemory();

    /**
     * {@link #usedMemory} less space that holds no live data but awaits reuse or compaction, which
     * a deletion lowers at once: the figure maxmemory is held against. Racy from other threads.
     */
    long liveMemory();
}
