package dev.lacewing.core.datatype;

import dev.lacewing.api.AggregateType;
import dev.lacewing.api.ListView;
import dev.lacewing.api.ReplyWriter;

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
 * <p>Compression ({@code list-compress-depth}, fixed when the list is made, as Redis applies the
 * server's setting at list creation): with depth d &gt; 0, the d nodes at each end stay raw and every
 * other node is kept {@link Lzf}-compressed ({@link Listpack#compress}) once it has
 * {@value #MIN_COMPRESS_BYTES} bytes and compression saves more than {@value #MIN_COMPRESS_IMPROVE},
 * quicklist.c's MIN_COMPRESS_BYTES and MIN_COMPRESS_IMPROVE. A read of a compressed node
 * decompresses a copy and drops it, leaving the node as it was, so reads never change
 * {@link #memoryUsage()} (the keyspace counts a value's bytes again only after a change); a change
 * decompresses the node into place and {@link #settle} compresses it again, as quicklist.c does.
 *
 * <p>{@link #memoryUsage()} counts what the heap holds (the list and node objects, each raw node's
 * listpack object and array, each compressed node's array) and is kept up to date as the list
 * changes, so it is O(1). Entries handed out ({@link #get}, {@link #popHead}, visitors) are copies.
 *
 * <p>Not thread-safe: touched only by the thread holding its key (the engine's rule).
 */
public final class Quicklist implements TypedValue, ListView {

    /** Core's list commands take a stored list through this token ({@code Keyspace.aggregate}). */
    public static final AggregateType<Quicklist> TYPE = new AggregateType<>("list", Quicklist.class);


    /** Redis's optimization_level: node byte limits for fill -1 .. -5. */
    private static final int[] BYTE_LIMITS = {4096, 8192, 16384, 32768, 65536};
    /** SIZE_SAFETY_LIMIT: a count-bounded node still stops growing past this many bytes. */
    private static final int SAFETY_LIMIT = 8192;
    /** quicklist.c's SIZE_ESTIMATE_OVERHEAD: what an insert adds to a value's length in its size estimate. */
    private static final int SIZE_ESTIMATE_OVERHEAD = 8;
    /** FILL_MAX of quicklist.c. */
    private static final int FILL_MAX = (1 << 15) - 1;
    /** Nodes of fewer bytes (Redis's lpBytes) are not worth compressing. */
    private static final int MIN_COMPRESS_BYTES = 48;
    /** Compression that saves this many bytes or fewer is not kept. */
    private static final int MIN_COMPRESS_IMPROVE = 8;

    /* Heap costs with compressed oops: object header 12, reference 4, 8-byte alignment. */
    private static final long LIST_OBJECT_BYTES = 56;
    private static final long NODE_OBJECT_BYTES = 24;
    private static final long ARRAY_HEADER_BYTES = 16;

    /** One run of entries: a {@link Listpack}, or while compressed the array {@link Listpack#compress} made. */
    private static final class Node {
        Node previous;
        Node next;
        Object payload = new Listpack();

        boolean isCompressed() {
            return payload instanceof byte[];
        }

        int count() {
            return payload instanceof Listpack entries ? entries.size() : Listpack.compressedCount((byte[]) payload);
        }

        /** What Redis's lpBytes reports for this node's entries (uncompressed). */
        int bytes() {
            return Listpack.HEADER_BYTES + (payload instanceof Listpack entries ? entries.byteSize()
                : Listpack.compressedByteSize((byte[]) payload));
        }

        long memoryUsage() {
            return NODE_OBJECT_BYTES + (payload instanceof Listpack entries ? entries.memoryUsage()
                : ARRAY_HEADER_BYTES + ((((byte[]) payload).length + 7) & ~7L));
        }
    }

    private final int fill;
    private final int compressDepth;
    private Node head;
    private Node tail;
    private long size;
    private int nodes;
    /** Heap bytes of the nodes and their payloads: everything but the list object itself. */
    private long heapBytes;

    /**
     * An empty list whose nodes follow {@code list-max-listpack-size} = {@code fill} and which
     * keeps {@code compressDepth} nodes at each end uncompressed (0: none compressed).
     */
    public Quicklist(int fill, int compressDepth) {
        if (compressDepth < 0) {
            throw new IllegalArgumentException("compress depth " + compressDepth + " is negative");
        }
        this.fill = Math.max(-BYTE_LIMITS.length, Math.min(FILL_MAX, fill == 0 ? 1 : fill));
        this.compressDepth = compressDepth;
    }

    public long size() {
        return size;
    }

    public int fill() {
        return fill;
    }

    public int compressDepth() {
        return compressDepth;
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

    /** A copy with the same nodes, compressed where these are. */
    @Override
    public Quicklist copy() {
        Quicklist copy = new Quicklist(fill, compressDepth);
        for (Node node = head; node != null; node = node.next) {
            Node copied = new Node();
            copied.payload = node.payload instanceof Listpack entries ? entries.copy() : ((byte[]) node.payload).clone();
            copy.linkAfter(copy.tail, copied);
            copy.nodes++;
            copy.size += copied.count();
            copy.heapBytes += copied.memoryUsage();
        }
        return copy;
    }

    /** What {@link #forEachNode} hands over: a node's entries (read only) and whether the node is compressed. */
    public interface NodeVisitor {
        void visit(Listpack entries, boolean compressed);
    }

    /**
     * Visits the nodes head to tail, a compressed one as a decompressed copy (RDB's
     * RDB_TYPE_LIST_QUICKLIST_2 writes each node as it is). O(n) plus one decompression per
     * compressed node.
     */
    public void forEachNode(NodeVisitor visitor) {
        for (Node node = head; node != null; node = node.next) {
            visitor.visit(read(node), node.isCompressed());
        }
    }

    /**
     * Appends {@code entries} (taken, not copied) as a node of their own, whatever the fill rule
     * says, as quicklistAppendListpack does when an RDB is loaded: the list keeps the nodes it was
     * saved with. An empty listpack adds nothing. Compresses per the depth rule.
     */
    public void appendNode(Listpack entries) {
        if (entries.size() == 0) {
            return;
        }
        Node node = newNode();
        replacePayload(node, entries);
        linkAfter(tail, node);
        size += entries.size();
        settle(node);
    }

    /** Which nodes are compressed, head to tail: for tests of the depth rule. */
    boolean[] compressedNodes() {
        boolean[] compressed = new boolean[nodes];
        int i = 0;
        for (Node node = head; node != null; node = node.next) {
            compressed[i++] = node.isCompressed();
        }
        return compressed;
    }

    // ---- sizes --------------------------------------------------------------------------

    /** Bytes an entry takes in a listpack ({@link Listpack#entrySize}). */
    static int entryBytes(byte[] value) {
        return Listpack.entrySize(value, 0, value.length);
    }

    /**
     * quicklist.c's _quicklistNodeAllowInsert in 7.0.15: whether {@code value} may join the node.
     * Redis estimates the new size as the node's bytes plus the value's length plus
     * SIZE_ESTIMATE_OVERHEAD, never the entry's exact size, so node boundaries fall where its do.
     */
    private boolean allowsInsert(Node node, byte[] value) {
        return fits(node, value.length + SIZE_ESTIMATE_OVERHEAD);
    }

    /** Whether {@code entryBytes} more bytes keep the node within the fill rule. */
    private boolean fits(Node node, int entryBytes) {
        int newBytes = node.bytes() + entryBytes;
        if (fill < 0) {
            return newBytes <= BYTE_LIMITS[-fill - 1];
        }
        return newBytes <= SAFETY_LIMIT && node.count() < fill;
    }

    // ---- compression --------------------------------------------------------------------

    /**
     * The node's entries to read: its own, or a decompressed copy that the node does not keep.
     * Not to be changed, except through {@link #open(Node, Listpack)}.
     */
    private static Listpack read(Node node) {
        return node.payload instanceof Listpack entries ? entries : Listpack.decompress((byte[]) node.payload);
    }

    /** The node's entries to change, decompressed into the node if need be; {@link #settle} after. */
    private Listpack open(Node node) {
        return open(node, read(node));
    }

    /** {@link #open(Node)} given what {@link #read} returned for the node, unchanged since: no second decompression. */
    private Listpack open(Node node, Listpack entries) {
        if (node.payload != entries) {
            replacePayload(node, entries);
        }
        return entries;
    }

    private void replacePayload(Node node, Object payload) {
        heapBytes -= node.memoryUsage();
        node.payload = payload;
        heapBytes += node.memoryUsage();
    }

    private void compress(Node node) {
        if (node.payload instanceof Listpack entries && node.bytes() >= MIN_COMPRESS_BYTES) {
            byte[] compressed = entries.compress(MIN_COMPRESS_IMPROVE);
            if (compressed != null) {
                replacePayload(node, compressed);
            }
        }
    }

    private void decompress(Node node) {
        if (node.payload instanceof byte[] compressed) {
            replacePayload(node, Listpack.decompress(compressed));
        }
    }

    /**
     * quicklist.c's __quicklistCompress, run after a node is linked, unlinked, or changed away from
     * the ends: the {@code compressDepth} nodes at each end are made raw (a removal may have brought
     * a compressed node within the depth), and {@code node} (null for none), unless within the depth,
     * and the first node past the depth at each end are compressed where that pays. Every node
     * thus gets compressed when it is changed or crosses the depth boundary, so only the end nodes
     * and nodes too small or incompressible stay raw. O(depth) plus the compression. Unlike
     * quicklist.c, a list of 2 x depth nodes or fewer is walked too, so that a removal of several
     * nodes at once still leaves every node within the depth raw.
     */
    private void settle(Node node) {
        if (compressDepth == 0 || head == null) {
            return;
        }
        Node forward = head;
        Node backward = tail;
        boolean nodeWithinDepth = false;
        for (int depth = 0; depth < compressDepth; depth++) {
            decompress(forward);
            decompress(backward);
            nodeWithinDepth |= forward == node || backward == node;
            if (forward == backward || forward.next == backward) {
                return;
            }
            forward = forward.next;
            backward = backward.previous;
        }
        if (node != null && !nodeWithinDepth) {
            compress(node);
        }
        compress(forward);
        compress(backward);
    }

    // ---- node plumbing ------------------------------------------------------------------

    private Node newNode() {
        Node node = new Node();
        nodes++;
        heapBytes += node.memoryUsage();
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
        heapBytes -= node.memoryUsage();
    }

    /** Puts {@code value} at entry {@code position} of the node, which must have room by the fill rule. */
    private void insertInNode(Node node, int position, byte[] value) {
        Listpack entries = open(node);
        long before = entries.memoryUsage();
        entries.insert(position == entries.size() ? -1 : entries.seek(position), value, 0, value.length);
        size++;
        heapBytes += entries.memoryUsage() - before;
    }

    /**
     * Removes entry {@code position} of the node, and the node once it is empty, then settles what
     * changed; returns the entry.
     */
    private byte[] removeFromNode(Node node, int position) {
        Listpack entries = open(node);
        int at = entries.seek(position);
        long before = entries.memoryUsage();
        byte[] value = entries.get(at);
        entries.delete(at);
        size--;
        heapBytes += entries.memoryUsage() - before;
        if (entries.size() == 0) {
            unlink(node);
            settle(null);
        } else if (node != head && node != tail) {
            // The ends are within the depth whenever there is one: nothing to compress there.
            settle(node);
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

    /**
     * Gives back the spare capacity of a full end node that a push is about to leave behind: the
     * array grows by half as entries arrive, so a full node held up to a third more than its entries
     * (a list of a million short values took 1.47x Redis's memory). A node behind the end is changed
     * again only by a pop reaching it, or an insert or removal in the middle, which regrow it.
     */
    private void trim(Node full) {
        if (full != null && full.payload instanceof Listpack entries) {
            heapBytes -= entries.memoryUsage();
            entries.trimToSize();
            heapBytes += entries.memoryUsage();
        }
    }

    /** Adds {@code value} before the first entry. */
    public void pushHead(byte[] value) {
        if (head == null || !allowsInsert(head, value)) {
            trim(head);
            linkAfter(null, newNode());
            insertInNode(head, 0, value);
            settle(head);
        } else {
            insertInNode(head, 0, value);
        }
    }

    /** Adds {@code value} after the last entry. */
    public void pushTail(byte[] value) {
        if (tail == null || !allowsInsert(tail, value)) {
            trim(tail);
            linkAfter(tail, newNode());
            insertInNode(tail, 0, value);
            settle(tail);
        } else {
            insertInNode(tail, tail.count(), value);
        }
    }

    public byte[] popHead() {
        return head == null ? null : removeFromNode(head, 0);
    }

    public byte[] popTail() {
        return tail == null ? null : removeFromNode(tail, tail.count() - 1);
    }

    /** A copy of the entry at {@code index}, 0 &lt;= index &lt; size. */
    public byte[] get(long index) {
        find(index);
        Listpack entries = read(foundNode);
        return entries.get(entries.seek(foundPosition));
    }

    /** Replaces the entry at {@code index}; the node splits when the new value does not fit it. */
    public void set(long index, byte[] value) {
        find(index);
        Node node = foundNode;
        Listpack entries = read(node);
        int at = entries.seek(foundPosition);
        int delta = entryBytes(value) - (entries.next(at) < 0 ? entries.byteSize() - at : entries.next(at) - at);
        if (delta <= 0 || node.count() == 1 || fits(node, delta)) {
            open(node, entries);
            long before = entries.memoryUsage();
            entries.replace(at, value, 0, value.length);
            heapBytes += entries.memoryUsage() - before;
            settle(node);
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
        if (allowsInsert(node, value)) {
            insertInNode(node, position, value);
            settle(node);
            return;
        }
        if (position == 0 && node.previous != null && allowsInsert(node.previous, value)) {
            insertInNode(node.previous, node.previous.count(), value);
            settle(node.previous);
            return;
        }
        Node after = split(node, position);
        Node target;
        if (allowsInsert(node, value)) {
            target = node;
            insertInNode(node, node.count(), value);
        } else if (allowsInsert(after, value)) {
            target = after;
            insertInNode(after, 0, value);
        } else {
            target = newNode();
            linkAfter(node, target);
            insertInNode(target, 0, value);
        }
        settle(node);
        settle(after);
        settle(target);
    }

    /** Moves entries {@code from..count-1} of the node into a new node linked after it; returns it. */
    private Node split(Node node, int from) {
        Node after = newNode();
        linkAfter(node, after);
        int moving = node.count() - from;
        if (moving > 0) {
            Listpack entries = open(node);
            Listpack moved = open(after);
            long before = entries.memoryUsage() + moved.memoryUsage();
            int at = entries.seek(from);
            moved.appendRange(entries, at, moving);
            entries.deleteRange(at, moving);
            heapBytes += entries.memoryUsage() + moved.memoryUsage() - before;
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
        // Only the first and the last node can lose part of their entries.
        Node firstKept = null;
        Node lastKept = null;
        while (count > 0) {
            Node next = node.next;
            if (position == 0 && count >= node.count()) {
                count -= node.count();
                size -= node.count();
                unlink(node);
            } else {
                int removing = (int) Math.min(count, node.count() - position);
                Listpack entries = open(node);
                long before = entries.memoryUsage();
                entries.deleteRange(entries.seek(position), removing);
                heapBytes += entries.memoryUsage() - before;
                size -= removing;
                count -= removing;
                if (entries.size() == 0) {
                    unlink(node);
                } else if (firstKept == null) {
                    firstKept = node;
                } else {
                    lastKept = node;
                }
            }
            node = next;
            position = 0;
        }
        settle(firstKept);
        if (lastKept != null) {
            settle(lastKept);
        }
    }

    /**
     * LREM: removes up to {@code limit} entries equal to the given bytes, walking from the head
     * ({@code fromHead}) or the tail; returns how many. Entries are compared in place, and a node
     * is decompressed into place only once a match is found in it, then settled when the walk
     * leaves it.
     */
    public long removeEqual(byte[] bytes, int offset, int length, long limit, boolean fromHead) {
        long removed = 0;
        Node node = fromHead ? head : tail;
        while (node != null && removed < limit) {
            Node following = fromHead ? node.next : node.previous;
            removed += removeEqualInNode(node, bytes, offset, length, limit - removed, fromHead);
            node = following;
        }
        return removed;
    }

    private int removeEqualInNode(Node node, byte[] bytes, int offset, int length, long limit, boolean fromHead) {
        Listpack entries = read(node);
        long before = 0;
        boolean opened = false;
        int removed = 0;
        int at = fromHead ? entries.first() : entries.last();
        while (at >= 0 && removed < limit) {
            if (!entries.equalsAt(at, bytes, offset, length)) {
                at = fromHead ? entries.next(at) : entries.previous(at);
                continue;
            }
            if (!opened) {
                open(node, entries);
                before = entries.memoryUsage();
                opened = true;
            }
            int following = entries.delete(at);
            removed++;
            // Towards the tail the next entry moved to the removed one's place; towards the head it
            // is where it was.
            at = fromHead ? following : entries.previous(at);
        }
        if (opened) {
            size -= removed;
            heapBytes += entries.memoryUsage() - before;
            if (entries.size() == 0) {
                unlink(node);
                settle(null);
            } else {
                settle(node);
            }
        }
        return removed;
    }

    /** What a range walk does with each entry: {@code at} is its position in {@code entries}. */
    private interface EntryVisitor {
        void visit(Listpack entries, int at);
    }

    /**
     * Visits entries {@code start..end} (0-based, inclusive, in range) head to tail: the walk to
     * {@code start} is O(n / entries per node), then O(1) per entry (and one decompression per
     * compressed node).
     */
    private void walk(long start, long end, EntryVisitor visitor) {
        if (start > end) {
            return;
        }
        find(start);
        Node node = foundNode;
        Listpack entries = read(node);
        int at = entries.seek(foundPosition);
        for (long remaining = end - start + 1; remaining > 0; remaining--) {
            if (at < 0) {
                node = node.next;
                entries = read(node);
                at = entries.first();
            }
            visitor.visit(entries, at);
            at = entries.next(at);
        }
    }

    /** Replies entries {@code start..end} (0-based, inclusive, in range) as bulk strings, straight from the listpacks. */
    public void writeRange(long start, long end, ReplyWriter reply) {
        walk(start, end, (entries, at) -> entries.writeTo(at, reply));
    }

    /** Visits copies of entries {@code start..end} (0-based, inclusive, in range) head to tail. */
    public void forEach(long start, long end, java.util.function.Consumer<byte[]> visitor) {
        walk(start, end, (entries, at) -> visitor.accept(entries.get(at)));
    }

    /** A walk over the entries in one direction. */
    public Cursor cursor(long index, boolean towardsTail) {
        return new Cursor(index, towardsTail);
    }

    /** See {@link #cursor}. Valid until the list changes; it reads compressed nodes as {@link #walk} does. */
    public final class Cursor {
        private final boolean towardsTail;
        private Node node;
        private Listpack entries;
        private int at;
        private long index;

        private Cursor(long index, boolean towardsTail) {
            this.towardsTail = towardsTail;
            this.index = index;
            if (index >= 0 && index < size) {
                find(index);
                node = foundNode;
                entries = read(node);
                at = entries.seek(foundPosition);
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
            byte[] value = entries.get(at);
            index += towardsTail ? 1 : -1;
            at = towardsTail ? entries.next(at) : entries.previous(at);
            if (at < 0) {
                node = towardsTail ? node.next : node.previous;
                entries = node == null ? null : read(node);
                at = node == null ? -1 : towardsTail ? entries.first() : entries.last();
            }
            return value;
        }
    }
}
