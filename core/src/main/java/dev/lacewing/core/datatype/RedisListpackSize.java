package dev.lacewing.core.datatype;

/**
 * The bytes an element takes in a Redis listpack (listpack.c): its encoding (lpEncodeGetType,
 * lpEncodeIntegerGetType) plus its back length (lpEncodeBacklen). A string that string2ll reads as
 * an integer is stored as that integer, as lpAppend does. Used where Redis decides by
 * {@code lpBytes}, so that Lacewing decides alike though it stores the elements its own way.
 *
 * <p>Stateless and thread-safe.
 */
final class RedisListpackSize {

    /** An empty listpack: the 6-byte header (total bytes, count) and the end byte. */
    static final int EMPTY = 7;

    private RedisListpackSize() {
    }

    static int integer(long value) {
        int encoded;
        if (value >= 0 && value <= 127) {
            encoded = 1;
        } else if (value >= -4096 && value <= 4095) {
            encoded = 2;
        } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            encoded = 3;
        } else if (value >= -(1 << 23) && value < 1 << 23) {
            encoded = 4;
        } else if (value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE) {
            encoded = 5;
        } else {
            encoded = 9;
        }
        return encoded + backlen(encoded);
    }

    static long string(byte[] array, int offset, int length) {
        long integer = Listpack.canonicalValue(array, offset, length);
        if (integer != Long.MIN_VALUE || Listpack.isLongMinText(array, offset, length)) {
            return integer(integer);
        }
        long encoded = length < 64 ? 1 + length : length < 4096 ? 2 + length : 5L + length;
        return encoded + backlen(encoded);
    }

    private static int backlen(long encoded) {
        return encoded <= 127 ? 1 : encoded < 16383 ? 2 : encoded < 2097151 ? 3 : encoded < 268435455 ? 4 : 5;
    }
}
