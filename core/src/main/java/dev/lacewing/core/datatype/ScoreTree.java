package dev.lacewing.core.datatype;

import java.util.Arrays;
import java.util.function.IntBinaryOperator;

/**
 * The large form of a sorted set (what Redis calls the {@code skiplist} encoding): an
 * order-statistic B+-tree of member ids ordered by (score, member), a member store indexed by id,
 * and an open-addressing index from member bytes to id.
 *
 * <p>Layout, and why: Redis pays about 100+ bytes per member (dictEntry, a skiplist node with its
 * levels, the sds). Here a member costs its {@code byte[]} (16 + length rounded up to 8), 4 bytes of
 * reference and 8 of score in the id-indexed arrays, about 6 bytes of index slot at load 2/3 and
 * about 5 of leaf slot at leaf fill 3/4: for a 13-byte member about 55 bytes, and a handful of Java
 * objects per 64 members. Leaves hold only ids; a comparison reads the score and member through
 * the id. Inner nodes keep, per child, its element count (for rank) and an upper bound of its keys
 * (the greatest key it held when last set; it may be a key deleted since, which still separates the
 * child from its right neighbour).
 *
 * <p>Complexity: insert, delete, rank, element at rank and score-bound counts are O(log n) with a
 * fan-out of 64; score lookup by member is O(1) expected; walking k elements from a rank is
 * O(log n + k). Ids of deleted members are reused; the id arrays do not shrink.
 *
 * <p>Thread rule: owned by the key that holds it; touched only by the thread the engine gives that
 * key's commands.
 */
final class ScoreTree {

    static final int LEAF_CAPACITY = 64;
    static final int INNER_CAPACITY = 64;
    private static final int MIN_LEAF = LEAF_CAPACITY / 4;
    private static final int MIN_INNER = INNER_CAPACITY / 4;
    private static final int MIN_INDEX_CAPACITY = 16;

    /* Shallow sizes with compressed oops and 12-byte headers, for memoryUsage. */
    private static final long ARRAY_HEADER = 16;
    private static final long TREE_BYTES = 64;
    private static final long LEAF_BYTES = 32 + ARRAY_HEADER + 4L * LEAF_CAPACITY;
    private static final long INNER_BYTES = 24 + 4 * ARRAY_HEADER + (4L + 4 + 8 + 4) * INNER_CAPACITY;

    /** Gets a member and its score, in order. The member array is the stored one: read it, never change it. */
    interface Visitor {
        void visit(byte[] member, double score);
    }

    private abstract static class Node {
        /** Entries: ids in a leaf, children in an inner node. */
        int size;
    }

    private static final class Leaf extends Node {
        final int[] ids = new int[LEAF_CAPACITY];
        Leaf previous;
        Leaf next;
    }

    private static final class Inner extends Node {
        final Node[] children = new Node[INNER_CAPACITY];
        final int[] counts = new int[INNER_CAPACITY];
        final double[] maxScores = new double[INNER_CAPACITY];
        final byte[][] maxMembers = new byte[INNER_CAPACITY][];
        int total;
    }

    private byte[][] members = new byte[16][];
    private double[] scores = new double[16];
    private int[] freeIds = new int[0];
    private int freeCount;
    private int idLimit;

    /** id + 1 per slot; 0 is an empty slot. */
    private int[] slots = new int[MIN_INDEX_CAPACITY];
    private int size;

    private Node root = new Leaf();
    private long leafCount = 1;
    private long innerCount;
    private long memberBytes;

    int size() {
        return size;
    }

    long memoryUsage() {
        return TREE_BYTES + memberBytes + ARRAY_HEADER * 4 + 4L * members.length + 8L * scores.length
            + 4L * freeIds.length + 4L * slots.length + leafCount * LEAF_BYTES + innerCount * INNER_BYTES;
    }

    static long memberObjectBytes(int length) {
        return (ARRAY_HEADER + length + 7) & ~7L;
    }

    // ---- member index -----------------------------------------------------------------------

    static int hash(byte[] array, int offset, int length) {
        int h = 0x9747b28c;
        for (int i = 0; i < length; i++) {
            h = (h ^ array[offset + i]) * 0x01000193;
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    private int findId(byte[] array, int offset, int length) {
        int mask = slots.length - 1;
        for (int i = hash(array, offset, length) & mask; slots[i] != 0; i = (i + 1) & mask) {
            byte[] member = members[slots[i] - 1];
            if (Arrays.equals(member, 0, member.length, array, offset, offset + length)) {
                return slots[i] - 1;
            }
        }
        return -1;
    }

    private int findSlot(int id) {
        byte[] member = members[id];
        int mask = slots.length - 1;
        int i = hash(member, 0, member.length) & mask;
        while (slots[i] != id + 1) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void indexAdd(int id) {
        if ((size + 1) * 3L > slots.length * 2L) {
            resizeIndex(slots.length * 2);
        }
        byte[] member = members[id];
        int mask = slots.length - 1;
        int i = hash(member, 0, member.length) & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = id + 1;
    }

    /** Backward-shift deletion: keeps every probe run unbroken without tombstones. */
    private void indexRemove(int id) {
        int mask = slots.length - 1;
        int hole = findSlot(id);
        slots[hole] = 0;
        for (int i = (hole + 1) & mask; slots[i] != 0; i = (i + 1) & mask) {
            byte[] member = members[slots[i] - 1];
            int home = hash(member, 0, member.length) & mask;
            boolean movable = hole <= i ? (home <= hole || home > i) : (home <= hole && home > i);
            if (movable) {
                slots[hole] = slots[i];
                slots[i] = 0;
                hole = i;
            }
        }
    }

    private void resizeIndex(int capacity) {
        int[] old = slots;
        slots = new int[capacity];
        int mask = capacity - 1;
        for (int entry : old) {
            if (entry != 0) {
                byte[] member = members[entry - 1];
                int i = hash(member, 0, member.length) & mask;
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = entry;
            }
        }
    }

    /** For ZSCAN: the index's capacity, whether a slot holds a member, and a slot's home. */
    int indexCapacity() {
        return slots.length;
    }

    boolean slotOccupied(int slot) {
        return slots[slot] != 0;
    }

    IntBinaryOperator slotHome() {
        return (slot, mask) -> {
            byte[] member = members[slots[slot] - 1];
            return hash(member, 0, member.length) & mask;
        };
    }

    byte[] slotMember(int slot) {
        return members[slots[slot] - 1];
    }

    double slotScore(int slot) {
        return scores[slots[slot] - 1];
    }

    // ---- public operations ------------------------------------------------------------------

    /** The score of a member, or NaN (never a stored score) when absent. */
    double score(byte[] array, int offset, int length) {
        int id = findId(array, offset, length);
        return id < 0 ? Double.NaN : scores[id];
    }

    /** Adds a member (stored as given, not copied) or moves an existing one to a new score. */
    void put(byte[] member, double score) {
        int id = findId(member, 0, member.length);
        if (id >= 0) {
            if (scores[id] == score) {
                return;
            }
            treeDelete(id);
            scores[id] = score;
            treeInsert(id);
            return;
        }
        id = allocateId();
        members[id] = member;
        scores[id] = score;
        memberBytes += memberObjectBytes(member.length);
        indexAdd(id);
        size++;
        treeInsert(id);
    }

    boolean remove(byte[] array, int offset, int length) {
        int id = findId(array, offset, length);
        if (id < 0) {
            return false;
        }
        removeId(id);
        return true;
    }

    private void removeId(int id) {
        treeDelete(id);
        indexRemove(id);
        size--;
        memberBytes -= memberObjectBytes(members[id].length);
        members[id] = null;
        if (freeCount == freeIds.length) {
            freeIds = Arrays.copyOf(freeIds, Math.max(16, freeIds.length * 2));
        }
        freeIds[freeCount++] = id;
        if (slots.length > MIN_INDEX_CAPACITY && size * 8L < slots.length) {
            resizeIndex(slots.length / 2);
        }
    }

    private int allocateId() {
        if (freeCount > 0) {
            return freeIds[--freeCount];
        }
        if (idLimit == members.length) {
            int capacity = members.length + (members.length >> 1);
            members = Arrays.copyOf(members, capacity);
            scores = Arrays.copyOf(scores, capacity);
        }
        return idLimit++;
    }

    /** The 0-based rank of a member in ascending order, or -1. */
    int rank(byte[] array, int offset, int length) {
        int id = findId(array, offset, length);
        if (id < 0) {
            return -1;
        }
        double score = scores[id];
        byte[] member = members[id];
        int rank = 0;
        Node node = root;
        while (node instanceof Inner inner) {
            int child = route(inner, score, member);
            for (int i = 0; i < child; i++) {
                rank += inner.counts[i];
            }
            node = inner.children[child];
        }
        Leaf leaf = (Leaf) node;
        return rank + position(leaf, score, member);
    }

    /**
     * How many members have a score below {@code score}, or at most {@code score} when
     * {@code inclusive}: the rank where a score range begins or ends.
     */
    int countByScore(double score, boolean inclusive) {
        int count = 0;
        Node node = root;
        while (node instanceof Inner inner) {
            int i = 0;
            while (i < inner.size - 1 && (inclusive ? inner.maxScores[i] <= score : inner.maxScores[i] < score)) {
                count += inner.counts[i++];
            }
            node = inner.children[i];
        }
        Leaf leaf = (Leaf) node;
        for (int i = 0; i < leaf.size; i++) {
            double s = scores[leaf.ids[i]];
            if (inclusive ? s > score : s >= score) {
                break;
            }
            count++;
        }
        return count;
    }

    /**
     * How many members sort before {@code bound} by member bytes alone (at or before when
     * {@code inclusive}); meaningful when all scores are equal, as Redis's lex ranges assume.
     */
    int countByMember(byte[] bound, boolean inclusive) {
        int count = 0;
        Node node = root;
        while (node instanceof Inner inner) {
            int i = 0;
            while (i < inner.size - 1 && before(inner.maxMembers[i], bound, inclusive)) {
                count += inner.counts[i++];
            }
            node = inner.children[i];
        }
        Leaf leaf = (Leaf) node;
        for (int i = 0; i < leaf.size; i++) {
            if (!before(members[leaf.ids[i]], bound, inclusive)) {
                break;
            }
            count++;
        }
        return count;
    }

    private static boolean before(byte[] member, byte[] bound, boolean inclusive) {
        int c = Arrays.compareUnsigned(member, bound);
        return inclusive ? c <= 0 : c < 0;
    }

    byte[] memberAt(int rank) {
        Leaf leaf = leafAt(rank);
        return members[leaf.ids[rankInLeaf]];
    }

    double scoreAt(int rank) {
        Leaf leaf = leafAt(rank);
        return scores[leaf.ids[rankInLeaf]];
    }

    /** Set by {@link #leafAt}: the position of the rank within the leaf returned. */
    private int rankInLeaf;

    private Leaf leafAt(int rank) {
        Node node = root;
        while (node instanceof Inner inner) {
            int i = 0;
            while (rank >= inner.counts[i]) {
                rank -= inner.counts[i++];
            }
            node = inner.children[i];
        }
        rankInLeaf = rank;
        return (Leaf) node;
    }

    /** Visits ranks {@code from..to} (inclusive, valid), ascending, or descending from {@code to} when reverse. */
    void visit(int from, int to, boolean reverse, Visitor visitor) {
        int remaining = to - from + 1;
        Leaf leaf = leafAt(reverse ? to : from);
        int i = rankInLeaf;
        while (remaining-- > 0) {
            int id = leaf.ids[i];
            visitor.visit(members[id], scores[id]);
            if (reverse) {
                if (--i < 0 && remaining > 0) {
                    leaf = leaf.previous;
                    i = leaf.size - 1;
                }
            } else if (++i == leaf.size && remaining > 0) {
                leaf = leaf.next;
                i = 0;
            }
        }
    }

    /** Removes ranks {@code from..to} (inclusive, valid). O(k log n). */
    void removeRange(int from, int to) {
        int count = to - from + 1;
        int[] ids = new int[count];
        Leaf leaf = leafAt(from);
        int i = rankInLeaf;
        for (int n = 0; n < count; n++) {
            ids[n] = leaf.ids[i];
            if (++i == leaf.size && n + 1 < count) {
                leaf = leaf.next;
                i = 0;
            }
        }
        for (int id : ids) {
            removeId(id);
        }
    }

    ScoreTree copy() {
        ScoreTree copy = new ScoreTree();
        visit(0, size - 1, false, (member, score) -> copy.put(member, score));
        return copy;
    }

    // ---- the tree ---------------------------------------------------------------------------

    private int compare(int id, double score, byte[] member) {
        double s = scores[id];
        if (s < score) {
            return -1;
        }
        if (s > score) {
            return 1;
        }
        return Arrays.compareUnsigned(members[id], member);
    }

    private static int compareKeys(double s1, byte[] m1, double s2, byte[] m2) {
        if (s1 < s2) {
            return -1;
        }
        if (s1 > s2) {
            return 1;
        }
        return Arrays.compareUnsigned(m1, m2);
    }

    /** The child whose key range holds (score, member): the first whose upper bound is not below it. */
    private static int route(Inner inner, double score, byte[] member) {
        int last = inner.size - 1;
        for (int i = 0; i < last; i++) {
            if (compareKeys(score, member, inner.maxScores[i], inner.maxMembers[i]) <= 0) {
                return i;
            }
        }
        return last;
    }

    /** Index of the first id in the leaf whose key is not below (score, member). */
    private int position(Leaf leaf, double score, byte[] member) {
        int low = 0;
        int high = leaf.size;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (compare(leaf.ids[mid], score, member) < 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    private void treeInsert(int id) {
        Node split = insert(root, id);
        if (split != null) {
            Inner top = new Inner();
            innerCount++;
            setChild(top, 0, root);
            setChild(top, 1, split);
            top.size = 2;
            top.total = top.counts[0] + top.counts[1];
            root = top;
        }
    }

    /** Inserts into the subtree; returns a new right sibling when the node split, else null. */
    private Node insert(Node node, int id) {
        double score = scores[id];
        byte[] member = members[id];
        if (node instanceof Leaf leaf) {
            int at = position(leaf, score, member);
            if (leaf.size < LEAF_CAPACITY) {
                System.arraycopy(leaf.ids, at, leaf.ids, at + 1, leaf.size - at);
                leaf.ids[at] = id;
                leaf.size++;
                return null;
            }
            Leaf right = new Leaf();
            leafCount++;
            int half = leafSplit(leaf, at);
            System.arraycopy(leaf.ids, half, right.ids, 0, LEAF_CAPACITY - half);
            right.size = LEAF_CAPACITY - half;
            leaf.size = half;
            right.next = leaf.next;
            right.previous = leaf;
            if (leaf.next != null) {
                leaf.next.previous = right;
            }
            leaf.next = right;
            boolean left = at <= half && half < LEAF_CAPACITY;
            Leaf target = left ? leaf : right;
            int position = left ? at : at - half;
            System.arraycopy(target.ids, position, target.ids, position + 1, target.size - position);
            target.ids[position] = id;
            target.size++;
            return right;
        }
        Inner inner = (Inner) node;
        int i = route(inner, score, member);
        if (compareKeys(score, member, inner.maxScores[i], inner.maxMembers[i]) > 0) {
            inner.maxScores[i] = score;
            inner.maxMembers[i] = member;
        }
        Node child = inner.children[i];
        Node split = insert(child, id);
        inner.total++;
        if (split == null) {
            inner.counts[i]++;
            return null;
        }
        double maxScore = inner.maxScores[i];
        byte[] maxMember = inner.maxMembers[i];
        if (inner.size < INNER_CAPACITY) {
            insertChild(inner, i + 1, split, maxScore, maxMember);
            setChild(inner, i, child);
            return null;
        }
        Inner right = new Inner();
        innerCount++;
        if (i == INNER_CAPACITY - 1 && lastLeaf(split).next == null) {
            // The append split of leafSplit, one level up: the new child starts the new node.
            setChild(inner, i, child);
            insertChild(right, 0, split, maxScore, maxMember);
            inner.total = sum(inner);
            right.total = sum(right);
            return right;
        }
        int half = INNER_CAPACITY / 2;
        int moved = INNER_CAPACITY - half;
        System.arraycopy(inner.children, half, right.children, 0, moved);
        System.arraycopy(inner.counts, half, right.counts, 0, moved);
        System.arraycopy(inner.maxScores, half, right.maxScores, 0, moved);
        System.arraycopy(inner.maxMembers, half, right.maxMembers, 0, moved);
        Arrays.fill(inner.children, half, INNER_CAPACITY, null);
        Arrays.fill(inner.maxMembers, half, INNER_CAPACITY, null);
        right.size = moved;
        inner.size = half;
        if (i < half) {
            insertChild(inner, i + 1, split, maxScore, maxMember);
            setChild(inner, i, child);
        } else {
            insertChild(right, i - half + 1, split, maxScore, maxMember);
            setChild(right, i - half, child);
        }
        inner.total = sum(inner);
        right.total = sum(right);
        return right;
    }

    /**
     * Where a full leaf splits for an insert at {@code at}: in half, except at either end of the
     * whole tree, where members arriving in score order (a leaderboard filled by time, ZADD of a
     * sorted range) would leave every leaf half empty behind them. There the old ids stay
     * together and the new one starts a leaf of its own, so such a load fills leaves completely,
     * as a B-tree's append split does.
     */
    private static int leafSplit(Leaf leaf, int at) {
        if (at == LEAF_CAPACITY && leaf.next == null) {
            return LEAF_CAPACITY;
        }
        if (at == 0 && leaf.previous == null) {
            return 0;
        }
        return LEAF_CAPACITY / 2;
    }

    /** The last leaf under a node. */
    private static Leaf lastLeaf(Node node) {
        while (node instanceof Inner inner) {
            node = inner.children[inner.size - 1];
        }
        return (Leaf) node;
    }

    private static int sum(Inner inner) {
        int total = 0;
        for (int i = 0; i < inner.size; i++) {
            total += inner.counts[i];
        }
        return total;
    }

    private static void insertChild(Inner inner, int at, Node child, double maxScore, byte[] maxMember) {
        int tail = inner.size - at;
        System.arraycopy(inner.children, at, inner.children, at + 1, tail);
        System.arraycopy(inner.counts, at, inner.counts, at + 1, tail);
        System.arraycopy(inner.maxScores, at, inner.maxScores, at + 1, tail);
        System.arraycopy(inner.maxMembers, at, inner.maxMembers, at + 1, tail);
        inner.children[at] = child;
        inner.counts[at] = count(child);
        inner.maxScores[at] = maxScore;
        inner.maxMembers[at] = maxMember;
        inner.size++;
    }

    private static void removeChild(Inner inner, int at) {
        int tail = inner.size - at - 1;
        System.arraycopy(inner.children, at + 1, inner.children, at, tail);
        System.arraycopy(inner.counts, at + 1, inner.counts, at, tail);
        System.arraycopy(inner.maxScores, at + 1, inner.maxScores, at, tail);
        System.arraycopy(inner.maxMembers, at + 1, inner.maxMembers, at, tail);
        inner.size--;
        inner.children[inner.size] = null;
        inner.maxMembers[inner.size] = null;
    }

    /** Sets child {@code at}'s count and upper bound from the child itself (its greatest key). */
    private void setChild(Inner inner, int at, Node child) {
        inner.children[at] = child;
        inner.counts[at] = count(child);
        Node node = child;
        while (node instanceof Inner deeper) {
            node = deeper.children[deeper.size - 1];
        }
        Leaf leaf = (Leaf) node;
        if (leaf.size > 0) {
            int id = leaf.ids[leaf.size - 1];
            inner.maxScores[at] = scores[id];
            inner.maxMembers[at] = members[id];
        }
    }

    private static int count(Node node) {
        return node instanceof Inner inner ? inner.total : node.size;
    }

    private void treeDelete(int id) {
        delete(root, id, scores[id], members[id]);
        if (root instanceof Inner inner && inner.size == 1) {
            root = inner.children[0];
            innerCount--;
        }
    }

    private void delete(Node node, int id, double score, byte[] member) {
        if (node instanceof Leaf leaf) {
            int at = position(leaf, score, member);
            System.arraycopy(leaf.ids, at + 1, leaf.ids, at, leaf.size - at - 1);
            leaf.size--;
            return;
        }
        Inner inner = (Inner) node;
        int i = route(inner, score, member);
        Node child = inner.children[i];
        delete(child, id, score, member);
        inner.counts[i]--;
        inner.total--;
        boolean underflow = child instanceof Leaf ? child.size < MIN_LEAF : child.size < MIN_INNER;
        if (underflow && inner.size > 1) {
            rebalance(inner, i == inner.size - 1 ? i - 1 : i);
        }
    }

    /** Merges children {@code left} and {@code left + 1} of {@code parent}, or evens them out when both do not fit in one. */
    private void rebalance(Inner parent, int left) {
        Node a = parent.children[left];
        Node b = parent.children[left + 1];
        int capacity = a instanceof Leaf ? LEAF_CAPACITY : INNER_CAPACITY;
        if (a.size + b.size <= capacity) {
            if (a instanceof Leaf la) {
                Leaf lb = (Leaf) b;
                System.arraycopy(lb.ids, 0, la.ids, la.size, lb.size);
                la.size += lb.size;
                la.next = lb.next;
                if (lb.next != null) {
                    lb.next.previous = la;
                }
                leafCount--;
            } else {
                Inner ia = (Inner) a;
                Inner ib = (Inner) b;
                System.arraycopy(ib.children, 0, ia.children, ia.size, ib.size);
                System.arraycopy(ib.counts, 0, ia.counts, ia.size, ib.size);
                System.arraycopy(ib.maxScores, 0, ia.maxScores, ia.size, ib.size);
                System.arraycopy(ib.maxMembers, 0, ia.maxMembers, ia.size, ib.size);
                ia.size += ib.size;
                ia.total += ib.total;
                innerCount--;
            }
            parent.counts[left] += parent.counts[left + 1];
            parent.maxScores[left] = parent.maxScores[left + 1];
            parent.maxMembers[left] = parent.maxMembers[left + 1];
            removeChild(parent, left + 1);
            return;
        }
        int target = (a.size + b.size) / 2;
        if (a instanceof Leaf la) {
            Leaf lb = (Leaf) b;
            if (la.size < target) {
                int move = target - la.size;
                System.arraycopy(lb.ids, 0, la.ids, la.size, move);
                System.arraycopy(lb.ids, move, lb.ids, 0, lb.size - move);
                la.size += move;
                lb.size -= move;
            } else {
                int move = la.size - target;
                System.arraycopy(lb.ids, 0, lb.ids, move, lb.size);
                System.arraycopy(la.ids, target, lb.ids, 0, move);
                la.size -= move;
                lb.size += move;
            }
        } else {
            Inner ia = (Inner) a;
            Inner ib = (Inner) b;
            while (ia.size < target) {
                insertChild(ia, ia.size, ib.children[0], ib.maxScores[0], ib.maxMembers[0]);
                removeChild(ib, 0);
            }
            while (ia.size > target) {
                int last = ia.size - 1;
                insertChild(ib, 0, ia.children[last], ia.maxScores[last], ia.maxMembers[last]);
                removeChild(ia, last);
            }
            ia.total = sum(ia);
            ib.total = sum(ib);
        }
        double rightMaxScore = parent.maxScores[left + 1];
        byte[] rightMaxMember = parent.maxMembers[left + 1];
        setChild(parent, left, a);
        parent.counts[left + 1] = count(b);
        parent.maxScores[left + 1] = rightMaxScore;
        parent.maxMembers[left + 1] = rightMaxMember;
    }
}
