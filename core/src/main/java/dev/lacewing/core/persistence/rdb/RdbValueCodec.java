package dev.lacewing.core.persistence.rdb;

import dev.lacewing.api.Settings;
import dev.lacewing.core.datatype.HashValue;
import dev.lacewing.core.datatype.IntSet;
import dev.lacewing.core.datatype.Listpack;
import dev.lacewing.core.datatype.Lzf;
import dev.lacewing.core.datatype.Quicklist;
import dev.lacewing.core.datatype.SetValue;
import dev.lacewing.core.datatype.SortedSet;
import dev.lacewing.core.datatype.StreamValue;
import java.util.List;

/**
 * One value in Redis 7.0's RDB encoding (RDB version 10, rdb.c's rdbSaveObjectType and
 * rdbSaveObject, rdbLoadObjectType and rdbLoadObject): the type byte, then the object. Shared by
 * DUMP/RESTORE and the RDB file.
 *
 * <p>Written as 7.0 writes them: strings with integer encoding or LZF (rdbSaveRawString); lists
 * as RDB_TYPE_LIST_QUICKLIST_2, one listpack per node, a compressed node as its LZF blob; sets as
 * RDB_TYPE_SET_INTSET (Redis's intset blob) or RDB_TYPE_SET; sorted sets as RDB_TYPE_ZSET_LISTPACK
 * or RDB_TYPE_ZSET_2 (highest score first, binary doubles); hashes as RDB_TYPE_HASH_LISTPACK or
 * RDB_TYPE_HASH; streams as RDB_TYPE_STREAM_LISTPACKS_2 ({@link RdbStreamCodec}). Listpacks
 * are rebuilt in Redis's byte layout ({@link RedisListpack}) with scores
 * as d2string prints them, so the bytes equal Redis's for the same data, except where Redis's
 * order is its hash table's (RDB_TYPE_SET, RDB_TYPE_HASH).
 *
 * <p>Read: every type 7.0 reads except modules and the zipmap hash (9): also
 * RDB_TYPE_LIST (1), RDB_TYPE_ZSET (3, text doubles), and the ziplist encodings of RDB versions
 * before 10 (10, 12, 13, 14), and RDB_TYPE_STREAM_LISTPACKS (15). The encoding is chosen as
 * 7.0 chooses it on load, from the current
 * {@link Encodings}; a list keeps the nodes it was saved with. Duplicate members, NaN scores,
 * empty aggregates and unknown types are {@link RdbFormatException}s.
 *
 * <p>Stateless; runs on the thread that holds the value's key.
 */
public final class RdbValueCodec {

    public static final int TYPE_STRING = 0;
    public static final int TYPE_LIST = 1;
    public static final int TYPE_SET = 2;
    public static final int TYPE_ZSET = 3;
    public static final int TYPE_HASH = 4;
    public static final int TYPE_ZSET_2 = 5;
    public static final int TYPE_LIST_ZIPLIST = 10;
    public static final int TYPE_SET_INTSET = 11;
    public static final int TYPE_ZSET_ZIPLIST = 12;
    public static final int TYPE_HASH_ZIPLIST = 13;
    public static final int TYPE_LIST_QUICKLIST = 14;
    public static final int TYPE_HASH_LISTPACK = 16;
    public static final int TYPE_ZSET_LISTPACK = 17;
    public static final int TYPE_LIST_QUICKLIST_2 = 18;

    /** quicklist.h's QUICKLIST_NODE_CONTAINER_PLAIN and _PACKED. */
    private static final int CONTAINER_PLAIN = 1;
    private static final int CONTAINER_PACKED = 2;
    /** quicklist.c's MIN_COMPRESS_IMPROVE. */
    private static final int MIN_COMPRESS_IMPROVE = 8;

    private RdbValueCodec() {
    }

    /** The *-max-* settings that choose a loaded value's encoding, as they are when it is loaded. */
    public record Encodings(long hashMaxListpackEntries, long hashMaxListpackValue, long setMaxIntsetEntries,
                            long zsetMaxListpackEntries, long zsetMaxListpackValue, int listFill,
                            int listCompressDepth) {

        public static Encodings of(Settings settings) {
            return new Encodings(settings.getLong("hash-max-listpack-entries", 512),
                settings.getLong("hash-max-listpack-value", 64), settings.getLong("set-max-intset-entries", 512),
                settings.getLong("zset-max-listpack-entries", 128), settings.getLong("zset-max-listpack-value", 64),
                (int) settings.getLong("list-max-listpack-size", -2),
                (int) settings.getLong("list-compress-depth", 0));
        }
    }

    // ---- writing -----------------------------------------------------------------------

    /** Writes the type byte and the value: a {@code byte[]} string or one of core's data types. */
    public static void write(Object value, RdbOutput out) {
        out.writeByte(type(value));
        writeObject(value, out);
    }

    /**
     * The type byte {@link #writeObject} encodes a value as (rdbSaveObjectType): in an RDB file
     * the key goes between the two.
     */
    public static int type(Object value) {
        if (value instanceof byte[]) {
            return TYPE_STRING;
        } else if (value instanceof Quicklist) {
            return TYPE_LIST_QUICKLIST_2;
        } else if (value instanceof SetValue set) {
            return set.isIntset() ? TYPE_SET_INTSET : TYPE_SET;
        } else if (value instanceof SortedSet zset) {
            return zset.isLarge() ? TYPE_ZSET_2 : TYPE_ZSET_LISTPACK;
        } else if (value instanceof HashValue hash) {
            return hash.isListpack() ? TYPE_HASH_LISTPACK : TYPE_HASH;
        } else if (value instanceof StreamValue) {
            return RdbStreamCodec.TYPE_STREAM_LISTPACKS_2;
        }
        throw new IllegalArgumentException("no RDB encoding for " + value.getClass().getSimpleName());
    }

    /** Writes the value without its type byte (rdbSaveObject), in the encoding {@link #type} names. */
    public static void writeObject(Object value, RdbOutput out) {
        if (value instanceof byte[] string) {
            out.writeString(string);
        } else if (value instanceof Quicklist list) {
            writeList(list, out);
        } else if (value instanceof SetValue set) {
            writeSet(set, out);
        } else if (value instanceof SortedSet zset) {
            writeSortedSet(zset, out);
        } else if (value instanceof HashValue hash) {
            writeHash(hash, out);
        } else if (value instanceof StreamValue stream) {
            RdbStreamCodec.write(stream, out);
        } else {
            throw new IllegalArgumentException("no RDB encoding for " + value.getClass().getSimpleName());
        }
    }

    private static void writeList(Quicklist list, RdbOutput out) {
        int[] nodes = {0};
        list.forEachNode((entries, compressed) -> nodes[0]++);
        out.writeLength(nodes[0]);
        list.forEachNode((entries, compressed) -> {
            RedisListpack.Writer node = new RedisListpack.Writer();
            for (int at = entries.first(); at >= 0; at = entries.next(at)) {
                if (entries.isInteger(at)) {
                    node.add(entries.integer(at));
                } else {
                    node.add(entries.get(at));
                }
            }
            byte[] bytes = node.toByteArray();
            out.writeLength(CONTAINER_PACKED);
            // A compressed node goes out as its LZF blob, as __quicklistCompressNode made it.
            byte[] compressedBytes = compressed ? new byte[bytes.length] : null;
            int compressedLength = compressed ? Lzf.compress(bytes, 0, bytes.length, compressedBytes, 0, bytes.length) : 0;
            if (compressedLength > 0 && compressedLength + MIN_COMPRESS_IMPROVE < bytes.length) {
                out.writeLzfBlob(compressedBytes, compressedLength, bytes.length);
            } else {
                out.writeString(bytes);
            }
        });
    }

    private static void writeSet(SetValue set, RdbOutput out) {
        if (set.isIntset()) {
            byte[] ints = set.packedArray();
            int width = IntSet.width(ints);
            int size = IntSet.size(ints);
            RdbOutput blob = new RdbOutput(false);
            blob.writeLittleEndian(width, 4);
            blob.writeLittleEndian(size, 4);
            for (int i = 0; i < size; i++) {
                blob.writeLittleEndian(IntSet.get(ints, i), width);
            }
                out.writeString(blob.toByteArray());
            return;
        }
        out.writeLength(set.size());
        for (int at = set.first(); at >= 0; at = set.next(at)) {
            out.writeString(set.member(at));
        }
    }

    private static void writeSortedSet(SortedSet zset, RdbOutput out) {
        int size = zset.size();
        if (!zset.isLarge()) {
            RedisListpack.Writer pairs = new RedisListpack.Writer();
            if (size > 0) {
                zset.visit(0, size - 1, false, (array, offset, length, score) -> {
                    pairs.add(array, offset, length);
                    pairs.addScore(score);
                });
            }
            out.writeString(pairs.toByteArray());
            return;
        }
        out.writeLength(size);
        // rdbSaveObject walks the skiplist from its tail: the highest score first.
        zset.visit(0, size - 1, true, (array, offset, length, score) -> {
            out.writeString(array, offset, length);
            out.writeBinaryDouble(score);
        });
    }

    private static void writeHash(HashValue hash, RdbOutput out) {
        if (hash.isListpack()) {
            RedisListpack.Writer pairs = new RedisListpack.Writer();
            for (int at = hash.first(); at >= 0; at = hash.next(at)) {
                byte[] array = hash.array(at);
                pairs.add(array, hash.fieldOffset(at), hash.fieldLength(at));
                pairs.add(array, hash.valueOffset(at), hash.valueLength(at));
            }
            out.writeString(pairs.toByteArray());
            return;
        }
        out.writeLength(hash.size());
        for (int at = hash.first(); at >= 0; at = hash.next(at)) {
            byte[] array = hash.array(at);
            out.writeString(array, hash.fieldOffset(at), hash.fieldLength(at));
            out.writeString(array, hash.valueOffset(at), hash.valueLength(at));
        }
    }

    // ---- reading -----------------------------------------------------------------------

    /** Reads the type byte and the value it announces. */
    public static Object read(RdbInput in, Encodings encodings) {
        return readObject(in.readByte(), in, encodings);
    }

    /** Reads the value a type byte already read announces (rdbLoadObject): in an RDB file the key came between. */
    public static Object readObject(int type, RdbInput in, Encodings encodings) {
        return switch (type) {
            case TYPE_STRING -> in.readString();
            case TYPE_LIST -> readPlainList(in, encodings);
            case TYPE_LIST_QUICKLIST, TYPE_LIST_QUICKLIST_2 -> readQuicklist(in, encodings, type == TYPE_LIST_QUICKLIST);
            case TYPE_LIST_ZIPLIST -> listOf(RedisListpack.readZiplist(in.readString()), encodings);
            case TYPE_SET -> readSet(in, encodings);
            case TYPE_SET_INTSET -> readIntset(in.readString(), encodings);
            case TYPE_ZSET, TYPE_ZSET_2 -> readSortedSet(in, encodings, type == TYPE_ZSET_2);
            case TYPE_ZSET_LISTPACK -> sortedSetOf(RedisListpack.read(in.readString()), encodings);
            case TYPE_ZSET_ZIPLIST -> sortedSetOf(RedisListpack.readZiplist(in.readString()), encodings);
            case TYPE_HASH -> readHash(in, encodings);
            case TYPE_HASH_LISTPACK -> hashOf(RedisListpack.read(in.readString()), encodings);
            case TYPE_HASH_ZIPLIST -> hashOf(RedisListpack.readZiplist(in.readString()), encodings);
            case RdbStreamCodec.TYPE_STREAM_LISTPACKS, RdbStreamCodec.TYPE_STREAM_LISTPACKS_2 ->
                RdbStreamCodec.read(type, in);
            default -> throw new RdbFormatException("unsupported RDB object type " + type);
        };
    }

    private static Quicklist newList(Encodings encodings) {
        return new Quicklist(encodings.listFill(), encodings.listCompressDepth());
    }

    private static Quicklist readPlainList(RdbInput in, Encodings encodings) {
        int count = in.readCount(1);
        Quicklist list = newList(encodings);
        for (int i = 0; i < count; i++) {
            list.pushTail(in.readString());
        }
        return nonEmpty(list);
    }

    private static Quicklist listOf(List<byte[]> entries, Encodings encodings) {
        Quicklist list = newList(encodings);
        for (byte[] entry : entries) {
            list.pushTail(entry);
        }
        return nonEmpty(list);
    }

    /** RDB_TYPE_LIST_QUICKLIST(_2): each node kept as saved; a ziplist node becomes a listpack. */
    private static Quicklist readQuicklist(RdbInput in, Encodings encodings, boolean ziplists) {
        int nodes = in.readCount(1);
        Quicklist list = newList(encodings);
        for (int i = 0; i < nodes; i++) {
            long container = ziplists ? CONTAINER_PACKED : in.readLength();
            byte[] blob = in.readString();
            Listpack node = new Listpack();
            if (container == CONTAINER_PLAIN) {
                node.append(blob, 0, blob.length);
            } else if (container == CONTAINER_PACKED) {
                for (byte[] entry : ziplists ? RedisListpack.readZiplist(blob) : RedisListpack.read(blob)) {
                    node.append(entry, 0, entry.length);
                }
            } else {
                throw new RdbFormatException("unknown quicklist container " + container);
            }
            list.appendNode(node);
        }
        return nonEmpty(list);
    }

    private static Quicklist nonEmpty(Quicklist list) {
        if (list.size() == 0) {
            throw new RdbFormatException("empty list");
        }
        return list;
    }

    private static SetValue readSet(RdbInput in, Encodings encodings) {
        int count = in.readCount(1);
        SetValue set = new SetValue();
        for (int i = 0; i < count; i++) {
            byte[] member = in.readString();
            if (!set.add(member, 0, member.length, encodings.setMaxIntsetEntries())) {
                throw new RdbFormatException("duplicate set member");
            }
        }
        if (count == 0) {
            throw new RdbFormatException("empty set");
        }
        return set;
    }

    /** Redis's intset blob: width, count, sorted distinct members; a table past set-max-intset-entries. */
    private static SetValue readIntset(byte[] blob, Encodings encodings) {
        RdbInput in = new RdbInput(blob, 0, blob.length);
        long width = in.readLittleEndian(4);
        long count = in.readLittleEndian(4);
        if ((width != 2 && width != 4 && width != 8) || count == 0 || count * width != in.remaining()) {
            throw new RdbFormatException("invalid intset");
        }
        byte[] ints = new byte[1 + (int) (count * width)];
        ints[0] = (byte) width;
        long previous = 0;
        for (int i = 0; i < count; i++) {
            int shift = 64 - 8 * (int) width;
            long member = in.readLittleEndian((int) width) << shift >> shift;
            if (i > 0 && member <= previous) {
                throw new RdbFormatException("intset not sorted");
            }
            previous = member;
            System.arraycopy(blob, 8 + i * (int) width, ints, 1 + i * (int) width, (int) width);
        }
        if (count <= encodings.setMaxIntsetEntries()) {
            return SetValue.fromIntset(ints);
        }
        SetValue set = new SetValue();
        for (int i = 0; i < count; i++) {
            byte[] member = Long.toString(IntSet.get(ints, i)).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            set.add(member, 0, member.length, encodings.setMaxIntsetEntries());
        }
        return set;
    }

    private static SortedSet readSortedSet(RdbInput in, Encodings encodings, boolean binaryScores) {
        int count = in.readCount(binaryScores ? 9 : 2);
        SortedSet zset = count > encodings.zsetMaxListpackEntries() ? SortedSet.large() : new SortedSet();
        for (int i = 0; i < count; i++) {
            byte[] member = in.readString();
            double score = binaryScores ? in.readBinaryDouble() : in.readTextDouble();
            addMember(zset, member, score, encodings);
        }
        return nonEmpty(zset);
    }

    private static SortedSet sortedSetOf(List<byte[]> pairs, Encodings encodings) {
        if (pairs.size() % 2 != 0) {
            throw new RdbFormatException("odd sorted set listpack");
        }
        int count = pairs.size() / 2;
        SortedSet zset = count > encodings.zsetMaxListpackEntries() ? SortedSet.large() : new SortedSet();
        for (int i = 0; i < pairs.size(); i += 2) {
            String score = new String(pairs.get(i + 1), java.nio.charset.StandardCharsets.US_ASCII);
            addMember(zset, pairs.get(i), RedisListpack.parseScore(score), encodings);
        }
        return nonEmpty(zset);
    }

    private static void addMember(SortedSet zset, byte[] member, double score, Encodings encodings) {
        if (Double.isNaN(score)) {
            throw new RdbFormatException("NaN score");
        }
        if (!Double.isNaN(zset.score(member, 0, member.length))) {
            throw new RdbFormatException("duplicate sorted set member");
        }
        zset.add(member, score, encodings.zsetMaxListpackEntries(), encodings.zsetMaxListpackValue());
    }

    private static SortedSet nonEmpty(SortedSet zset) {
        if (zset.size() == 0) {
            throw new RdbFormatException("empty sorted set");
        }
        return zset;
    }

    private static HashValue readHash(RdbInput in, Encodings encodings) {
        int count = in.readCount(2);
        HashValue hash = new HashValue();
        for (int i = 0; i < count; i++) {
            byte[] field = in.readString();
            byte[] value = in.readString();
            setField(hash, field, value, encodings);
        }
        return nonEmpty(hash);
    }

    private static HashValue hashOf(List<byte[]> pairs, Encodings encodings) {
        if (pairs.size() % 2 != 0) {
            throw new RdbFormatException("odd hash listpack");
        }
        HashValue hash = new HashValue();
        for (int i = 0; i < pairs.size(); i += 2) {
            setField(hash, pairs.get(i), pairs.get(i + 1), encodings);
        }
        return nonEmpty(hash);
    }

    private static void setField(HashValue hash, byte[] field, byte[] value, Encodings encodings) {
        if (!hash.set(field, 0, field.length, value, 0, value.length, encodings.hashMaxListpackEntries(),
            encodings.hashMaxListpackValue())) {
            throw new RdbFormatException("duplicate hash field");
        }
    }

    private static HashValue nonEmpty(HashValue hash) {
        if (hash.size() == 0) {
            throw new RdbFormatException("empty hash");
        }
        return hash;
    }
}
