package dev.lacewing.core.datatype;

import java.util.Arrays;
import dev.lacewing.core.datatype.SortedSet.Visitor;
import java.util.function.IntBinaryOperator;
import java.util.function.IntPredicate;

/**
 * The large form of a sorted set (what Redis calls the {@code skiplist} encoding): an
 * order-statistic B+-tree of member ids ordered by (score, member) over a {@link MemberStore},
 * which holds each id's score and packed member bytes and indexes members to ids.
 *
 * <p>Layout, and why: Redis pays about 100+ bytes per member (dictEntry, a skiplist node with its
 * levels, the sds). Here a member costs its packed entry (length varint and bytes), 12 bytes of
 * score and position in the store's chunks, about 6-8 bytes of index slot and 5-7 of leaf slot (leaf
 * fill 1 for members arriving in score order, about 3/4 at random): for a 13-byte member about 39
 * bytes, and a handful of Java objects per 64 members. Leaves hold only ids; a comparison reads
 * the score and member through the id. Inner nodes keep, per child, its element count (for rank)
 * and its greatest key, exactly: the score (so routing compares doubles in the node) and the id
 * (read on a score tie). A delete that takes a child's greatest key sets that bound again from the
 * child's last leaf, on the path it walks anyway, so bounds are always live ids and cost no copies
 * of member bytes.
 *
 * <p>Complexity: insert, delete, rank, element at rank and score-bound counts are O(log n) with a
 * fan-out of 64, each node binary searched; score lookup by member is O(1) expected; walking k elements from a rank is
 * O(log n + k). Visitors get slices of the store's pages, valid until the next change.
 *
 * <p>Thread rule: owned by the key that holds it; touched only by the thread the engine gives that
 * key's commands.
 */
final class ScoreTree {

    static final int LEAF_CAPACITY = 64;
    static final int INNER_CAPACITY = 64;
    private static final int MIN_LEAF = LEAF_CAPACITY / 4;
    private static final int MIN_INNER = INNER_CAPACITY / 4;

    /* Shallow sizes with compressed oops and 12-byte headers, for memoryUsage. */
    private static final long ARRAY_HEADER = 16;
    private static final long TREE_BYTES = 40;
    private static final long LEAF_BYTES = 32 + ARRAY_HEADER + 4L * LEAF_CAPACITY;
    private static final long INNER_BYTES = 40 + 4 * ARRAY_HEADER + (4L + 4 + 8 + 4) * INNER_CAPACITY;

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
        /** Each child's greatest key: its score, and its id. */
        final double[] maxScores = new double[INNER_CAPACITY];
        final int[] maxIds = new int[INNER_CAPACITY];
        int total;
    }

    private final MemberStore store = new MemberStore();
    private Node root = new Leaf();
    private long leafCount = 1;
    private long innerCount;

    int size() {
        return store.size();
    }

    long memoryUsage() {
        return TREE_BYTES + store.memoryUsage() + leafCount * LEAF_BYTES + innerCount * INNER_BYTES;
    }

    // ---- member index, for ZSCAN ----------------------------------------------------------------

    /** For ZSCAN: the member index's capacity and array length, whether a slot holds a member, and a slot's home. */
    int indexCapacity() {
        return store.indexCapacity();
    }

    int indexLength() {
        return store.indexLength();
    }

    boolean slotOccupied(int slot) {
        return store.slotOccupied(slot);
    }

    IntBinaryOperator slotHome() {
        return store.slotHome();
    }

    /** Hands the member in an occupied index slot, and its score, to a visitor. */
    void visitSlot(int slot, Visitor visitor) {
        store.visit(store.slotId(slot), visitor);
    }

    // ---- public operations ------------------------------------------------------------------

    /** The score of a member, or NaN (never a stored score) when absent. */
    double score(byte[] array, int offset, int length) {
        int id = store.find(array, offset, length);
        return id < 0 ? Double.NaN : store.score(id);
    }

    /**
     * Adds a member (its bytes copied from the slice) or moves an existing one to a new score. The
     * tree searches with the caller's slice, equal to the stored bytes, rather than read them back.
     */
    void put(byte[] array, int offset, int length, double score) {
        int id = store.find(array, offset, length);
        if (id >= 0) {
            double old = store.score(id);
            if (old == score) {
                return;
            }
            treeDelete(id, old, array, offset, length);
            store.setScore(id, score);
            treeInsert(id, score, array, offset, length);
            return;
        }
        treeInsert(store.add(array, offset, length, score), score, array, offset, length);
    }

    boolean remove(byte[] array, int offset, int length) {
        int id = store.find(array, offset, length);
        if (id < 0) {
            return false;
        }
        treeDelete(id, store.score(id), array, offset, length);
        store.remove(id);
        return true;
    }

    /** The 0-based rank of a member in ascending order, or -1. */
    int rank(byte[] array, int offset, int length) {
        int id = store.find(array, offset, length);
        if (id < 0) {
            return -1;
        }
        double score = store.score(id);
        int rank = 0;
        Node node = root;
        while (node instanceof Inner inner) {
            int child = route(inner, score, array, offset, length);
            rank += countsBefore(inner, child);
            node = inner.children[child];
        }
        Leaf leaf = (Leaf) node;
        return rank + position(leaf, score, array, offset, length);
    }

    /**
     * How many members have a score below {@code score}, or at most {@code score} when
     * {@code inclusive}: the rank where a score range begins or ends.
     */
    int countByScore(double score, boolean inclusive) {
        int count = 0;
        Node node = root;
        while (node instanceof Inner inner) {
            int child = prefix(inner.size - 1,
                i -> inclusive ? inner.maxScores[i] <= score : inner.maxScores[i] < score);
            count += countsBefore(inner, child);
            node = inner.children[child];
        }
        Leaf leaf = (Leaf) node;
        return count + prefix(leaf.size, i -> {
            double s = store.score(leaf.ids[i]);
            return inclusive ? s <= score : s < score;
        });
    }

    /**
     * How many members sort before {@code bound} by member bytes alone (at or before when
     * {@code inclusive}); meaningful when all scores are equal, as Redis's lex ranges assume.
     */
    int countByMember(byte[] bound, boolean inclusive) {
        int count = 0;
        Node node = root;
        while (node instanceof Inner inner) {
            int child = prefix(inner.size - 1, i -> before(inner.maxIds[i], bound, inclusive));
            count += countsBefore(inner, child);
            node = inner.children[child];
        }
        Leaf leaf = (Leaf) node;
        return count + prefix(leaf.size, i -> before(leaf.ids[i], bound, inclusive));
    }

    private boolean before(int id, byte[] bound, boolean inclusive) {
        int c = store.compareMember(id, bound, 0, bound.length);
        return inclusive ? c <= 0 : c < 0;
    }

    /**
     * How many of the indexes {@code 0..n - 1} satisfy {@code below}, which holds for a prefix of
     * them (keys in order): a binary search, O(log n) tests.
     */
    private static int prefix(int n, IntPredicate below) {
        int low = 0;
        int high = n;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (below.test(mid)) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** A copy of the member at a rank. */
    byte[] memberAt(int rank) {
        Leaf leaf = leafAt(rank);
        return store.member(leaf.ids[rankInLeaf]);
    }

    double scoreAt(int rank) {
        Leaf leaf = leafAt(rank);
        return store.score(leaf.ids[rankInLeaf]);
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
            store.visit(leaf.ids[i], visitor);
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
            treeDelete(id, store.score(id), store.page(id), store.memberOffset(id), store.memberLength(id));
            store.remove(id);
        }
    }

    /** A deep copy, its members packed afresh. */
    ScoreTree copy() {
        ScoreTree copy = new ScoreTree();
        if (size() > 0) {
            visit(0, size() - 1, false, copy::put);
        }
        return copy;
    }

    // ---- the tree ---------------------------------------------------------------------------
    //
    // A key is (score, member slice), passed down whole: tree changes never move the store's bytes.

    /** Compares the key of {@code id} with (score, member slice). */
    private int compare(int id, double score, byte[] array, int offset, int length) {
        double s = store.score(id);
        if (s < score) {
            return -1;
        }
        if (s > score) {
            return 1;
        }
        return store.compareMember(id, array, offset, length);
    }

    /** Compares child {@code i}'s greatest key with (score, member slice); reads the member only on a score tie. */
    private int compareBound(Inner inner, int i, double score, byte[] array, int offset, int length) {
        double s = inner.maxScores[i];
        if (s < score) {
            return -1;
        }
        if (s > score) {
            return 1;
        }
        return store.compareMember(inner.maxIds[i], array, offset, length);
    }

    /**
     * The child whose key range holds (score, member): the first whose greatest key is not below it,
     * else the last. A binary search over the bounds (ascending, as the children are): a tie of
     * scores reads a member from the pages, and equal scores are common (lex ranges).
     */
    private int route(Inner inner, double score, byte[] array, int offset, int length) {
        int low = 0;
        int high = inner.size - 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (compareBound(inner, mid, score, array, offset, length) < 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** The elements under children {@code 0..child - 1}. */
    private static int countsBefore(Inner inner, int child) {
        int count = 0;
        for (int i = 0; i < child; i++) {
            count += inner.counts[i];
        }
        return count;
    }

    /** Index of the first id in the leaf whose key is not below (score, member). */
    private int position(Leaf leaf, double score, byte[] array, int offset, int length) {
        int low = 0;
        int high = leaf.size;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (compare(leaf.ids[mid], score, array, offset, length) < 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** Inserts {@code id}, whose key is (score, member slice). */
    private void treeInsert(int id, double score, byte[] array, int offset, int length) {
        Node split = insert(root, id, score, array, offset, length);
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
    private Node insert(Node node, int id, double score, byte[] array, int offset, int length) {
        if (node instanceof Leaf leaf) {
            int at = position(leaf, score, array, offset, length);
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
        int i = route(inner, score, array, offset, length);
        if (compareBound(inner, i, score, array, offset, length) < 0) {
            inner.maxScores[i] = score;
            inner.maxIds[i] = id;
        }
        Node child = inner.children[i];
        Node split = insert(child, id, score, array, offset, length);
        inner.total++;
        if (split == null) {
            inner.counts[i]++;
            return null;
        }
        double maxScore = inner.maxScores[i];
        int maxId = inner.maxIds[i];
        if (inner.size < INNER_CAPACITY) {
            insertChild(inner, i + 1, split, maxScore, maxId);
            setChild(inner, i, child);
            return null;
        }
        Inner right = new Inner();
        innerCount++;
        if (i == INNER_CAPACITY - 1 && lastLeaf(split).next == null) {
            // The append split of leafSplit, one level up: the new child starts the new node.
            setChild(inner, i, child);
            insertChild(right, 0, split, maxScore, maxId);
            inner.total = sum(inner);
            right.total = sum(right);
            return right;
        }
        int half = INNER_CAPACITY / 2;
        int moved = INNER_CAPACITY - half;
        System.arraycopy(inner.children, half, right.children, 0, moved);
        System.arraycopy(inner.counts, half, right.counts, 0, moved);
        System.arraycopy(inner.maxScores, half, right.maxScores, 0, moved);
        System.arraycopy(inner.maxIds, half, right.maxIds, 0, moved);
        Arrays.fill(inner.children, half, INNER_CAPACITY, null);
        right.size = moved;
        inner.size = half;
        if (i < half) {
            insertChild(inner, i + 1, split, maxScore, maxId);
            setChild(inner, i, child);
        } else {
            insertChild(right, i - half + 1, split, maxScore, maxId);
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

    private static void insertChild(Inner inner, int at, Node child, double maxScore, int maxId) {
        int tail = inner.size - at;
        System.arraycopy(inner.children, at, inner.children, at + 1, tail);
        System.arraycopy(inner.counts, at, inner.counts, at + 1, tail);
        System.arraycopy(inner.maxScores, at, inner.maxScores, at + 1, tail);
        System.arraycopy(inner.maxIds, at, inner.maxIds, at + 1, tail);
        inner.children[at] = child;
        inner.counts[at] = count(child);
        inner.maxScores[at] = maxScore;
        inner.maxIds[at] = maxId;
        inner.size++;
    }

    private static void removeChild(Inner inner, int at) {
        int tail = inner.size - at - 1;
        System.arraycopy(inner.children, at + 1, inner.children, at, tail);
        System.arraycopy(inner.counts, at + 1, inner.counts, at, tail);
        System.arraycopy(inner.maxScores, at + 1, inner.maxScores, at, tail);
        System.arraycopy(inner.maxIds, at + 1, inner.maxIds, at, tail);
        inner.size--;
        inner.children[inner.size] = null;
    }

    /** Sets child {@code at}'s count and greatest key from the child itself. */
    private void setChild(Inner inner, int at, Node child) {
        inner.children[at] = child;
        inner.counts[at] = count(child);
        setBound(inner, at);
    }

    /** Sets child {@code at}'s greatest key from its last leaf (left as it was when the child is empty). */
    private void setBound(Inner inner, int at) {
        Leaf leaf = lastLeaf(inner.children[at]);
        if (leaf.size > 0) {
            int id = leaf.ids[leaf.size - 1];
            inner.maxScores[at] = store.score(id);
            inner.maxIds[at] = id;
        }
    }

    private static int count(Node node) {
        return node instanceof Inner inner ? inner.total : node.size;
    }

    /** Deletes {@code id}, whose key is (score, member slice). */
    private void treeDelete(int id, double score, byte[] array, int offset, int length) {
        delete(root, id, score, array, offset, length);
        if (root instanceof Inner inner && inner.size == 1) {
            root = inner.children[0];
            innerCount--;
        }
    }

    private void delete(Node node, int id, double score, byte[] array, int offset, int length) {
        if (node instanceof Leaf leaf) {
            int at = position(leaf, score, array, offset, length);
            System.arraycopy(leaf.ids, at + 1, leaf.ids, at, leaf.size - at - 1);
            leaf.size--;
            return;
        }
        Inner inner = (Inner) node;
        int i = route(inner, score, array, offset, length);
        Node child = inner.children[i];
        delete(child, id, score, array, offset, length);
        inner.counts[i]--;
        inner.total--;
        if (inner.maxIds[i] == id) {
            // The child's greatest key went: its new greatest is its last leaf's last.
            setBound(inner, i);
        }
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
                System.arraycopy(ib.maxIds, 0, ia.maxIds, ia.size, ib.size);
                ia.size += ib.size;
                ia.total += ib.total;
                innerCount--;
            }
            parent.counts[left] += parent.counts[left + 1];
            parent.maxScores[left] = parent.maxScores[left + 1];
            parent.maxIds[left] = parent.maxIds[left + 1];
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
                insertChild(ia, ia.size, ib.children[0], ib.maxScores[0], ib.maxIds[0]);
                removeChild(ib, 0);
            }
            while (ia.size > target) {
                int last = ia.size - 1;
                insertChild(ib, 0, ia.children[last], ia.maxScores[last], ia.maxIds[last]);
                removeChild(ia, last);
            }
            ia.total = sum(ia);
            ib.total = sum(ib);
        }
        // b's greatest key stays b's: keys moved only across the boundary between a and b.
        setChild(parent, left, a);
        parent.counts[left + 1] = count(b);
    }
}
