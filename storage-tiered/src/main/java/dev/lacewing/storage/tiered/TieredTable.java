package dev.lacewing.storage.tiered;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.api.storage.AccessPolicy;
import dev.lacewing.api.storage.Aggregate;
import dev.lacewing.api.storage.EvictionCandidates;
import dev.lacewing.api.storage.Table;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One database of a partition: a chained hash table of {@link Entry} objects, keys, expiry, access
 * fields and aggregates in memory, a string either in memory or on the partition's segment file
 * as an extent (offset, length). Correctness over compactness: an object per key.
 *
 * <p>The table only grows (doubling when it holds more keys than buckets) and shrinks only when
 * cleared, so that SCAN's reverse-binary cursor (Redis's dictScan) keeps its guarantee and
 * {@link #visited} can answer from the key's hash alone: a walk at cursor {@code c} has handed over
 * exactly the keys whose bucket comes before {@code c} in reversed-bit order, in every size since.
 *
 * <p>A command about to read an offloaded string asks {@link #resident} first, which starts the read
 * on a reader thread ({@link TieredPartition#readLater}); the command's rerun then finds the value
 * landed. Any other read of an offloaded string (a rerun that lost the race, MULTI/EXEC, scripts)
 * is a synchronous file read on the caller's thread. A string edited in place (APPEND, SETRANGE) comes back to
 * memory, with room past its end, and goes to disk again only when memory is asked for
 * ({@link #offload}), and not while it is the string last opened for editing, which its command
 * may still be writing.
 *
 * <p>What stays in memory is chosen by a CLOCK: a read ({@link #get}, {@link #getValue}) sets the
 * entry's {@code referenced} bit, and the offload hand ({@link #offload}) clears the bit of each
 * entry it passes and moves to disk only strings whose bit it found clear, so a value read since
 * the hand last passed gets a second chance while colder ones remain. An offloaded string read
 * twice more before the hand passed it (its bit still set), each read within an eighth of the
 * table's size in reads of the one before ({@link #readSoon}), is hot: it comes back to memory
 * when the partition has room under its share, the hand first moving colder strings out
 * ({@link TieredPartition#makeRoom}). The bit, not the access field, tells recency: the LRU clock
 * ticks once a second and the LFU counter rises by chance, so neither says whether a key was read
 * since the hand's last pass.
 *
 * <p>Memory counts RAM only: per key {@link #ENTRY_BYTES} plus the key's bytes, plus a resident
 * string's array (16 + its capacity), an offloaded string's handle (16) or an aggregate's own
 * {@link Aggregate#memoryUsage}; plus 8 bytes a bucket. Nothing is held that is not live, so
 * {@link #liveMemory} equals {@link #usedMemory}.
 *
 * <p>Thread rule: only the thread holding the partition; the counters are read racily.
 */
final class TieredTable implements Table {

    static final int ENTRY_BYTES = 72;
    private static final int HANDLE_BYTES = 16;
    private static final int ARRAY_BYTES = 16;
    private static final int INITIAL_CAPACITY = 16;
    private static final int MAX_CAPACITY = 1 << 30;
    /** Room an edited string keeps past its end, as Redis's SDS_MAX_PREALLOC bounds it. */
    private static final int MAX_PREALLOC = 1 << 20;
    /** Reads of the table within which a read counts as soon after the last: {@code size >> PROMOTION_WINDOW_SHIFT}. */
    static final int PROMOTION_WINDOW_SHIFT = 3;

    /** One key; {@code value} is a resident string's array, an aggregate, or null when on disk. */
    static final class Entry {
        final byte[] key;
        final long hash;
        Entry next;
        Object value;
        /** A string's length; its array may be longer when {@link #edited}. */
        int length;
        boolean edited;
        /** Read since the offload hand last passed: the CLOCK's second chance. */
        boolean referenced;
        /** The table's {@link #reads} count at this entry's last read. */
        int lastRead;
        /** Whether its last read came soon after the one before ({@link #readSoon}). */
        boolean readSoon;
        long diskAt = -1;
        long expireAt;
        int access;
        StringEncoding encoding = StringEncoding.FROM_BYTES;
        /** The bytes counted for the value. */
        long memory;

        Entry(byte[] key, long hash) {
            this.key = key;
            this.hash = hash;
        }

        boolean onDisk() {
            return diskAt >= 0;
        }
    }

    private final TieredPartition partition;
    private final TieredSettings settings;
    private final AccessPolicy accessPolicy;
    private final LongSupplier clock;
    private Table.Events events = Table.Events.NONE;
    private Entry[] buckets = new Entry[INITIAL_CAPACITY];
    private int size;
    private int expiring;
    private long expiredCount;
    private long usedMemory = bucketBytes(INITIAL_CAPACITY);
    private int expireCursor;
    private int offloadCursor;
    /** The entry {@link #editString} last opened: its command may still be writing through the view, so it stays. */
    private Entry editing;
    /**
     * Resident strings the hand may move ({@link #movable}). At 0 {@link #offload} has nothing to
     * find and returns at once, and a string stored while it is the only one goes straight to disk
     * when the partition is over its pressure share ({@link #store}): keys alone over the share
     * cost a store O(1), not a walk of the table looking for the one string just stored.
     */
    private int movableStrings;
    /** Buckets the hand has walked; for tests. */
    private long handSteps;
    /** Reads of this table ({@link #get}, {@link #getValue}), wrapping: the clock of {@link Entry#lastRead}. */
    private int reads;

    TieredTable(TieredPartition partition, TieredSettings settings, AccessPolicy accessPolicy, LongSupplier clock) {
        this.partition = partition;
        this.settings = settings;
        this.accessPolicy = accessPolicy;
        this.clock = clock;
    }

    private static long bucketBytes(int capacity) {
        return ARRAY_BYTES + 8L * capacity;
    }

    /** FNV-1a over the bytes, then MurmurHash3's finalizer: every bit of the key reaches the low bits. */
    static long hash(byte[] key, int offset, int length) {
        long h = 0xcbf29ce484222325L;
        for (int i = offset; i < offset + length; i++) {
            h = (h ^ (key[i] & 0xff)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    private static boolean expired(Entry entry, long now) {
        return entry.expireAt != Keyspace.NO_EXPIRY && entry.expireAt <= now;
    }

    private Entry find(byte[] key, int offset, int length, long hash) {
        for (Entry entry = buckets[(int) (hash & (buckets.length - 1))]; entry != null; entry = entry.next) {
            if (entry.hash == hash && Arrays.equals(entry.key, 0, entry.key.length, key, offset, offset + length)) {
                return entry;
            }
        }
        return null;
    }

    /** The entry of a key whose time has not passed; one whose time has passed is deleted first. */
    private Entry findLive(byte[] key, int offset, int length, long now) {
        Entry entry = find(key, offset, length, hash(key, offset, length));
        if (entry != null && expired(entry, now)) {
            removeExpired(entry);
            return null;
        }
        return entry;
    }

    private void removeExpired(Entry entry) {
        unlink(entry);
        expiredCount++;
        events.expired(entry.key, 0, entry.key.length);
    }

    private void insert(Entry entry) {
        if (size >= buckets.length && buckets.length < MAX_CAPACITY) {
            resize(buckets.length * 2);
        }
        int bucket = (int) (entry.hash & (buckets.length - 1));
        entry.next = buckets[bucket];
        buckets[bucket] = entry;
        size++;
        if (entry.expireAt != Keyspace.NO_EXPIRY) {
            expiring++;
        }
        usedMemory += ENTRY_BYTES + entry.key.length + entry.memory;
    }

    private void resize(int capacity) {
        Entry[] grown = new Entry[capacity];
        for (Entry head : buckets) {
            Entry entry = head;
            while (entry != null) {
                Entry next = entry.next;
                int bucket = (int) (entry.hash & (capacity - 1));
                entry.next = grown[bucket];
                grown[bucket] = entry;
                entry = next;
            }
        }
        usedMemory += bucketBytes(capacity) - bucketBytes(buckets.length);
        buckets = grown;
    }

    /** Takes an entry out of its chain and drops its value; its {@code next} stays, for a walk standing on it. */
    private void unlink(Entry entry) {
        movableStrings -= movable(entry) ? 1 : 0;
        int bucket = (int) (entry.hash & (buckets.length - 1));
        if (buckets[bucket] == entry) {
            buckets[bucket] = entry.next;
        } else {
            Entry before = buckets[bucket];
            while (before.next != entry) {
                before = before.next;
            }
            before.next = entry.next;
        }
        size--;
        if (entry.expireAt != Keyspace.NO_EXPIRY) {
            expiring--;
        }
        dropValue(entry);
        usedMemory -= ENTRY_BYTES + entry.key.length;
        if (entry == editing) {
            editing = null;
        }
    }

    private void dropValue(Entry entry) {
        if (entry.onDisk()) {
            partition.release(entry.diskAt, entry.length);
            entry.diskAt = -1;
        }
        usedMemory -= entry.memory;
        entry.memory = 0;
        entry.value = null;
        entry.edited = false;
    }

    private void count(Entry entry, long memory, boolean inTable) {
        if (inTable) {
            usedMemory += memory - entry.memory;
        }
        entry.memory = memory;
    }

    /** Sets a string value, to disk when the policy is eager and it is long enough; the old value is gone. */
    private void setString(Entry entry, byte[] value, int offset, int length, StringEncoding encoding, boolean inTable) {
        entry.length = length;
        entry.encoding = encoding;
        if (settings.eager() && length >= settings.minValueSize()) {
            entry.diskAt = partition.write(value, offset, length);
            count(entry, HANDLE_BYTES, inTable);
        } else {
            entry.value = Arrays.copyOfRange(value, offset, offset + length);
            count(entry, ARRAY_BYTES + length, inTable);
        }
    }

    private void setAggregate(Entry entry, Aggregate value, boolean inTable) {
        entry.value = value;
        entry.length = 0;
        entry.encoding = StringEncoding.FROM_BYTES;
        count(entry, value.memoryUsage(), inTable);
    }

    /** A string's bytes as commands take them: never an array the table will edit later. */
    private byte[] string(Entry entry) {
        if (entry.onDisk()) {
            return partition.read(entry.diskAt, entry.length);
        }
        byte[] bytes = (byte[]) entry.value;
        return entry.edited ? Arrays.copyOf(bytes, entry.length) : bytes;
    }

    private Object value(Entry entry) {
        return entry.value instanceof Aggregate ? entry.value : string(entry);
    }

    /**
     * Points the view at the entry's value: an offloaded string is read, or handed as a handle to a
     * view that takes them (a snapshot's, whose writer reads it on its own thread).
     */
    private ValueView view(Entry entry, ValueView view) {
        if (entry.value instanceof Aggregate) {
            view.setObject(entry.value);
        } else if (entry.onDisk() && view.takesHandles()) {
            view.setHandle(partition.handle(entry.diskAt, entry.length));
        } else if (entry.onDisk()) {
            view.setString(partition.read(entry.diskAt, entry.length), 0, entry.length);
        } else {
            view.setString((byte[]) entry.value, 0, entry.length);
        }
        return view;
    }

    @Override
    public void events(Table.Events events) {
        this.events = events;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int expiringSize() {
        return expiring;
    }

    @Override
    public long expiredCount() {
        return expiredCount;
    }

    @Override
    public Object get(byte[] key, int offset, int length, long now) {
        Entry entry = findLive(key, offset, length, now);
        if (entry == null) {
            return null;
        }
        entry.access = accessPolicy.accessed(entry.access, now);
        boolean soon = readSoon(entry);
        Object value = entry.onDisk() && soon && entry.readSoon ? promote(entry, string(entry)) : value(entry);
        read(entry, soon);
        return value;
    }

    /**
     * Whether an entry read now was last read since the hand passed it and within the last
     * {@code size >> }{@link #PROMOTION_WINDOW_SHIFT} reads of the table. An offloaded string comes
     * back to memory on the second such read in a row, three reads close together: a key read that
     * often is among the hottest and worth a place in memory. The bit alone is not enough: the hand
     * moves only to make room, so with uniform reads nearly every offloaded key keeps its bit and
     * promotion would displace one value no colder than itself per disk read, a write each; one
     * short gap is not enough either, as a uniformly read key has one in eight reads.
     */
    private boolean readSoon(Entry entry) {
        return entry.referenced && reads - entry.lastRead <= Math.max(1, size >> PROMOTION_WINDOW_SHIFT);
    }

    private void read(Entry entry, boolean soon) {
        entry.referenced = true;
        entry.readSoon = soon;
        entry.lastRead = ++reads;
    }

    /**
     * A second read of an offloaded string soon after the first ({@link #readSoon}): its bytes,
     * just read, become its value in memory if the partition makes room for them; the extent is
     * left to compaction.
     */
    private byte[] promote(Entry entry, byte[] bytes) {
        if (partition.makeRoom(ARRAY_BYTES + entry.length - HANDLE_BYTES)) {
            // After makeRoom: a compaction it caused has moved the extent.
            partition.release(entry.diskAt, entry.length);
            entry.diskAt = -1;
            entry.value = bytes;
            count(entry, ARRAY_BYTES + entry.length, true);
            movableStrings += movable(entry) ? 1 : 0;
            partition.promoted();
        }
        return bytes;
    }

    @Override
    public Object peek(byte[] key, int offset, int length, long now) {
        Entry entry = findLive(key, offset, length, now);
        return entry == null ? null : value(entry);
    }

    @Override
    public int access(byte[] key, int offset, int length, long now) {
        Entry entry = findLive(key, offset, length, now);
        return entry == null ? -1 : entry.access;
    }

    @Override
    public boolean setAccess(byte[] key, int offset, int length, int access, long now) {
        Entry entry = findLive(key, offset, length, now);
        if (entry == null) {
            return false;
        }
        entry.access = access;
        return true;
    }

    @Override
    public boolean getValue(byte[] key, int offset, int length, long now, ValueView view) {
        Entry entry = findLive(key, offset, length, now);
        if (entry == null) {
            return false;
        }
        entry.access = accessPolicy.accessed(entry.access, now);
        boolean soon = readSoon(entry);
        if (entry.onDisk() && soon && entry.readSoon && !view.takesHandles()) {
            view.setString(promote(entry, string(entry)), 0, entry.length);
        } else {
            view(entry, view);
        }
        read(entry, soon);
        return true;
    }

    /** False for an offloaded string no reader has landed yet: a reader thread reads it now. */
    @Override
    public boolean resident(byte[] key, int offset, int length, long now, Runnable ready) {
        Entry entry = findLive(key, offset, length, now);
        return entry == null || !entry.onDisk() || partition.landed(entry.diskAt, entry.length)
            || !partition.readLater(entry.diskAt, entry.length, ready);
    }

    @Override
    public void modified(byte[] key, int offset, int length, long now) {
        Entry entry = findLive(key, offset, length, now);
        if (entry != null && entry.value instanceof Aggregate aggregate) {
            count(entry, aggregate.memoryUsage(), true);
        }
    }

    @Override
    public long expireAt(byte[] key, int offset, int length, long now) {
        Entry entry = findLive(key, offset, length, now);
        return entry == null ? -2 : entry.expireAt;
    }

    @Override
    public void put(byte[] key, int offset, int length, Object value, long expireAt) {
        if (value instanceof byte[] bytes) {
            store(key, offset, length, null, bytes, 0, bytes.length, expireAt, false, 0, accessPolicy.storedWhole());
        } else {
            store(key, offset, length, (Aggregate) value, null, 0, 0, expireAt, false, 0, StringEncoding.FROM_BYTES);
        }
    }

    @Override
    public void putString(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength,
                          long expireAt) {
        store(key, offset, length, null, value, valueOffset, valueLength, expireAt, false, 0,
            accessPolicy.storedWhole());
    }

    @Override
    public void putKeepExpiry(byte[] key, int offset, int length, Object value, long now) {
        if (value instanceof byte[] bytes) {
            store(key, offset, length, null, bytes, 0, bytes.length, Keyspace.NO_EXPIRY, true, now,
                accessPolicy.storedWhole());
        } else {
            store(key, offset, length, (Aggregate) value, null, 0, 0, Keyspace.NO_EXPIRY, true, now,
                StringEncoding.FROM_BYTES);
        }
    }

    @Override
    public void putEncoded(byte[] key, int offset, int length, byte[] value, long expireAt, StringEncoding encoding) {
        store(key, offset, length, null, value, 0, value.length, expireAt, false, 0, encoding);
    }

    @Override
    public void putEncodedKeepExpiry(byte[] key, int offset, int length, byte[] value, long now,
                                     StringEncoding encoding) {
        store(key, offset, length, null, value, 0, value.length, Keyspace.NO_EXPIRY, true, now, encoding);
    }

    /**
     * Stores an aggregate, or a string when {@code aggregate} is null. With {@code keepExpiry} a live
     * key keeps its expiry and one whose time has passed counts as absent; otherwise the expiry is
     * {@code expireAt}.
     */
    private void store(byte[] key, int offset, int length, Aggregate aggregate, byte[] value, int valueOffset,
                       int valueLength, long expireAt, boolean keepExpiry, long now, StringEncoding encoding) {
        if (!keepExpiry) {
            now = clock.getAsLong();
        }
        long hash = hash(key, offset, length);
        Entry entry = find(key, offset, length, hash);
        if (entry != null && expired(entry, now)) {
            removeExpired(entry);
            entry = null;
        }
        if (entry == null) {
            entry = new Entry(Arrays.copyOfRange(key, offset, offset + length), hash);
            entry.expireAt = keepExpiry ? Keyspace.NO_EXPIRY : expireAt;
            entry.access = accessPolicy.created(now);
            if (aggregate != null) {
                setAggregate(entry, aggregate, false);
            } else {
                setString(entry, value, valueOffset, valueLength, encoding, false);
            }
            insert(entry);
            events.created(key, offset, length);
            movableStrings += movable(entry) ? 1 : 0;
        } else {
            if (!keepExpiry) {
                changeExpiry(entry, expireAt);
            }
            entry.access = accessPolicy.overwritten(entry.access, now);
            movableStrings -= movable(entry) ? 1 : 0;
            dropValue(entry);
            if (aggregate != null) {
                setAggregate(entry, aggregate, true);
            } else {
                setString(entry, value, valueOffset, valueLength, encoding, true);
            }
            movableStrings += movable(entry) ? 1 : 0;
        }
        if (movableStrings == 1 && movable(entry) && partition.overPressureShare()) {
            moveToDisk(entry);
        }
        partition.relieve();
    }

    /** A resident string the hand may move to disk. */
    private boolean movable(Entry entry) {
        return entry.value instanceof byte[] && entry.length >= settings.minValueSize() && entry != editing;
    }

    /** Writes a movable string to the segment file and keeps only its handle; returns the bytes freed. */
    private long moveToDisk(Entry entry) {
        movableStrings--;
        long before = entry.memory;
        entry.diskAt = partition.write((byte[]) entry.value, 0, entry.length);
        entry.value = null;
        entry.edited = false;
        count(entry, HANDLE_BYTES, true);
        return before - HANDLE_BYTES;
    }

    private void changeExpiry(Entry entry, long expireAt) {
        expiring += (expireAt != Keyspace.NO_EXPIRY ? 1 : 0) - (entry.expireAt != Keyspace.NO_EXPIRY ? 1 : 0);
        entry.expireAt = expireAt;
    }

    @Override
    public StringEncoding stringEncoding(byte[] key, int offset, int length, long now) {
        Entry entry = findLive(key, offset, length, now);
        return entry == null ? StringEncoding.FROM_BYTES : entry.encoding;
    }

    /**
     * Brings the string into memory as an array of its own (the one {@link #get} may have handed out
     * is never changed), grown with zeros to {@code minLength} and room past it, and marks it RAW.
     */
    @Override
    public boolean editString(byte[] key, int offset, int length, int minLength, long now, ValueView view) {
        Entry entry = findLive(key, offset, length, now);
        Entry previous = editing;
        if (previous != null) {
            // The string edited before this one may move again, once no longer the one edited.
            editing = null;
            movableStrings += movable(previous) ? 1 : 0;
        }
        if (entry == null) {
            entry = new Entry(Arrays.copyOfRange(key, offset, offset + length), hash(key, offset, length));
            entry.expireAt = Keyspace.NO_EXPIRY;
            entry.access = accessPolicy.created(now);
            entry.value = new byte[minLength];
            entry.length = minLength;
            entry.edited = true;
            entry.encoding = StringEncoding.RAW;
            count(entry, ARRAY_BYTES + minLength, false);
            insert(entry);
            events.created(key, offset, length);
            editing = entry;
            view.setString((byte[]) entry.value, 0, minLength);
            return true;
        }
        if (entry.value instanceof Aggregate) {
            return false;
        }
        // Edited, it stays: no longer movable.
        movableStrings -= movable(entry) ? 1 : 0;
        int newLength = Math.max(entry.length, minLength);
        if (!entry.edited || newLength > ((byte[]) entry.value).length) {
            byte[] current = entry.onDisk() ? partition.read(entry.diskAt, entry.length) : (byte[]) entry.value;
            int oldLength = entry.length;
            int capacity = newLength > oldLength ? roomFor(newLength) : newLength;
            byte[] editable = Arrays.copyOf(current, capacity);
            Arrays.fill(editable, Math.min(oldLength, capacity), capacity, (byte) 0);
            dropValue(entry);
            entry.value = editable;
            entry.edited = true;
            count(entry, ARRAY_BYTES + capacity, true);
        } else if (newLength > entry.length) {
            Arrays.fill((byte[]) entry.value, entry.length, newLength, (byte) 0);
        }
        entry.length = newLength;
        entry.encoding = StringEncoding.RAW;
        editing = entry;
        view.setString((byte[]) entry.value, 0, newLength);
        return true;
    }

    private static int roomFor(int length) {
        long capacity = length < MAX_PREALLOC ? 2L * length : (long) length + MAX_PREALLOC;
        return (int) Math.min(capacity, Integer.MAX_VALUE - 16);
    }

    @Override
    public long valueMemory(byte[] key, int offset, int length, long now) {
        Entry entry = findLive(key, offset, length, now);
        return entry == null ? -1 : entry.memory;
    }

    @Override
    public boolean setExpireAt(byte[] key, int offset, int length, long expireAt, long now) {
        Entry entry = findLive(key, offset, length, now);
        if (entry == null) {
            return false;
        }
        changeExpiry(entry, expireAt);
        return true;
    }

    @Override
    public boolean remove(byte[] key, int offset, int length, long now) {
        Entry entry = findLive(key, offset, length, now);
        if (entry == null) {
            return false;
        }
        unlink(entry);
        return true;
    }

    @Override
    public void clear() {
        for (Entry head : buckets) {
            for (Entry entry = head; entry != null; entry = entry.next) {
                if (entry.onDisk()) {
                    partition.release(entry.diskAt, entry.length);
                }
            }
        }
        buckets = new Entry[INITIAL_CAPACITY];
        size = 0;
        expiring = 0;
        usedMemory = bucketBytes(INITIAL_CAPACITY);
        expireCursor = 0;
        offloadCursor = 0;
        editing = null;
        movableStrings = 0;
    }

    /** Redis's dictScan step: the next bucket in reversed-bit order, 0 after the last. */
    private long nextCursor(long cursor) {
        long mask = buckets.length - 1L;
        return Long.reverse(Long.reverse(cursor | ~mask) + 1);
    }

    @Override
    public long scan(long cursor, int count, long now, Consumer<byte[]> visitor, Consumer<byte[]> expired) {
        int handed = 0;
        int emptyBuckets = Math.max(10, count * 10);
        do {
            Entry entry = buckets[(int) (cursor & (buckets.length - 1))];
            if (entry == null) {
                emptyBuckets--;
            }
            while (entry != null) {
                Entry next = entry.next;
                byte[] key = entry.key.clone();
                (expired(entry, now) ? expired : visitor).accept(key);
                handed++;
                entry = next;
            }
            cursor = nextCursor(cursor);
        } while (cursor != 0 && handed < count && emptyBuckets > 0);
        return cursor;
    }

    @Override
    public long scanEntries(long cursor, int count, long now, ValueView view, EntryReader reader) {
        int handed = 0;
        int emptyBuckets = Math.max(10, count * 10);
        do {
            Entry entry = buckets[(int) (cursor & (buckets.length - 1))];
            if (entry == null) {
                emptyBuckets--;
            }
            for (; entry != null; entry = entry.next) {
                if (!expired(entry, now)) {
                    reader.read(entry.key, 0, entry.key.length, view(entry, view), entry.expireAt, entry.access);
                    handed++;
                }
            }
            cursor = nextCursor(cursor);
        } while (cursor != 0 && handed < count && emptyBuckets > 0);
        return cursor;
    }

    @Override
    public boolean visited(long cursor, byte[] key, int offset, int length) {
        long mask = buckets.length - 1L;
        return Long.compareUnsigned(Long.reverse(hash(key, offset, length) & mask), Long.reverse(cursor & mask)) < 0;
    }

    @Override
    public boolean readEntry(byte[] key, int offset, int length, long now, ValueView view, EntryReader reader) {
        Entry entry = findLive(key, offset, length, now);
        if (entry == null) {
            return false;
        }
        reader.read(entry.key, 0, entry.key.length, view(entry, view), entry.expireAt, entry.access);
        return true;
    }

    @Override
    public void forEachLive(long now, EntryVisitor visitor) {
        for (Entry head : buckets) {
            for (Entry entry = head; entry != null; entry = entry.next) {
                if (!expired(entry, now)) {
                    visitor.visit(entry.key.clone(), value(entry), entry.expireAt, entry.access);
                }
            }
        }
    }

    /** A random live key; keys met whose time has passed are deleted, as Redis's dbRandomKey does. */
    @Override
    public byte[] randomKey(long now) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (size > 0) {
            int bucket = random.nextInt(buckets.length);
            int probes = 0;
            while (buckets[bucket] == null && probes++ < buckets.length) {
                bucket = (bucket + 1) & (buckets.length - 1);
            }
            int chain = 0;
            for (Entry entry = buckets[bucket]; entry != null; entry = entry.next) {
                chain++;
            }
            Entry entry = buckets[bucket];
            for (int skip = random.nextInt(chain); skip > 0; skip--) {
                entry = entry.next;
            }
            if (!expired(entry, now)) {
                return entry.key.clone();
            }
            removeExpired(entry);
        }
        return null;
    }

    @Override
    public int sample(int count, boolean volatileOnly, EvictionCandidates candidates) {
        if (size == 0 || volatileOnly && expiring == 0) {
            return 0;
        }
        int mask = buckets.length - 1;
        int bucket = ThreadLocalRandom.current().nextInt(buckets.length);
        int offered = 0;
        for (int step = 0; step < buckets.length && offered < count; step++, bucket = (bucket + 1) & mask) {
            for (Entry entry = buckets[bucket]; entry != null && offered < count; entry = entry.next) {
                if (!volatileOnly || entry.expireAt != Keyspace.NO_EXPIRY) {
                    candidates.offer(entry.key, 0, entry.key.length, entry.access, entry.expireAt);
                    offered++;
                }
            }
        }
        return offered;
    }

    @Override
    public int expireSome(long now, int slots) {
        int deleted = 0;
        for (int i = 0; i < slots && expiring > 0; i++) {
            int bucket = expireCursor & (buckets.length - 1);
            Entry entry = buckets[bucket];
            while (entry != null) {
                Entry next = entry.next;
                if (expired(entry, now)) {
                    removeExpired(entry);
                    deleted++;
                }
                entry = next;
            }
            expireCursor = (bucket + 1) & (buckets.length - 1);
        }
        return deleted;
    }

    /**
     * The CLOCK's hand: walks on from the bucket where the last call stopped, for at most
     * {@code maxBuckets} buckets or until {@code bytes} are freed, clearing every entry's
     * {@code referenced} bit and moving to disk the resident strings of at least
     * {@code tiered-min-value-size} bytes whose bit was already clear; returns the bytes freed.
     * Two rounds ({@code 2 * capacity()} buckets) move every string that can move; a round that
     * met none ends the walk (keys alone over the share must not cost two rounds a store), and
     * with no {@link #movableStrings} there is no walk at all.
     */
    long offload(long bytes, long maxBuckets) {
        if (movableStrings == 0) {
            return 0;
        }
        long freed = 0;
        boolean movable = false;
        for (long step = 0; step < maxBuckets && freed < bytes && (movable || step < buckets.length); step++) {
            handSteps++;
            int bucket = offloadCursor & (buckets.length - 1);
            for (Entry entry = buckets[bucket]; entry != null; entry = entry.next) {
                boolean secondChance = entry.referenced;
                entry.referenced = false;
                if (movable(entry)) {
                    movable = true;
                    if (!secondChance) {
                        freed += moveToDisk(entry);
                    }
                }
            }
            offloadCursor = (bucket + 1) & (buckets.length - 1);
        }
        return freed;
    }

    long handSteps() {
        return handSteps;
    }

    int movableStrings() {
        return movableStrings;
    }

    /** Moves every offloaded string of this table into the compacted file. */
    void relocate(SegmentFile.Compaction compaction) {
        for (Entry head : buckets) {
            for (Entry entry = head; entry != null; entry = entry.next) {
                if (entry.onDisk()) {
                    entry.diskAt = compaction.move(entry.diskAt, entry.length);
                }
            }
        }
    }

    @Override
    public int capacity() {
        return buckets.length;
    }

    @Override
    public long usedMemory() {
        return usedMemory;
    }

    @Override
    public long liveMemory() {
        return usedMemory;
    }
}
