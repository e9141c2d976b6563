package dev.lacewing.core.datatype;

import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.keyspace.TypedValue;

/**
 * A Redis list: Redis 7.0's quicklist, a doubly linked list of nodes that each hold a bounded run
 * of entries in one {@link Listpack}. A node is filled as {@code list-max-listpack-size} says: a
 * negative fill bounds the node's listpack bytes (-1 = 4 KiB ... -5 = 64 KiB; -2, 8 KiB, is the
 * default), a positive fill its entry count (with Redis's 8 KiB safety limit). The bytes measured
 * are the listpack's own, header included, which are Redis's byte for byte in size, so node
 * boundaries fall where Redis's do. Nodes keep their counts, so an index costs O(n / entries per
 * node) plus O(entries per node) inside the node, a push or pop at either end O(1) amortized
 * (moving at most the node's bytes), an insert or delete in the middle O(node bytes) past the walk.
 *
 * <p>{@link #memoryUsage()} counts what the heap holds (the list and node objects, each
 * listpack's object and array) and is kept up to date as the list changes, so it is O(1).
 * Entries handed out ({@link #get}, {@link #popHead}, visitors) are copies.
 *
 * <p>Not thread-safe: touched only by the thread holding its key (the engine's rule).
 */
public final class Quicklist implements TypedValue {

    /** Redis's optimization_level: node byte limits for fill -1 .. -5. */
    private static final int[] BYTE_LIMITS = {4096, 8192, 16384, 32768, 65536};
    /** SIZE_SAFETY_LIMIT: a count-bounded node still stops growing past this many bytes. */
    private static final int SAFETY_LIMIT = 8192;
    /** FILL_MAX of quicklist.c. */
    private static final int FILL_MAX = (1 << 15) - 1;

    /* Heap costs with compressed oops: object header 12, reference 4, 8-byte alignment. */
    private static final long LIST_OBJECT_BYTES = 40;
    private static final long NODE_OBJECT_BYTES = 24;

    /** One run of entries. */
    private static final class Node {
        Node previous;
        Node next;
        final Listpack entries = new Listpack();

        int count() {
            return entries.size();
        }

        /** What Redis's lpBytes reports for this node. */
        int bytes() {
            return Listpack.HEADER_BYTES + entries.byteSize();
        }
    }

    private final int fill;
    private Node head;
    private Node tail;
    private long size;
    private int nodes;
    /** Heap bytes of nodes and their listpacks: everything but the list object itself. */
    private long heapBytes;

    /** An empty list whose nodes follow {@code list-max-listpack-size} = {@code fill}. */
    public Quicklist(int fill) {
        this.fill = Math.max(-BYTE_LIMITS.length, Math.min(FILL_MAX, fill == 0 ? 1 : fill));
    }

    public long size() {
        return size;
    }

    public int fill() {
        return fill;
    }

    @Override
    public String typeName() {
        return "list";
    }

    /** Redis 7.0 reports every list as a quicklist (7.2 added {@code listpack} for small ones). */
    @Override
    public String encoding() {
        return "quicklist";
    }

    @Override
    public long memoryUsage() {
        return LIST_OBJECT_BYTES + heapBytes;
    }

    @Override
    public Quicklist copy() {
        Quicklist copy = new Quicklist(fill);
        for (Node node = head; node != null; node = node.next) {
            Node copied = new Node();
            copied.entries.appendAll(node.entries);
            copy.linkAfter(copy.tail, copied);
            copy.nodes++;
            copy.size += copied.count();
            copy.heapBytes += NODE_OBJECT_BYTES + copied.entries.memoryUsage();
        }
        return copy;
    }

    // ---- sizes --------------------------------------------------------------------------

    /** Bytes an entry takes in a listpack ({@link Listpack#entrySize}). */
    static int entryBytes(byte[] value) {
        return Listpack.entrySize(value, 0, value.length);
    }

    /** quicklist.c's _quicklistNodeAllowInsert: whether one more entry of this size fits the node. */
    private boolean fits(Node node, int entryBytes) {
        int newBytes = node.bytes() + entryBytes;
        if (fill < 0) {
            return newBytes <= BYTE_LIMITS[-fill - 1];
        }
        return newBytes <= SAFETY_LIMIT && node.count() < fill;
    }

    // ---- node plumbing ------------------------------------------------------------------

    private Node newNode() {
        Node node = new Node();
        nodes++;
        heapBytes += NODE_OBJECT_BYTES + node.entries.memoryUsage();
        return node;
    }

    private void linkAfter(Node anchor, Node node) {
        node.previous = anchor;
        if (anchor == null) {
            node.next = head;
            if (head != null) {
                head.previous = node;
            }
            head = node;
        } else {
            node.next = anchor.next;
            if (anchor.next != null) {
                anchor.next.previous = node;
            }
            anchor.next = node;
        }
        if (node.next == null) {
            tail = node;
        }
    }

    private void unlink(Node node) {
        if (node.previous != null) {
            node.previous.next = node.next;
        } else {
            head = node.next;
        }
        if (node.next != null) {
            node.next.previous = node.previous;
        } else {
            tail = node.previous;
        }
        nodes--;
        heapBytes -= NODE_OBJECT_BYTES + node.entries.memoryUsage();
    }

    /** Puts {@code value} at entry {@code position} of the node, which must have room by the fill rule. */
    private void insertInNode(Node node, int position, byte[] value) {
        Listpack entries = node.entries;
        long before = entries.memoryUsage();
        entries.insert(position == entries.size() ? -1 : entries.seek(position), value, 0, value.length);
        size++;
        heapBytes += entries.memoryUsage() - before;
    }

    /** Removes entry {@code position} of the node, and the node once it is empty; returns the entry. */
    private byte[] removeFromNode(Node node, int position) {
        return removeAtPosition(node, node.entries.seek(position));
    }

    /** Removes the entry at byte position {@code at} of the node, and the node once it is empty. */
    private byte[] removeAtPosition(Node node, int at) {
        Listpack entries = node.entries;
        long before = entries.memoryUsage();
        byte[] value = entries.get(at);
        entries.delete(at);
        size--;
        heapBytes += entries.memoryUsage() - before;
        if (entries.size() == 0) {
            unlink(node);
        }
        return value;
    }

    /** A node and an entry position in it. */
    private Node foundNode;
    private int foundPosition;

    /** Finds entry {@code index} (0-based, in range), walking from the nearer end. */
    private void find(long index) {
        if (index < size / 2) {
            Node node = head;
            while (index >= node.count()) {
                index -= node.count();
                node = node.next;
            }
            foundNode = node;
            foundPosition = (int) index;
        } else {
            long fromEnd = size - 1 - index;
            Node node = tail;
            while (fromEnd >= node.count()) {
                fromEnd -= node.count();
                node = node.previous;
            }
            foundNode = node;
            foundPosition = node.count() - 1 - (int) fromEnd;
        }
    }

    // ---- the list operations ------------------------------------------------------------

    /** Adds {@code value} before the first entry. */
    public void pushHead(byte[] value) {
        if (head == null || !fits(head, entryBytes(value))) {
            linkAfter(null, newNode());
        }
        insertInNode(head, 0, value);
    }

    /** Adds {@code value} after the last entry. */
    public void pushTail(byte[] value) {
        if (tail == null || !fits(tail, entryBytes(value))) {
            linkAfter(tail, newNode());
        }
        insertInNode(tail, tail.count(), value);
    }

    public byte[] popHead() {
        return head == null ? null : removeAtPosition(head, head.entries.first());
    }

    public byte[] popTail() {
        return tail == null ? null : removeAtPosition(tail, tail.entries.last());
    }

    /** A copy of the entry at {@code index}, 0 &lt;= index &lt; size. */
    public byte[] get(long index) {
        find(index);
        return foundNode.entries.get(foundNode.entries.seek(foundPosition));
    }

    /** Replaces the entry at {@code index}; the node splits when the new value does not fit it. */
    public void set(long index, byte[] value) {
        find(index);
        Node node = foundNode;
        Listpack entries = node.entries;
        int at = entries.seek(foundPosition);
        int delta = entryBytes(value) - (entries.next(at) < 0 ? entries.byteSize() - at : entries.next(at) - at);
        if (delta <= 0 || node.count() == 1 || fits(node, delta)) {
            long before = entries.memoryUsage();
            entries.replace(at, value, 0, value.length);
            heapBytes += entries.memoryUsage() - before;
            return;
        }
        removeAt(index);
        insert(index, value);
    }

    /**
     * Inserts {@code value} so that it becomes entry {@code index} (0 &lt;= index &lt;= size).
     * A full node splits in two around the insertion point, as quicklist.c does.
     */
    public void insert(long index, byte[] value) {
        if (index == 0) {
            pushHead(value);
            return;
        }
        if (index == size) {
            pushTail(value);
            return;
        }
        find(index);
        Node node = foundNode;
        int position = foundPosition;
        int bytes = entryBytes(value);
        if (fits(node, bytes)) {
            insertInNode(node, position, value);
            return;
        }
        if (position == 0 && node.previous != null && fits(node.previous, bytes)) {
            insertInNode(node.previous, node.previous.count(), value);
            return;
        }
        Node after = split(node, position);
        if (fits(node, bytes)) {
            insertInNode(node, node.count(), value);
        } else if (fits(after, bytes)) {
            insertInNode(after, 0, value);
        } else {
            Node alone = newNode();
            linkAfter(node, alone);
            insertInNode(alone, 0, value);
        }
    }

    /** Moves entries {@code from..count-1} of the node into a new node linked after it; returns it. */
    private Node split(Node node, int from) {
        Node after = newNode();
        linkAfter(node, after);
        int moving = node.count() - from;
        if (moving > 0) {
            long before = node.entries.memoryUsage() + after.entries.memoryUsage();
            int at = node.entries.seek(from);
            after.entries.appendRange(node.entries, at, moving);
            node.entries.deleteRange(at, moving);
            heapBytes += node.entries.memoryUsage() + after.entries.memoryUsage() - before;
        }
        return after;
    }

    /** Removes and returns the entry at {@code index}. */
    public byte[] removeAt(long index) {
        find(index);
        return removeFromNode(foundNode, foundPosition);
    }

    /** Removes {@code count} entries from {@code start}; whole nodes go without touching their entries. */
    public void removeRange(long start, long count) {
        if (count <= 0) {
            return;
        }
        find(start);
        Node node = foundNode;
        int position = foundPosition;
        while (count > 0) {
            Node next = node.next;
            if (position == 0 && count >= node.count()) {
                count -= node.count();
                size -= node.count();
                unlink(node);
            } else {
                int removing = (int) Math.min(count, node.count() - position);
                Listpack entries = node.entries;
                long before = entries.memoryUsage();
                entries.deleteRange(entries.seek(position), removing);
                heapBytes += entries.memoryUsage() - before;
                size -= removing;
                count -= removing;
                if (entries.size() == 0) {
                    unlink(node);
                }
            }
            node = next;
            position = 0;
        }
    }

    /**
     * Replies entries {@code start..end} (0-based, inclusive, in range) head to tail as bulk
     * strings, straight from the listpacks: the walk to {@code start} is O(n / entries per node),
     * then O(1) per entry.
     */
    public void writeRange(long start, long end, ReplyWriter reply) {
        if (start > end) {
            return;
        }
        find(start);
        Node node = foundNode;
        int at = node.entries.seek(foundPosition);
        for (long remaining = end - start + 1; remaining > 0; remaining--) {
            if (at < 0) {
                node = node.next;
                at = node.entries.first();
            }
            node.entries.writeTo(at, reply);
            at = node.entries.next(at);
        }
    }

    /**
     * Visits copies of entries {@code start..end} (0-based, inclusive, in range) head to tail: the
     * walk to {@code start} is O(n / entries per node), then O(1) per entry.
     */
    public void forEach(long start, long end, java.util.function.Consumer<byte[]> visitor) {
        if (start > end) {
            return;
        }
        find(start);
        Node node = foundNode;
        int at = node.entries.seek(foundPosition);
        for (long remaining = end - start + 1; remaining > 0; remaining--) {
            if (at < 0) {
                node = node.next;
                at = node.entries.first();
            }
            visitor.accept(node.entries.get(at));
            at = node.entries.next(at);
        }
    }

    /** A walk over the entries in one direction, which may remove the entry it last returned. */
    public Cursor cursor(long index, boolean towardsTail) {
        return new Cursor(index, towardsTail);
    }

    /**
     * See {@link #cursor}. Valid until the list changes other than through it. It holds the byte
     * position of its next entry in that entry's node: removing the entry just returned leaves
     * the next one at the removed one's position (walking to the tail) or where it was (walking
     * to the head, as the removed entry came after it).
     */
    public final class Cursor {
        private final boolean towardsTail;
        private Node node;
        private int at;
        private long index;
        private Node lastNode;
        private int lastAt;

        private Cursor(long index, boolean towardsTail) {
            this.towardsTail = towardsTail;
            this.index = index;
            if (index >= 0 && index < size) {
                find(index);
                node = foundNode;
                at = node.entries.seek(foundPosition);
            }
        }

        public boolean hasNext() {
            return node != null;
        }

        /** The index of the entry {@link #next()} returns. */
        public long index() {
            return index;
        }

        /** A copy of the next entry. */
        public byte[] next() {
            lastNode = node;
            lastAt = at;
            byte[] value = node.entries.get(at);
            if (towardsTail) {
                index++;
                at = node.entries.next(at);
                if (at < 0) {
                    node = node.next;
                    at = node == null ? -1 : node.entries.first();
                }
            } else {
                index--;
                at = node.entries.previous(at);
                if (at < 0) {
                    node = node.previous;
                    at = node == null ? -1 : node.entries.last();
                }
            }
            return value;
        }

        /** Removes the entry the last {@link #next()} returned. */
        public void remove() {
            Node removedFrom = lastNode;
            Listpack entries = removedFrom.entries;
            long before = entries.memoryUsage();
            entries.delete(lastAt);
            size--;
            heapBytes += entries.memoryUsage() - before;
            if (entries.size() == 0) {
                unlink(removedFrom);
            }
            if (towardsTail) {
                index--;
                if (node == removedFrom) {
                    at = lastAt;
                }
            }
        }
    }
}
