package dev.lacewing.core.datatype;

import dev.lacewing.core.keyspace.TypedValue;
import java.util.Arrays;

/**
 * A Redis list: Redis 7.0's quicklist, a doubly linked list of nodes that each hold a bounded run
 * of entries. A node is filled as {@code list-max-listpack-size} says: a negative fill bounds its
 * bytes as a listpack would count them (-1 = 4 KiB ... -5 = 64 KiB; -2, 8 KiB, is the default), a
 * positive fill its entry count (with Redis's 8 KiB safety limit). Nodes keep their counts, so an
 * index costs O(n / entries per node), a push or pop at either end O(1) amortized, and an insert
 * or delete in the middle O(entries per node) past the walk.
 *
 * <p>Node storage: a node's entries are its own {@code byte[]}s, with the node's listpack size
 * estimated entry by entry ({@link #entryBytes}) so node boundaries fall where Redis's would; the
 * byte-packed node (core's {@code Listpack}) replaces the arrays once it is on main, behind this
 * same API. {@link #memoryUsage()} counts what the heap really holds (array headers, alignment,
 * node objects) and is kept up to date as the list changes, so it is O(1).
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
    /** Listpack header (total bytes, count) and end byte. */
    private static final int LISTPACK_OVERHEAD = 7;

    /* Heap costs with compressed oops: object header 12, array header 16, reference 4, 8-byte alignment. */
    private static final long LIST_OBJECT_BYTES = 40;
    private static final long NODE_OBJECT_BYTES = 32;
    private static final long ARRAY_HEADER_BYTES = 16;
    private static final int INITIAL_NODE_CAPACITY = 4;

    /** One run of entries; {@code bytes} is what the run would take as a listpack. */
    private static final class Node {
        Node previous;
        Node next;
        byte[][] entries;
        int count;
        int bytes = LISTPACK_OVERHEAD;

        Node(int capacity) {
            entries = new byte[capacity][];
        }
    }

    private final int fill;
    private Node head;
    private Node tail;
    private long size;
    private int nodes;
    /** Heap bytes of entries, entry arrays and nodes: everything but the list object itself. */
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
            for (int i = 0; i < node.count; i++) {
                copy.pushTail(node.entries[i].clone());
            }
        }
        return copy;
    }

    // ---- sizes --------------------------------------------------------------------------

    /**
     * Bytes an entry takes in a listpack: an integer encoding for canonical integers that fit,
     * otherwise a 1, 2 or 5 byte header and the string, plus the back length (1 byte per 7 bits
     * of the entry's length).
     */
    static int entryBytes(byte[] value) {
        int encoded;
        long integer = canonicalInteger(value);
        if (integer != Long.MIN_VALUE || Arrays.equals(value, LONG_MIN_TEXT)) {
            if (integer >= 0 && integer <= 127) {
                encoded = 1;
            } else if (integer >= -4096 && integer <= 4095) {
                encoded = 2;
            } else if (integer >= Short.MIN_VALUE && integer <= Short.MAX_VALUE) {
                encoded = 3;
            } else if (integer >= -(1 << 23) && integer < (1 << 23)) {
                encoded = 4;
            } else if (integer >= Integer.MIN_VALUE && integer <= Integer.MAX_VALUE) {
                encoded = 5;
            } else {
                encoded = 9;
            }
        } else {
            int length = value.length;
            encoded = length + (length < 64 ? 1 : length < 4096 ? 2 : 5);
        }
        return encoded + (encoded <= 127 ? 1 : encoded < 16383 ? 2 : encoded < 2097151 ? 3 : encoded < 268435455 ? 4 : 5);
    }

    private static final byte[] LONG_MIN_TEXT = Long.toString(Long.MIN_VALUE).getBytes();

    /** The value of a canonical decimal integer (as listpacks store them), or Long.MIN_VALUE. */
    private static long canonicalInteger(byte[] value) {
        int length = value.length;
        if (length == 0 || length > 20) {
            return Long.MIN_VALUE;
        }
        int i = 0;
        boolean negative = value[0] == '-';
        if (negative) {
            i = 1;
            if (length == 1 || value[1] == '0') {
                return Long.MIN_VALUE;
            }
        } else if (value[0] == '0' && length > 1) {
            return Long.MIN_VALUE;
        }
        long magnitude = 0;
        for (; i < length; i++) {
            int digit = value[i] - '0';
            if (digit < 0 || digit > 9 || magnitude > (Long.MAX_VALUE - digit) / 10) {
                return Long.MIN_VALUE;
            }
            magnitude = magnitude * 10 + digit;
        }
        return negative ? -magnitude : magnitude;
    }

    private static long heapOf(byte[] value) {
        return ARRAY_HEADER_BYTES + ((value.length + 7L) & ~7L);
    }

    private static long heapOfSlots(int capacity) {
        return ARRAY_HEADER_BYTES + ((capacity * 4L + 7) & ~7L);
    }

    /** quicklist.c's _quicklistNodeAllowInsert: whether one more entry of this size fits the node. */
    private boolean fits(Node node, int entryBytes) {
        int newBytes = node.bytes + entryBytes;
        if (fill < 0) {
            return newBytes <= BYTE_LIMITS[-fill - 1];
        }
        return newBytes <= SAFETY_LIMIT && node.count < fill;
    }

    // ---- node plumbing ------------------------------------------------------------------

    private Node newNode() {
        Node node = new Node(INITIAL_NODE_CAPACITY);
        nodes++;
        heapBytes += NODE_OBJECT_BYTES + heapOfSlots(INITIAL_NODE_CAPACITY);
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
        heapBytes -= NODE_OBJECT_BYTES + heapOfSlots(node.entries.length);
    }

    /** Puts {@code value} at {@code position} of the node, which must have room by the fill rule. */
    private void insertInNode(Node node, int position, byte[] value, int bytes) {
        if (node.count == node.entries.length) {
            int capacity = node.entries.length * 2;
            heapBytes += heapOfSlots(capacity) - heapOfSlots(node.entries.length);
            node.entries = Arrays.copyOf(node.entries, capacity);
        }
        System.arraycopy(node.entries, position, node.entries, position + 1, node.count - position);
        node.entries[position] = value;
        node.count++;
        node.bytes += bytes;
        size++;
        heapBytes += heapOf(value);
    }

    /** Removes entry {@code position} of the node, and the node once it is empty; returns the entry. */
    private byte[] removeFromNode(Node node, int position) {
        byte[] value = node.entries[position];
        System.arraycopy(node.entries, position + 1, node.entries, position, node.count - position - 1);
        node.entries[--node.count] = null;
        node.bytes -= entryBytes(value);
        size--;
        heapBytes -= heapOf(value);
        if (node.count == 0) {
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
            while (index >= node.count) {
                index -= node.count;
                node = node.next;
            }
            foundNode = node;
            foundPosition = (int) index;
        } else {
            long fromEnd = size - 1 - index;
            Node node = tail;
            while (fromEnd >= node.count) {
                fromEnd -= node.count;
                node = node.previous;
            }
            foundNode = node;
            foundPosition = node.count - 1 - (int) fromEnd;
        }
    }

    // ---- the list operations ------------------------------------------------------------

    /** Adds {@code value} (kept, not copied) before the first entry. */
    public void pushHead(byte[] value) {
        int bytes = entryBytes(value);
        if (head == null || !fits(head, bytes)) {
            linkAfter(null, newNode());
        }
        insertInNode(head, 0, value, bytes);
    }

    /** Adds {@code value} (kept, not copied) after the last entry. */
    public void pushTail(byte[] value) {
        int bytes = entryBytes(value);
        if (tail == null || !fits(tail, bytes)) {
            linkAfter(tail, newNode());
        }
        insertInNode(tail, tail.count, value, bytes);
    }

    public byte[] popHead() {
        return head == null ? null : removeFromNode(head, 0);
    }

    public byte[] popTail() {
        return tail == null ? null : removeFromNode(tail, tail.count - 1);
    }

    /** The entry at {@code index}, 0 &lt;= index &lt; size; the stored array, not to be changed. */
    public byte[] get(long index) {
        find(index);
        return foundNode.entries[foundPosition];
    }

    /** Replaces the entry at {@code index}; the node splits when the new value does not fit it. */
    public void set(long index, byte[] value) {
        find(index);
        Node node = foundNode;
        int position = foundPosition;
        byte[] old = node.entries[position];
        int delta = entryBytes(value) - entryBytes(old);
        if (delta <= 0 || node.count == 1 || fits(node, delta)) {
            node.entries[position] = value;
            node.bytes += delta;
            heapBytes += heapOf(value) - heapOf(old);
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
            insertInNode(node, position, value, bytes);
            return;
        }
        if (position == 0 && node.previous != null && fits(node.previous, bytes)) {
            insertInNode(node.previous, node.previous.count, value, bytes);
            return;
        }
        Node after = split(node, position);
        if (fits(node, bytes)) {
            insertInNode(node, node.count, value, bytes);
        } else if (fits(after, bytes)) {
            insertInNode(after, 0, value, bytes);
        } else {
            Node alone = newNode();
            linkAfter(node, alone);
            insertInNode(alone, 0, value, bytes);
        }
    }

    /** Moves entries {@code from..count-1} of the node into a new node linked after it; returns it. */
    private Node split(Node node, int from) {
        Node after = newNode();
        linkAfter(node, after);
        int moving = node.count - from;
        if (moving > 0) {
            int capacity = Math.max(INITIAL_NODE_CAPACITY, Integer.highestOneBit(moving - 1) << 1);
            heapBytes += heapOfSlots(capacity) - heapOfSlots(after.entries.length);
            after.entries = new byte[capacity][];
            System.arraycopy(node.entries, from, after.entries, 0, moving);
            int movedBytes = 0;
            for (int i = from; i < node.count; i++) {
                movedBytes += entryBytes(node.entries[i]);
                node.entries[i] = null;
            }
            after.count = moving;
            after.bytes += movedBytes;
            node.count = from;
            node.bytes -= movedBytes;
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
            if (position == 0 && count >= node.count) {
                count -= node.count;
                size -= node.count;
                for (int i = 0; i < node.count; i++) {
                    heapBytes -= heapOf(node.entries[i]);
                }
                unlink(node);
            } else {
                int removing = (int) Math.min(count, node.count - position);
                for (int i = 0; i < removing; i++) {
                    removeFromNode(node, position);
                }
                count -= removing;
            }
            node = next;
            position = 0;
        }
    }

    /**
     * Visits entries {@code start..end} (0-based, inclusive, in range) head to tail without copying
     * them: the walk to {@code start} is O(n / entries per node), then O(1) per entry.
     */
    public void forEach(long start, long end, java.util.function.Consumer<byte[]> visitor) {
        if (start > end) {
            return;
        }
        find(start);
        Node node = foundNode;
        int position = foundPosition;
        for (long remaining = end - start + 1; remaining > 0; remaining--) {
            if (position == node.count) {
                node = node.next;
                position = 0;
            }
            visitor.accept(node.entries[position++]);
        }
    }

    /** Visits entries {@code start..end} (inclusive, start &gt;= end) from the tail towards the head. */
    public void forEachReverse(long start, long end, java.util.function.Consumer<byte[]> visitor) {
        if (start < end) {
            return;
        }
        find(start);
        Node node = foundNode;
        int position = foundPosition;
        for (long remaining = start - end + 1; remaining > 0; remaining--) {
            if (position < 0) {
                node = node.previous;
                position = node.count - 1;
            }
            visitor.accept(node.entries[position--]);
        }
    }

    /** A walk over the entries in one direction, which may remove the entry it last returned. */
    public Cursor cursor(long index, boolean towardsTail) {
        return new Cursor(index, towardsTail);
    }

    /** See {@link #cursor}. Valid until the list changes other than through it. */
    public final class Cursor {
        private final boolean towardsTail;
        private Node node;
        private int position;
        private long index;
        private Node lastNode;
        private int lastPosition;

        private Cursor(long index, boolean towardsTail) {
            this.towardsTail = towardsTail;
            this.index = index;
            if (index >= 0 && index < size) {
                find(index);
                node = foundNode;
                position = foundPosition;
            }
        }

        public boolean hasNext() {
            return node != null;
        }

        /** The index of the entry {@link #next()} returns. */
        public long index() {
            return index;
        }

        public byte[] next() {
            lastNode = node;
            lastPosition = position;
            byte[] value = node.entries[position];
            if (towardsTail) {
                index++;
                if (++position == node.count) {
                    node = node.next;
                    position = 0;
                }
            } else {
                index--;
                if (--position < 0) {
                    node = node.previous;
                    position = node == null ? 0 : node.count - 1;
                }
            }
            return value;
        }

        /** Removes the entry the last {@link #next()} returned. */
        public void remove() {
            Node removedFrom = lastNode;
            removeFromNode(removedFrom, lastPosition);
            if (towardsTail) {
                index--;
                if (node == removedFrom) {
                    position--;
                }
            }
        }
    }
}
