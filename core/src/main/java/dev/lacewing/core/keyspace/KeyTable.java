package dev.lacewing.core.keyspace;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.datatype.HomeBucketScan;
import dev.lacewing.core.datatype.TableHash;
import dev.lacewing.core.datatype.TypedValue;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One database of one partition: an open-addressing hash table with linear probing and
 * backward-shift deletion (no tombstones), keys as byte[], values as byte[] (strings), an
 * {@link EditedString} (a string edited in place, with room to grow) or {@link TypedValue},
 * expiry in a parallel long[], and a parallel long[] of {@code access:24 | encoding:2 |
 * counted:38}: the key's access field ({@link MemoryPolicy}), the ordinal of its
 * string's {@link StringEncoding} ({@link Keyspace#putEncoded}), and the bytes its value was counted
 * at in {@link #usedMemory} (up to 256 GiB), so that an aggregate changed in place is recounted
 * exactly. Load factor at most 3/4.
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
    /** Bytes of one slot across the parallel arrays (compressed references). */
    private static final int SLOT_BYTES = 4 + 4 + 8 + 4 + 8;
    private static final int COUNTED_BITS = 38;
    private static final long COUNTED_MASK = (1L << COUNTED_BITS) - 1;
    private static final int ENCODING_SHIFT = COUNTED_BITS;
    private static final int ENCODING_MASK = 3;
    private static final int ACCESS_SHIFT = ENCODING_SHIFT + 2;
    private static final StringEncoding[] ENCODINGS = StringEncoding.values();

    private final MemoryPolicy memory;
    /** The time new keys are created at (puts carry no {@code now}). */
    private final LongSupplier clock;

    private byte[][] keys = new byte[MIN_CAPACITY][];
    private Object[] values = new Object[MIN_CAPACITY];
    private long[] expires = new long[MIN_CAPACITY];
    private int[] hashes = new int[MIN_CAPACITY];
    private long[] meta = new long[MIN_CAPACITY];
    /** Bytes counted for the keys and values held: 16 + length per key, {@link #valueBytes} per value. */
    private long entryBytes;
    private int size;
    private int expiring;
    /** Where the next active-expiry sweep resumes. */
    private int expiryCursor;

    /** A table with Redis's default memory settings on the system clock, for tests and benchmarks. */
    public KeyTable() {
        this(new MemoryPolicy(), System::currentTimeMillis);
    }

    public KeyTable(MemoryPolicy memory, LongSupplier clock) {
        this.memory = memory;
        this.clock = clock;
    }

    @Override
    public int size() {
        return size;
    }

    private static long meta(int access, StringEncoding encoding, long counted) {
        return (long) access << ACCESS_SHIFT | (long) encoding.ordinal() << ENCODING_SHIFT
            | Math.min(counted, COUNTED_MASK);
    }

    private static int accessOf(long meta) {
        return (int) (meta >>> ACCESS_SHIFT);
    }

    private static StringEncoding encodingOf(long meta) {
        return ENCODINGS[(int) (meta >>> ENCODING_SHIFT) & ENCODING_MASK];
    }

    private static long keyBytes(int length) {
        return 16 + length;
    }

    @Override
    public int expiringSize() {
        return expiring;
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
        int hash = TableHash.of(key, offset, length);
        int index = find(key, offset, length, hash);
        if (index >= 0 && expires[index] != Keyspace.NO_EXPIRY && expires[index] <= now) {
            removeExpired(index);
            return -1;
        }
        return index;
    }

    /** Deletes the key in slot {@code index} because its time passed, and says so. */
    private void removeExpired(int index) {
        byte[] key = keys[index];
        removeAt(index);
        expiredCount++;
        events.expired(key, 0, key.length);
    }

    private DatabaseTable.Events events = DatabaseTable.Events.NONE;

    @Override
    public void events(DatabaseTable.Events events) {
        this.events = events;
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
        if (index < 0) {
            return null;
        }
        touch(index, now);
        return value(index);
    }

    @Override
    public Object peek(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        return index < 0 ? null : value(index);
    }

    /** Overwrites a slot's value; an edited string it held is released ({@link EditedString#release}). */
    private void replaceValue(int index, Object value) {
        released(values[index]);
        values[index] = value;
    }

    /** Releases a value the table has let go of, when it is an edited string (commands only ever hold copies). */
    private static void released(Object value) {
        if (value instanceof EditedString edited) {
            edited.release();
        }
    }

    /** The value in a slot as commands take it: an edited string as a copy, since the table goes on editing it. */
    private Object value(int index) {
        return values[index] instanceof EditedString edited ? edited.toBytes() : values[index];
    }

    @Override
    public int access(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        return index < 0 ? -1 : accessOf(meta[index]);
    }

    @Override
    public boolean setAccess(byte[] key, int offset, int length, int access, long now) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        long old = meta[index];
        meta[index] = meta(access, encodingOf(old), old & COUNTED_MASK);
        return true;
    }

    private void touch(int index, long now) {
        long old = meta[index];
        meta[index] = meta(memory.accessed(accessOf(old), now), encodingOf(old), old & COUNTED_MASK);
    }

    @Override
    public void modified(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        if (index >= 0) {
            recount(index, accessOf(meta[index]), encodingOf(meta[index]));
        }
    }

    /** Counts the value now in a slot in place of what it was counted at. */
    private void recount(int index, int access, StringEncoding encoding) {
        long counted = valueBytes(values[index]);
        entryBytes += counted - (meta[index] & COUNTED_MASK);
        meta[index] = meta(access, encoding, counted);
    }

    @Override
    public boolean getValue(byte[] key, int offset, int length, long now, ValueView view) {
        int index = findLive(key, offset, length, now);
        if (index < 0) {
            return false;
        }
        touch(index, now);
        if (values[index] instanceof byte[] bytes) {
            view.setString(bytes, 0, bytes.length);
        } else if (values[index] instanceof EditedString edited) {
            edited.view(view);
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

    /** The slots' arrays and the counted bytes of keys and values: exact for strings, the values' own estimate for aggregates. */
    @Override
    public long usedMemory() {
        return (long) keys.length * SLOT_BYTES + entryBytes;
    }

    /** The same as {@link #usedMemory}: a deletion frees its bytes at once. */
    @Override
    public long liveMemory() {
        return usedMemory();
    }

    @Override
    public long expireAt(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        return index < 0 ? -2 : expires[index];
    }

    @Override
    public void put(byte[] key, int offset, int length, Object value, long expireAt) {
        store(key, offset, length, value, expireAt, storedWhole(value));
    }

    @Override
    public void putKeepExpiry(byte[] key, int offset, int length, Object value, long now) {
        storeKeepExpiry(key, offset, length, value, now, storedWhole(value));
    }

    /** The encoding mark of a value stored whole: a string's says whether it may be shared. */
    private StringEncoding storedWhole(Object value) {
        return value instanceof byte[] ? memory.storedWhole() : StringEncoding.FROM_BYTES;
    }

    @Override
    public void putEncoded(byte[] key, int offset, int length, byte[] value, long expireAt,
                           StringEncoding encoding) {
        store(key, offset, length, value, expireAt, encoding);
    }

    @Override
    public void putEncodedKeepExpiry(byte[] key, int offset, int length, byte[] value, long now,
                                     StringEncoding encoding) {
        storeKeepExpiry(key, offset, length, value, now, encoding);
    }

    @Override
    public StringEncoding stringEncoding(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        return index < 0 ? StringEncoding.FROM_BYTES : encodingOf(meta[index]);
    }

    private void store(byte[] key, int offset, int length, Object value, long expireAt, StringEncoding encoding) {
        int hash = TableHash.of(key, offset, length);
        int index = find(key, offset, length, hash);
        if (index >= 0 && expires[index] != Keyspace.NO_EXPIRY && expires[index] <= clock.getAsLong()) {
            removeExpired(index);
            index = -1;
        }
        if (index >= 0) {
            replaceValue(index, value);
            recount(index, memory.overwritten(accessOf(meta[index]), clock.getAsLong()), encoding);
            setExpiry(index, expireAt);
            return;
        }
        insert(Arrays.copyOfRange(key, offset, offset + length), hash, value, expireAt, encoding);
    }

    private void storeKeepExpiry(byte[] key, int offset, int length, Object value, long now, StringEncoding encoding) {
        int index = findLive(key, offset, length, now);
        if (index >= 0) {
            replaceValue(index, value);
            recount(index, memory.overwritten(accessOf(meta[index]), now), encoding);
        } else {
            insert(Arrays.copyOfRange(key, offset, offset + length), TableHash.of(key, offset, length), value,
                Keyspace.NO_EXPIRY, encoding);
        }
    }

    /**
     * A stored {@code byte[]} may have been handed out ({@link #get}) or stored under two keys
     * (COPY), so the first edit copies it into an {@link EditedString} the table alone holds, as
     * Redis's dbUnshareStringValue does; later edits change that in place.
     */
    @Override
    public boolean editString(byte[] key, int offset, int length, int minLength, long now, ValueView view) {
        int index = findLive(key, offset, length, now);
        EditedString edited;
        if (index < 0) {
            edited = EditedString.zeros(minLength);
            insert(Arrays.copyOfRange(key, offset, offset + length), TableHash.of(key, offset, length), edited,
                Keyspace.NO_EXPIRY, StringEncoding.RAW);
        } else if (values[index] instanceof EditedString stored) {
            edited = stored;
            edited.grow(minLength);
            recount(index, accessOf(meta[index]), StringEncoding.RAW);
        } else if (values[index] instanceof byte[] bytes) {
            edited = EditedString.copyOf(bytes, minLength);
            values[index] = edited;
            recount(index, accessOf(meta[index]), StringEncoding.RAW);
        } else {
            return false;
        }
        edited.view(view);
        return true;
    }

    @Override
    public long valueMemory(byte[] key, int offset, int length, long now) {
        int index = findLive(key, offset, length, now);
        return index < 0 ? -1 : valueBytes(values[index]);
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
        for (Object value : values) {
            released(value);
        }
        keys = new byte[MIN_CAPACITY][];
        values = new Object[MIN_CAPACITY];
        expires = new long[MIN_CAPACITY];
        hashes = new int[MIN_CAPACITY];
        meta = new long[MIN_CAPACITY];
        entryBytes = 0;
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

    private void insert(byte[] key, int hash, Object value, long expireAt, StringEncoding encoding) {
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
        long counted = valueBytes(value);
        meta[i] = meta(memory.created(clock.getAsLong()), encoding, counted);
        entryBytes += keyBytes(key.length) + counted;
        if (expireAt != Keyspace.NO_EXPIRY) {
            expiring++;
        }
        size++;
        events.created(key, 0, key.length);
    }

    private void resize(int capacity) {
        byte[][] oldKeys = keys;
        Object[] oldValues = values;
        long[] oldExpires = expires;
        int[] oldHashes = hashes;
        long[] oldMeta = meta;
        keys = new byte[capacity][];
        meta = new long[capacity];
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
                meta[i] = oldMeta[j];
            }
        }
    }

    /** Backward-shift deletion: moves later entries of the probe run into the hole. */
    private void removeAt(int index) {
        if (expires[index] != Keyspace.NO_EXPIRY) {
            expiring--;
        }
        size--;
        entryBytes -= keyBytes(keys[index].length) + (meta[index] & COUNTED_MASK);
        released(values[index]);
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
                meta[hole] = meta[i];
                hole = i;
            }
        }
        keys[hole] = null;
        values[hole] = null;
        expires[hole] = 0;
        hashes[hole] = 0;
        meta[hole] = 0;
        if (size == 0 && keys.length > MIN_CAPACITY * 64) {
            clear();
        }
    }

    /**
     * Visits the keys of {@code count} buckets from {@code cursor}; returns the next cursor, or 0
     * once the scan is complete. Keys whose time has passed go to {@code expired}, not deleted. The
     * receivers must not change the table. See the class comment for the cursor and the guarantee.
     */
    @Override
    public long scan(long cursor, int count, long now, Consumer<byte[]> visitor, Consumer<byte[]> expired) {
        return HomeBucketScan.scan(keys.length, cursor, count, i -> keys[i] != null, (i, mask) -> hashes[i] & mask,
            i -> visit(i, now, visitor, expired));
    }

    private void visit(int index, long now, Consumer<byte[]> visitor, Consumer<byte[]> expired) {
        byte[] key = keys[index];
        if (key != null) {
            (expires[index] == Keyspace.NO_EXPIRY || expires[index] > now ? visitor : expired).accept(key);
        }
    }

    /** Table slots: a power of two, doubled when the load passes 3/4. */
    @Override
    public int capacity() {
        return keys.length;
    }

    @Override
    public void forEachLive(long now, EntryVisitor visitor) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null && (expires[i] == Keyspace.NO_EXPIRY || expires[i] > now)) {
                visitor.visit(keys[i].clone(), value(i), expires[i], accessOf(meta[i]));
            }
        }
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
                removeExpired(index);
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
                removeExpired(index);
                deleted++;
                // Backward shift may have moved another entry into this slot: look at it again.
                continue;
            }
            index = (index + 1) & mask;
        }
        expiryCursor = index;
        return deleted;
    }

    /**
     * Offers up to {@code count} keys from consecutive slots at a random place (Redis's
     * dictGetSomeKeys), only those with an expiry when {@code volatileOnly}; the walk is bounded
     * as {@link CompactTable#sample}'s.
     */
    @Override
    public int sample(int count, boolean volatileOnly, EvictionCandidates candidates) {
        int population = volatileOnly ? expiring : size;
        if (population == 0) {
            return 0;
        }
        int mask = keys.length - 1;
        long steps = Math.min(keys.length, 8L * (count + 2) * (keys.length / population + 1));
        int index = ThreadLocalRandom.current().nextInt(keys.length);
        int offered = 0;
        for (long step = 0; step < steps && offered < count; step++, index = (index + 1) & mask) {
            byte[] key = keys[index];
            if (key == null || volatileOnly && expires[index] == Keyspace.NO_EXPIRY) {
                continue;
            }
            candidates.offer(key, 0, key.length, accessOf(meta[index]), expires[index]);
            offered++;
        }
        return offered;
    }

    public static long valueBytes(Object value) {
        if (value instanceof byte[] bytes) {
            return 16 + bytes.length;
        }
        if (value instanceof EditedString edited) {
            return edited.memoryUsage();
        }
        return value instanceof TypedValue typed ? typed.memoryUsage() : 0;
    }
}
