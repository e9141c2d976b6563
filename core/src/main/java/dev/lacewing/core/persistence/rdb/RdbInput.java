package dev.lacewing.core.persistence.rdb;

import dev.lacewing.core.datatype.Lzf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads RDB encodings from a byte range, with rdb.c's primitive readers: lengths (rdbLoadLen),
 * strings (rdbGenericLoadStringObject: plain, integer-encoded or LZF) and doubles. Every length is
 * checked against the bytes left before anything is allocated, so a corrupt length claiming 2 GB
 * fails with {@link RdbFormatException} instead of allocating it; an LZF string's claimed length
 * must be what its compressed bytes really expand to ({@link Lzf#decompressedLength}) before its
 * output is allocated.
 *
 * <p>Over a channel (an RDB file), the buffer holds a window of the stream: it is refilled as
 * reads need, and grows only to the largest single item read (a string, a listpack blob), so a
 * file loads in memory bounded by its largest value, not its size. Lengths are then checked
 * against what the stream has left ({@code streamLength}). The CRC64 of the bytes consumed is
 * kept as they leave the window ({@link #checksum}).
 *
 * <p>Thread rule: not thread-safe; one reader uses it.
 */
public final class RdbInput {

    /** The message of a read past the end. */
    public static final String TRUNCATED = "truncated";
    private static final int WINDOW_BYTES = 64 * 1024;

    private byte[] bytes;
    private int end;
    private int position;
    /** The stream the window is refilled from, or null for a byte range. */
    private final ReadableByteChannel source;
    /** Bytes the source still holds past {@link #end}. */
    private long unread;
    /** Where in the window the checksum has reached, and the checksum up to there. */
    private int checksummed;
    private long crc;
    /** The stream offset of {@code bytes[0]}. */
    private long base;

    public RdbInput(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.position = offset;
        this.end = offset + length;
        this.source = null;
        this.checksummed = offset;
    }

    /** Reads {@code streamLength} bytes from {@code source} (an RDB file), through a window. */
    public RdbInput(ReadableByteChannel source, long streamLength) {
        this.bytes = new byte[WINDOW_BYTES];
        this.source = source;
        this.unread = streamLength;
    }

    /** Bytes left: in the window and, over a channel, in the stream. At most Integer.MAX_VALUE. */
    public int remaining() {
        return (int) Math.min(Integer.MAX_VALUE, end - position + unread);
    }

    /** The bytes of the stream not read yet, as a long: an AOF's RESP tail after its RDB preamble. */
    long unreadLength() {
        return end - position + unread;
    }

    private void need(long count) {
        if (count < 0 || count > end - position + unread) {
            throw new RdbFormatException(TRUNCATED);
        }
        if (count > end - position) {
            refill((int) count);
        }
    }

    /** Moves what is left of the window to its start and reads until {@code count} bytes are there. */
    private void refill(int count) {
        crc = Crc64.update(crc, bytes, checksummed, position - checksummed);
        int left = end - position;
        // Grown for one large item, the window shrinks back at the next refill.
        int size = Math.max(count, WINDOW_BYTES);
        byte[] target = bytes.length == size ? bytes : new byte[size];
        System.arraycopy(bytes, position, target, 0, left);
        base += position;
        bytes = target;
        position = 0;
        checksummed = 0;
        end = left;
        ByteBuffer buffer = ByteBuffer.wrap(bytes, end, (int) Math.min(bytes.length - end, unread));
        try {
            while (end < count) {
                int read = source.read(buffer);
                if (read < 0) {
                    throw new RdbFormatException(TRUNCATED);
                }
                end += read;
                unread -= read;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Bytes consumed so far, from the start of the stream (or of the range). */
    public long offset() {
        return base + position;
    }

    /** The CRC64 of every byte consumed so far (an RDB file's, before its checksum trailer). */
    public long checksum() {
        crc = Crc64.update(crc, bytes, checksummed, position - checksummed);
        checksummed = position;
        return crc;
    }

    public int readByte() {
        need(1);
        return bytes[position++] & 0xFF;
    }

    public long readLittleEndian(int count) {
        need(count);
        long value = 0;
        for (int i = 0; i < count; i++) {
            value |= (long) (bytes[position++] & 0xFF) << 8 * i;
        }
        return value;
    }

    private long readBigEndian(int count) {
        need(count);
        long value = 0;
        for (int i = 0; i < count; i++) {
            value = value << 8 | bytes[position++] & 0xFF;
        }
        return value;
    }

    /** rdbLoadLen of a length that is not an encoded string; negative (or over 2^63) is refused. */
    public long readLength() {
        int first = readByte();
        if ((first & 0xC0) == 0xC0) {
            throw new RdbFormatException("encoded value where a length was expected");
        }
        return lengthAfter(first);
    }

    /** rdbLoadLen of a 64-bit unsigned number (stream IDs and counters), as a long's bits. */
    public long readUnsignedLength() {
        int first = readByte();
        if (first == 0x81) {
            return readBigEndian(8);
        }
        if ((first & 0xC0) == 0xC0) {
            throw new RdbFormatException("encoded value where a length was expected");
        }
        return lengthAfter(first);
    }

    private long lengthAfter(int first) {
        switch (first >>> 6) {
            case 0:
                return first & 0x3F;
            case 1:
                return (first & 0x3F) << 8 | readByte();
            default:
                long length;
                if (first == 0x80) {
                    length = readBigEndian(4);
                } else if (first == 0x81) {
                    length = readBigEndian(8);
                } else {
                    throw new RdbFormatException("unknown length encoding");
                }
                if (length < 0) {
                    throw new RdbFormatException("length out of range");
                }
                return length;
        }
    }

    /**
     * A count of elements that each take at least {@code minimumBytes}: refused when the bytes
     * left cannot hold that many, so a corrupt count never sizes anything.
     */
    public int readCount(int minimumBytes) {
        long count = readLength();
        if (count > remaining() / minimumBytes) {
            throw new RdbFormatException("count past the data");
        }
        return (int) count;
    }

    /** rdbGenericLoadStringObject: the string's bytes, whichever way they were encoded. */
    public byte[] readString() {
        int first = readByte();
        if ((first & 0xC0) != 0xC0) {
            long length = lengthAfter(first);
            need(length);
            byte[] value = Arrays.copyOfRange(bytes, position, position + (int) length);
            position += (int) length;
            return value;
        }
        return switch (first & 0x3F) {
            case RdbOutput.ENC_INT8 -> integerText((byte) readLittleEndian(1));
            case RdbOutput.ENC_INT16 -> integerText((short) readLittleEndian(2));
            case RdbOutput.ENC_INT32 -> integerText((int) readLittleEndian(4));
            case RdbOutput.ENC_LZF -> readCompressed();
            default -> throw new RdbFormatException("unknown string encoding");
        };
    }

    private static byte[] integerText(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    private byte[] readCompressed() {
        long compressedLength = readLength();
        long length = readLength();
        need(compressedLength);
        if (length == 0 || length > Integer.MAX_VALUE - 8
            || Lzf.decompressedLength(bytes, position, (int) compressedLength) != length) {
            throw new RdbFormatException("invalid LZF compressed string");
        }
        byte[] value = new byte[(int) length];
        int decompressed;
        try {
            decompressed = Lzf.decompress(bytes, position, (int) compressedLength, value, 0, value.length);
        } catch (IllegalArgumentException e) {
            throw new RdbFormatException("invalid LZF compressed string");
        }
        if (decompressed != length) {
            throw new RdbFormatException("invalid LZF compressed string");
        }
        position += (int) compressedLength;
        return value;
    }

    /** rdbLoadBinaryDoubleValue. */
    public double readBinaryDouble() {
        return Double.longBitsToDouble(readLittleEndian(8));
    }

    /** rdbLoadDoubleValue: the text form of RDB_TYPE_ZSET, with 253..255 for nan, inf and -inf. */
    public double readTextDouble() {
        int length = readByte();
        switch (length) {
            case 253:
                return Double.NaN;
            case 254:
                return Double.POSITIVE_INFINITY;
            case 255:
                return Double.NEGATIVE_INFINITY;
            default:
                need(length);
                String text = new String(bytes, position, length, StandardCharsets.US_ASCII);
                position += length;
                return RedisListpack.parseScore(text);
        }
    }
}
