package dev.lacewing.core.datatype;

import dev.lacewing.api.AggregateType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A stream (Redis's t_stream.c), stored as Redis stores it: entries in nodes that split where
 * Redis's listpacks split under {@code stream-node-max-bytes} and {@code stream-node-max-entries}
 * (each node tracks the bytes Redis's listpack would take, {@link RedisListpackSize}), each node one
 * packed {@code byte[]}, the nodes indexed by their first ID. Where Redis indexes nodes in a radix
 * tree this uses a {@link TreeMap} keyed by {@link StreamId}: about 110 bytes a node of up to 100
 * entries, and O(log n) seeks.
 *
 * <p>A node's bytes: the master fields (the first entry's field names: {@code varint count}, then
 * {@code varint length, bytes} each), then the entries. An entry starts with one varint holding
 * its ms delta from the node's master ID shifted left by 3 and three flags ({@link #DELETED},
 * {@link #SAME_FIELDS}, and {@link #LARGE_DELTA} when the delta does not fit 61 bits and follows
 * as its own varint), so that a busy stream's entry spends one byte on flags and ms together; then
 * its seq delta (zigzag varint), then either the values alone (when its fields are the master
 * fields, as most streams' are) or a field count and the field,value pairs, each {@code varint
 * length, bytes}. Deleted entries stay flagged in place until their whole node goes, as in Redis.
 *
 * <p>{@link #memoryUsage()} is O(1): the node arrays' sizes are kept as they change. Thread rule:
 * stored under one key and touched only by the thread the engine gives the command on that key.
 */
public final class StreamValue implements TypedValue {

    /** Core's stream commands take a stored stream through this token ({@code Keyspace.aggregate}). */
    public static final AggregateType<StreamValue> TYPE = new AggregateType<>("stream", StreamValue.class);


    public static final String ENCODING = "stream";

    static final int DELETED = 1;
    static final int SAME_FIELDS = 2;
    static final int LARGE_DELTA = 4;
    private static final int FLAG_BITS = 3;
    private static final long SMALL_DELTA_LIMIT = 1L << (63 - FLAG_BITS);

    /** Object header, fields, and the TreeMap object. */
    private static final long FIXED_BYTES = 88 + 48;
    /** A node's TreeMap entry (40), its StreamId key (32), the Node object (40), its array header (16). */
    private static final long NODE_BYTES = 128;
    /** Redis's STREAM_LISTPACK_MAX_SIZE: the bound when stream-node-max-bytes is 0. */
    private static final long NODE_MAX_SIZE = 1L << 30;
    /** The groups' TreeMap, and each group's entry in it. */
    private static final long GROUPS_BYTES = 48;
    private static final long GROUP_ENTRY_BYTES = 40;

    private final TreeMap<StreamId, Node> nodes;
    /**
     * The last node and its master ID, as {@link #add} appends to it: cached, since
     * {@link TreeMap#lastEntry} walks the tree and allocates at every call. Null when not known yet;
     * every change to {@link #nodes} resets it.
     */
    private Map.Entry<StreamId, Node> tail;
    private long length;
    private long lastMs;
    private long lastSeq;
    private long firstMs;
    private long firstSeq;
    private long maxDeletedMs;
    private long maxDeletedSeq;
    private long entriesAdded;
    private long nodeBytes;
    /** Consumer groups by name bytes; null while there is none. */
    private TreeMap<byte[], StreamGroup> groups;

    public StreamValue() {
        nodes = new TreeMap<>();
    }

    /** One node: its packed bytes and counts; the master ID is its key in {@link #nodes}. */
    private static final class Node {
        byte[] data;
        int used;
        int live;
        int deleted;
        int masterFieldCount;
        int entriesStart;
        /** The node's size as a Redis listpack, less its live and deleted counts: see {@link #listpackBytes}. */
        long listpackBase;

        /** lpBytes of the listpack Redis would hold for this node, which streamAppendItem bounds. */
        long listpackBytes() {
            return listpackBase + RedisListpackSize.integer(live) + RedisListpackSize.integer(deleted);
        }

        Node copy() {
            Node copy = new Node();
            copy.data = Arrays.copyOf(data, used);
            copy.used = used;
            copy.live = live;
            copy.deleted = deleted;
            copy.masterFieldCount = masterFieldCount;
            copy.entriesStart = entriesStart;
            copy.listpackBase = listpackBase;
            return copy;
        }
    }

    @Override
    public String typeName() {
        return "stream";
    }

    @Override
    public String encoding() {
        return ENCODING;
    }

    @Override
    public StreamValue copy() {
        StreamValue copy = new StreamValue();
        for (Map.Entry<StreamId, Node> node : nodes.entrySet()) {
            Node nodeCopy = node.getValue().copy();
            copy.nodes.put(node.getKey(), nodeCopy);
            copy.nodeBytes += nodeCopy.data.length;
        }
        copy.length = length;
        copy.lastMs = lastMs;
        copy.lastSeq = lastSeq;
        copy.firstMs = firstMs;
        copy.firstSeq = firstSeq;
        copy.maxDeletedMs = maxDeletedMs;
        copy.maxDeletedSeq = maxDeletedSeq;
        copy.entriesAdded = entriesAdded;
        if (groups != null) {
            copy.groups = new TreeMap<>(Arrays::compareUnsigned);
            groups.forEach((name, group) -> copy.groups.put(name, group.copy(name)));
        }
        return copy;
    }

    @Override
    public long memoryUsage() {
        long bytes = FIXED_BYTES + nodes.size() * NODE_BYTES + nodeBytes;
        if (groups != null) {
            bytes += GROUPS_BYTES;
            for (StreamGroup group : groups.values()) {
                bytes += group.memoryUsage() + GROUP_ENTRY_BYTES;
            }
        }
        return bytes;
    }

    /** The consumer groups by name, in name order; empty when there is none. */
    public Map<byte[], StreamGroup> groups() {
        return groups == null ? Map.of() : groups;
    }

    public StreamGroup group(byte[] name) {
        return groups == null ? null : groups.get(name);
    }

    /** XGROUP CREATE: null when a group has that name. */
    public StreamGroup createGroup(byte[] name, StreamId lastDelivered, long entriesRead) {
        if (groups == null) {
            groups = new TreeMap<>(Arrays::compareUnsigned);
        }
        if (groups.containsKey(name)) {
            return null;
        }
        byte[] copy = name.clone();
        StreamGroup group = new StreamGroup(copy, lastDelivered, entriesRead);
        groups.put(copy, group);
        return group;
    }

    /** Whether a deleted entry may lie at or after {@code start} (streamRangeHasTombstones to the end). */
    public boolean hasTombstonesFrom(StreamId start) {
        StreamId maxDeleted = maxDeletedId();
        if (length == 0 || maxDeleted.isZero() || firstId().compareTo(maxDeleted) > 0) {
            return false;
        }
        return start.compareTo(maxDeleted) <= 0;
    }

    /**
     * How many entries were added up to {@code id} (streamEstimateDistanceFromFirstEverEntry), or -1
     * when deletions make it unknowable.
     */
    public long estimateEntriesRead(StreamId id) {
        if (entriesAdded == 0) {
            return 0;
        }
        int toLast = id.compareTo(lastId());
        if (length == 0 && toLast < 1) {
            return entriesAdded;
        }
        if (toLast == 0) {
            return entriesAdded;
        } else if (toLast > 0) {
            return -1;
        }
        int toFirst = id.compareTo(firstId());
        if (maxDeletedId().isZero() || maxDeletedId().compareTo(firstId()) < 0) {
            if (toFirst < 0) {
                return entriesAdded - length;
            } else if (toFirst == 0) {
                return entriesAdded - length + 1;
            }
        }
        return -1;
    }

    /** A group's entries read once it has been given the entry {@code id}, as streamReplyWithRange counts it. */
    public long entriesReadAt(StreamGroup group, StreamId id) {
        if (group.entriesRead() != -1 && !hasTombstonesFrom(id)) {
            return group.entriesRead() + 1;
        }
        return entriesAdded != 0 ? estimateEntriesRead(id) : group.entriesRead();
    }

    /** {@link #lag}'s answer when the lag cannot be known; -1 is a lag (a group's ENTRIESREAD past the entries added). */
    public static final long LAG_UNKNOWN = Long.MIN_VALUE;

    /** A group's lag (streamReplyWithCGLag), or {@link #LAG_UNKNOWN}. */
    public long lag(StreamGroup group) {
        if (entriesAdded == 0) {
            return 0;
        }
        if (group.entriesRead() != -1 && !hasTombstonesFrom(group.lastId())) {
            return entriesAdded - group.entriesRead();
        }
        long read = estimateEntriesRead(group.lastId());
        return read == -1 ? LAG_UNKNOWN : entriesAdded - read;
    }

    /** XGROUP DESTROY: false when there is no such group. */
    public boolean destroyGroup(byte[] name) {
        if (groups == null || groups.remove(name) == null) {
            return false;
        }
        if (groups.isEmpty()) {
            groups = null;
        }
        return true;
    }

    public long length() {
        return length;
    }

    /** Number of nodes (XINFO's radix-tree-keys). */
    public int nodeCount() {
        return nodes.size();
    }

    /**
     * XINFO's radix-tree-nodes: the nodes Redis's rax would hold for the node IDs as 16-byte
     * big-endian keys. Redis's insertions and removals keep the rax in its canonical form (checked
     * against redis-server for streams of one entry a node, whose node IDs are the live IDs), so the
     * count depends on the set of keys alone: the root, every position where keys branch, every
     * branch's child, and a leaf per key, each chain of single-child positions between them being
     * one compressed node. O(nodes x 16), for XINFO only.
     */
    public long radixTreeNodes() {
        if (nodes.isEmpty()) {
            return 1;
        }
        long[] ms = new long[nodes.size()];
        long[] seq = new long[nodes.size()];
        int i = 0;
        for (StreamId id : nodes.keySet()) {
            ms[i] = id.ms();
            seq[i] = id.seq();
            i++;
        }
        return raxNodes(ms, seq, 0, ms.length, 0);
    }

    private static final int RAX_KEY_BYTES = 16;

    /** The rax nodes under a node that starts at {@code depth} and holds the sorted keys {@code from..to}. */
    private static long raxNodes(long[] ms, long[] seq, int from, int to, int depth) {
        if (to - from == 1) {
            // A compressed node for the rest of the key, then the key's leaf.
            return depth == RAX_KEY_BYTES ? 1 : 2;
        }
        int branch = commonPrefixBytes(ms[from], seq[from], ms[to - 1], seq[to - 1]);
        long count = branch > depth ? 2 : 1;
        for (int start = from; start < to; ) {
            int b = keyByte(ms[start], seq[start], branch);
            int end = start + 1;
            while (end < to && keyByte(ms[end], seq[end], branch) == b) {
                end++;
            }
            count += raxNodes(ms, seq, start, end, branch + 1);
            start = end;
        }
        return count;
    }

    private static int commonPrefixBytes(long ms, long seq, long otherMs, long otherSeq) {
        if (ms != otherMs) {
            return Long.numberOfLeadingZeros(ms ^ otherMs) / 8;
        }
        return 8 + Long.numberOfLeadingZeros(seq ^ otherSeq) / 8;
    }

    private static int keyByte(long ms, long seq, int index) {
        long half = index < 8 ? ms : seq;
        return (int) (half >>> (56 - 8 * (index & 7))) & 0xff;
    }

    public StreamId lastId() {
        return new StreamId(lastMs, lastSeq);
    }

    /** The first entry's ID as last recorded (XINFO's recorded-first-entry-id); 0-0 when empty. */
    public StreamId firstId() {
        return new StreamId(firstMs, firstSeq);
    }

    public StreamId maxDeletedId() {
        return new StreamId(maxDeletedMs, maxDeletedSeq);
    }

    public long entriesAdded() {
        return entriesAdded;
    }

    /** XSETID: the caller has checked the new values against the stream. */
    public void setIds(StreamId last, long newEntriesAdded, StreamId newMaxDeleted) {
        lastMs = last.ms();
        lastSeq = last.seq();
        if (newEntriesAdded >= 0) {
            entriesAdded = newEntriesAdded;
        }
        if (newMaxDeleted != null) {
            maxDeletedMs = newMaxDeleted.ms();
            maxDeletedSeq = newMaxDeleted.seq();
        }
    }

    // ---- adding ----------------------------------------------------------------------------

    /** The last node's entry, or null when there is none. */
    private Map.Entry<StreamId, Node> tail() {
        if (tail == null) {
            tail = nodes.lastEntry();
        }
        return tail;
    }

    /**
     * Appends the entry {@code ms-seq}, whose ID the caller has checked is above {@link #lastId()}.
     * Its fields and values alternate in {@code array} at {@code offsets}/{@code lengths} from index
     * {@code from}. A new node starts where streamAppendItem starts one: when the size of the last
     * node as a Redis listpack plus the entry's fields and values reaches {@code maxBytes} (0: no
     * bound but Redis's 1 GB), or when it holds {@code maxEntries} entries, deleted ones included (0:
     * no bound). Allocates nothing but a new node.
     */
    public void add(long ms, long seq, byte[] array, int[] offsets, int[] lengths, int from, int to, long maxBytes,
                    long maxEntries) {
        int fieldCount = (to - from) / 2;
        long rawBytes = 0;
        for (int i = from; i < to; i++) {
            rawBytes += lengths[i];
        }
        Map.Entry<StreamId, Node> last = tail();
        long byteBound = maxBytes <= 0 || maxBytes > NODE_MAX_SIZE ? NODE_MAX_SIZE : maxBytes;
        boolean newNode = last == null
            || last.getValue().listpackBytes() + rawBytes >= byteBound
            || maxEntries > 0 && last.getValue().live + last.getValue().deleted >= maxEntries;
        StreamId master;
        Node node;
        if (newNode) {
            if (last != null) {
                shrink(last.getValue());
            }
            master = new StreamId(ms, seq);
            node = new Node();
            node.masterFieldCount = fieldCount;
            int size = Varint.size(fieldCount);
            for (int i = from; i < to; i += 2) {
                size += Varint.size(lengths[i]) + lengths[i];
            }
            node.data = new byte[size];
            int at = Varint.write(node.data, 0, fieldCount);
            for (int i = from; i < to; i += 2) {
                at = Varint.write(node.data, at, lengths[i]);
                System.arraycopy(array, offsets[i], node.data, at, lengths[i]);
                at += lengths[i];
            }
            node.used = at;
            node.entriesStart = at;
            node.listpackBase = masterListpackBytes(array, offsets, lengths, from, to);
            nodes.put(master, node);
            tail = null;
            nodeBytes += node.data.length;
        } else {
            master = last.getKey();
            node = last.getValue();
        }
        appendEntry(master, node, ms, seq, array, offsets, lengths, from, to, byteBound);
        node.live++;
        length++;
        entriesAdded++;
        lastMs = ms;
        lastSeq = seq;
        if (length == 1) {
            firstMs = ms;
            firstSeq = seq;
        }
    }

    /** Encodes one entry at the end of {@code node}; returns where it starts. Counts are the caller's. */
    private int appendEntry(StreamId master, Node node, long ms, long seq, byte[] array, int[] offsets,
                            int[] lengths, int from, int to, long byteBound) {
        int fieldCount = (to - from) / 2;
        boolean same = sameFields(node, array, offsets, lengths, from, to);
        long msDelta = ms - master.ms();
        long seqDelta = zigzag(seq - master.seq());
        boolean large = Long.compareUnsigned(msDelta, SMALL_DELTA_LIMIT) >= 0;
        long header = large ? LARGE_DELTA : msDelta << FLAG_BITS;
        header |= same ? SAME_FIELDS : 0;
        int size = Varint.sizeLong(header) + (large ? Varint.sizeLong(msDelta) : 0) + Varint.sizeLong(seqDelta)
            + (same ? 0 : Varint.size(fieldCount));
        for (int i = same ? from + 1 : from; i < to; i += same ? 2 : 1) {
            size += Varint.size(lengths[i]) + lengths[i];
        }
        ensureRoom(node, size, byteBound);
        byte[] data = node.data;
        int at = node.used;
        at = Varint.writeLong(data, at, header);
        if (large) {
            at = Varint.writeLong(data, at, msDelta);
        }
        at = Varint.writeLong(data, at, seqDelta);
        if (!same) {
            at = Varint.write(data, at, fieldCount);
        }
        for (int i = same ? from + 1 : from; i < to; i += same ? 2 : 1) {
            at = Varint.write(data, at, lengths[i]);
            System.arraycopy(array, offsets[i], data, at, lengths[i]);
            at += lengths[i];
        }
        int start = node.used;
        node.used = at;
        node.listpackBase += entryListpackBytes(msDelta, seq - master.seq(), same, array,
            offsets, lengths, from, to);
        return start;
    }

    /**
     * A node's master entry as Redis's listpack holds it, with the header and end byte, less the
     * live and deleted counts: the field count, the fields, and the 0 terminator.
     */
    private static long masterListpackBytes(byte[] array, int[] offsets, int[] lengths, int from, int to) {
        long bytes = RedisListpackSize.EMPTY + RedisListpackSize.integer((to - from) / 2L)
            + RedisListpackSize.integer(0);
        for (int i = from; i < to; i += 2) {
            bytes += RedisListpackSize.string(array, offsets[i], lengths[i]);
        }
        return bytes;
    }

    /**
     * One entry as streamAppendItem appends it: flags, ms and seq deltas (int64, as Redis subtracts),
     * the field count unless SAMEFIELDS, the fields unless SAMEFIELDS, the values, and lp-count.
     */
    private static long entryListpackBytes(long msDelta, long seqDelta, boolean same, byte[] array, int[] offsets,
                                           int[] lengths, int from, int to) {
        long fieldCount = (to - from) / 2;
        long bytes = RedisListpackSize.integer(DELETED | SAME_FIELDS) + RedisListpackSize.integer(msDelta)
            + RedisListpackSize.integer(seqDelta);
        if (!same) {
            bytes += RedisListpackSize.integer(fieldCount);
        }
        for (int i = same ? from + 1 : from; i < to; i += same ? 2 : 1) {
            bytes += RedisListpackSize.string(array, offsets[i], lengths[i]);
        }
        return bytes + RedisListpackSize.integer(same ? fieldCount + 3 : 2 * fieldCount + 4);
    }

    private static boolean sameFields(Node node, byte[] array, int[] offsets, int[] lengths, int from, int to) {
        if (node.masterFieldCount != (to - from) / 2) {
            return false;
        }
        byte[] data = node.data;
        int at = Varint.size(node.masterFieldCount);
        for (int i = from; i < to; i += 2) {
            int fieldLength = Varint.read(data, at);
            at += Varint.size(fieldLength);
            if (fieldLength != lengths[i]
                || !Arrays.equals(data, at, at + fieldLength, array, offsets[i], offsets[i] + fieldLength)) {
                return false;
            }
            at += fieldLength;
        }
        return true;
    }

    /** Grows a node's array by half again, within the node's byte bound, to hold {@code size} more. */
    private void ensureRoom(Node node, int size, long byteBound) {
        int needed = node.used + size;
        if (needed <= node.data.length) {
            return;
        }
        long grown = Math.min(byteBound, node.used + (long) node.used / 2);
        int capacity = (int) Math.max(needed, Math.min(grown, Integer.MAX_VALUE - 16));
        nodeBytes += capacity - node.data.length;
        node.data = Arrays.copyOf(node.data, capacity);
    }

    /** A node that takes no more entries gives back its spare room. */
    private void shrink(Node node) {
        if (node.data.length > node.used) {
            nodeBytes -= node.data.length - node.used;
            node.data = Arrays.copyOf(node.data, node.used);
        }
    }

    private static long zigzag(long value) {
        return value << 1 ^ value >> 63;
    }

    private static long unzigzag(long value) {
        return value >>> 1 ^ -(value & 1);
    }

    // ---- reading ---------------------------------------------------------------------------

    /**
     * A position on one entry of a node, as {@link #range} returns them: the entry's ID and where
     * its fields and values lie. Valid until the stream next changes.
     */
    public static final class Entry {
        private final Node node;
        private final int at;
        private final long ms;
        private final long seq;

        private Entry(Node node, int at, long ms, long seq) {
            this.node = node;
            this.at = at;
            this.ms = ms;
            this.seq = seq;
        }

        public long ms() {
            return ms;
        }

        public long seq() {
            return seq;
        }

        public StreamId id() {
            return new StreamId(ms, seq);
        }
    }

    /** Receives byte slices: a field, then its value, in turn. */
    @FunctionalInterface
    public interface Slices {
        void accept(byte[] array, int offset, int length);
    }

    /** The decoded header of the entry at one offset of a node. */
    private static final class Cursor {
        Node node;
        long masterMs;
        long masterSeq;
        int at;
        int flags;
        long ms;
        long seq;
        int fieldCount;
        int fieldsAt;
        int end;

        void start(StreamId master, Node node) {
            this.node = node;
            this.masterMs = master.ms();
            this.masterSeq = master.seq();
            this.end = node.entriesStart;
        }

        /** Decodes the entry after the current one; false at the node's end. */
        boolean next() {
            if (end >= node.used) {
                return false;
            }
            decode(end);
            return true;
        }

        void decode(int offset) {
            byte[] data = node.data;
            at = offset;
            int p = offset;
            long header = Varint.readLong(data, p);
            p += Varint.sizeLong(header);
            flags = (int) header & (1 << FLAG_BITS) - 1;
            long msDelta = header >>> FLAG_BITS;
            if ((flags & LARGE_DELTA) != 0) {
                msDelta = Varint.readLong(data, p);
                p += Varint.sizeLong(msDelta);
            }
            long seqDelta = Varint.readLong(data, p);
            p += Varint.sizeLong(seqDelta);
            ms = masterMs + msDelta;
            seq = masterSeq + unzigzag(seqDelta);
            boolean same = (flags & SAME_FIELDS) != 0;
            if (same) {
                fieldCount = node.masterFieldCount;
            } else {
                fieldCount = Varint.read(data, p);
                p += Varint.size(fieldCount);
            }
            fieldsAt = p;
            for (int i = same ? fieldCount : fieldCount * 2; i > 0; i--) {
                int length = Varint.read(data, p);
                p += Varint.size(length) + length;
            }
            end = p;
        }

        boolean deleted() {
            return (flags & DELETED) != 0;
        }
    }

    /** Number of field,value pairs of an entry. */
    public int fieldCount(Entry entry) {
        Cursor cursor = new Cursor();
        cursor.node = entry.node;
        cursor.decode(entry.at);
        return cursor.fieldCount;
    }

    /** Hands an entry's fields and values to {@code out}: field, value, field, value... */
    public void fields(Entry entry, Slices out) {
        Cursor cursor = new Cursor();
        cursor.node = entry.node;
        cursor.decode(entry.at);
        byte[] data = entry.node.data;
        boolean same = (cursor.flags & SAME_FIELDS) != 0;
        int master = Varint.size(entry.node.masterFieldCount);
        int p = cursor.fieldsAt;
        for (int i = 0; i < cursor.fieldCount; i++) {
            if (same) {
                int fieldLength = Varint.read(data, master);
                master += Varint.size(fieldLength);
                out.accept(data, master, fieldLength);
                master += fieldLength;
            } else {
                int fieldLength = Varint.read(data, p);
                p += Varint.size(fieldLength);
                out.accept(data, p, fieldLength);
                p += fieldLength;
            }
            int valueLength = Varint.read(data, p);
            p += Varint.size(valueLength);
            out.accept(data, p, valueLength);
            p += valueLength;
        }
    }

    /**
     * The live entries from {@code start} to {@code end} inclusive, in ID order or reversed, at most
     * {@code count} of them (0: all). O(log n + entries visited).
     */
    public List<Entry> range(StreamId start, StreamId end, long count, boolean reverse) {
        List<Entry> entries = new ArrayList<>();
        if (start.compareTo(end) > 0) {
            return entries;
        }
        Cursor cursor = new Cursor();
        if (!reverse) {
            StreamId from = nodes.floorKey(start);
            Iterator<Map.Entry<StreamId, Node>> it = (from == null ? nodes : nodes.tailMap(from, true))
                .entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<StreamId, Node> node = it.next();
                if (node.getKey().compareTo(end) > 0) {
                    break;
                }
                cursor.start(node.getKey(), node.getValue());
                while (cursor.next()) {
                    if (cursor.deleted() || StreamId.compare(cursor.ms, cursor.seq, start.ms(), start.seq()) < 0) {
                        continue;
                    }
                    if (StreamId.compare(cursor.ms, cursor.seq, end.ms(), end.seq()) > 0) {
                        return entries;
                    }
                    entries.add(new Entry(node.getValue(), cursor.at, cursor.ms, cursor.seq));
                    if (count > 0 && entries.size() >= count) {
                        return entries;
                    }
                }
            }
            return entries;
        }
        Iterator<Map.Entry<StreamId, Node>> it = nodes.headMap(end, true).descendingMap().entrySet().iterator();
        int[] offsets = new int[16];
        while (it.hasNext()) {
            Map.Entry<StreamId, Node> node = it.next();
            cursor.start(node.getKey(), node.getValue());
            int found = 0;
            while (cursor.next()) {
                if (found == offsets.length) {
                    offsets = Arrays.copyOf(offsets, found * 2);
                }
                offsets[found++] = cursor.at;
            }
            for (int i = found - 1; i >= 0; i--) {
                cursor.decode(offsets[i]);
                if (cursor.deleted() || StreamId.compare(cursor.ms, cursor.seq, end.ms(), end.seq()) > 0) {
                    continue;
                }
                if (StreamId.compare(cursor.ms, cursor.seq, start.ms(), start.seq()) < 0) {
                    return entries;
                }
                entries.add(new Entry(node.getValue(), cursor.at, cursor.ms, cursor.seq));
                if (count > 0 && entries.size() >= count) {
                    return entries;
                }
            }
        }
        return entries;
    }

    /** The first or last live entry, or null when the stream is empty (streamGetEdgeID). */
    public Entry edge(boolean first) {
        List<Entry> one = range(StreamId.MIN, StreamId.MAX, 1, !first);
        return one.isEmpty() ? null : one.get(0);
    }

    // ---- persistence -----------------------------------------------------------------------

    /**
     * Receives the nodes in ID order with every entry, deleted ones included, as Redis's stream
     * listpack lays them out (streamAppendItem): an entry whose fields are the node's master fields
     * brings its values alone, any other its field,value pairs.
     */
    public interface NodeVisitor {
        void node(StreamId master, int live, int deleted, List<byte[]> masterFields);

        void entry(long ms, long seq, boolean deleted, boolean sameFields, List<byte[]> items);
    }

    /**
     * The first entry's ID, deleted entries still in their node included, or {@link StreamId#MAX}
     * with no entry (streamGetEdgeID without skipping tombstones): what an approximate MINID trim
     * is propagated with.
     */
    public StreamId firstIdWithDeleted() {
        Map.Entry<StreamId, Node> first = nodes.firstEntry();
        if (first == null) {
            return StreamId.MAX;
        }
        Cursor cursor = new Cursor();
        cursor.start(first.getKey(), first.getValue());
        return cursor.next() ? new StreamId(cursor.ms, cursor.seq) : StreamId.MAX;
    }

    /** Walks every node and entry for RDB and DUMP. O(size of the stream). */
    public void visitNodes(NodeVisitor visitor) {
        Cursor cursor = new Cursor();
        for (Map.Entry<StreamId, Node> entry : nodes.entrySet()) {
            Node node = entry.getValue();
            byte[] data = node.data;
            List<byte[]> masterFields = new ArrayList<>(node.masterFieldCount);
            int at = Varint.size(node.masterFieldCount);
            for (int i = 0; i < node.masterFieldCount; i++) {
                int fieldLength = Varint.read(data, at);
                at += Varint.size(fieldLength);
                masterFields.add(Arrays.copyOfRange(data, at, at + fieldLength));
                at += fieldLength;
            }
            visitor.node(entry.getKey(), node.live, node.deleted, masterFields);
            cursor.start(entry.getKey(), node);
            while (cursor.next()) {
                boolean same = (cursor.flags & SAME_FIELDS) != 0;
                int itemCount = same ? cursor.fieldCount : cursor.fieldCount * 2;
                List<byte[]> items = new ArrayList<>(itemCount);
                int p = cursor.fieldsAt;
                for (int i = 0; i < itemCount; i++) {
                    int itemLength = Varint.read(data, p);
                    p += Varint.size(itemLength);
                    items.add(Arrays.copyOfRange(data, p, p + itemLength));
                    p += itemLength;
                }
                visitor.entry(cursor.ms, cursor.seq, cursor.deleted(), same, items);
            }
        }
    }

    /**
     * Loading: starts a node whose master ID is {@code master} and master fields
     * {@code masterFields}, after every node loaded so far. False when the master ID does not
     * follow the last node's.
     */
    public boolean loadNode(StreamId master, List<byte[]> masterFields) {
        if (!nodes.isEmpty() && nodes.lastKey().compareTo(master) >= 0) {
            return false;
        }
        Node node = new Node();
        node.masterFieldCount = masterFields.size();
        int size = Varint.size(node.masterFieldCount);
        for (byte[] field : masterFields) {
            size += Varint.size(field.length) + field.length;
        }
        node.data = new byte[size];
        int at = Varint.write(node.data, 0, node.masterFieldCount);
        for (byte[] field : masterFields) {
            at = Varint.write(node.data, at, field.length);
            System.arraycopy(field, 0, node.data, at, field.length);
            at += field.length;
        }
        node.used = at;
        node.entriesStart = at;
        node.listpackBase = RedisListpackSize.EMPTY + RedisListpackSize.integer(node.masterFieldCount)
            + RedisListpackSize.integer(0);
        for (byte[] field : masterFields) {
            node.listpackBase += RedisListpackSize.string(field, 0, field.length);
        }
        nodes.put(master, node);
        tail = null;
        nodeBytes += node.data.length;
        return true;
    }

    /**
     * Loading: appends an entry to the node {@link #loadNode} started last; {@code fieldsAndValues}
     * alternate. The stream's counters are set afterwards by {@link #loadCounters}.
     */
    public void loadEntry(StreamId id, List<byte[]> fieldsAndValues, boolean deleted) {
        Map.Entry<StreamId, Node> last = tail();
        int count = fieldsAndValues.size();
        int[] offsets = new int[count];
        int[] lengths = new int[count];
        int total = 0;
        for (int i = 0; i < count; i++) {
            offsets[i] = total;
            lengths[i] = fieldsAndValues.get(i).length;
            total += lengths[i];
        }
        byte[] array = new byte[total];
        for (int i = 0; i < count; i++) {
            System.arraycopy(fieldsAndValues.get(i), 0, array, offsets[i], lengths[i]);
        }
        Node node = last.getValue();
        int start = appendEntry(last.getKey(), node, id.ms(), id.seq(), array, offsets, lengths, 0, count,
            NODE_MAX_SIZE);
        if (deleted) {
            node.data[start] |= DELETED;
            node.deleted++;
        } else {
            node.live++;
        }
    }

    /**
     * Loading: the counters RDB carries, once every node is in. False when a node holds no live
     * entry or the live entries do not add up to {@code newLength}.
     */
    public boolean loadCounters(long newLength, StreamId last, StreamId first, StreamId maxDeleted,
                                long newEntriesAdded) {
        long live = 0;
        for (Node node : nodes.values()) {
            if (node.live == 0) {
                return false;
            }
            shrink(node);
            live += node.live;
        }
        if (live != newLength) {
            return false;
        }
        length = newLength;
        lastMs = last.ms();
        lastSeq = last.seq();
        firstMs = first.ms();
        firstSeq = first.seq();
        maxDeletedMs = maxDeleted.ms();
        maxDeletedSeq = maxDeleted.seq();
        entriesAdded = newEntriesAdded;
        return true;
    }

    // ---- removing --------------------------------------------------------------------------

    /**
     * XDEL of one ID: flags the entry deleted, and drops its node when no live entry is left
     * (streamDeleteItem); raises the max deleted ID. The caller settles the recorded first ID
     * ({@link #settleFirstId}) as xdelCommand does. False when no live entry has that ID.
     */
    public boolean delete(StreamId id) {
        Map.Entry<StreamId, Node> node = nodes.floorEntry(id);
        if (node == null) {
            return false;
        }
        Cursor cursor = new Cursor();
        cursor.start(node.getKey(), node.getValue());
        while (cursor.next()) {
            // Deleted entries are passed over unread, as Redis's iterator does: after an XSETID
            // below a deleted ID, a later entry can follow a deleted one with a greater ID.
            if (cursor.deleted()) {
                continue;
            }
            int order = StreamId.compare(cursor.ms, cursor.seq, id.ms(), id.seq());
            if (order > 0) {
                return false;
            }
            if (order == 0) {
                markDeleted(node, cursor);
                if (id.compareTo(maxDeletedId()) > 0) {
                    maxDeletedMs = id.ms();
                    maxDeletedSeq = id.seq();
                }
                return true;
            }
        }
        return false;
    }

    private void markDeleted(Map.Entry<StreamId, Node> entry, Cursor cursor) {
        Node node = entry.getValue();
        node.data[cursor.at] |= DELETED;
        length--;
        if (node.live == 1) {
            nodes.remove(entry.getKey());
            tail = null;
            nodeBytes -= node.data.length;
        } else {
            node.live--;
            node.deleted++;
        }
    }

    /** Sets the recorded first ID to the first live entry's, or 0-0 when the stream is empty. */
    public void settleFirstId() {
        Entry first = edge(true);
        firstMs = first == null ? 0 : first.ms;
        firstSeq = first == null ? 0 : first.seq;
    }

    /**
     * Trims from the oldest entries (streamTrim): to at most {@code maxLength} entries when
     * {@code minId} is null, else the entries below {@code minId}. Whole nodes go first; with
     * {@code approx} only whole nodes go, and at most {@code limit} entries (0: no bound); exact, the
     * first node that cannot go whole has entries flagged deleted. Returns the entries removed.
     */
    public long trim(long maxLength, StreamId minId, boolean approx, long limit) {
        long removed = 0;
        Cursor cursor = new Cursor();
        while (!nodes.isEmpty()) {
            if (minId == null && length <= maxLength) {
                break;
            }
            Map.Entry<StreamId, Node> first = nodes.firstEntry();
            Node node = first.getValue();
            if (limit > 0 && removed + node.live > limit) {
                break;
            }
            boolean removeNode;
            if (minId == null) {
                removeNode = length - node.live >= maxLength;
            } else {
                cursor.start(first.getKey(), node);
                long lastMsInNode = 0;
                long lastSeqInNode = 0;
                while (cursor.next()) {
                    lastMsInNode = cursor.ms;
                    lastSeqInNode = cursor.seq;
                }
                removeNode = StreamId.compare(lastMsInNode, lastSeqInNode, minId.ms(), minId.seq()) < 0;
            }
            if (removeNode) {
                nodes.pollFirstEntry();
                tail = null;
                nodeBytes -= node.data.length;
                length -= node.live;
                removed += node.live;
                continue;
            }
            if (approx) {
                break;
            }
            cursor.start(first.getKey(), node);
            while (cursor.next()) {
                boolean stop = minId == null ? length <= maxLength
                    : StreamId.compare(cursor.ms, cursor.seq, minId.ms(), minId.seq()) >= 0;
                if (stop) {
                    break;
                }
                if (!cursor.deleted()) {
                    node.data[cursor.at] |= DELETED;
                    cursor.flags |= DELETED;
                    node.live--;
                    node.deleted++;
                    length--;
                    removed++;
                }
            }
            break;
        }
        settleFirstId();
        return removed;
    }
}
