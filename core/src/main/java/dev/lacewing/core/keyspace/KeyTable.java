package dev.lacewing.core.keyspace;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ValueView;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * One database of one partition: an open-addressing hash table with linear probing and
 * backward-shift deletion (no tombstones), keys as byte[], values as byte[] (strings) or
 * {@link TypedValue}, expiry in a parallel long[]. Load factor at most 3/4.
 *
 * <p>This is the {@code objects} layout; {@link CompactTable} is the {@code compact} one (keys
 * and values in large byte pages, no object per entry), behind the same {@link DatabaseTable}.
 *
 * <p>SCAN is Redis's dictScan over home buckets. A bucket is the set of entries whose home slot
 * ({@code hash & mask}) is one slot; visiting it means probing from that slot to the next empty
 * one and taking the entries homed there. Linear probing without tombstones keeps every slot from
 * an entry's home to its slot occupied, and backward shift moves an entry only towards its home,
 * never before it, so a visit finds exactly the bucket's entries at that moment, as a chained
 * table's bucket would, whatever deletions, expiries or insertions came between steps. Buckets
 * are visited in bit-reversed cursor order, so when a doubling splits a bucket in two, both
 * halves fall on the same side of the cursor: a full iteration returns every key present for its
 * whole duration, growth causes no duplicates, and a shrink (only back to the minimum, when the
 * table empties) may cause some. Unlike restarting after a resize, this keeps making progress
 * while the table keeps growing. The work is one probe run per bucket: O(1 / (1 - load)^2)
 * expected slots, about 8 at the 3/4 load bound.
 *
 * <p>A table cursor is {@code log2(capacity) << 32 | bucketCursor}, the capacity being the one
 * it was issued for; one issued for another capacity is read as dictScan reads one across a
 * resize. The capacity field lets a cursor no step could have issued (a field out of range, a
 * bucket cursor at or past that capacity) end the scan rather than start one somewhere
 * arbitrary. Every step advances the bit-reversed cursor, so over a table that does not change
 * any cursor reaches 0 within capacity steps.
 *
 * <p>Thread rule: touched only by the thread the engine grants the partition to.
 */
public final class KeyTable implements DatabaseTable {

    private static final int MIN_CAPACITY = 16;

    private byte[][] keys = new byte[MIN_CAPACITY][];
    private Object[] values = new Object[MIN_CAPACITY];
    private long[] expires = new long[MIN_CAPACITY];
    private int[] hashes = new int[MIN_CAPACITY];
    private int size;
    private int expiring;
    /** Where the next active-expiry sweep resumes. */
    private int expiryCursor;

    @Override
    public int size() {
        return size;
    }

    @Override
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
    @Override
    public long expiredCount() {
        return expiredCount;
    }

    @Override
    public Object get(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        return index < 0 ? null : values[index];
    }

    /** Nothing to recount: {@link #usedMemory} of this layout is the heap in use. */
    @Override
    public void modified(byte[] key, int offset, int length, long now) {
    }

    @Override
    public boolean getValue(byte[] key, int offset, int length, long now, ValueView view) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        if (values[index] instanceof byte[] bytes) {
            view.setString(bytes, 0, bytes.length);
        } else {
            view.setObject(values[index]);
        }
        return true;
    }

    @Override
    public void putString(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength,
                          long expireAt) {
        put(key, offset, length, Arrays.copyOfRange(value, valueOffset, valueOffset + valueLength), expireAt);
    }

    @Override
    public long usedMemory() {
        return -1;
    }

    @Override
    public long expireAt(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        return index < 0 ? -2 : expires[index];
    }

    @Override
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

    @Override
    public void putKeepExpiry(byte[] key, int offset, int length, Object value, long now) {
        int index = findLive(key, offset, length, now);
        if (index >= 0) {
            values[index] = value;
        } else {
            insert(Arrays.copyOfRange(key, offset, offset + length), hash(key, offset, length), value,
                Keyspace.NO_EXPIRY);
        }
    }

    @Override
    public boolean setExpireAt(byte[] key, int offset, int length, long expireAt, long now) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        setExpiry(index, expireAt);
        return true;
    }

    @Override
    public boolean remove(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        removeAt(index);
        return true;
    }

    @Override
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
     * Visits the live keys of {@code count} buckets from {@code cursor}; returns the next cursor,
     * or 0 once the scan is complete. Keys whose time has passed are skipped, not deleted. The
     * visitor must not change the table. See the class comment for the cursor and the guarantee.
     */
    @Override
    public long scan(long cursor, int count, long now, Consumer<byte[]> visitor) {
        return HomeBucketScan.scan(keys.length, cursor, count, i -> keys[i] != null, (i, mask) -> hashes[i] & mask,
            i -> visitIfLive(i, now, visitor));
    }

    private void visitIfLive(int index, long now, Consumer<byte[]> visitor) {
        byte[] key = keys[index];
        if (key != null && (expires[index] == Keyspace.NO_EXPIRY || expires[index] > now)) {
            visitor.accept(key);
        }
    }

    /** Table slots: a power of two, doubled when the load passes 3/4. */
    @Override
    public int capacity() {
        return keys.length;
    }

    /** A random live key, or null. Expired keys met on the way are deleted. */
    @Override
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
    @Override
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
