package dev.lacewing.core.persistence.rdb;

/**
 * Redis's CRC-64 (crc64.c, the Jones polynomial 0xad93d23594c935a9, reflected, no final xor):
 * the checksum of RDB files and DUMP payloads. {@code crc64(0, "123456789")} is 0xe9c6d914c4b8d9ca.
 *
 * <p>Stateless and thread-safe; the table is built once.
 */
public final class Crc64 {

    /** The Jones polynomial, bit-reversed for the reflected algorithm. */
    private static final long REFLECTED_POLYNOMIAL = 0x95AC9329AC4BC9B5L;
    private static final long[] TABLE = new long[256];

    static {
        for (int i = 0; i < 256; i++) {
            long crc = i;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 1) != 0 ? crc >>> 1 ^ REFLECTED_POLYNOMIAL : crc >>> 1;
            }
            TABLE[i] = crc;
        }
    }

    private Crc64() {
    }

    /** The checksum of {@code length} bytes from {@code offset}, continuing from {@code crc}. */
    public static long update(long crc, byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            crc = TABLE[(int) (crc ^ bytes[i]) & 0xFF] ^ crc >>> 8;
        }
        return crc;
    }
}
