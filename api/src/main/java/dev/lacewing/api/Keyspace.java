package dev.lacewing.api;

import dev.lacewing.api.storage.Aggregate;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * One database as a command sees it. Keys are byte slices (array, offset, length) and are copied
 * when stored; values are {@code byte[]} for strings (an array {@link #get} returns or a command
 * stores is never changed afterwards; only {@link #editString} edits a string in place), and
 * {@link Aggregate}s, core's datatypes, for the aggregate types: command code takes those through
 * {@link #aggregate}, typed by an {@link AggregateType}, rather than by testing what {@link #get} gives.
 * Expiry is absolute, in milliseconds since the epoch; {@link #NO_EXPIRY} when
 * a key has none. A key whose time has passed is absent: lookups delete it (lazy expiry).
 *
 * <p>Thread rule: the engine gives the executing command exclusive access to its keys; nothing
 * here locks.
 */
public interface Keyspace {

    long NO_EXPIRY = -1;

    /** This database's number (SELECT's index), as keyspace notifications name it. */
    int index();

    /** The live value of a key, or null. */
    Object get(byte[] key, int offset, int length);

    default Object get(byte[] key) {
        return get(key, 0, key.length);
    }

    /**
     * The live value of a key as an aggregate of {@code type}, or null when the key does not exist:
     * a lookup as {@link #get}. A key holding another type throws {@link WrongTypeException}, which
     * ends the command with Redis's WRONGTYPE error; so take every aggregate a command needs before
     * it replies or writes.
     */
    default <T extends Aggregate> T aggregate(byte[] key, int offset, int length, AggregateType<T> type) {
        return type.of(get(key, offset, length));
    }

    default <T extends Aggregate> T aggregate(byte[] key, AggregateType<T> type) {
        return aggregate(key, 0, key.length, type);
    }

    /**
     * The live value of a key without counting as an access, as Redis's LOOKUP_NOTOUCH lookups
     * (TYPE, EXISTS, OBJECT): the key's idle time and access frequency stay as they were.
     */
    default Object peek(byte[] key, int offset, int length) {
        return get(key, offset, length);
    }

    /**
     * The 24-bit access field of a live key without touching it, -1 when the key does not exist.
     * Its meaning follows {@code maxmemory-policy}: the LRU clock of the last access in seconds,
     * or an LFU counter with its decay time (core's MemoryPolicy decodes it). A keyspace that
     * tracks no access returns -1 as well.
     */
    default int access(byte[] key, int offset, int length) {
        return -1;
    }

    /**
     * Sets the 24-bit access field of a live key, in {@link #access}'s meaning (RESTORE's IDLETIME
     * and FREQ); not itself an access. False when the key does not exist, or the keyspace tracks
     * no access.
     */
    default boolean setAccess(byte[] key, int offset, int length, int access) {
        return false;
    }

    /**
     * Points {@code view} at the live value of a key without copying it; false when the key does
     * not exist. A string is a slice valid until the keyspace next changes.
     */
    default boolean getValue(byte[] key, int offset, int length, ValueView view) {
        Object value = get(key, offset, length);
        if (value instanceof byte[] bytes) {
            view.setString(bytes, 0, bytes.length);
        } else if (value != null) {
            view.setObject(value);
        }
        return value != null;
    }

    /**
     * Tells the keyspace that a command changed the aggregate value of a live key in place (an
     * HSET on a stored hash, an LPUSH on a stored list): the keyspace recounts the bytes it holds,
     * and a keyspace that keeps small aggregates as bytes rather than objects writes the change
     * back, so a change must be reported before the command goes on to other keys. A command that
     * empties an aggregate removes the key instead, as Redis does. One change for the dirty counter.
     */
    default void modified(byte[] key, int offset, int length) {
        modified(key, offset, length, 1);
    }

    /**
     * As {@link #modified(byte[], int, int)}, counting {@code changes} in the dirty counter (Redis's
     * server.dirty, what save points and the AOF go by): the command counts at the source what it
     * changed, one per element added, removed or set as Redis counts them, 0 where Redis counts
     * nothing (a list element served to a blocked BLPOP or BLMOVE, LMOVE's source).
     */
    void modified(byte[] key, int offset, int length, long changes);

    /**
     * As {@link #modified}, for a change Redis 7.0 makes without signalModifiedKey, so that it leaves
     * a WATCH of the key alone: a stream's consumer groups and their pending entries (XGROUP, XACK,
     * XCLAIM, XAUTOCLAIM, XREADGROUP) and XSETID. A keyspace without watchers need not tell them apart.
     */
    default void modifiedUnwatched(byte[] key, int offset, int length) {
        modifiedUnwatched(key, offset, length, 1);
    }

    /** As {@link #modifiedUnwatched(byte[], int, int)}, counting {@code changes} as {@link #modified} does. */
    default void modifiedUnwatched(byte[] key, int offset, int length, long changes) {
        modified(key, offset, length, changes);
    }

    /**
     * Counts {@code changes} (never negative) more in the dirty counter, beyond what a store,
     * {@link #modified} or removal counted; the key's watchers are left as they are.
     */
    default void changed(byte[] key, int offset, int length, long changes) {
    }

    /** The expiry of a live key, {@link #NO_EXPIRY}, or -2 when the key does not exist. */
    long expireAt(byte[] key, int offset, int length);

    /**
     * Stores a value with an expiry ({@link #NO_EXPIRY} for none), replacing any old value and
     * expiry: one change for the dirty counter.
     */
    default void put(byte[] key, int offset, int length, Object value, long expireAt) {
        put(key, offset, length, value, expireAt, 1);
    }

    /**
     * {@link #put(byte[], int, int, Object, long)}, counting {@code changes} as {@link
     * #modified(byte[], int, int, long)} does: a new aggregate of n elements counts n.
     */
    void put(byte[] key, int offset, int length, Object value, long expireAt, long changes);

    /** Stores a string from a slice (copied), as {@link #put} does. */
    default void putString(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength,
                           long expireAt) {
        put(key, offset, length, Arrays.copyOfRange(value, valueOffset, valueOffset + valueLength), expireAt);
    }

    /** Replaces the value of a key and keeps its expiry; stores it without expiry if it was absent. */
    void putKeepExpiry(byte[] key, int offset, int length, Object value);

    /**
     * Stores a string as {@link #put} does, with the encoding Redis would give it where its bytes do
     * not say ({@link #stringEncoding}): {@link StringEncoding#RAW} for one a command edited rather
     * than received whole (APPEND to a live key, SETRANGE, SETBIT, BITFIELD, BITOP, the HyperLogLog
     * writers), {@link StringEncoding#TEXT} for INCRBYFLOAT's result. The mark lasts until a command
     * stores a new value: {@link #put}, {@link #putString} and {@link #putKeepExpiry} store
     * {@link StringEncoding#FROM_BYTES}, or {@link StringEncoding#UNSHARED} while the memory policy
     * forbids shared integers. Moving or copying the value to another key (RENAME, MOVE,
     * COPY) keeps it. A keyspace that keeps no such mark stores the string as {@link #put} does.
     */
    default void putEncoded(byte[] key, int offset, int length, byte[] value, long expireAt,
                            StringEncoding encoding) {
        put(key, offset, length, value, expireAt);
    }

    /** {@link #putEncoded}, keeping the key's expiry as {@link #putKeepExpiry} does. */
    default void putEncodedKeepExpiry(byte[] key, int offset, int length, byte[] value, StringEncoding encoding) {
        putKeepExpiry(key, offset, length, value);
    }

    /**
     * Stores a live string's same bytes in another encoding (Redis's dbUnshareStringValue, turning
     * an embstr or shared value raw): not a change, so it is not counted in the dirty counter and
     * leaves a WATCH alone. A keyspace that keeps no encoding mark need not store anything.
     */
    default void reencode(byte[] key, int offset, int length, byte[] value, StringEncoding encoding) {
    }

    /**
     * The encoding a live key's string was stored with by {@link #putEncoded}; not an access.
     * {@link StringEncoding#FROM_BYTES} for any other value, and when the key is absent.
     */
    default StringEncoding stringEncoding(byte[] key, int offset, int length) {
        return StringEncoding.FROM_BYTES;
    }

    /**
     * Opens the string of a key for editing in place, as Redis's dbUnshareStringValue and
     * sdsgrowzero do for APPEND, SETRANGE, SETBIT and BITFIELD: the string grows with zero bytes to
     * {@code minLength} when shorter, keeping room to spare past its end so that a run of growing
     * edits costs time linear in the bytes added; it is marked {@link StringEncoding#RAW} and keeps
     * its expiry. A missing key is created as {@code minLength} zero bytes with no spare room and no
     * expiry. {@code view} then shows the whole string, writable until the keyspace next changes.
     * False, with nothing changed, when the key holds another type. One change for the dirty counter.
     */
    default boolean editString(byte[] key, int offset, int length, int minLength, ValueView view) {
        return editString(key, offset, length, minLength, view, 1);
    }

    /**
     * {@link #editString(byte[], int, int, int, ValueView)}, counting {@code changes}; 0 counts none
     * and leaves the key's watchers alone, for an edit that only unshares the string
     * (dbUnshareStringValue: SETBIT of a bit already so) or whose changes are counted once known
     * ({@link #edited}).
     */
    boolean editString(byte[] key, int offset, int length, int minLength, ValueView view, long changes);

    /**
     * A string opened by {@link #editString(byte[], int, int, int, ValueView, long)} counting none
     * changed after all: counts {@code changes} and, when there are any, flags the key's watchers
     * (BITFIELD, whose changes are known once its operations ran: bitfieldGeneric's
     * signalModifiedKey and server.dirty += changes).
     */
    void edited(byte[] key, int offset, int length, long changes);

    /**
     * The bytes the keyspace counts for a live key's value, the spare room of an edited string
     * included (MEMORY USAGE); -1 when the key does not exist.
     */
    long valueMemory(byte[] key, int offset, int length);

    /** Sets the expiry of a live key; false when the key does not exist. */
    boolean setExpireAt(byte[] key, int offset, int length, long expireAt);

    /** Deletes a key, one change for the dirty counter; false when it did not exist. */
    default boolean remove(byte[] key, int offset, int length) {
        return remove(key, offset, length, 1);
    }

    /**
     * Deletes a key, counting {@code changes} where it existed, as {@link #modified(byte[], int, int,
     * long)} does: n for a list emptied by popping n elements, 0 where the running command counts its
     * change elsewhere (RENAME's source and the destination it replaces: the store of the moved value
     * is the one change Redis counts) or Redis counts none. Its watchers are flagged all the same.
     */
    boolean remove(byte[] key, int offset, int length, long changes);

    /** Number of keys, counting keys whose time has passed but are not yet reclaimed. */
    long size();

    /** Number of keys that have an expiry. */
    long expiringSize();

    void clear();

    /**
     * Visits keys from a cursor; returns the next cursor, 0 when the scan is complete. A step
     * looks at about {@code count} table slots' worth of keys. As SCAN promises, a full scan
     * visits every key present for its whole duration at least once, whatever changes between
     * steps, and any cursor, even one no scan returned, leads to 0 without failing.
     */
    default long scan(long cursor, int count, Consumer<byte[]> visitor) {
        return scan(cursor, count, visitor, key -> { });
    }

    /**
     * {@link #scan}, handing the keys it meets whose time has passed (not yet reclaimed) to
     * {@code expired} instead of skipping them: SCAN deletes those it would have replied, as Redis
     * 7.0's does. Neither receiver may change the keyspace while the step runs.
     */
    long scan(long cursor, int count, Consumer<byte[]> visitor, Consumer<byte[]> expired);

    /**
     * Whether one SCAN call that reached {@code next} from {@code cursor} may take another step:
     * false once the scan has left the partition the call holds, where the engine runs each call
     * on one partition alone (see {@link CommandSpec#partitionOf}).
     */
    default boolean scanStaysIn(long cursor, long next) {
        return true;
    }

    /** A random live key, or null when the database is empty. */
    byte[] randomKey();
}
