package dev.lacewing.storage.tiered;

import dev.lacewing.api.Keyspace;
import dev.lacewing.api.StringEncoding;
import dev.lacewing.api.ValueView;
import dev.lacewing.api.storage.AccessPolicy;
import dev.lacewing.api.storage.Aggregate;
import dev.lacewing.api.storage.EvictionCandidates;
import dev.lacewing.api.storage.Table;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One database of a partition: a chained hash table whose every key is one {@code byte[]} record,
 * no other Java object per key. A record is
 * {@code flags:1 access:3 lastRead:4 locator:8 [expireAt:8] key [value]}, little-endian: the flags
 * say whether the string is on disk, whether the value is a side-table object (an aggregate, or a
 * string being edited in place), the CLOCK's {@link #REFERENCED} bit and {@link #READ_SOON},
 * whether an expiry follows, and the string's {@link StringEncoding}; access is the key's LRU clock
 * or LFU counter (24 bits, as Redis keeps it); the locator packs an offloaded string's offset and
 * length ({@code offset:38 length:26}: 256 GiB of segment file a partition, and a string of 64 MiB
 * or more stays in memory), a side-table object's index and length, or a resident string's length.
 * A resident string's bytes follow the key in the record itself. So a key whose string is on disk
 * costs its record (array header, 16 bytes, the key: 48 bytes for a 16-byte key on JDK 17) and its
 * share of the buckets: 47.6 bytes beside the key's own measured on JDK 17, 55 on JDK 25 with ZGC
 * (no compressed references), where an {@code Entry} object, a key array and a handle cost 105.5
 * ({@code TieredKeyFootprintTest}). A bucket holds null, one record, or a {@code byte[][]} of the
 * records that share it.
 *
 * <p>The table only grows (doubling when it holds more keys than buckets) and shrinks only when
 * cleared, so that SCAN's reverse-binary cursor (Redis's dictScan) keeps its guarantee and
 * {@link #visited} can answer from the key's hash alone: a walk at cursor {@code c} has handed over
 * exactly the keys whose bucket comes before {@code c} in reversed-bit order, in every size since.
 * No hash is stored: growing rehashes each key.
 *
 * <p>A record's value bytes are never written after the record is made: a new value, an offload, a
 * promotion or a new expiry makes a new record, so a view into one stays valid (flags, access and
 * the locator change in place). A string edited in place (APPEND, SETRANGE) moves to the side
 * table as an array with room past its end, and goes to disk again only when memory is asked for
 * ({@link #offload}), and not while it is the string last opened for editing, which its command
 * may still be writing.
 *
 * <p>A command about to read an offloaded string asks {@link #resident} first, which starts the read
 * on a reader thread ({@link TieredPartition#readLater}); the command's rerun then finds the value
 * landed. Any other read of an offloaded string (a rerun that lost the race, MULTI/EXEC, scripts)
 * is a synchronous file read on the caller's thread.
 *
 * <p>What stays in memory is chosen by a CLOCK: a read ({@link #get}, {@link #getValue}) sets the
 * record's {@link #REFERENCED} bit, and the offload hand ({@link #offload}) clears the bit of each
 * record it passes and moves to disk only strings whose bit it found clear, so a value read since
 * the hand last passed gets a second chance while colder ones remain. An offloaded string read
 * twice more before the hand passed it (its bit still set), each read within an eighth of the
 * table's size in reads of the one before ({@link #readSoon}), is hot: it comes back to memory
 * when the partition has room under its share, the hand first moving colder strings out
 * ({@link TieredPartition#makeRoom}). The bit, not the access field, tells recency: the LRU clock
 * ticks once a second and the LFU counter rises by chance, so neither says whether a key was read
 * since the hand's last pass.
 *
 * <p>Memory counts RAM as allocated: each record's array ({@link #recordBytes}), the bucket array
 * at 8 bytes a bucket, each shared bucket's array, and the side table (16 bytes a slot, plus an
 * aggregate's own {@link Aggregate#memoryUsage} or an edited string's array). Nothing is held that
 * is not live, so {@link #liveMemory} equals {@link #usedMemory}.
 *
 * <p>Thread rule: only the thread holding the partition; the counters are read racily. Lookups
 * leave the bucket they found in a field ({@link #foundBucket}), so no method is reentrant.
 */
final class TieredTable implements Table {

    /** Bytes of a record before its expiry and key: flags and access, last read, locator. */
    static final int HEADER_BYTES = 16;
    /** Bits of an offloaded string's locator that hold its length: a string of 64 MiB or more stays in memory. */
    private static final int LENGTH_BITS = 26;
    static final int MAX_DISK_LENGTH = (1 << LENGTH_BITS) - 1;
    /** Bits of an offloaded string's locator that hold its offset: 256 GiB of segment file a partition. */
    private static final int OFFSET_BITS = 64 - LENGTH_BITS;
    private static final int EXPIRY_BYTES = 8;
    static final int ARRAY_BYTES = 16;
    /** A side-table slot: its reference and the memory counted for its object. */
    private static final int OBJECT_SLOT_BYTES = 16;
    private static final int INITIAL_CAPACITY = 16;
    private static final int MAX_CAPACITY = 1 << 30;
    /** Room an edited string keeps past its end, as Redis's SDS_MAX_PREALLOC bounds it. */
    private static final int MAX_PREALLOC = 1 << 20;
    /** Reads of the table within which a read counts as soon after the last: {@code size >> PROMOTION_WINDOW_SHIFT}. */
    static final int PROMOTION_WINDOW_SHIFT = 3;

    /** The string is in the segment file at the locator. */
    private static final int ON_DISK = 1;
    /** The value is the side-table object at the locator: an aggregate, or with {@link #EDITED} a string's array. */
    private static final int OBJECT = 2;
    /** The side-table object is a string edited in place, its array longer than its length. */
    private static final int EDITED = 4;
    /** Read since the offload hand last passed: the CLOCK's second chance. */
    private static final int REFERENCED = 8;
    /** Its last read came soon after the one before ({@link #readSoon}). */
    private static final int READ_SOON = 16;
    /** An expiry follows the header. */
    private static final int EXPIRES = 32;
    private static final int ENCODING_SHIFT = 6;
    private static final StringEncoding[] ENCODINGS = StringEncoding.values();

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final TieredPartition partition;
    private final TieredSettings settings;
    private final AccessPolicy accessPolicy;
    private final LongSupplier clock;
    private Table.Events events = Table.Events.NONE;
    /** Per bucket: null, one record, or a {@code byte[][]} of two or more. */
    private Object[] buckets = new Object[INITIAL_CAPACITY];
    /** The bucket of the record the last lookup found. */
    private int foundBucket;
    private int size;
    private int expiring;
    private long expiredCount;
    private long recordMemory;
    private long sharedBucketMemory;
    private long objectMemory;
    private int expireCursor;
    private int offloadCursor;
    /** Aggregates and strings being edited, by the index their record's locator holds; free slots are chained through {@link #freeObjects}. */
    private Object[] objects = new Object[0];
    private long[] objectBytes = new long[0];
    private int[] freeObjects = new int[0];
    private int freeCount;
    private int objectsUsed;
    /** The side-table index of the string {@link #editString} last opened, -1 for none: its command may still be writing through the view, so it stays. */
    private int editing = -1;
    private int editingLength;
    /**
     * Resident strings the hand may move ({@link #movable}). At 0 {@link #offload} has nothing to
     * find and returns at once, and a string stored while it is the only one goes straight to disk
     * when the partition is over its pressure share ({@link #store}): keys alone over the share
     * cost a store O(1), not a walk of the table looking for the one string just stored.
     */
    private int movableStrings;
    /** Buckets the hand has walked; for tests. */
    private long handSteps;
    /** Reads of this table ({@link #get}, {@link #getValue}), wrapping: the clock of a record's last read. */
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

    /** The heap a record's array takes: header and bytes, rounded to 8. */
    static long recordBytes(int length) {
        return (ARRAY_BYTES + length + 7L) & ~7L;
    }

    private static long sharedBucketBytes(int records) {
        return records < 2 ? 0 : (ARRAY_BYTES + 8L * records + 7L) & ~7L;
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

    // The record's fields.

    private static int flags(byte[] record) {
        return record[0] & 0xff;
    }

    private static boolean has(byte[] record, int flag) {
        return (record[0] & flag) != 0;
    }

    private static void setFlag(byte[] record, int flag, boolean on) {
        record[0] = (byte) (on ? record[0] | flag : record[0] & ~flag);
    }

    private static int access(byte[] record) {
        return (int) INT.get(record, 0) >>> 8;
    }

    private static void setAccessField(byte[] record, int access) {
        INT.set(record, 0, access << 8 | flags(record));
    }

    private static int lastRead(byte[] record) {
        return (int) INT.get(record, 4);
    }

    /** An offloaded string's {@code offset:38 length:26}, an object's {@code length:32 index:32}, or a resident string's length. */
    private static long locator(byte[] record) {
        return (long) LONG.get(record, 8);
    }

    private static int length(byte[] record) {
        long locator = locator(record);
        if (has(record, ON_DISK)) {
            return (int) (locator & MAX_DISK_LENGTH);
        }
        return has(record, OBJECT) ? (int) (locator >>> 32) : (int) locator;
    }

    /** An offloaded string's offset in the segment file. */
    private static long diskAt(byte[] record) {
        return locator(record) >>> LENGTH_BITS;
    }

    private static int objectIndex(byte[] record) {
        return (int) locator(record);
    }

    /** What {@link #record} takes as {@code at}: the offset on disk, the object's index, or nothing. */
    private static long at(byte[] record) {
        return has(record, ON_DISK) ? diskAt(record) : has(record, OBJECT) ? objectIndex(record) : 0;
    }

    private static long locator(int flags, int length, long at) {
        if ((flags & ON_DISK) != 0) {
            if (length > MAX_DISK_LENGTH || at >>> OFFSET_BITS != 0) {
                throw new IllegalStateException("extent past the locator: " + at + " + " + length);
            }
            return at << LENGTH_BITS | length;
        }
        return (flags & OBJECT) != 0 ? (long) length << 32 | at : length;
    }

    private static long expireAt(byte[] record) {
        return has(record, EXPIRES) ? (long) LONG.get(record, HEADER_BYTES) : Keyspace.NO_EXPIRY;
    }

    private static int keyOffset(byte[] record) {
        return has(record, EXPIRES) ? HEADER_BYTES + EXPIRY_BYTES : HEADER_BYTES;
    }

    /** A resident string whose bytes follow the key. */
    private static boolean inline(byte[] record) {
        return (record[0] & (ON_DISK | OBJECT)) == 0;
    }

    private static boolean onDisk(byte[] record) {
        return has(record, ON_DISK);
    }

    private static boolean aggregate(byte[] record) {
        return (flags(record) & (OBJECT | EDITED)) == OBJECT;
    }

    private static int keyLength(byte[] record) {
        return record.length - keyOffset(record) - (inline(record) ? length(record) : 0);
    }

    private static int valueOffset(byte[] record) {
        return record.length - length(record);
    }

    private static StringEncoding encoding(byte[] record) {
        return ENCODINGS[flags(record) >>> ENCODING_SHIFT];
    }

    private static byte[] key(byte[] record) {
        int offset = keyOffset(record);
        return Arrays.copyOfRange(record, offset, offset + keyLength(record));
    }

    /**
     * A new record: {@code flags} (whose {@link #EXPIRES} is set from {@code expireAt}), the value's
     * place {@code at} (offset on disk or object index), the key, and
     * {@code value[valueOffset, valueOffset + length)} after it when the string is inline.
     */
    private static byte[] record(int flags, int access, int lastRead, int length, long at, long expireAt,
                                 byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset) {
        boolean expires = expireAt != Keyspace.NO_EXPIRY;
        flags = expires ? flags | EXPIRES : flags & ~EXPIRES;
        boolean inline = (flags & (ON_DISK | OBJECT)) == 0;
        int keyAt = expires ? HEADER_BYTES + EXPIRY_BYTES : HEADER_BYTES;
        byte[] record = new byte[keyAt + keyLength + (inline ? length : 0)];
        INT.set(record, 0, access << 8 | flags);
        INT.set(record, 4, lastRead);
        LONG.set(record, 8, locator(flags, length, at));
        if (expires) {
            LONG.set(record, HEADER_BYTES, expireAt);
        }
        System.arraycopy(key, keyOffset, record, keyAt, keyLength);
        if (inline) {
            System.arraycopy(value, valueOffset, record, keyAt + keyLength, length);
        }
        return record;
    }

    /** The record with another value (flags' value bits, length, locator, inline bytes), its key, expiry and CLOCK state kept. */
    private static byte[] withValue(byte[] record, int valueFlags, int length, long at, byte[] value,
                                    int valueOffset) {
        int flags = flags(record) & (REFERENCED | READ_SOON) | valueFlags;
        return record(flags, access(record), lastRead(record), length, at, expireAt(record), record,
            keyOffset(record), keyLength(record), value, valueOffset);
    }

    private static int encodingFlags(StringEncoding encoding) {
        return encoding.ordinal() << ENCODING_SHIFT;
    }

    private static boolean expired(byte[] record, long now) {
        long expireAt = expireAt(record);
        return expireAt != Keyspace.NO_EXPIRY && expireAt <= now;
    }

    private static boolean keyEquals(byte[] record, byte[] key, int offset, int length) {
        int at = keyOffset(record);
        return keyLength(record) == length && Arrays.equals(record, at, at + length, key, offset, offset + length);
    }

    // Buckets.

    private byte[] find(byte[] key, int offset, int length, long hash) {
        int bucket = (int) (hash & (buckets.length - 1));
        foundBucket = bucket;
        Object head = buckets[bucket];
        if (head instanceof byte[] record) {
            return keyEquals(record, key, offset, length) ? record : null;
        }
        if (head != null) {
            for (byte[] record : (byte[][]) head) {
                if (keyEquals(record, key, offset, length)) {
                    return record;
                }
            }
        }
        return null;
    }

    /** The record of a key whose time has not passed; one whose time has passed is deleted first. */
    private byte[] findLive(byte[] key, int offset, int length, long now) {
        byte[] record = find(key, offset, length, hash(key, offset, length));
        if (record != null && expired(record, now)) {
            removeExpired(foundBucket, record);
            return null;
        }
        return record;
    }

    private void removeExpired(int bucket, byte[] record) {
        unlink(bucket, record);
        expiredCount++;
        events.expired(record, keyOffset(record), keyLength(record));
    }

    private void addToBucket(Object[] table, int bucket, byte[] record) {
        Object head = table[bucket];
        if (head == null) {
            table[bucket] = record;
        } else if (head instanceof byte[] only) {
            table[bucket] = new byte[][] {record, only};
            sharedBucketMemory += sharedBucketBytes(2);
        } else {
            byte[][] chain = (byte[][]) head;
            byte[][] grown = Arrays.copyOf(chain, chain.length + 1);
            grown[chain.length] = record;
            table[bucket] = grown;
            sharedBucketMemory += sharedBucketBytes(grown.length) - sharedBucketBytes(chain.length);
        }
    }

    private void removeFromBucket(int bucket, byte[] record) {
        Object head = buckets[bucket];
        if (head == record) {
            buckets[bucket] = null;
            return;
        }
        byte[][] chain = (byte[][]) head;
        int at = 0;
        while (chain[at] != record) {
            at++;
        }
        sharedBucketMemory -= sharedBucketBytes(chain.length);
        if (chain.length == 2) {
            buckets[bucket] = chain[1 - at];
        } else {
            byte[][] shrunk = new byte[chain.length - 1][];
            System.arraycopy(chain, 0, shrunk, 0, at);
            System.arraycopy(chain, at + 1, shrunk, at, chain.length - at - 1);
            buckets[bucket] = shrunk;
            sharedBucketMemory += sharedBucketBytes(shrunk.length);
        }
    }

    /** Puts {@code replacement} where {@code record} was (a shared bucket's array in place: a walk over it sees it). */
    private void replace(int bucket, byte[] record, byte[] replacement) {
        Object head = buckets[bucket];
        if (head == record) {
            buckets[bucket] = replacement;
        } else {
            byte[][] chain = (byte[][]) head;
            int at = 0;
            while (chain[at] != record) {
                at++;
            }
            chain[at] = replacement;
        }
        recordMemory += recordBytes(replacement.length) - recordBytes(record.length);
    }

    private void insert(byte[] record, long hash) {
        if (size >= buckets.length && buckets.length < MAX_CAPACITY) {
            resize(buckets.length * 2);
        }
        addToBucket(buckets, (int) (hash & (buckets.length - 1)), record);
        size++;
        if (has(record, EXPIRES)) {
            expiring++;
        }
        recordMemory += recordBytes(record.length);
    }

    private void resize(int capacity) {
        Object[] grown = new Object[capacity];
        sharedBucketMemory = 0;
        for (Object head : buckets) {
            if (head instanceof byte[] record) {
                rehash(grown, record);
            } else if (head != null) {
                for (byte[] record : (byte[][]) head) {
                    rehash(grown, record);
                }
            }
        }
        buckets = grown;
    }

    private void rehash(Object[] table, byte[] record) {
        long hash = hash(record, keyOffset(record), keyLength(record));
        addToBucket(table, (int) (hash & (table.length - 1)), record);
    }

    /** Takes a record out of its bucket and drops its value. */
    private void unlink(int bucket, byte[] record) {
        movableStrings -= movable(record) ? 1 : 0;
        removeFromBucket(bucket, record);
        size--;
        if (has(record, EXPIRES)) {
            expiring--;
        }
        dropValue(record);
        recordMemory -= recordBytes(record.length);
    }

    /**
     * Releases what a record's value holds outside it: its extent on disk or its side-table slot. A
     * released extent's record reads as an object's from then on (its key where it was), so that a
     * compaction by the write of the value replacing it does not move the extent again.
     */
    private void dropValue(byte[] record) {
        if (onDisk(record)) {
            partition.release(diskAt(record), length(record));
            record[0] = (byte) (record[0] & ~ON_DISK | OBJECT);
            LONG.set(record, 8, 0L);
        } else if (has(record, OBJECT)) {
            freeObject(objectIndex(record));
        }
    }

    // The side table.

    private int addObject(Object value, long memory) {
        int index;
        if (freeCount > 0) {
            index = freeObjects[--freeCount];
        } else {
            if (objectsUsed == objects.length) {
                int capacity = Math.max(4, objects.length * 2);
                objectMemory += (long) OBJECT_SLOT_BYTES * (capacity - objects.length);
                objects = Arrays.copyOf(objects, capacity);
                objectBytes = Arrays.copyOf(objectBytes, capacity);
            }
            index = objectsUsed++;
        }
        objects[index] = value;
        objectBytes[index] = memory;
        objectMemory += memory;
        return index;
    }

    private void freeObject(int index) {
        objectMemory -= objectBytes[index];
        objects[index] = null;
        objectBytes[index] = 0;
        if (freeCount == freeObjects.length) {
            freeObjects = Arrays.copyOf(freeObjects, Math.max(4, freeObjects.length * 2));
        }
        freeObjects[freeCount++] = index;
        if (index == editing) {
            editing = -1;
        }
    }

    private void recount(int index, long memory) {
        objectMemory += memory - objectBytes[index];
        objectBytes[index] = memory;
    }

    // Values.

    /** A string's record, on disk when the policy is eager and it is long enough. */
    private byte[] stringRecord(int keep, int access, long expireAt, byte[] key, int keyOffset, int keyLength,
                                byte[] value, int offset, int length, StringEncoding encoding) {
        int flags = keep | encodingFlags(encoding);
        if (settings.eager() && length >= settings.minValueSize() && length <= MAX_DISK_LENGTH) {
            long at = partition.write(value, offset, length);
            return record(flags | ON_DISK, access, reads, length, at, expireAt, key, keyOffset, keyLength, null, 0);
        }
        return record(flags, access, reads, length, 0, expireAt, key, keyOffset, keyLength, value, offset);
    }

    private byte[] aggregateRecord(int keep, int access, long expireAt, byte[] key, int keyOffset, int keyLength,
                                   Aggregate value) {
        int index = addObject(value, value.memoryUsage());
        return record(keep | OBJECT, access, reads, 0, index, expireAt, key, keyOffset, keyLength, null, 0);
    }

    /** A string's bytes as commands take them: never an array the table will edit later. */
    private byte[] string(byte[] record) {
        int length = length(record);
        if (onDisk(record)) {
            return partition.read(diskAt(record), length);
        }
        if (has(record, OBJECT)) {
            return Arrays.copyOf((byte[]) objects[objectIndex(record)], length);
        }
        int at = valueOffset(record);
        return Arrays.copyOfRange(record, at, at + length);
    }

    private Object value(byte[] record) {
        return aggregate(record) ? objects[objectIndex(record)] : string(record);
    }

    /**
     * Points the view at the record's value: an offloaded string is read, or handed as a handle to a
     * view that takes them (a snapshot's, whose writer reads it on its own thread).
     */
    private ValueView view(byte[] record, ValueView view) {
        int length = length(record);
        if (aggregate(record)) {
            view.setObject(objects[objectIndex(record)]);
        } else if (onDisk(record) && view.takesHandles()) {
            view.setHandle(partition.handle(diskAt(record), length));
        } else if (onDisk(record)) {
            view.setString(partition.read(diskAt(record), length), 0, length);
        } else if (has(record, OBJECT)) {
            view.setString((byte[]) objects[objectIndex(record)], 0, length);
        } else {
            view.setString(record, valueOffset(record), length);
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
        byte[] record = findLive(key, offset, length, now);
        if (record == null) {
            return null;
        }
        int bucket = foundBucket;
        setAccessField(record, accessPolicy.accessed(access(record), now));
        boolean soon = readSoon(record);
        Object value;
        if (onDisk(record) && soon && has(record, READ_SOON)) {
            byte[] bytes = string(record);
            record = promote(bucket, record, bytes);
            value = bytes;
        } else {
            value = value(record);
        }
        read(record, soon);
        return value;
    }

    /**
     * Whether a record read now was last read since the hand passed it and within the last
     * {@code size >> }{@link #PROMOTION_WINDOW_SHIFT} reads of the table. An offloaded string comes
     * back to memory on the second such read in a row, three reads close together: a key read that
     * often is among the hottest and worth a place in memory. The bit alone is not enough: the hand
     * moves only to make room, so with uniform reads nearly every offloaded key keeps its bit and
     * promotion would displace one value no colder than itself per disk read, a write each; one
     * short gap is not enough either, as a uniformly read key has one in eight reads.
     */
    private boolean readSoon(byte[] record) {
        return has(record, REFERENCED) && reads - lastRead(record) <= Math.max(1, size >> PROMOTION_WINDOW_SHIFT);
    }

    private void read(byte[] record, boolean soon) {
        setFlag(record, REFERENCED, true);
        setFlag(record, READ_SOON, soon);
        INT.set(record, 4, ++reads);
    }

    /**
     * A second read of an offloaded string soon after the first ({@link #readSoon}): its bytes,
     * just read, become its value in memory if the partition makes room for them; the extent is
     * left to compaction. Returns the record now in the table.
     */
    private byte[] promote(int bucket, byte[] record, byte[] bytes) {
        int length = length(record);
        long grows = recordBytes(record.length + length) - recordBytes(record.length);
        if (!partition.makeRoom(grows)) {
            return record;
        }
        // After makeRoom: a compaction it caused has moved the extent (in place, in this record).
        partition.release(diskAt(record), length);
        byte[] promoted = withValue(record, flags(record) & ~(ON_DISK | OBJECT | EDITED | EXPIRES), length, 0,
            bytes, 0);
        replace(bucket, record, promoted);
        movableStrings += movable(promoted) ? 1 : 0;
        partition.promoted();
        return promoted;
    }

    @Override
    public Object peek(byte[] key, int offset, int length, long now) {
        byte[] record = findLive(key, offset, length, now);
        return record == null ? null : value(record);
    }

    @Override
    public int access(byte[] key, int offset, int length, long now) {
        byte[] record = findLive(key, offset, length, now);
        return record == null ? -1 : access(record);
    }

    @Override
    public boolean setAccess(byte[] key, int offset, int length, int access, long now) {
        byte[] record = findLive(key, offset, length, now);
        if (record == null) {
            return false;
        }
        setAccessField(record, access);
        return true;
    }

    @Override
    public boolean getValue(byte[] key, int offset, int length, long now, ValueView view) {
        byte[] record = findLive(key, offset, length, now);
        if (record == null) {
            return false;
        }
        int bucket = foundBucket;
        setAccessField(record, accessPolicy.accessed(access(record), now));
        boolean soon = readSoon(record);
        if (onDisk(record) && soon && has(record, READ_SOON) && !view.takesHandles()) {
            byte[] bytes = string(record);
            record = promote(bucket, record, bytes);
            view.setString(bytes, 0, bytes.length);
        } else {
            view(record, view);
        }
        read(record, soon);
        return true;
    }

    /** False for an offloaded string no reader has landed yet: a reader thread reads it now. */
    @Override
    public boolean resident(byte[] key, int offset, int length, long now, Runnable ready) {
        byte[] record = findLive(key, offset, length, now);
        return record == null || !onDisk(record) || partition.landed(diskAt(record), length(record))
            || !partition.readLater(diskAt(record), length(record), ready);
    }

    @Override
    public void modified(byte[] key, int offset, int length, long now) {
        byte[] record = findLive(key, offset, length, now);
        if (record != null && aggregate(record)) {
            int index = objectIndex(record);
            recount(index, ((Aggregate) objects[index]).memoryUsage());
        }
    }

    @Override
    public long expireAt(byte[] key, int offset, int length, long now) {
        byte[] record = findLive(key, offset, length, now);
        return record == null ? -2 : expireAt(record);
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
        byte[] record = find(key, offset, length, hash);
        if (record != null && expired(record, now)) {
            removeExpired(foundBucket, record);
            record = null;
        }
        byte[] stored;
        if (record == null) {
            long expiry = keepExpiry ? Keyspace.NO_EXPIRY : expireAt;
            int access = accessPolicy.created(now);
            stored = aggregate != null
                ? aggregateRecord(0, access, expiry, key, offset, length, aggregate)
                : stringRecord(0, access, expiry, key, offset, length, value, valueOffset, valueLength, encoding);
            insert(stored, hash);
            events.created(key, offset, length);
        } else {
            int bucket = foundBucket;
            long expiry = keepExpiry ? expireAt(record) : expireAt;
            int access = accessPolicy.overwritten(access(record), now);
            int keep = flags(record) & (REFERENCED | READ_SOON);
            int keyAt = keyOffset(record);
            movableStrings -= movable(record) ? 1 : 0;
            dropValue(record);
            stored = aggregate != null
                ? aggregateRecord(keep, access, expiry, record, keyAt, length, aggregate)
                : stringRecord(keep, access, expiry, record, keyAt, length, value, valueOffset, valueLength,
                    encoding);
            INT.set(stored, 4, lastRead(record));
            replace(bucket, record, stored);
            expiring += (has(stored, EXPIRES) ? 1 : 0) - (has(record, EXPIRES) ? 1 : 0);
        }
        movableStrings += movable(stored) ? 1 : 0;
        if (movableStrings == 1 && movable(stored) && partition.overPressureShare()) {
            moveToDisk(foundBucketOf(stored), stored);
        }
        partition.relieve();
    }

    private int foundBucketOf(byte[] record) {
        return (int) (hash(record, keyOffset(record), keyLength(record)) & (buckets.length - 1));
    }

    /** A resident string the hand may move to disk. */
    private boolean movable(byte[] record) {
        int flags = flags(record);
        int length = length(record);
        if ((flags & ON_DISK) != 0 || length < settings.minValueSize() || length > MAX_DISK_LENGTH) {
            return false;
        }
        return (flags & OBJECT) == 0 || (flags & EDITED) != 0 && objectIndex(record) != editing;
    }

    /** Writes a movable string to the segment file and keeps only its locator; returns the bytes freed. */
    private long moveToDisk(int bucket, byte[] record) {
        movableStrings--;
        int length = length(record);
        long before = recordBytes(record.length) + objectMemory;
        long at;
        if (has(record, OBJECT)) {
            int index = objectIndex(record);
            at = partition.write((byte[]) objects[index], 0, length);
            freeObject(index);
        } else {
            at = partition.write(record, valueOffset(record), length);
        }
        byte[] moved = withValue(record, flags(record) & ~(OBJECT | EDITED | EXPIRES) | ON_DISK, length, at, null, 0);
        replace(bucket, record, moved);
        return before - recordBytes(moved.length) - objectMemory;
    }

    /** Gives the record a new expiry, in place when it already has one or still has none; returns the record now in the table. */
    private byte[] changeExpiry(int bucket, byte[] record, long expireAt) {
        boolean expires = expireAt != Keyspace.NO_EXPIRY;
        if (expires == has(record, EXPIRES)) {
            if (expires) {
                LONG.set(record, HEADER_BYTES, expireAt);
            }
            return record;
        }
        expiring += expires ? 1 : -1;
        byte[] changed = record(flags(record), access(record), lastRead(record), length(record), at(record),
            expireAt, record, keyOffset(record), keyLength(record), record, inline(record) ? valueOffset(record) : 0);
        replace(bucket, record, changed);
        return changed;
    }

    @Override
    public StringEncoding stringEncoding(byte[] key, int offset, int length, long now) {
        byte[] record = findLive(key, offset, length, now);
        return record == null ? StringEncoding.FROM_BYTES : encoding(record);
    }

    /**
     * Brings the string into memory as an array of its own in the side table (the one {@link #get}
     * may have handed out is never changed), grown with zeros to {@code minLength} and room past
     * it, and marks it RAW.
     */
    @Override
    public boolean editString(byte[] key, int offset, int length, int minLength, long now, ValueView view) {
        long hash = hash(key, offset, length);
        byte[] record = find(key, offset, length, hash);
        int bucket = foundBucket;
        if (record != null && expired(record, now)) {
            removeExpired(bucket, record);
            record = null;
        }
        if (editing >= 0) {
            // The string edited before this one may move again, once no longer the one edited.
            editing = -1;
            movableStrings += editingLength >= settings.minValueSize() && editingLength <= MAX_DISK_LENGTH ? 1 : 0;
        }
        int raw = encodingFlags(StringEncoding.RAW);
        if (record == null) {
            byte[] editable = new byte[minLength];
            int index = addObject(editable, ARRAY_BYTES + minLength);
            insert(record(OBJECT | EDITED | raw, accessPolicy.created(now), reads, minLength, index,
                Keyspace.NO_EXPIRY, key, offset, length, null, 0), hash);
            events.created(key, offset, length);
            editing = index;
            editingLength = minLength;
            view.setString(editable, 0, minLength);
            return true;
        }
        if (aggregate(record)) {
            return false;
        }
        // Edited, it stays: no longer movable.
        movableStrings -= movable(record) ? 1 : 0;
        int oldLength = length(record);
        int newLength = Math.max(oldLength, minLength);
        byte[] edited;
        if (!has(record, EDITED) || newLength > ((byte[]) objects[objectIndex(record)]).length) {
            int capacity = newLength > oldLength ? roomFor(newLength) : newLength;
            edited = Arrays.copyOf(string(record), capacity);
            dropValue(record);
            int index = addObject(edited, ARRAY_BYTES + capacity);
            byte[] moved = withValue(record, OBJECT | EDITED | raw, newLength, index, null, 0);
            replace(bucket, record, moved);
            record = moved;
        } else {
            edited = (byte[]) objects[objectIndex(record)];
            if (newLength > oldLength) {
                Arrays.fill(edited, oldLength, newLength, (byte) 0);
            }
            INT.set(record, 12, newLength);
            record[0] = (byte) (flags(record) & ((1 << ENCODING_SHIFT) - 1) | raw);
        }
        editing = objectIndex(record);
        editingLength = newLength;
        view.setString(edited, 0, newLength);
        return true;
    }

    private static int roomFor(int length) {
        long capacity = length < MAX_PREALLOC ? 2L * length : (long) length + MAX_PREALLOC;
        return (int) Math.min(capacity, Integer.MAX_VALUE - 16);
    }

    /** The RAM the value takes: a resident string's bytes, none for one on disk, an object's counted memory. */
    @Override
    public long valueMemory(byte[] key, int offset, int length, long now) {
        byte[] record = findLive(key, offset, length, now);
        if (record == null) {
            return -1;
        }
        if (has(record, OBJECT)) {
            return objectBytes[objectIndex(record)];
        }
        return onDisk(record) ? 0 : length(record);
    }

    @Override
    public boolean setExpireAt(byte[] key, int offset, int length, long expireAt, long now) {
        byte[] record = findLive(key, offset, length, now);
        if (record == null) {
            return false;
        }
        changeExpiry(foundBucket, record, expireAt);
        return true;
    }

    @Override
    public boolean remove(byte[] key, int offset, int length, long now) {
        byte[] record = findLive(key, offset, length, now);
        if (record == null) {
            return false;
        }
        unlink(foundBucket, record);
        return true;
    }

    @Override
    public void clear() {
        for (Object head : buckets) {
            if (head instanceof byte[] record) {
                releaseExtent(record);
            } else if (head != null) {
                for (byte[] record : (byte[][]) head) {
                    releaseExtent(record);
                }
            }
        }
        buckets = new Object[INITIAL_CAPACITY];
        size = 0;
        expiring = 0;
        recordMemory = 0;
        sharedBucketMemory = 0;
        objects = new Object[0];
        objectBytes = new long[0];
        freeObjects = new int[0];
        freeCount = 0;
        objectsUsed = 0;
        objectMemory = 0;
        expireCursor = 0;
        offloadCursor = 0;
        editing = -1;
        movableStrings = 0;
    }

    private void releaseExtent(byte[] record) {
        if (onDisk(record)) {
            partition.release(diskAt(record), length(record));
        }
    }

    /** The records of a bucket as they are now: a walk that deletes or replaces goes on over this array. */
    private static byte[][] records(Object head) {
        if (head == null) {
            return NO_RECORDS;
        }
        return head instanceof byte[] record ? new byte[][] {record} : (byte[][]) head;
    }

    private static final byte[][] NO_RECORDS = new byte[0][];

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
            Object head = buckets[(int) (cursor & (buckets.length - 1))];
            if (head == null) {
                emptyBuckets--;
            }
            for (byte[] record : records(head)) {
                (expired(record, now) ? expired : visitor).accept(key(record));
                handed++;
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
            Object head = buckets[(int) (cursor & (buckets.length - 1))];
            if (head == null) {
                emptyBuckets--;
            }
            for (byte[] record : records(head)) {
                if (!expired(record, now)) {
                    reader.read(record, keyOffset(record), keyLength(record), view(record, view), expireAt(record),
                        access(record));
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
        byte[] record = findLive(key, offset, length, now);
        if (record == null) {
            return false;
        }
        reader.read(record, keyOffset(record), keyLength(record), view(record, view), expireAt(record),
            access(record));
        return true;
    }

    @Override
    public void forEachLive(long now, EntryVisitor visitor) {
        for (Object head : buckets) {
            for (byte[] record : records(head)) {
                if (!expired(record, now)) {
                    visitor.visit(key(record), value(record), expireAt(record), access(record));
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
            byte[][] chain = records(buckets[bucket]);
            byte[] record = chain[random.nextInt(chain.length)];
            if (!expired(record, now)) {
                return key(record);
            }
            removeExpired(bucket, record);
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
            for (byte[] record : records(buckets[bucket])) {
                if (offered < count && (!volatileOnly || has(record, EXPIRES))) {
                    candidates.offer(record, keyOffset(record), keyLength(record), access(record), expireAt(record));
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
            for (byte[] record : records(buckets[bucket])) {
                if (expired(record, now)) {
                    removeExpired(bucket, record);
                    deleted++;
                }
            }
            expireCursor = (bucket + 1) & (buckets.length - 1);
        }
        return deleted;
    }

    /**
     * The CLOCK's hand: walks on from the bucket where the last call stopped, for at most
     * {@code maxBuckets} buckets or until {@code bytes} are freed, clearing every record's
     * {@link #REFERENCED} bit and moving to disk the resident strings of at least
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
            Object head = buckets[bucket];
            if (head instanceof byte[] record) {
                movable |= movable(record);
                freed += passHand(bucket, record);
            } else if (head != null) {
                for (byte[] record : (byte[][]) head) {
                    movable |= movable(record);
                    freed += passHand(bucket, record);
                }
            }
            offloadCursor = (bucket + 1) & (buckets.length - 1);
        }
        return freed;
    }

    /** Clears the record's bit, and moves its string to disk if movable and the bit was already clear; returns the bytes freed. */
    private long passHand(int bucket, byte[] record) {
        boolean secondChance = has(record, REFERENCED);
        setFlag(record, REFERENCED, false);
        return !secondChance && movable(record) ? moveToDisk(bucket, record) : 0;
    }

    long handSteps() {
        return handSteps;
    }

    int movableStrings() {
        return movableStrings;
    }

    /** Moves every offloaded string of this table into the compacted file. */
    void relocate(SegmentFile.Compaction compaction) {
        for (Object head : buckets) {
            if (head instanceof byte[] record) {
                relocate(compaction, record);
            } else if (head != null) {
                for (byte[] record : (byte[][]) head) {
                    relocate(compaction, record);
                }
            }
        }
    }

    private static void relocate(SegmentFile.Compaction compaction, byte[] record) {
        if (onDisk(record)) {
            int length = length(record);
            LONG.set(record, 8, locator(ON_DISK, length, compaction.move(diskAt(record), length)));
        }
    }

    @Override
    public int capacity() {
        return buckets.length;
    }

    @Override
    public long usedMemory() {
        return bucketBytes(buckets.length) + sharedBucketMemory + recordMemory + objectMemory;
    }

    @Override
    public long liveMemory() {
        return usedMemory();
    }
}
