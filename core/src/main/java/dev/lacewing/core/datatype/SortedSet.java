package dev.lacewing.core.datatype;

import dev.lacewing.core.keyspace.HomeBucketScan;
import dev.lacewing.core.keyspace.TypedValue;
import java.util.Arrays;

/**
 * A sorted set (Redis's zset): members ordered by (score, member bytes), each member once.
 *
 * <p>Two forms, switched as Redis 7.0 switches encodings, so OBJECT ENCODING answers as Redis
 * does: while at most {@code zset-max-listpack-entries} members of at most
 * {@code zset-max-listpack-value} bytes each, the small form ({@code listpack}): members and scores
 * in two parallel arrays kept sorted, searched linearly (n is at most a few hundred, and a scan
 * of adjacent memory beats hashing there). Past either threshold it becomes a {@link ScoreTree}
 * ({@code skiplist}) and stays one, as Redis never converts back on removal.
 *
 * <p>Member arrays are stored as given by {@link #add}, never changed afterwards, and may be
 * shared with a copy. Scores are never NaN; NaN is the "absent" answer of {@link #score}.
 *
 * <p>Thread rule: owned by the key that holds it; touched only by the thread the engine gives that
 * key's commands.
 */
public final class SortedSet implements TypedValue {

    /** Gets a member and its score, in order. The member array is the stored one: never change it. */
    public interface Visitor {
        void visit(byte[] member, double score);
    }

    private static final long OBJECT_BYTES = 32;
    private static final long ARRAY_HEADER = 16;

    private byte[][] members;
    private double[] scores;
    private int size;
    /** The large form; null while small. */
    private ScoreTree tree;
    private long memberBytes;

    /** An empty sorted set in the small form. */
    public SortedSet() {
        members = new byte[4][];
        scores = new double[4];
    }

    /** An empty sorted set in the large form, for a first member longer than the small form allows. */
    public static SortedSet large() {
        SortedSet set = new SortedSet();
        set.members = null;
        set.scores = null;
        set.tree = new ScoreTree();
        return set;
    }

    @Override
    public String typeName() {
        return "zset";
    }

    @Override
    public String encoding() {
        return tree == null ? "listpack" : "skiplist";
    }

    public boolean isLarge() {
        return tree != null;
    }

    @Override
    public SortedSet copy() {
        SortedSet copy = new SortedSet();
        if (tree != null) {
            copy.members = null;
            copy.scores = null;
            copy.tree = tree.copy();
            copy.size = size;
        } else {
            copy.members = Arrays.copyOf(members, members.length);
            copy.scores = Arrays.copyOf(scores, scores.length);
            copy.size = size;
            copy.memberBytes = memberBytes;
        }
        return copy;
    }

    @Override
    public long memoryUsage() {
        if (tree != null) {
            return OBJECT_BYTES + tree.memoryUsage();
        }
        return OBJECT_BYTES + 2 * ARRAY_HEADER + 4L * members.length + 8L * scores.length + memberBytes;
    }

    public int size() {
        return size;
    }

    /** The score of a member, or NaN when absent. */
    public double score(byte[] array, int offset, int length) {
        if (tree != null) {
            return tree.score(array, offset, length);
        }
        int i = indexOf(array, offset, length);
        return i < 0 ? Double.NaN : scores[i];
    }

    /**
     * Adds a member, or moves an existing one to {@code score}. The member array is kept as given.
     * A new member past either threshold turns the set into the large form first.
     */
    public void add(byte[] member, double score, long maxListpackEntries, long maxListpackValue) {
        if (tree != null) {
            int before = tree.size();
            tree.put(member, score);
            size += tree.size() - before;
            return;
        }
        int at = indexOf(member, 0, member.length);
        if (at >= 0) {
            if (scores[at] == score) {
                return;
            }
            removeAt(at);
        } else if (size + 1 > maxListpackEntries || member.length > maxListpackValue) {
            convertToLarge();
            tree.put(member, score);
            size++;
            return;
        }
        insertSorted(member, score);
    }

    private void insertSorted(byte[] member, double score) {
        int at = 0;
        while (at < size && compare(scores[at], members[at], score, member) < 0) {
            at++;
        }
        if (size == members.length) {
            int capacity = size + Math.max(4, size >> 1);
            members = Arrays.copyOf(members, capacity);
            scores = Arrays.copyOf(scores, capacity);
        }
        System.arraycopy(members, at, members, at + 1, size - at);
        System.arraycopy(scores, at, scores, at + 1, size - at);
        members[at] = member;
        scores[at] = score;
        size++;
        memberBytes += ScoreTree.memberObjectBytes(member.length);
    }

    private void convertToLarge() {
        ScoreTree large = new ScoreTree();
        for (int i = 0; i < size; i++) {
            large.put(members[i], scores[i]);
        }
        tree = large;
        members = null;
        scores = null;
        memberBytes = 0;
    }

    /** Removes a member; false when absent. */
    public boolean remove(byte[] array, int offset, int length) {
        if (tree != null) {
            if (tree.remove(array, offset, length)) {
                size--;
                return true;
            }
            return false;
        }
        int i = indexOf(array, offset, length);
        if (i < 0) {
            return false;
        }
        removeAt(i);
        return true;
    }

    private void removeAt(int i) {
        memberBytes -= ScoreTree.memberObjectBytes(members[i].length);
        System.arraycopy(members, i + 1, members, i, size - i - 1);
        System.arraycopy(scores, i + 1, scores, i, size - i - 1);
        size--;
        members[size] = null;
    }

    /** The 0-based ascending rank of a member, or -1 when absent. */
    public int rank(byte[] array, int offset, int length) {
        return tree != null ? tree.rank(array, offset, length) : indexOf(array, offset, length);
    }

    /** The number of members scoring below {@code score} (at most {@code score} when inclusive). */
    public int countByScore(double score, boolean inclusive) {
        if (tree != null) {
            return tree.countByScore(score, inclusive);
        }
        int count = 0;
        while (count < size && (inclusive ? scores[count] <= score : scores[count] < score)) {
            count++;
        }
        return count;
    }

    /** The number of members sorting before {@code bound} by bytes (at or before when inclusive). */
    public int countByMember(byte[] bound, boolean inclusive) {
        if (tree != null) {
            return tree.countByMember(bound, inclusive);
        }
        int count = 0;
        while (count < size) {
            int c = Arrays.compareUnsigned(members[count], bound);
            if (inclusive ? c > 0 : c >= 0) {
                break;
            }
            count++;
        }
        return count;
    }

    public byte[] memberAt(int rank) {
        return tree != null ? tree.memberAt(rank) : members[rank];
    }

    public double scoreAt(int rank) {
        return tree != null ? tree.scoreAt(rank) : scores[rank];
    }

    /** Visits ranks {@code from..to} (inclusive, within range) ascending, or from {@code to} down when reverse. */
    public void visit(int from, int to, boolean reverse, Visitor visitor) {
        if (from > to) {
            return;
        }
        if (tree != null) {
            tree.visit(from, to, reverse, visitor::visit);
            return;
        }
        if (reverse) {
            for (int i = to; i >= from; i--) {
                visitor.visit(members[i], scores[i]);
            }
        } else {
            for (int i = from; i <= to; i++) {
                visitor.visit(members[i], scores[i]);
            }
        }
    }

    /** Removes ranks {@code from..to} (inclusive, within range). */
    public void removeRange(int from, int to) {
        if (from > to) {
            return;
        }
        if (tree != null) {
            tree.removeRange(from, to);
            size -= to - from + 1;
            return;
        }
        for (int i = from; i <= to; i++) {
            memberBytes -= ScoreTree.memberObjectBytes(members[i].length);
        }
        int removed = to - from + 1;
        System.arraycopy(members, to + 1, members, from, size - to - 1);
        System.arraycopy(scores, to + 1, scores, from, size - to - 1);
        Arrays.fill(members, size - removed, size, null);
        size -= removed;
    }

    /**
     * One ZSCAN step of the large form over its member index, with the keyspace's SCAN walk (Redis
     * scans the skiplist's dict); returns the next cursor. The small form is scanned whole by the
     * caller, as Redis does.
     */
    public long scan(long cursor, int count, Visitor visitor) {
        ScoreTree large = tree;
        return HomeBucketScan.scan(large.indexCapacity(), cursor, count, large::slotOccupied, large.slotHome(),
            slot -> visitor.visit(large.slotMember(slot), large.slotScore(slot)));
    }

    private int indexOf(byte[] array, int offset, int length) {
        for (int i = 0; i < size; i++) {
            byte[] member = members[i];
            if (Arrays.equals(member, 0, member.length, array, offset, offset + length)) {
                return i;
            }
        }
        return -1;
    }

    static int compare(double s1, byte[] m1, double s2, byte[] m2) {
        if (s1 < s2) {
            return -1;
        }
        if (s1 > s2) {
            return 1;
        }
        return Arrays.compareUnsigned(m1, m2);
    }
}
