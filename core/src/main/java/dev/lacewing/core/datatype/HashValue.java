package dev.lacewing.core.datatype;

import dev.lacewing.api.AggregateType;
import dev.lacewing.api.HashView;
import dev.lacewing.api.storage.Aggregate;
import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.function.IntConsumer;
import java.util.random.RandomGenerator;

/**
 * A hash, in one of Redis 7.0's two encodings. {@code listpack}: the field,value pairs in insertion
 * order in one {@code byte[]} ({@code varint length, bytes} each), searched linearly, as Redis's
 * listpack is; kept while the hash has at most {@code hash-max-listpack-entries} fields and no field
 * or value longer than {@code hash-max-listpack-value} bytes. {@code hashtable}: a
 * {@link PackedTable}. Conversion is one way, as in Redis: a hash never goes back to listpack.
 *
 * <p>Entries are addressed by positions ({@link #first()}, {@link #next(int)}): the byte offset of
 * a pair in the listpack, a slot of the table; a position is valid until the hash next changes.
 * {@link #memoryUsage()} is O(1). In the compact keyspace a listpack hash rests as its pairs' bytes
 * inside the key's entry ({@link Aggregate.Packed}), and this object exists while a command uses it.
 *
 * <p>Thread rule: stored under one key and touched only by the thread the engine gives the
 * command on that key.
 */
public final class HashValue implements TypedValue, Aggregate.Packed, Positioned, HashView {

    /** Core's hash commands take a stored hash through this token ({@code Keyspace.aggregate}). */
    public static final AggregateType<HashValue> TYPE = new AggregateType<>("hash", HashValue.class);


    public static final String LISTPACK = "listpack";
    public static final String HASHTABLE = "hashtable";

    /** Object header and four fields, and the listpack array's header. */
    private static final long FIXED_BYTES = 32;
    private static final long ARRAY_HEADER = 16;

    private byte[] pairs;
    private int used;
    private int count;
    private PackedTable table;

    public HashValue() {
        pairs = new byte[0];
    }

    private HashValue(byte[] pairs, int used, int count, PackedTable table) {
        this.pairs = pairs;
        this.used = used;
        this.count = count;
        this.table = table;
    }

    /** A listpack hash over {@code pairs} (taken, not copied), as {@link #packedArray} gave them. */
    public static HashValue fromListpack(byte[] pairs) {
        HashValue hash = new HashValue(pairs, pairs.length, 0, null);
        for (int at = hash.first(); at >= 0; at = hash.next(at)) {
            hash.count++;
        }
        return hash;
    }

    @Override
    public String typeName() {
        return "hash";
    }

    @Override
    public String encoding() {
        return table == null ? LISTPACK : HASHTABLE;
    }

    @Override
    public HashValue copy() {
        return table == null
            ? new HashValue(Arrays.copyOf(pairs, used), used, count, null)
            : new HashValue(null, 0, 0, table.copy());
    }

    @Override
    public long memoryUsage() {
        return FIXED_BYTES + (table == null ? ARRAY_HEADER + pairs.length : table.memoryUsage());
    }

    @Override
    public int size() {
        return table == null ? count : table.size();
    }

    public boolean isListpack() {
        return table == null;
    }

    @Override
    public int packedForm() {
        return table == null ? HASH_LISTPACK : 0;
    }

    @Override
    public byte[] packedArray() {
        return pairs;
    }

    @Override
    public int packedLength() {
        return used;
    }

    // ---- positions -------------------------------------------------------------------------

    /** The position of a field, or -1. O(n) for a listpack, O(1) expected for a table. */
    public int find(byte[] field, int offset, int length) {
        if (table != null) {
            return table.find(field, offset, length);
        }
        for (int at = first(); at >= 0; at = next(at)) {
            int fieldLength = Varint.read(pairs, at);
            int fieldAt = at + Varint.size(fieldLength);
            if (fieldLength == length && Arrays.equals(pairs, fieldAt, fieldAt + length, field, offset, offset + length)) {
                return at;
            }
        }
        return -1;
    }

    /** The first position, or -1 when empty. */
    @Override
    public int first() {
        return table == null ? (used > 0 ? 0 : -1) : nextSlot(0);
    }

    /** The position after {@code position}, or -1. */
    @Override
    public int next(int position) {
        if (table != null) {
            return nextSlot(position + 1);
        }
        int at = fieldOffset(position) + fieldLength(position);
        int valueLength = Varint.read(pairs, at);
        at += Varint.size(valueLength) + valueLength;
        return at < used ? at : -1;
    }

    private int nextSlot(int from) {
        int capacity = table.capacity();
        for (int i = from; i < capacity; i++) {
            if (table.occupied(i)) {
                return i;
            }
        }
        return -1;
    }

    /** The array holding the entry at a position. */
    public byte[] array(int position) {
        return table == null ? pairs : table.page(position);
    }

    public int fieldOffset(int position) {
        return table == null ? position + Varint.size(Varint.read(pairs, position)) : table.fieldOffset(position);
    }

    public int fieldLength(int position) {
        return table == null ? Varint.read(pairs, position) : table.fieldLength(position);
    }

    public int valueOffset(int position) {
        if (table != null) {
            return table.valueOffset(position);
        }
        int at = fieldOffset(position) + fieldLength(position);
        return at + Varint.size(Varint.read(pairs, at));
    }

    public int valueLength(int position) {
        return table == null ? Varint.read(pairs, fieldOffset(position) + fieldLength(position))
            : table.valueLength(position);
    }

    public byte[] value(int position) {
        int offset = valueOffset(position);
        return Arrays.copyOfRange(array(position), offset, offset + valueLength(position));
    }

    /** A uniformly random position; the hash must not be empty. O(n) for a listpack. */
    @Override
    public int randomPosition(RandomGenerator random) {
        if (table != null) {
            return table.randomPosition(random);
        }
        int at = 0;
        for (int skip = random.nextInt(count); skip > 0; skip--) {
            at = next(at);
        }
        return at;
    }

    /**
     * One HSCAN step: a listpack is visited whole and the scan ends (cursor 0), as in Redis; a table
     * is walked by home buckets ({@link PackedTable#scan}).
     */
    public long scan(long cursor, int count, IntConsumer visit) {
        if (table != null) {
            return table.scan(cursor, count, visit);
        }
        for (int at = first(); at >= 0; at = next(at)) {
            visit.accept(at);
        }
        return 0;
    }

    // ---- changes ---------------------------------------------------------------------------

    /**
     * Sets a field's value; true when the field is new. Converts to a table first when the field
     * or the value is longer than {@code maxListpackValue}, and after when the hash then has more
     * than {@code maxListpackEntries} fields (hashTypeTryConversion and hashTypeSet).
     */
    public boolean set(byte[] field, int fieldOffset, int fieldLength, byte[] value, int valueOffset, int valueLength,
                       long maxListpackEntries, long maxListpackValue) {
        if (table == null && (fieldLength > maxListpackValue || valueLength > maxListpackValue)) {
            convert();
        }
        if (table != null) {
            return table.put(field, fieldOffset, fieldLength, value, valueOffset, valueLength);
        }
        int position = find(field, fieldOffset, fieldLength);
        if (position >= 0) {
            replaceValue(position, value, valueOffset, valueLength);
            return false;
        }
        int length = Varint.size(fieldLength) + fieldLength + Varint.size(valueLength) + valueLength;
        ensureRoom(length);
        int at = Varint.write(pairs, used, fieldLength);
        System.arraycopy(field, fieldOffset, pairs, at, fieldLength);
        at = Varint.write(pairs, at + fieldLength, valueLength);
        System.arraycopy(value, valueOffset, pairs, at, valueLength);
        used = at + valueLength;
        count++;
        if (count > maxListpackEntries) {
            convert();
        }
        return true;
    }

    /** Removes a field; false when absent. */
    public boolean remove(byte[] field, int offset, int length) {
        if (table != null) {
            return table.remove(field, offset, length);
        }
        int position = find(field, offset, length);
        if (position < 0) {
            return false;
        }
        int end = next(position);
        end = end < 0 ? used : end;
        System.arraycopy(pairs, end, pairs, position, used - end);
        used -= end - position;
        count--;
        if (used * 2 < pairs.length && pairs.length > 64) {
            pairs = Arrays.copyOf(pairs, used + used / 4);
        }
        return true;
    }

    private void replaceValue(int position, byte[] value, int valueOffset, int valueLength) {
        int valueHeader = fieldOffset(position) + fieldLength(position);
        int oldLength = Varint.read(pairs, valueHeader);
        int oldEnd = valueHeader + Varint.size(oldLength) + oldLength;
        int newEnd = valueHeader + Varint.size(valueLength) + valueLength;
        if (newEnd > oldEnd) {
            ensureRoom(newEnd - oldEnd);
        }
        System.arraycopy(pairs, oldEnd, pairs, newEnd, used - oldEnd);
        used += newEnd - oldEnd;
        int at = Varint.write(pairs, valueHeader, valueLength);
        System.arraycopy(value, valueOffset, pairs, at, valueLength);
    }

    private void ensureRoom(int length) {
        if (used + length > pairs.length) {
            pairs = Arrays.copyOf(pairs, used + length + (used + length) / 4);
        }
    }

    private void convert() {
        PackedTable converted = new PackedTable(true);
        for (int at = first(); at >= 0; at = next(at)) {
            converted.put(pairs, fieldOffset(at), fieldLength(at), pairs, valueOffset(at), valueLength(at));
        }
        table = converted;
        pairs = null;
        used = 0;
        count = 0;
    }

    // ---- HashView --------------------------------------------------------------------------

    @Override
    public byte[] get(byte[] field, int offset, int length) {
        int position = find(field, offset, length);
        return position < 0 ? null : value(position);
    }

    @Override
    public void forEach(BiConsumer<byte[], byte[]> visitor) {
        for (int at = first(); at >= 0; at = next(at)) {
            int fieldOffset = fieldOffset(at);
            visitor.accept(Arrays.copyOfRange(array(at), fieldOffset, fieldOffset + fieldLength(at)), value(at));
        }
    }
}
