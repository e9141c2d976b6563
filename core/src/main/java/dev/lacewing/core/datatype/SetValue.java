package dev.lacewing.core.datatype;

import dev.lacewing.api.AggregateType;
import dev.lacewing.api.SetView;
import dev.lacewing.api.storage.Aggregate;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.command.Numbers;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.random.RandomGenerator;

/**
 * A set, in one of Redis 7.0's two encodings: {@code intset} ({@link IntSet}) while every member is
 * a canonical 64-bit integer and there are at most {@code set-max-intset-entries} of them, else
 * {@code hashtable} (a {@link PackedTable} without values). Redis 7.0 has no listpack sets. The
 * conversion is one way, as in Redis.
 *
 * <p>One field holds either the intset's array or the table. At rest in the compact keyspace an
 * intset set is not an object at all but its array's bytes inside the key's entry
 * ({@link Aggregate.Packed}); this object and its exactly sized array exist while a command uses it.
 *
 * <p>Positions ({@link #first()}, {@link #next(int)}) are an index in the intset (ascending order)
 * or a slot of the table, valid until the set next changes. {@link #memoryUsage()} is O(1).
 *
 * <p>Thread rule: stored under one key and touched only by the thread the engine gives the
 * command on that key.
 */
public final class SetValue implements TypedValue, Aggregate.Packed, Positioned, SetView {

    /** Core's set commands take a stored set through this token ({@code Keyspace.aggregate}). */
    public static final AggregateType<SetValue> TYPE = new AggregateType<>("set", SetValue.class);


    public static final String INTSET = "intset";
    public static final String HASHTABLE = "hashtable";

    /** Object header and one compressed reference. */
    private static final long FIXED_BYTES = 16;

    /** The intset's array ({@link IntSet}, never written in place) or a {@link PackedTable}. */
    private Object members;

    /** An empty intset, as Redis's createIntsetObject (the destination of SINTERSTORE and the like). */
    public SetValue() {
        members = IntSet.empty();
    }

    private SetValue(Object members) {
        this.members = members;
    }

    /** An empty set in the encoding its first member calls for (setTypeCreate). */
    public static SetValue forFirstMember(byte[] member, int offset, int length) {
        return isInteger(member, offset, length) ? new SetValue() : new SetValue(new PackedTable(false));
    }

    /** An intset set over an {@link IntSet} array (taken, not copied), as {@link #packedArray} gave it. */
    public static SetValue fromIntset(byte[] ints) {
        return new SetValue(ints);
    }

    @Override
    public String typeName() {
        return "set";
    }

    @Override
    public String encoding() {
        return members instanceof PackedTable ? HASHTABLE : INTSET;
    }

    @Override
    public SetValue copy() {
        // An intset's array is never written, so the copy shares it.
        return new SetValue(members instanceof PackedTable table ? table.copy() : members);
    }

    @Override
    public long memoryUsage() {
        return FIXED_BYTES + (members instanceof PackedTable table ? table.memoryUsage() : IntSet.memoryUsage(ints()));
    }

    @Override
    public int size() {
        return members instanceof PackedTable table ? table.size() : IntSet.size(ints());
    }

    public boolean isIntset() {
        return !(members instanceof PackedTable);
    }

    @Override
    public int packedForm() {
        return members instanceof PackedTable ? 0 : SET_INTSET;
    }

    @Override
    public byte[] packedArray() {
        return ints();
    }

    @Override
    public int packedLength() {
        return ints().length;
    }

    private byte[] ints() {
        return (byte[]) members;
    }

    // ---- membership and changes ------------------------------------------------------------

    public boolean contains(byte[] member, int offset, int length) {
        if (members instanceof PackedTable table) {
            return table.find(member, offset, length) >= 0;
        }
        long value;
        try {
            value = parse(member, offset, length);
        } catch (InvalidNumber e) {
            return false;
        }
        return IntSet.contains(ints(), value);
    }

    /** Adds a member; true when new. Converts to a table for a non-integer or past {@code maxIntsetEntries}. */
    public boolean add(byte[] member, int offset, int length, long maxIntsetEntries) {
        if (members instanceof PackedTable table) {
            return table.add(member, offset, length);
        }
        long value;
        try {
            value = parse(member, offset, length);
        } catch (InvalidNumber e) {
            return convert().add(member, offset, length);
        }
        byte[] ints = ints();
        byte[] added = IntSet.add(ints, value);
        if (added == ints) {
            return false;
        }
        members = added;
        if (IntSet.size(added) > maxIntsetEntries) {
            convert();
        }
        return true;
    }

    /** Removes a member; false when absent. */
    public boolean remove(byte[] member, int offset, int length) {
        if (members instanceof PackedTable table) {
            return table.remove(member, offset, length);
        }
        byte[] ints = ints();
        byte[] removed;
        try {
            removed = IntSet.remove(ints, parse(member, offset, length));
        } catch (InvalidNumber e) {
            return false;
        }
        members = removed;
        return removed != ints;
    }

    /** Removes the member at a position. */
    public void removeAt(int position) {
        if (members instanceof PackedTable table) {
            table.removeAt(position);
        } else {
            members = IntSet.removeAt(ints(), position);
        }
    }

    /** Converts the intset to a table and returns the table. */
    private PackedTable convert() {
        byte[] ints = ints();
        PackedTable converted = new PackedTable(false);
        for (int i = 0; i < IntSet.size(ints); i++) {
            byte[] member = Numbers.toBytes(IntSet.get(ints, i));
            converted.add(member, 0, member.length);
        }
        members = converted;
        return converted;
    }

    // ---- positions -------------------------------------------------------------------------

    @Override
    public int first() {
        return members instanceof PackedTable table ? nextSlot(table, 0) : (size() > 0 ? 0 : -1);
    }

    @Override
    public int next(int position) {
        if (members instanceof PackedTable table) {
            return nextSlot(table, position + 1);
        }
        return position + 1 < size() ? position + 1 : -1;
    }

    private static int nextSlot(PackedTable table, int from) {
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
        if (members instanceof PackedTable table) {
            return table.field(position);
        }
        return Numbers.toBytes(IntSet.get(ints(), position));
    }

    /** A uniformly random position; the set must not be empty. */
    @Override
    public int randomPosition(RandomGenerator random) {
        return members instanceof PackedTable table ? table.randomPosition(random) : random.nextInt(size());
    }

    /** One SSCAN step: an intset whole (cursor 0), a table by home buckets ({@link PackedTable#scan}). */
    public long scan(long cursor, int count, IntConsumer visit) {
        if (members instanceof PackedTable table) {
            return table.scan(cursor, count, visit);
        }
        int size = size();
        for (int i = 0; i < size; i++) {
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

    // ---- SetView ---------------------------------------------------------------------------

    /** Copies, as {@link #member} may share a small integer's array. */
    @Override
    public void forEach(Consumer<byte[]> visitor) {
        for (int at = first(); at >= 0; at = next(at)) {
            visitor.accept(member(at).clone());
        }
    }
}
