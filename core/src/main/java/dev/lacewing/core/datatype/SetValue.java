package dev.lacewing.core.datatype;

import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.keyspace.TypedValue;
import java.util.Arrays;
import java.util.random.RandomGenerator;
import java.util.function.IntConsumer;

/**
 * A set, in one of Redis 7.0's two encodings: {@code intset} ({@link IntSet}) while every member is
 * a canonical 64-bit integer and there are at most {@code set-max-intset-entries} of them, else
 * {@code hashtable} (a {@link PackedTable} without values). Redis 7.0 has no listpack sets. The
 * conversion is one way, as in Redis.
 *
 * <p>Positions ({@link #first()}, {@link #next(int)}) are an index in the intset (ascending order)
 * or a slot of the table, valid until the set next changes. {@link #memoryUsage()} is O(1).
 *
 * <p>Thread rule: stored under one key and touched only by the thread the engine gives the
 * command on that key.
 */
public final class SetValue implements TypedValue {

    public static final String INTSET = "intset";
    public static final String HASHTABLE = "hashtable";

    /** Object header and two fields. */
    private static final long FIXED_BYTES = 24;

    private IntSet ints;
    private PackedTable table;

    /** An empty intset, as Redis's createIntsetObject (the destination of SINTERSTORE and the like). */
    public SetValue() {
        ints = new IntSet();
    }

    private SetValue(IntSet ints, PackedTable table) {
        this.ints = ints;
        this.table = table;
    }

    /** An empty set in the encoding its first member calls for (setTypeCreate). */
    public static SetValue forFirstMember(byte[] member, int offset, int length) {
        return isInteger(member, offset, length) ? new SetValue() : new SetValue(null, new PackedTable(false));
    }

    @Override
    public String typeName() {
        return "set";
    }

    @Override
    public String encoding() {
        return table == null ? INTSET : HASHTABLE;
    }

    @Override
    public SetValue copy() {
        return table == null ? new SetValue(ints.copy(), null) : new SetValue(null, table.copy());
    }

    @Override
    public long memoryUsage() {
        return FIXED_BYTES + (table == null ? ints.memoryUsage() : table.memoryUsage());
    }

    public int size() {
        return table == null ? ints.size() : table.size();
    }

    public boolean isIntset() {
        return table == null;
    }

    // ---- membership and changes ------------------------------------------------------------

    public boolean contains(byte[] member, int offset, int length) {
        if (table != null) {
            return table.find(member, offset, length) >= 0;
        }
        long value;
        try {
            value = parse(member, offset, length);
        } catch (InvalidNumber e) {
            return false;
        }
        return ints.contains(value);
    }

    /** Adds a member; true when new. Converts to a table for a non-integer or past {@code maxIntsetEntries}. */
    public boolean add(byte[] member, int offset, int length, long maxIntsetEntries) {
        if (table == null) {
            long value;
            try {
                value = parse(member, offset, length);
            } catch (InvalidNumber e) {
                convert();
                return table.add(member, offset, length);
            }
            if (!ints.add(value)) {
                return false;
            }
            if (ints.size() > maxIntsetEntries) {
                convert();
            }
            return true;
        }
        return table.add(member, offset, length);
    }

    /** Removes a member; false when absent. */
    public boolean remove(byte[] member, int offset, int length) {
        if (table != null) {
            return table.remove(member, offset, length);
        }
        try {
            return ints.remove(parse(member, offset, length));
        } catch (InvalidNumber e) {
            return false;
        }
    }

    /** Removes the member at a position. */
    public void removeAt(int position) {
        if (table != null) {
            table.removeAt(position);
        } else {
            ints.remove(ints.get(position));
        }
    }

    private void convert() {
        PackedTable converted = new PackedTable(false);
        for (int i = 0; i < ints.size(); i++) {
            byte[] member = Numbers.toBytes(ints.get(i));
            converted.add(member, 0, member.length);
        }
        table = converted;
        ints = null;
    }

    // ---- positions -------------------------------------------------------------------------

    public int first() {
        return table == null ? (ints.size() > 0 ? 0 : -1) : nextSlot(0);
    }

    public int next(int position) {
        if (table == null) {
            return position + 1 < ints.size() ? position + 1 : -1;
        }
        return nextSlot(position + 1);
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

    /** The member at a position, as a new array (or a shared one for a small integer: do not modify). */
    public byte[] member(int position) {
        return table == null ? Numbers.toBytes(ints.get(position)) : table.field(position);
    }

    /** A uniformly random position; the set must not be empty. */
    public int randomPosition(RandomGenerator random) {
        return table == null ? random.nextInt(ints.size()) : table.randomPosition(random);
    }

    /** One SSCAN step: an intset whole (cursor 0), a table by home buckets ({@link PackedTable#scan}). */
    public long scan(long cursor, int count, IntConsumer visit) {
        if (table != null) {
            return table.scan(cursor, count, visit);
        }
        for (int i = 0; i < ints.size(); i++) {
            visit.accept(i);
        }
        return 0;
    }

    /** The members, for the set operations. */
    public byte[][] members() {
        byte[][] members = new byte[size()][];
        int n = 0;
        for (int at = first(); at >= 0; at = next(at)) {
            members[n++] = member(at);
        }
        return n == members.length ? members : Arrays.copyOf(members, n);
    }

    /**
     * A member as an intset takes it (isSdsRepresentableAsLongLong): the canonical decimal form of
     * a 64-bit integer, without leading zeros, '+' or spaces.
     */
    public static boolean isInteger(byte[] member, int offset, int length) {
        try {
            parse(member, offset, length);
            return true;
        } catch (InvalidNumber e) {
            return false;
        }
    }

    private static long parse(byte[] member, int offset, int length) {
        if (length == 0 || length > 20) {
            throw Numbers.INVALID;
        }
        return Numbers.parseLong(member, offset, length);
    }
}
