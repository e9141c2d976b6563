package dev.lacewing.core.datatype;

import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.keyspace.TypedValue;
import java.util.random.RandomGenerator;
import java.util.function.IntConsumer;

/**
 * A hash, in one of Redis 7.0's two encodings. {@code listpack}: one {@link Listpack} of
 * field, value, field, value... in insertion order, searched linearly, as Redis's is; kept while
 * the hash has at most {@code hash-max-listpack-entries} fields and no field or value longer than
 * {@code hash-max-listpack-value} bytes. {@code hashtable}: a {@link PackedTable}. Conversion is
 * one way, as in Redis: a hash never goes back to listpack.
 *
 * <p>Entries are addressed by positions ({@link #first()}, {@link #next(int)}): the byte offset of
 * a field in the listpack, a slot of the table; a position is valid until the hash next changes.
 * Fields and values are read as copies ({@link #field}, {@link #value}) or replied straight from
 * where they are stored ({@link #writeField}, {@link #writeValue}). {@link #memoryUsage()} is O(1).
 *
 * <p>Thread rule: stored under one key and touched only by the thread the engine gives the
 * command on that key.
 */
public final class HashValue implements TypedValue {

    public static final String LISTPACK = "listpack";
    public static final String HASHTABLE = "hashtable";

    /** This object: header and two fields, with compressed oops. */
    private static final long FIXED_BYTES = 24;

    /** The small form; null once converted. */
    private Listpack pairs;
    /** The large form; null while small. */
    private PackedTable table;

    public HashValue() {
        pairs = new Listpack();
    }

    private HashValue(Listpack pairs, PackedTable table) {
        this.pairs = pairs;
        this.table = table;
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
        return table == null ? new HashValue(pairs.copy(), null) : new HashValue(null, table.copy());
    }

    @Override
    public long memoryUsage() {
        return FIXED_BYTES + (table == null ? pairs.memoryUsage() : table.memoryUsage());
    }

    public int size() {
        return table == null ? pairs.size() / 2 : table.size();
    }

    public boolean isListpack() {
        return table == null;
    }

    // ---- positions -------------------------------------------------------------------------

    /** The position of a field, or -1. O(n) for a listpack, O(1) expected for a table. */
    public int find(byte[] field, int offset, int length) {
        return table == null ? pairs.find(pairs.first(), field, offset, length, 1) : table.find(field, offset, length);
    }

    /** The first position, or -1 when empty. */
    public int first() {
        return table == null ? pairs.first() : nextSlot(0);
    }

    /** The position after {@code position}, or -1. */
    public int next(int position) {
        return table == null ? pairs.next(pairs.next(position)) : nextSlot(position + 1);
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

    public byte[] field(int position) {
        return table == null ? pairs.get(position) : table.field(position);
    }

    public byte[] value(int position) {
        return table == null ? pairs.get(pairs.next(position)) : table.value(position);
    }

    /** Bytes of the value's string form. */
    public int valueLength(int position) {
        return table == null ? pairs.length(pairs.next(position)) : table.valueLength(position);
    }

    /** Replies the field at a position as a bulk string. */
    public void writeField(int position, ReplyWriter reply) {
        if (table == null) {
            pairs.writeTo(position, reply);
        } else {
            reply.bulk(table.page(position), table.fieldOffset(position), table.fieldLength(position));
        }
    }

    /** Replies the value at a position as a bulk string. */
    public void writeValue(int position, ReplyWriter reply) {
        if (table == null) {
            pairs.writeTo(pairs.next(position), reply);
        } else {
            reply.bulk(table.page(position), table.valueOffset(position), table.valueLength(position));
        }
    }

    /** A uniformly random position; the hash must not be empty. O(n) for a listpack. */
    public int randomPosition(RandomGenerator random) {
        return table == null ? pairs.seek(2 * random.nextInt(pairs.size() / 2)) : table.randomPosition(random);
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
            pairs.replace(pairs.next(position), value, valueOffset, valueLength);
            return false;
        }
        pairs.append(field, fieldOffset, fieldLength);
        pairs.append(value, valueOffset, valueLength);
        if (pairs.size() / 2 > maxListpackEntries) {
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
        pairs.deleteRange(position, 2);
        return true;
    }

    private void convert() {
        PackedTable converted = new PackedTable(true);
        for (int at = pairs.first(); at >= 0; at = next(at)) {
            byte[] field = pairs.get(at);
            byte[] value = pairs.get(pairs.next(at));
            converted.put(field, 0, field.length, value, 0, value.length);
        }
        table = converted;
        pairs = null;
    }
}
