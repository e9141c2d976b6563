package dev.lacewing.core.keyspace;

import dev.lacewing.api.Keyspace;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * One database of one partition: an open-addressing hash table with linear probing and
 * backward-shift deletion (no tombstones), keys as byte[], values as byte[] (strings) or
 * {@link TypedValue}, expiry in a parallel long[]. Load factor at most 3/4.
 *
 * <p>This is the first keyspace; the compact paged keyspace (keys and values in large byte
 * pages, no object per entry) replaces its storage behind the same methods.
 *
 * <p>Thread rule: touched only by the thread the engine grants the partition to.
 */
public final class KeyTable {

    private static final int MIN_CAPACITY = 16;

    private byte[][] keys = new byte[MIN_CAPACITY][];
    private Object[] values = new Object[MIN_CAPACITY];
    private long[] expires = new long[MIN_CAPACITY];
    private int[] hashes = new int[MIN_CAPACITY];
    private int size;
    private int expiring;
    /** Where the next active-expiry sweep resumes. */
    private int expiryCursor;

    public int size() {
        return size;
    }

    public int expiringSize() {
        return expiring;
    }

    public static int hash(byte[] key, int offset, int length) {
        int h = 0x9747b28c ^ length;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            h = (h ^ key[i]) * 0x01000193;
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    /** Slot index of the key, or -1. Does not look at expiry. */
    private int find(byte[] key, int offset, int length, int hash) {
        int mask = keys.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            byte[] candidate = keys[i];
            if (candidate == null) {
                return -1;
            }
            if (hashes[i] == hash && candidate.length == length
                && Arrays.equals(candidate, 0, length, key, offset, offset + length)) {
                return i;
            }
        }
    }

    /** Index of the live key, deleting it first if its time has passed; -1 when absent. */
    private int findLive(byte[] key, int offset, int length, long now) {
        int hash = hash(key, offset, length);
        int index = find(key, offset, length, hash);
        if (index >= 0 && expires[index] != Keyspace.NO_EXPIRY && expires[index] <= now) {
            removeAt(index);
            expiredCount++;
            return -1;
        }
        return index;
    }

    private long expiredCount;

    /** Keys deleted because their time had passed, lazily or actively. */
    public long expiredCount() {
        return expiredCount;
    }

    public Object get(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        return index < 0 ? null : values[index];
    }

    public long expireAt(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        return index < 0 ? -2 : expires[index];
    }

    public void put(byte[] key, int offset, int length, Object value, long expireAt) {
        int hash = hash(key, offset, length);
        int index = find(key, offset, length, hash);
        if (index >= 0) {
            values[index] = value;
            setExpiry(index, expireAt);
            return;
        }
        insert(Arrays.copyOfRange(key, offset, offset + length), hash, value, expireAt);
    }

    public void putKeepExpiry(byte[] key, int offset, int length, Object value, long now) {
        int index = findLive(key, offset, length, now);
        if (index >= 0) {
            values[index] = value;
        } else {
            insert(Arrays.copyOfRange(key, offset, offset + length), hash(key, offset, length), value,
                Keyspace.NO_EXPIRY);
        }
    }

    public boolean setExpireAt(byte[] key, int offset, int length, long expireAt, long now) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        setExpiry(index, expireAt);
        return true;
    }

    public boolean remove(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        removeAt(index);
        return true;
    }

    public void clear() {
        keys = new byte[MIN_CAPACITY][];
        values = new Object[MIN_CAPACITY];
        expires = new long[MIN_CAPACITY];
        hashes = new int[MIN_CAPACITY];
        size = 0;
        expiring = 0;
        expiryCursor = 0;
    }

    private void setExpiry(int index, long expireAt) {
        long old = expires[index];
        if (old == Keyspace.NO_EXPIRY && expireAt != Keyspace.NO_EXPIRY) {
            expiring++;
        } else if (old != Keyspace.NO_EXPIRY && expireAt == Keyspace.NO_EXPIRY) {
            expiring--;
        }
        expires[index] = expireAt;
    }

    private void insert(byte[] key, int hash, Object value, long expireAt) {
        if ((size + 1) * 4L > keys.length * 3L) {
            resize(keys.length * 2);
        }
        int mask = keys.length - 1;
        int i = hash & mask;
        while (keys[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        hashes[i] = hash;
        values[i] = value;
        expires[i] = expireAt;
        if (expireAt != Keyspace.NO_EXPIRY) {
            expiring++;
        }
        size++;
    }

    private void resize(int capacity) {
        byte[][] oldKeys = keys;
        Object[] oldValues = values;
        long[] oldExpires = expires;
        int[] oldHashes = hashes;
        keys = new byte[capacity][];
        values = new Object[capacity];
        expires = new long[capacity];
        hashes = new int[capacity];
        int mask = capacity - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != null) {
                int i = oldHashes[j] & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                hashes[i] = oldHashes[j];
                values[i] = oldValues[j];
                expires[i] = oldExpires[j];
            }
        }
    }

    /** Backward-shift deletion: moves later entries of the probe run into the hole. */
    private void removeAt(int index) {
        if (expires[index] != Keyspace.NO_EXPIRY) {
            expiring--;
        }
        size--;
        int mask = keys.length - 1;
        int hole = index;
        for (int i = (index + 1) & mask; keys[i] != null; i = (i + 1) & mask) {
            int home = hashes[i] & mask;
            // Move entry i into the hole when its home is not cyclically within (hole, i].
            boolean movable = hole <= i ? (home <= hole || home > i) : (home <= hole && home > i);
            if (movable) {
                keys[hole] = keys[i];
                hashes[hole] = hashes[i];
                values[hole] = values[i];
                expires[hole] = expires[i];
                hole = i;
            }
        }
        keys[hole] = null;
        values[hole] = null;
        expires[hole] = 0;
        hashes[hole] = 0;
        if (size == 0 && keys.length > MIN_CAPACITY * 64) {
            clear();
        }
    }

    /**
     * Visits the keys of up to {@code count} table slots from {@code cursor}; returns the next
     * cursor or 0 at the end. Expired keys are skipped. Keys present for the whole scan are
     * visited unless the table grows in between, in which case some may be visited twice. The
     * cursor is unsigned; one at or past the end of the table ends the scan.
     */
    public long scan(long cursor, int count, long now, Consumer<byte[]> visitor) {
        if (Long.compareUnsigned(cursor, keys.length) >= 0) {
            return 0;
        }
        int index = (int) cursor;
        int end = (int) Math.min((long) index + Math.max(count, 1), keys.length);
        for (; index < end; index++) {
            byte[] key = keys[index];
            if (key != null && (expires[index] == Keyspace.NO_EXPIRY || expires[index] > now)) {
                visitor.accept(key);
            }
        }
        return index >= keys.length ? 0 : index;
    }

    /** Table slots, the bound of a scan cursor. */
    public int capacity() {
        return keys.length;
    }

    /** A random live key, or null. Expired keys met on the way are deleted. */
    public byte[] randomKey(long now) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 1024 && size > 0; attempt++) {
            int mask = keys.length - 1;
            int index = random.nextInt(keys.length);
            for (int probe = 0; probe < keys.length && keys[index] == null; probe++) {
                index = (index + 1) & mask;
            }
            if (expires[index] != Keyspace.NO_EXPIRY && expires[index] <= now) {
                removeAt(index);
                expiredCount++;
                continue;
            }
            return keys[index];
        }
        return null;
    }

    /**
     * One step of active expiry: examines up to {@code slots} table slots from where the last
     * step stopped and deletes keys whose time has passed. Returns how many it deleted.
     */
    public int expireSome(long now, int slots) {
        if (expiring == 0) {
            return 0;
        }
        int deleted = 0;
        int mask = keys.length - 1;
        int index = expiryCursor & mask;
        for (int n = 0; n < slots && expiring > 0; n++) {
            if (keys[index] != null && expires[index] != Keyspace.NO_EXPIRY && expires[index] <= now) {
                removeAt(index);
                deleted++;
                expiredCount++;
                // Backward shift may have moved another entry into this slot: look at it again.
                continue;
            }
            index = (index + 1) & mask;
        }
        expiryCursor = index;
        return deleted;
    }

    /** An estimate of the bytes this table holds, for INFO memory. */
    public long memoryUsage() {
        long total = (long) keys.length * (4 + 4 + 8 + 4) + 64;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                total += 16 + keys[i].length + valueBytes(values[i]);
            }
        }
        return total;
    }

    public static long valueBytes(Object value) {
        if (value instanceof byte[] bytes) {
            return 16 + bytes.length;
        }
        return value instanceof TypedValue typed ? typed.memoryUsage() : 0;
    }
}
