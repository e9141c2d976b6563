package dev.lacewing.core.datatype;

/**
 * Unsigned LEB128 lengths (7 bits a byte, low bits first) for the packed encodings: one byte up to
 * 127, two up to 16383; the long forms take up to 10 bytes. Stateless.
 */
final class Varint {

    private Varint() {
    }

    static int size(int value) {
        int size = 1;
        while ((value >>>= 7) != 0) {
            size++;
        }
        return size;
    }

    static int read(byte[] array, int at) {
        int value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = array[at++];
            value |= (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
    }

    /** Writes a value and returns the offset after it. */
    static int write(byte[] array, int at, int value) {
        while ((value & ~0x7F) != 0) {
            array[at++] = (byte) (value & 0x7F | 0x80);
            value >>>= 7;
        }
        array[at++] = (byte) value;
        return at;
    }

    static int sizeLong(long value) {
        int size = 1;
        while ((value >>>= 7) != 0) {
            size++;
        }
        return size;
    }

    static long readLong(byte[] array, int at) {
        long value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = array[at++];
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
    }

    /** Writes a long value and returns the offset after it. */
    static int writeLong(byte[] array, int at, long value) {
        while ((value & ~0x7FL) != 0) {
            array[at++] = (byte) (value & 0x7F | 0x80);
            value >>>= 7;
        }
        array[at++] = (byte) value;
        return at;
    }
}
