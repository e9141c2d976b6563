package dev.lacewing.core.persistence.rdb;

import dev.lacewing.core.datatype.Lzf;
import java.io.IOException;
import java.util.Arrays;

/**
 * A growing buffer that RDB encodings are written into, with rdb.c's primitive writers: lengths
 * (rdbSaveLen), strings (rdbSaveRawString: integer encoding, LZF, or verbatim) and binary doubles.
 *
 * <p>Thread rule: not thread-safe; one writer fills it.
 */
public final class RdbOutput {

    static final int ENC_INT8 = 0;
    static final int ENC_INT16 = 1;
    static final int ENC_INT32 = 2;
    static final int ENC_LZF = 3;

    /** rdbSaveRawString tries LZF only past this length: shorter strings never shrink. */
    private static final int LZF_MIN_LENGTH = 20;
    /** The longest string rdbTryIntegerEncoding looks at. */
    private static final int INTEGER_MAX_LENGTH = 11;

    private final boolean compress;
    private byte[] bytes = new byte[64];
    private int size;
    /** Where {@link #writeCompressed} compresses. */
    private byte[] scratch = new byte[0];

    /** {@code compress}: LZF-compress strings where it saves bytes, as {@code rdbcompression yes}. */
    public RdbOutput(boolean compress) {
        this.compress = compress;
    }

    public int size() {
        return size;
    }

    /** Receives the bytes {@link #drainTo} hands over. */
    @FunctionalInterface
    public interface Sink {
        void accept(byte[] bytes, int offset, int length) throws IOException;
    }

    /** Past this, a drained buffer is let go rather than kept: one large value must not pin its size. */
    private static final int KEPT_CAPACITY = 1 << 20;

    /** Hands what was written to {@code sink} and empties the buffer (an RDB file written in pieces). */
    public void drainTo(Sink sink) throws IOException {
        sink.accept(bytes, 0, size);
        empty();
    }

    /** Hands bytes {@code [from, to)} of what was written to {@code sink}, keeping them. */
    void handTo(Sink sink, int from, int to) throws IOException {
        sink.accept(bytes, from, to - from);
    }

    /** Drops what was written. */
    void discard() {
        empty();
    }

    /** Appends what was written to {@code target} and empties this buffer. */
    void moveTo(RdbOutput target) {
        target.write(bytes, 0, size);
        empty();
    }

    private void empty() {
        size = 0;
        if (bytes.length > KEPT_CAPACITY) {
            bytes = new byte[KEPT_CAPACITY];
        }
    }

    /** A copy of what was written. */
    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            long wanted = Math.max((long) size + more, (long) bytes.length * 2);
            if (wanted > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("serialized value over 2 GB");
            }
            bytes = Arrays.copyOf(bytes, (int) wanted);
        }
    }

    public void writeByte(int value) {
        ensure(1);
        bytes[size++] = (byte) value;
    }

    public void write(byte[] source, int offset, int length) {
        ensure(length);
        System.arraycopy(source, offset, bytes, size, length);
        size += length;
    }

    /** {@code count} bytes of {@code value}, least significant first. */
    public void writeLittleEndian(long value, int count) {
        ensure(count);
        for (int i = 0; i < count; i++) {
            bytes[size++] = (byte) (value >>> 8 * i);
        }
    }

    /**
     * rdbSaveLen: 6-bit, 14-bit, 32-bit or 64-bit big-endian length, {@code length} unsigned (a
     * stream group's entries read of -1 goes out as 2^64-1, as Redis writes it).
     */
    public void writeLength(long length) {
        if (length >= 0 && length < 1 << 6) {
            writeByte((int) length);
        } else if (length >= 0 && length < 1 << 14) {
            writeByte((int) (length >>> 8) | 0x40);
            writeByte((int) length);
        } else if (length >= 0 && length <= 0xFFFFFFFFL) {
            writeByte(0x80);
            writeBigEndian(length, 4);
        } else {
            writeByte(0x81);
            writeBigEndian(length, 8);
        }
    }

    private void writeBigEndian(long value, int count) {
        ensure(count);
        for (int i = count - 1; i >= 0; i--) {
            bytes[size++] = (byte) (value >>> 8 * i);
        }
    }

    /** rdbSaveBinaryDoubleValue: the IEEE 754 bits, little-endian. */
    public void writeBinaryDouble(double value) {
        writeLittleEndian(Double.doubleToRawLongBits(value), 8);
    }

    public void writeString(byte[] value) {
        writeString(value, 0, value.length);
    }

    /**
     * rdbSaveRawString: a canonical integer of at most 11 characters within 32 bits as an encoded
     * integer, else LZF when compressing, longer than 20 bytes and saving at least 4, else the
     * length and the bytes.
     */
    public void writeString(byte[] value, int offset, int length) {
        if (length <= INTEGER_MAX_LENGTH && writeEncodedInteger(value, offset, length)) {
            return;
        }
        if (compress && length > LZF_MIN_LENGTH && writeCompressed(value, offset, length)) {
            return;
        }
        writeLength(length);
        write(value, offset, length);
    }

    private boolean writeEncodedInteger(byte[] value, int offset, int length) {
        long number;
        if (!RedisListpack.isCanonicalInteger(value, offset, length)) {
            return false;
        }
        number = RedisListpack.parseCanonical(value, offset, length);
        if (number >= Byte.MIN_VALUE && number <= Byte.MAX_VALUE) {
            writeByte(0xC0 | ENC_INT8);
            writeLittleEndian(number, 1);
        } else if (number >= Short.MIN_VALUE && number <= Short.MAX_VALUE) {
            writeByte(0xC0 | ENC_INT16);
            writeLittleEndian(number, 2);
        } else if (number >= Integer.MIN_VALUE && number <= Integer.MAX_VALUE) {
            writeByte(0xC0 | ENC_INT32);
            writeLittleEndian(number, 4);
        } else {
            return false;
        }
        return true;
    }

    /**
     * rdbSaveLzfStringObject: kept only when it saves at least 4 bytes. Compressed into a scratch
     * array this buffer keeps (up to {@link #KEPT_CAPACITY}), not a new one per string: a save
     * compresses every string over 20 bytes.
     */
    private boolean writeCompressed(byte[] value, int offset, int length) {
        int limit = length - 4;
        byte[] out = scratch.length >= limit ? scratch : new byte[limit];
        if (out != scratch && limit <= KEPT_CAPACITY) {
            scratch = out;
        }
        int compressed = Lzf.compress(value, offset, length, out, 0, limit);
        if (compressed == 0) {
            return false;
        }
        writeLzfBlob(out, compressed, length);
        return true;
    }

    /** rdbSaveLzfBlob: the LZF marker, compressed and original lengths, the compressed bytes. */
    public void writeLzfBlob(byte[] compressed, int compressedLength, int originalLength) {
        writeByte(0xC0 | ENC_LZF);
        writeLength(compressedLength);
        writeLength(originalLength);
        write(compressed, 0, compressedLength);
    }
}
