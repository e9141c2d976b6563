package dev.lacewing.core.persistence.rdb;

import dev.lacewing.core.datatype.StreamGroup;
import dev.lacewing.core.datatype.StreamId;
import dev.lacewing.core.datatype.StreamValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A stream in Redis 7.0's RDB encoding, RDB_TYPE_STREAM_LISTPACKS_2 (rdb.c's rdbSaveObject and
 * rdbLoadObject): the nodes as (master ID as 16 big-endian bytes, the node as a Redis listpack),
 * then the length, last ID, first ID, max deleted ID and entries added, then the consumer groups,
 * each with its last ID, entries read, its pending entries (raw 16-byte ID, delivery time in
 * milliseconds, delivery count) and its consumers (name, seen time, the IDs of their pending
 * entries). Reads RDB_TYPE_STREAM_LISTPACKS (15) too, filling in the 7.0 fields as Redis does.
 *
 * <p>A node's listpack is Redis's stream layout (t_stream.c's streamAppendItem): the master entry
 * (live count, deleted count, field count, the fields, a 0 terminator), then each entry as its
 * flags, ms and seq deltas from the master ID, the field count and field,value pairs or, with
 * SAMEFIELDS, the values alone, and the lp-count back pointer. Core's nodes hold the same entries
 * in their own layout and split where Redis's do, by entry count and by Redis's listpack bytes, so
 * a stream built by the same commands DUMPs to Redis's bytes.
 *
 * <p>Stateless; runs on the thread that holds the value's key.
 */
final class RdbStreamCodec {

    static final int TYPE_STREAM_LISTPACKS = 15;
    static final int TYPE_STREAM_LISTPACKS_2 = 19;

    /** t_stream.c's STREAM_ITEM_FLAG_DELETED and STREAM_ITEM_FLAG_SAMEFIELDS. */
    private static final int FLAG_DELETED = 1;
    private static final int FLAG_SAMEFIELDS = 2;
    private static final int ID_BYTES = 16;

    private RdbStreamCodec() {
    }

    static void write(StreamValue stream, RdbOutput out) {
        out.writeLength(stream.nodeCount());
        stream.visitNodes(new StreamValue.NodeVisitor() {
            private StreamId master;
            private RedisListpack.Writer node;
            private int remaining;

            @Override
            public void node(StreamId masterId, int live, int deleted, List<byte[]> masterFields) {
                master = masterId;
                node = new RedisListpack.Writer();
                remaining = live + deleted;
                node.add(live);
                node.add(deleted);
                node.add(masterFields.size());
                for (byte[] field : masterFields) {
                    node.add(field);
                }
                node.add(0);
            }

            @Override
            public void entry(long ms, long seq, boolean deleted, boolean sameFields, List<byte[]> items) {
                node.add((deleted ? FLAG_DELETED : 0) | (sameFields ? FLAG_SAMEFIELDS : 0));
                node.add(ms - master.ms());
                node.add(seq - master.seq());
                int fieldCount = sameFields ? items.size() : items.size() / 2;
                if (!sameFields) {
                    node.add(fieldCount);
                }
                for (byte[] item : items) {
                    node.add(item);
                }
                node.add(sameFields ? fieldCount + 3 : 2L * fieldCount + 4);
                if (--remaining == 0) {
                    out.writeString(idBytes(master));
                    out.writeString(node.toByteArray());
                }
            }
        });
        out.writeLength(stream.length());
        writeId(stream.lastId(), out);
        writeId(stream.firstId(), out);
        writeId(stream.maxDeletedId(), out);
        out.writeLength(stream.entriesAdded());
        Map<byte[], StreamGroup> groups = stream.groups();
        out.writeLength(groups.size());
        for (Map.Entry<byte[], StreamGroup> named : groups.entrySet()) {
            StreamGroup group = named.getValue();
            out.writeString(named.getKey());
            writeId(group.lastId(), out);
            out.writeLength(group.entriesRead());
            out.writeLength(group.pending().size());
            for (Map.Entry<StreamId, StreamGroup.Pending> pending : group.pending().entrySet()) {
                byte[] id = idBytes(pending.getKey());
                out.write(id, 0, id.length);
                out.writeLittleEndian(pending.getValue().deliveryTime(), 8);
                out.writeLength(pending.getValue().deliveryCount());
            }
            out.writeLength(group.consumers().size());
            for (StreamGroup.Consumer consumer : group.consumers().values()) {
                out.writeString(consumer.name());
                out.writeLittleEndian(consumer.seenTime(), 8);
                out.writeLength(consumer.pending().size());
                for (StreamId id : consumer.pending().keySet()) {
                    byte[] raw = idBytes(id);
                    out.write(raw, 0, raw.length);
                }
            }
        }
    }

    private static void writeId(StreamId id, RdbOutput out) {
        out.writeLength(id.ms());
        out.writeLength(id.seq());
    }

    /** streamEncodeID: ms then seq, each big-endian. */
    private static byte[] idBytes(StreamId id) {
        byte[] bytes = new byte[ID_BYTES];
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (id.ms() >>> 56 - 8 * i);
            bytes[8 + i] = (byte) (id.seq() >>> 56 - 8 * i);
        }
        return bytes;
    }

    private static StreamId idOf(byte[] bytes, int offset) {
        long ms = 0;
        long seq = 0;
        for (int i = 0; i < 8; i++) {
            ms = ms << 8 | bytes[offset + i] & 0xFF;
            seq = seq << 8 | bytes[offset + 8 + i] & 0xFF;
        }
        return new StreamId(ms, seq);
    }

    static StreamValue read(int type, RdbInput in) {
        boolean version2 = type == TYPE_STREAM_LISTPACKS_2;
        StreamValue stream = new StreamValue();
        int nodes = in.readCount(2);
        for (int i = 0; i < nodes; i++) {
            byte[] key = in.readString();
            if (key.length != ID_BYTES) {
                throw new RdbFormatException("stream node key is not an ID");
            }
            readNode(stream, idOf(key, 0), RedisListpack.read(in.readString()));
        }
        long length = in.readUnsignedLength();
        StreamId last = readId(in);
        StreamId first;
        StreamId maxDeleted;
        long entriesAdded;
        if (version2) {
            first = readId(in);
            maxDeleted = readId(in);
            entriesAdded = in.readUnsignedLength();
        } else {
            first = StreamId.MIN;
            maxDeleted = StreamId.MIN;
            entriesAdded = length;
        }
        if (!stream.loadCounters(length, last, first, maxDeleted, entriesAdded)) {
            throw new RdbFormatException("stream length does not match its nodes");
        }
        if (!version2) {
            stream.settleFirstId();
        }
        int groups = in.readCount(1);
        for (int i = 0; i < groups; i++) {
            byte[] name = in.readString();
            StreamId groupLast = readId(in);
            long entriesRead = version2 ? in.readUnsignedLength() : stream.estimateEntriesRead(groupLast);
            StreamGroup group = stream.createGroup(name, groupLast, entriesRead);
            if (group == null) {
                throw new RdbFormatException("duplicate stream group");
            }
            readPending(group, in);
        }
        return stream;
    }

    /** One node's listpack in Redis's stream layout; every count and back pointer is checked. */
    private static void readNode(StreamValue stream, StreamId master, List<byte[]> items) {
        int at = 0;
        long live = integer(items, at++);
        long deleted = integer(items, at++);
        int masterFieldCount = count(items, at++);
        List<byte[]> masterFields = new ArrayList<>(masterFieldCount);
        for (int i = 0; i < masterFieldCount; i++) {
            masterFields.add(item(items, at++));
        }
        if (integer(items, at++) != 0 || !stream.loadNode(master, masterFields)) {
            throw new RdbFormatException("invalid stream node");
        }
        long liveSeen = 0;
        long deletedSeen = 0;
        while (at < items.size()) {
            long flags = integer(items, at++);
            StreamId id = new StreamId(master.ms() + integer(items, at++), master.seq() + integer(items, at++));
            boolean same = (flags & FLAG_SAMEFIELDS) != 0;
            int fieldCount = same ? masterFieldCount : count(items, at++);
            List<byte[]> fieldsAndValues = new ArrayList<>(fieldCount * 2);
            for (int i = 0; i < fieldCount; i++) {
                fieldsAndValues.add(same ? masterFields.get(i) : item(items, at++));
                fieldsAndValues.add(item(items, at++));
            }
            long lpCount = same ? fieldCount + 3L : 2L * fieldCount + 4;
            if ((flags & ~(FLAG_DELETED | FLAG_SAMEFIELDS)) != 0 || integer(items, at++) != lpCount) {
                throw new RdbFormatException("invalid stream entry");
            }
            boolean isDeleted = (flags & FLAG_DELETED) != 0;
            stream.loadEntry(id, fieldsAndValues, isDeleted);
            if (isDeleted) {
                deletedSeen++;
            } else {
                liveSeen++;
            }
        }
        if (liveSeen != live || deletedSeen != deleted || live == 0) {
            throw new RdbFormatException("stream node counts do not match its entries");
        }
    }

    /** A group's PEL, then its consumers, each claiming its entries of the PEL (rdbLoadObject). */
    private static void readPending(StreamGroup group, RdbInput in) {
        int pendingCount = in.readCount(ID_BYTES + 9);
        Map<StreamId, long[]> unclaimed = new HashMap<>();
        for (int i = 0; i < pendingCount; i++) {
            StreamId id = readRawId(in);
            long deliveryTime = in.readLittleEndian(8);
            long deliveryCount = in.readUnsignedLength();
            if (unclaimed.put(id, new long[] {deliveryTime, deliveryCount}) != null) {
                throw new RdbFormatException("duplicate stream PEL entry");
            }
        }
        int consumers = in.readCount(10);
        for (int i = 0; i < consumers; i++) {
            byte[] name = in.readString();
            long seenTime = in.readLittleEndian(8);
            StreamGroup.Consumer consumer = group.createConsumer(name, seenTime);
            if (consumer == null) {
                throw new RdbFormatException("duplicate stream consumer");
            }
            int owned = in.readCount(ID_BYTES);
            for (int j = 0; j < owned; j++) {
                StreamId id = readRawId(in);
                long[] pending = unclaimed.remove(id);
                if (pending == null) {
                    throw new RdbFormatException("consumer entry not found in group global PEL");
                }
                group.claim(id, group.pendingOrCreate(id), consumer, pending[0], pending[1], false);
            }
        }
        if (!unclaimed.isEmpty()) {
            throw new RdbFormatException("stream group PEL entry without consumer");
        }
    }

    private static StreamId readRawId(RdbInput in) {
        byte[] raw = new byte[ID_BYTES];
        for (int i = 0; i < ID_BYTES; i++) {
            raw[i] = (byte) in.readByte();
        }
        return idOf(raw, 0);
    }

    private static StreamId readId(RdbInput in) {
        return new StreamId(in.readUnsignedLength(), in.readUnsignedLength());
    }

    private static byte[] item(List<byte[]> items, int at) {
        if (at >= items.size()) {
            throw new RdbFormatException("stream node ends inside an entry");
        }
        return items.get(at);
    }

    private static long integer(List<byte[]> items, int at) {
        byte[] item = item(items, at);
        if (!RedisListpack.isCanonicalInteger(item, 0, item.length)) {
            throw new RdbFormatException("stream node integer expected");
        }
        return RedisListpack.parseCanonical(item, 0, item.length);
    }

    private static int count(List<byte[]> items, int at) {
        long count = integer(items, at);
        if (count < 0 || count > items.size()) {
            throw new RdbFormatException("invalid stream field count");
        }
        return (int) count;
    }
}
