package dev.lacewing.core.datatype;

import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.Numbers;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A sequence of byte strings packed in one {@code byte[]}, the compact form of small hashes, sorted
 * sets and list nodes (Redis's listpack). An entry is a header, its payload and a back-length:
 *
 * <pre>
 *   0xxxxxxx                 integer 0..127, no payload
 *   10xxxxxx                 string of 0..63 bytes
 *   110xxxxx yyyyyyyy        13-bit integer (-4096..4095)
 *   1110xxxx yyyyyyyy        string of 64..4095 bytes (12-bit length)
 *   11110000 len:4           string of any length
 *   11110001 value:2         16-bit integer
 *   11110010 value:3         24-bit integer
 *   11110011 value:4         32-bit integer
 *   11110100 value:8         64-bit integer
 * </pre>
 *
 * followed by the back-length: the size of header and payload in 7-bit groups, most significant
 * first, every group but the first with its high bit set, so that it can be read backwards from
 * the entry's last byte; 1 byte up to 127, 2 under 16383 and so on, as lpEncodeBacklen sizes it.
 * A string that is a canonical integer (as Redis's string2ll accepts: no sign but '-', no leading
 * zero, no "-0", within a long) is stored as an integer and reads back as the same bytes. The
 * encodings and their sizes are Redis 7.0's, byte for byte in size (integers here are big-endian,
 * Redis's little-endian; nothing reads these bytes but this class), so {@link #byteSize()} plus
 * {@link #HEADER_BYTES} is what Redis's lpBytes reports for the same entries, which is what the
 * list's {@code list-max-listpack-size} fill rule measures. An entry costs 2 bytes over a string
 * of up to 63 bytes, and 2 to 10 bytes for an integer.
 *
 * <p>Positions are byte offsets of entries, -1 for none; any change may move entries, so positions
 * are valid until the next change. Insertion and deletion move the tail: O(bytes), as in Redis,
 * which is why the data types convert to another form past a size threshold.
 *
 * <p>Thread rule: not thread-safe; touched only by the thread that has the owning key.
 */
public final class Listpack {

    /** Redis's listpack header (total bytes, entry count) and end byte, which this class leaves out. */
    public static final int HEADER_BYTES = 7;

    private static final int INT_13BIT = 0xC0;
    private static final int STRING_12BIT = 0xE0;
    private static final int STRING_32BIT = 0xF0;
    private static final int INT_16BIT = 0xF1;
    private static final int INT_24BIT = 0xF2;
    private static final int INT_32BIT = 0xF3;
    private static final int INT_64BIT = 0xF4;

    /** This object (header and three fields) and its array's header, with compressed oops. */
    private static final long OVERHEAD = 24 + 16;

    /** Entry count and byte size in front of the LZF stream, so a compressed node answers both. */
    private static final int COMPRESSED_PREFIX = 8;
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private byte[] data;
    private int used;
    private int count;

    public Listpack() {
        data = new byte[16];
    }

    private Listpack(byte[] data, int used, int count) {
        this.data = data;
        this.used = used;
        this.count = count;
    }

    /** Number of entries. */
    public int size() {
        return count;
    }

    /** Bytes the entries take. */
    public int byteSize() {
        return used;
    }

    /** Bytes held, spare capacity included. */
    public long memoryUsage() {
        return OVERHEAD + ((data.length + 7) & ~7L);
    }

    /** Gives back the spare capacity growth left: for a node that will not grow again soon. */
    public void trimToSize() {
        if (data.length > Math.max(16, used)) {
            data = Arrays.copyOf(data, Math.max(16, used));
        }
    }

    public Listpack copy() {
        return new Listpack(Arrays.copyOf(data, Math.max(used, 16)), used, count);
    }

    /* ---- compressed form ---- */

    /**
     * The entries LZF-compressed ({@link Lzf}) behind their count and byte size, or null unless
     * that saves more than {@code minimumSaving} bytes over {@link #byteSize()} (quicklist.c keeps a
     * node raw when {@code compressed + MIN_COMPRESS_IMPROVE >= size}).
     */
    public byte[] compress(int minimumSaving) {
        int limit = used - minimumSaving - 1;
        if (limit <= 0) {
            return null;
        }
        byte[] out = new byte[COMPRESSED_PREFIX + limit];
        int length = Lzf.compress(data, 0, used, out, COMPRESSED_PREFIX, limit);
        if (length == 0) {
            return null;
        }
        INT.set(out, 0, count);
        INT.set(out, 4, used);
        return Arrays.copyOf(out, COMPRESSED_PREFIX + length);
    }

    /** The listpack {@link #compress} compressed. */
    public static Listpack decompress(byte[] compressed) {
        int size = compressedByteSize(compressed);
        byte[] data = new byte[Math.max(16, size)];
        int length = Lzf.decompress(compressed, COMPRESSED_PREFIX, compressed.length - COMPRESSED_PREFIX, data, 0, size);
        if (length != size) {
            throw new IllegalStateException("compressed listpack of " + size + " bytes decompressed to " + length);
        }
        return new Listpack(data, size, compressedCount(compressed));
    }

    /** {@link #size()} of a compressed listpack, without decompressing it. */
    public static int compressedCount(byte[] compressed) {
        return (int) INT.get(compressed, 0);
    }

    /** {@link #byteSize()} of a compressed listpack, without decompressing it. */
    public static int compressedByteSize(byte[] compressed) {
        return (int) INT.get(compressed, 4);
    }

    /* ---- navigation ---- */

    public int first() {
        return used > 0 ? 0 : -1;
    }

    public int last() {
        return used > 0 ? previousFrom(used) : -1;
    }

    public int next(int position) {
        int next = position + entrySize(position);
        return next < used ? next : -1;
    }

    public int previous(int position) {
        return position > 0 ? previousFrom(position) : -1;
    }

    /** The position of entry {@code index}, counted from the end when negative; -1 out of range. */
    public int seek(int index) {
        if (index < 0) {
            index += count;
        }
        if (index < 0 || index >= count) {
            return -1;
        }
        if (index <= count / 2) {
            int position = 0;
            for (int i = 0; i < index; i++) {
                position += entrySize(position);
            }
            return position;
        }
        int position = used;
        for (int i = count; i > index; i--) {
            position = previousFrom(position);
        }
        return position;
    }

    /* ---- reading ---- */

    public boolean isInteger(int position) {
        int header = data[position] & 0xFF;
        return header < 0x80 || (header & 0xE0) == INT_13BIT || header >= INT_16BIT && header <= INT_64BIT;
    }

    /** The integer of an integer entry ({@link #isInteger}). */
    public long integer(int position) {
        int header = data[position] & 0xFF;
        if (header < 0x80) {
            return header;
        }
        if ((header & 0xE0) == INT_13BIT) {
            return ((header & 0x1F) << 8 | data[position + 1] & 0xFF) << 19 >> 19;
        }
        return switch (header) {
            case INT_16BIT -> (short) readBigEndian(position + 1, 2);
            case INT_24BIT -> (int) readBigEndian(position + 1, 3) << 8 >> 8;
            case INT_32BIT -> (int) readBigEndian(position + 1, 4);
            case INT_64BIT -> readBigEndian(position + 1, 8);
            default -> throw new IllegalStateException("not an integer entry");
        };
    }

    /** Bytes of the entry's string form. */
    public int length(int position) {
        return isInteger(position) ? decimalLength(integer(position)) : stringLength(position);
    }

    /** A copy of the entry's string form. */
    public byte[] get(int position) {
        if (isInteger(position)) {
            return Numbers.toBytes(integer(position));
        }
        int start = stringStart(position);
        return Arrays.copyOfRange(data, start, start + stringLength(position));
    }

    /** Replies the entry as a bulk string. */
    public void writeTo(int position, ReplyWriter reply) {
        if (isInteger(position)) {
            reply.bulk(Numbers.toBytes(integer(position)));
        } else {
            reply.bulk(data, stringStart(position), stringLength(position));
        }
    }

    public boolean equalsAt(int position, byte[] bytes, int offset, int length) {
        if (isInteger(position)) {
            long value = canonicalValue(bytes, offset, length);
            return integer(position) == value && (value != Long.MIN_VALUE || isLongMinText(bytes, offset, length));
        }
        int start = stringStart(position);
        return stringLength(position) == length
            && Arrays.equals(data, start, start + length, bytes, offset, offset + length);
    }

    /** The entry's string form against the given bytes, unsigned and lexicographic, as memcmp. */
    public int compareAt(int position, byte[] bytes, int offset, int length) {
        if (isInteger(position)) {
            byte[] text = Numbers.toBytes(integer(position));
            return Arrays.compareUnsigned(text, 0, text.length, bytes, offset, offset + length);
        }
        int start = stringStart(position);
        return Arrays.compareUnsigned(data, start, start + stringLength(position), bytes, offset, offset + length);
    }

    /**
     * The first entry equal to the given bytes, looking at {@code position} and then every
     * {@code skip + 1}-th entry after it (skip 1 looks at the fields of field/value pairs); -1 when
     * there is none.
     */
    public int find(int position, byte[] bytes, int offset, int length, int skip) {
        long value = canonicalValue(bytes, offset, length);
        boolean integer = value != Long.MIN_VALUE || isLongMinText(bytes, offset, length);
        while (position >= 0 && position < used) {
            boolean entryIsInteger = isInteger(position);
            if (integer ? entryIsInteger && integer(position) == value
                    : !entryIsInteger && stringLength(position) == length
                        && Arrays.equals(data, stringStart(position), stringStart(position) + length,
                            bytes, offset, offset + length)) {
                return position;
            }
            position += entrySize(position);
            for (int i = 0; i < skip && position < used; i++) {
                position += entrySize(position);
            }
        }
        return -1;
    }

    /* ---- changing ---- */

    public void append(byte[] bytes, int offset, int length) {
        insert(-1, bytes, offset, length);
    }

    public void append(long value) {
        int size = integerEntrySize(value);
        makeRoom(used, size);
        writeInteger(used, value);
        used += size;
        count++;
    }

    /**
     * Appends up to {@code entries} entries of {@code source} from its {@code position}, copied byte
     * for byte (no re-encoding): O(bytes moved).
     */
    public void appendRange(Listpack source, int position, int entries) {
        int end = position;
        int moved = 0;
        while (moved < entries && end < source.used) {
            end += source.entrySize(end);
            moved++;
        }
        makeRoom(used, end - position);
        System.arraycopy(source.data, position, data, used, end - position);
        used += end - position;
        count += moved;
    }

    /** Appends every entry of {@code source}. */
    public void appendAll(Listpack source) {
        if (source.used > 0) {
            appendRange(source, 0, source.count);
        }
    }

    public void prepend(byte[] bytes, int offset, int length) {
        insert(used > 0 ? 0 : -1, bytes, offset, length);
    }

    /** Inserts before the entry at {@code position} ({@code -1} appends); returns the new entry's position. */
    public int insert(int position, byte[] bytes, int offset, int length) {
        int at = position < 0 ? used : position;
        long value = canonicalValue(bytes, offset, length);
        boolean integer = value != Long.MIN_VALUE || isLongMinText(bytes, offset, length);
        int size = integer ? integerEntrySize(value) : stringEntrySize(length);
        makeRoom(at, size);
        if (integer) {
            writeInteger(at, value);
        } else {
            writeString(at, bytes, offset, length);
        }
        used += size;
        count++;
        return at;
    }

    /** Replaces the entry at {@code position}; returns its position. */
    public int replace(int position, byte[] bytes, int offset, int length) {
        long value = canonicalValue(bytes, offset, length);
        boolean integer = value != Long.MIN_VALUE || isLongMinText(bytes, offset, length);
        int oldSize = entrySize(position);
        int size = integer ? integerEntrySize(value) : stringEntrySize(length);
        if (size > oldSize) {
            makeRoom(position + oldSize, size - oldSize);
        } else if (size < oldSize) {
            System.arraycopy(data, position + oldSize, data, position + size, used - position - oldSize);
        }
        used += size - oldSize;
        if (integer) {
            writeInteger(position, value);
        } else {
            writeString(position, bytes, offset, length);
        }
        return position;
    }

    /** Deletes the entry at {@code position}; returns the position of the one that followed, or -1. */
    public int delete(int position) {
        return deleteRange(position, 1);
    }

    /** Deletes up to {@code entries} entries from {@code position}; returns the position after them, or -1. */
    public int deleteRange(int position, int entries) {
        int end = position;
        int deleted = 0;
        while (deleted < entries && end < used) {
            end += entrySize(end);
            deleted++;
        }
        System.arraycopy(data, end, data, position, used - end);
        used -= end - position;
        count -= deleted;
        // Under half full: give the spare back (growth is 1.5x, so a shrink to 1.25x cannot thrash).
        if (data.length > 16 && used < data.length / 2) {
            data = Arrays.copyOf(data, Math.max(16, used + (used >> 2)));
        }
        return position < used ? position : -1;
    }

    /* ---- encoding ---- */

    private static final byte[] LONG_MIN_TEXT = {'-', '9', '2', '2', '3', '3', '7', '2', '0', '3', '6', '8', '5',
        '4', '7', '7', '5', '8', '0', '8'};

    static boolean isLongMinText(byte[] bytes, int offset, int length) {
        return length == 20 && Arrays.equals(bytes, offset, offset + length, LONG_MIN_TEXT, 0, 20);
    }

    /**
     * The canonical integer the bytes spell, or Long.MIN_VALUE when they spell none (or that
     * value itself, which {@link #isLongMinText} tells apart).
     */
    static long canonicalValue(byte[] bytes, int offset, int length) {
        if (length == 0 || length > 20) {
            return Long.MIN_VALUE;
        }
        int i = offset;
        int end = offset + length;
        boolean negative = bytes[i] == '-';
        if (negative) {
            i++;
            if (i == end) {
                return Long.MIN_VALUE;
            }
        }
        if (bytes[i] == '0') {
            return length == 1 ? 0 : Long.MIN_VALUE;
        }
        long value = 0;
        for (; i < end; i++) {
            int digit = bytes[i] - '0';
            if (digit < 0 || digit > 9) {
                return Long.MIN_VALUE;
            }
            // Accumulate negatively so that Long.MIN_VALUE fits.
            if (value < (Long.MIN_VALUE + digit) / 10) {
                return Long.MIN_VALUE;
            }
            value = value * 10 - digit;
        }
        if (!negative) {
            return value == Long.MIN_VALUE ? Long.MIN_VALUE : -value;
        }
        return value;
    }

    private static int decimalLength(long value) {
        if (value == Long.MIN_VALUE) {
            return 20;
        }
        int length = value < 0 ? 2 : 1;
        long magnitude = Math.abs(value);
        while (magnitude >= 10) {
            magnitude /= 10;
            length++;
        }
        return length;
    }

    /** lpEncodeBacklen's sizes (its thresholds, one under each power of 128, included). */
    private static int backlenSize(int entryLength) {
        return entryLength <= 127 ? 1 : entryLength < 16383 ? 2 : entryLength < 2097151 ? 3
            : entryLength < 268435455 ? 4 : 5;
    }

    /** Header and payload bytes of an integer entry. */
    private static int integerBodySize(long value) {
        if (value >= 0 && value < 128) {
            return 1;
        } else if (value >= -4096 && value <= 4095) {
            return 2;
        } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            return 3;
        } else if (value >= -(1 << 23) && value < 1 << 23) {
            return 4;
        } else if (value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE) {
            return 5;
        }
        return 9;
    }

    private static int integerEntrySize(long value) {
        int body = integerBodySize(value);
        return body + backlenSize(body);
    }

    /**
     * Bytes the given string would take as an entry (as an integer when it is a canonical one),
     * without adding it: what a container needs to apply a byte limit before it inserts.
     */
    public static int entrySize(byte[] bytes, int offset, int length) {
        long value = canonicalValue(bytes, offset, length);
        return value != Long.MIN_VALUE || isLongMinText(bytes, offset, length) ? integerEntrySize(value)
            : stringEntrySize(length);
    }

    private static int stringEntrySize(int length) {
        int body = length + (length < 64 ? 1 : length < 4096 ? 2 : 5);
        return body + backlenSize(body);
    }

    private int stringLength(int position) {
        int header = data[position] & 0xFF;
        if (header < 0xC0) {
            return header & 0x3F;
        }
        if (header < STRING_32BIT) {
            return (header & 0x0F) << 8 | data[position + 1] & 0xFF;
        }
        return (int) readBigEndian(position + 1, 4);
    }

    private int stringStart(int position) {
        int header = data[position] & 0xFF;
        return position + (header < 0xC0 ? 1 : header < STRING_32BIT ? 2 : 5);
    }

    /** Header and payload bytes of the entry at a position. */
    private int bodySize(int position) {
        int header = data[position] & 0xFF;
        if (header < 0x80) {
            return 1;
        }
        if ((header & 0xE0) == INT_13BIT) {
            return 2;
        }
        return switch (header) {
            case INT_16BIT -> 3;
            case INT_24BIT -> 4;
            case INT_32BIT -> 5;
            case INT_64BIT -> 9;
            default -> stringStart(position) - position + stringLength(position);
        };
    }

    private int entrySize(int position) {
        int body = bodySize(position);
        return body + backlenSize(body);
    }

    /** The position of the entry that ends just before {@code end}. */
    private int previousFrom(int end) {
        int p = end - 1;
        int body = data[p] & 0x7F;
        int shift = 7;
        while ((data[p] & 0x80) != 0) {
            p--;
            body |= (data[p] & 0x7F) << shift;
            shift += 7;
        }
        return p - body;
    }

    private void writeInteger(int at, long value) {
        int body = integerBodySize(value);
        switch (body) {
            case 1 -> data[at] = (byte) value;
            case 2 -> {
                data[at] = (byte) (INT_13BIT | (int) value >>> 8 & 0x1F);
                data[at + 1] = (byte) value;
            }
            case 3 -> {
                data[at] = (byte) INT_16BIT;
                writeBigEndian(at + 1, value, 2);
            }
            case 4 -> {
                data[at] = (byte) INT_24BIT;
                writeBigEndian(at + 1, value, 3);
            }
            case 5 -> {
                data[at] = (byte) INT_32BIT;
                writeBigEndian(at + 1, value, 4);
            }
            default -> {
                data[at] = (byte) INT_64BIT;
                writeBigEndian(at + 1, value, 8);
            }
        }
        writeBacklen(at + body, body);
    }

    private void writeString(int at, byte[] bytes, int offset, int length) {
        int headerSize;
        if (length < 64) {
            data[at] = (byte) (0x80 | length);
            headerSize = 1;
        } else if (length < 4096) {
            data[at] = (byte) (STRING_12BIT | length >>> 8);
            data[at + 1] = (byte) length;
            headerSize = 2;
        } else {
            data[at] = (byte) STRING_32BIT;
            writeBigEndian(at + 1, length, 4);
            headerSize = 5;
        }
        System.arraycopy(bytes, offset, data, at + headerSize, length);
        writeBacklen(at + headerSize + length, headerSize + length);
    }

    private void writeBacklen(int at, int body) {
        int size = backlenSize(body);
        for (int i = 0; i < size; i++) {
            int group = body >>> (7 * (size - 1 - i)) & 0x7F;
            data[at + i] = (byte) (i == 0 ? group : group | 0x80);
        }
    }

    private long readBigEndian(int at, int bytes) {
        long value = 0;
        for (int i = 0; i < bytes; i++) {
            value = value << 8 | data[at + i] & 0xFF;
        }
        return value;
    }

    private void writeBigEndian(int at, long value, int bytes) {
        for (int i = bytes - 1; i >= 0; i--) {
            data[at + i] = (byte) value;
            value >>>= 8;
        }
    }

    /** Opens {@code size} bytes at {@code at}, moving the tail and growing the array as needed. */
    private void makeRoom(int at, int size) {
        if (used + size > data.length) {
            long wanted = Math.max((long) used + size, data.length + (data.length >> 1));
            if (wanted > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("listpack over 2 GB");
            }
            data = Arrays.copyOf(data, (int) wanted);
        }
        System.arraycopy(data, at, data, at + size, used - at);
    }
}
