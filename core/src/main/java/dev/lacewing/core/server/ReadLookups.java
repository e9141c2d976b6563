package dev.lacewing.core.server;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The keyspace as a read-only command sees it: each lookup of a key (get, peek, getValue) counts
 * as a keyspace hit or miss for INFO, as Redis's lookupKeyRead counts them, and a miss publishes
 * {@code keymiss} while notifications of class m are on; write commands look keys up for writing
 * and count nothing, as Redis's lookupKeyWrite. Everything else goes straight to the database.
 *
 * <p>Thread rule: one per connection, used by the thread running the connection's current command
 * (one at a time); the counters are the server's adders, summed when INFO reads them.
 */
final class ReadLookups implements Keyspace {

    private final LongAdder hits;
    private final LongAdder misses;
    private final KeyspaceEvents events;
    private Keyspace target;
    /** What this view has added to the server's counters, for {@link #uncount}. */
    private long countedHits;
    private long countedMisses;

    ReadLookups(LongAdder hits, LongAdder misses, KeyspaceEvents events) {
        this.hits = hits;
        this.misses = misses;
        this.events = events;
    }

    ReadLookups of(Keyspace database) {
        this.target = database;
        return this;
    }

    /** The database the lookups go to (WATCH and blocking keep the database itself). */
    Keyspace target() {
        return target;
    }

    private boolean counted(boolean found, byte[] key, int offset, int length) {
        if (found) {
            hits.increment();
            countedHits++;
        } else {
            misses.increment();
            countedMisses++;
            events.missed(target, key, offset, length);
        }
        return found;
    }

    /**
     * Takes back the hits and misses this view counted: a split's part that ran while another part
     * found its keys cold, since the whole request runs again once they landed and counts them then.
     * (A split runs whole while keyspace notifications publish, so no {@code keymiss} went out.)
     */
    void uncount() {
        hits.add(-countedHits);
        misses.add(-countedMisses);
        countedHits = 0;
        countedMisses = 0;
    }

    @Override
    public int index() {
        return target.index();
    }

    @Override
    public Object get(byte[] key, int offset, int length) {
        Object value = target.get(key, offset, length);
        counted(value != null, key, offset, length);
        return value;
    }

    @Override
    public Object peek(byte[] key, int offset, int length) {
        Object value = target.peek(key, offset, length);
        counted(value != null, key, offset, length);
        return value;
    }

    @Override
    public boolean getValue(byte[] key, int offset, int length, ValueView view) {
        return counted(target.getValue(key, offset, length, view), key, offset, length);
    }

    @Override
    public int access(byte[] key, int offset, int length) {
        return target.access(key, offset, length);
    }

    @Override
    public boolean setAccess(byte[] key, int offset, int length, int access) {
        return target.setAccess(key, offset, length, access);
    }

    @Override
    public void modified(byte[] key, int offset, int length, long changes) {
        target.modified(key, offset, length, changes);
    }

    @Override
    public void modifiedUnwatched(byte[] key, int offset, int length, long changes) {
        target.modifiedUnwatched(key, offset, length, changes);
    }

    @Override
    public void changed(byte[] key, int offset, int length, long changes) {
        target.changed(key, offset, length, changes);
    }

    @Override
    public void edited(byte[] key, int offset, int length, long changes) {
        target.edited(key, offset, length, changes);
    }

    @Override
    public long expireAt(byte[] key, int offset, int length) {
        return target.expireAt(key, offset, length);
    }

    @Override
    public void put(byte[] key, int offset, int length, Object value, long expireAt, long changes) {
        target.put(key, offset, length, value, expireAt, changes);
    }

    @Override
    public void putString(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength,
                          long expireAt) {
        target.putString(key, offset, length, value, valueOffset, valueLength, expireAt);
    }

    @Override
    public void putKeepExpiry(byte[] key, int offset, int length, Object value) {
        target.putKeepExpiry(key, offset, length, value);
    }

    @Override
    public void putEncoded(byte[] key, int offset, int length, byte[] value, long expireAt, StringEncoding encoding) {
        target.putEncoded(key, offset, length, value, expireAt, encoding);
    }

    @Override
    public void putEncodedKeepExpiry(byte[] key, int offset, int length, byte[] value, StringEncoding encoding) {
        target.putEncodedKeepExpiry(key, offset, length, value, encoding);
    }

    @Override
    public StringEncoding stringEncoding(byte[] key, int offset, int length) {
        return target.stringEncoding(key, offset, length);
    }

    @Override
    public boolean editString(byte[] key, int offset, int length, int minLength, ValueView view, long changes) {
        return target.editString(key, offset, length, minLength, view, changes);
    }

    @Override
    public long valueMemory(byte[] key, int offset, int length) {
        return target.valueMemory(key, offset, length);
    }

    @Override
    public boolean setExpireAt(byte[] key, int offset, int length, long expireAt) {
        return target.setExpireAt(key, offset, length, expireAt);
    }

    @Override
    public boolean remove(byte[] key, int offset, int length, long changes) {
        return target.remove(key, offset, length, changes);
    }

    @Override
    public void reencode(byte[] key, int offset, int length, byte[] value, StringEncoding encoding) {
        target.reencode(key, offset, length, value, encoding);
    }

    @Override
    public long size() {
        return target.size();
    }

    @Override
    public long expiringSize() {
        return target.expiringSize();
    }

    @Override
    public void clear() {
        target.clear();
    }

    @Override
    public long scan(long cursor, int count, Consumer<byte[]> visitor, Consumer<byte[]> expired) {
        return target.scan(cursor, count, visitor, expired);
    }

    @Override
    public boolean scanStaysIn(long cursor, long next) {
        return target.scanStaysIn(cursor, next);
    }

    @Override
    public byte[] randomKey() {
        return target.randomKey();
    }
}
