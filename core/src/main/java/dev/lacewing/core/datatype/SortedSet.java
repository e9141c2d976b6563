package dev.lacewing.core.datatype;

import dev.lacewing.api.AggregateType;
import dev.lacewing.api.SortedSetView;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A sorted set (Redis's zset): members ordered by (score, member bytes), each member once.
 *
 * <p>Two forms, switched as Redis 7.0 switches encodings, so OBJECT ENCODING answers as Redis
 * does: while at most {@code zset-max-listpack-entries} members of at most
 * {@code zset-max-listpack-value} bytes each, the small form ({@code listpack}): one
 * {@link Listpack} of member, score pairs sorted by (score, member), Redis 7.0's zset listpack
 * layout, searched linearly (n is at most a few hundred, and a scan of adjacent bytes beats
 * hashing there). A score is stored as its string form, as Redis stores it: an integral score
 * under 2^53 as its decimal digits (which the listpack keeps as an integer of 1 to 9 bytes), any
 * other as Java's round-trip decimal ({@link Double#toString}, read back with
 * {@link Double#parseDouble}, which gives the same double), -0 as "-0". Every score comparison in
 * a scan reads the score back, as Redis's zzlGetScore does, so an insert or lookup is O(n). Past
 * either threshold it becomes a {@link ScoreTree} ({@code skiplist}) and stays one, as Redis never
 * converts back on removal.
 *
 * <p>{@link #memberAt} hands out a copy; visitors get slices, in the large form of the pages the
 * members are packed in (read them, never change or keep them past the next change to the set),
 * so a reply copies each member once, into the connection's buffer. Scores are never NaN; NaN is
 * the "absent" answer of {@link #score}.
 *
 * <p>Thread rule: owned by the key that holds it; touched only by the thread the engine gives that
 * key's commands.
 */
public final class SortedSet implements TypedValue, SortedSetView {

    /** Core's sorted-set commands take a stored sorted set through this token ({@code Keyspace.aggregate}). */
    public static final AggregateType<SortedSet> TYPE = new AggregateType<>("zset", SortedSet.class);


    /**
     * Gets a member's bytes ({@code length} bytes of {@code array} from {@code offset}) and its
     * score. Read the slice; never change it, nor keep it past the next change to the set.
     */
    public interface Visitor {
        void visit(byte[] array, int offset, int length, double score);
    }

    /** This object: header and three fields, with compressed oops. */
    private static final long OBJECT_BYTES = 24;
    /** Integral doubles below this magnitude are exact longs; stored as integers. */
    private static final double EXACT_INTEGERS = 0x1p53;
    private static final byte[] NEGATIVE_ZERO = {'-', '0'};

    /** The small form: member, score, member, score... sorted; null once large. */
    private Listpack pairs;
    private int size;
    /** The large form; null while small. */
    private ScoreTree tree;

    /** An empty sorted set in the small form. */
    public SortedSet() {
        pairs = new Listpack();
    }

    /** An empty sorted set in the large form, for a first member longer than the small form allows. */
    public static SortedSet large() {
        SortedSet set = new SortedSet();
        set.pairs = null;
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
            copy.pairs = null;
            copy.tree = tree.copy();
        } else {
            copy.pairs = pairs.copy();
        }
        copy.size = size;
        return copy;
    }

    @Override
    public long memoryUsage() {
        return OBJECT_BYTES + (tree != null ? tree.memoryUsage() : pairs.memoryUsage());
    }

    public int size() {
        return size;
    }

    // ---- scores in the listpack ----------------------------------------------------------

    /** The string form a score is stored as (see the class comment). */
    static byte[] scoreText(double score) {
        if (score == 0 && Double.doubleToRawLongBits(score) != 0) {
            return NEGATIVE_ZERO;
        }
        if (score == Math.rint(score) && Math.abs(score) < EXACT_INTEGERS) {
            return Long.toString((long) score).getBytes(StandardCharsets.US_ASCII);
        }
        return Double.toString(score).getBytes(StandardCharsets.US_ASCII);
    }

    /** The score stored at a listpack position. */
    private double scoreOf(int position) {
        if (pairs.isInteger(position)) {
            return pairs.integer(position);
        }
        return Double.parseDouble(new String(pairs.get(position), StandardCharsets.US_ASCII));
    }

    /** The position of a member in the listpack, or -1. */
    private int find(byte[] array, int offset, int length) {
        return pairs.find(pairs.first(), array, offset, length, 1);
    }

    // ---- operations ------------------------------------------------------------------------

    /** The score of a member, or NaN when absent. */
    public double score(byte[] array, int offset, int length) {
        if (tree != null) {
            return tree.score(array, offset, length);
        }
        int at = find(array, offset, length);
        return at < 0 ? Double.NaN : scoreOf(pairs.next(at));
    }

    /** {@link #add(byte[], int, int, double, long, long)} of a whole array. */
    public void add(byte[] member, double score, long maxListpackEntries, long maxListpackValue) {
        add(member, 0, member.length, score, maxListpackEntries, maxListpackValue);
    }

    /**
     * Adds a member (its bytes copied from the slice), or moves an existing one to {@code score}.
     * A new member past either threshold turns the set into the large form first.
     */
    public void add(byte[] array, int offset, int length, double score, long maxListpackEntries,
                    long maxListpackValue) {
        if (tree != null) {
            int before = tree.size();
            tree.put(array, offset, length, score);
            size += tree.size() - before;
            return;
        }
        int at = find(array, offset, length);
        if (at >= 0) {
            if (scoreOf(pairs.next(at)) == score) {
                return;
            }
            pairs.deleteRange(at, 2);
            size--;
        } else if (size + 1 > maxListpackEntries || length > maxListpackValue) {
            convertToLarge();
            tree.put(array, offset, length, score);
            size++;
            return;
        }
        insertSorted(array, offset, length, score);
    }

    /** zzlInsert: before the first pair that sorts after (score, member). */
    private void insertSorted(byte[] array, int offset, int length, double score) {
        int at = pairs.first();
        while (at >= 0) {
            int scoreAt = pairs.next(at);
            double entryScore = scoreOf(scoreAt);
            if (entryScore > score || entryScore == score && pairs.compareAt(at, array, offset, length) > 0) {
                break;
            }
            at = pairs.next(scoreAt);
        }
        int memberAt = pairs.insert(at, array, offset, length);
        byte[] text = scoreText(score);
        pairs.insert(pairs.next(memberAt), text, 0, text.length);
        size++;
    }

    private void convertToLarge() {
        ScoreTree large = new ScoreTree();
        for (int at = pairs.first(); at >= 0; at = pairs.next(pairs.next(at))) {
            byte[] member = pairs.get(at);
            large.put(member, 0, member.length, scoreOf(pairs.next(at)));
        }
        tree = large;
        pairs = null;
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
        int at = find(array, offset, length);
        if (at < 0) {
            return false;
        }
        pairs.deleteRange(at, 2);
        size--;
        return true;
    }

    /** The 0-based ascending rank of a member, or -1 when absent. */
    public int rank(byte[] array, int offset, int length) {
        if (tree != null) {
            return tree.rank(array, offset, length);
        }
        int rank = 0;
        for (int at = pairs.first(); at >= 0; at = pairs.next(pairs.next(at))) {
            if (pairs.equalsAt(at, array, offset, length)) {
                return rank;
            }
            rank++;
        }
        return -1;
    }

    /** The number of members scoring below {@code score} (at most {@code score} when inclusive). */
    public int countByScore(double score, boolean inclusive) {
        if (tree != null) {
            return tree.countByScore(score, inclusive);
        }
        int count = 0;
        for (int at = pairs.first(); at >= 0; at = pairs.next(pairs.next(at))) {
            double entryScore = scoreOf(pairs.next(at));
            if (inclusive ? entryScore > score : entryScore >= score) {
                break;
            }
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
        for (int at = pairs.first(); at >= 0; at = pairs.next(pairs.next(at))) {
            int c = pairs.compareAt(at, bound, 0, bound.length);
            if (inclusive ? c > 0 : c >= 0) {
                break;
            }
            count++;
        }
        return count;
    }

    /** A copy of the member at a rank; O(rank) in the small form. */
    public byte[] memberAt(int rank) {
        return tree != null ? tree.memberAt(rank) : pairs.get(pairs.seek(2 * rank));
    }

    /** The score at a rank; O(rank) in the small form. */
    public double scoreAt(int rank) {
        return tree != null ? tree.scoreAt(rank) : scoreOf(pairs.seek(2 * rank + 1));
    }

    /** Visits ranks {@code from..to} (inclusive, within range) ascending, or from {@code to} down when reverse. */
    public void visit(int from, int to, boolean reverse, Visitor visitor) {
        if (from > to) {
            return;
        }
        if (tree != null) {
            tree.visit(from, to, reverse, visitor);
            return;
        }
        int at = pairs.seek(2 * (reverse ? to : from));
        for (int remaining = to - from + 1; remaining > 0; remaining--) {
            int scoreAt = pairs.next(at);
            byte[] member = pairs.get(at);
            visitor.visit(member, 0, member.length, scoreOf(scoreAt));
            at = reverse ? pairs.previous(pairs.previous(at)) : pairs.next(scoreAt);
        }
    }

    /** Removes ranks {@code from..to} (inclusive, within range). */
    public void removeRange(int from, int to) {
        if (from > to) {
            return;
        }
        int removed = to - from + 1;
        if (tree != null) {
            tree.removeRange(from, to);
        } else {
            pairs.deleteRange(pairs.seek(2 * from), 2 * removed);
        }
        size -= removed;
    }

    /**
     * One ZSCAN step of the large form over its member index, with the keyspace's SCAN walk (Redis
     * scans the skiplist's dict); returns the next cursor. The small form is scanned whole by the
     * caller, as Redis does.
     */
    public long scan(long cursor, int count, Visitor visitor) {
        ScoreTree large = tree;
        return HomeBucketScan.scan(large.indexCapacity(), large.indexLength(), cursor, count, large::slotOccupied,
            large.slotHome(), slot -> large.visitSlot(slot, visitor));
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
