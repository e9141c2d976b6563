package dev.lacewing.core.persistence.rdb;

/**
 * DUMP's serialized value (cluster.c's createDumpPayload and verifyDumpPayload): the value in RDB
 * encoding ({@link RdbValueCodec}), then the RDB version as 2 little-endian bytes, then the CRC64
 * of everything before it, 8 bytes little-endian.
 *
 * <p>Stateless; runs on the thread that holds the key.
 */
public final class DumpPayload {

    /** The RDB version Redis 7.0 writes; payloads of a later version are refused. */
    public static final int RDB_VERSION = 10;
    private static final int FOOTER_BYTES = 10;

    private DumpPayload() {
    }

    /** The payload of a value; strings are LZF-compressed where that pays when {@code compress}. */
    public static byte[] create(Object value, boolean compress) {
        RdbOutput out = new RdbOutput(compress);
        RdbValueCodec.write(value, out);
        out.writeLittleEndian(RDB_VERSION, 2);
        byte[] body = out.toByteArray();
        out.writeLittleEndian(Crc64.update(0, body, 0, body.length), 8);
        return out.toByteArray();
    }

    /** verifyDumpPayload: long enough, a version Redis 7.0 reads, and a matching checksum. */
    public static boolean verify(byte[] payload, int offset, int length) {
        if (length < FOOTER_BYTES) {
            return false;
        }
        int footer = offset + length - FOOTER_BYTES;
        int version = (payload[footer] & 0xFF) | (payload[footer + 1] & 0xFF) << 8;
        if (version > RDB_VERSION) {
            return false;
        }
        long expected = 0;
        for (int i = 0; i < 8; i++) {
            expected |= (long) (payload[footer + 2 + i] & 0xFF) << 8 * i;
        }
        return Crc64.update(0, payload, offset, length - 8) == expected;
    }

    /**
     * The value of a payload {@link #verify} accepted, in the encoding {@code encodings} gives it.
     * As in restoreCommand, the value is read from a buffer of the whole payload, its footer
     * included, and bytes after the value are not looked at.
     *
     * @throws RdbFormatException when the value's encoding is not valid
     */
    public static Object restore(byte[] payload, int offset, int length, RdbValueCodec.Encodings encodings) {
        return RdbValueCodec.read(new RdbInput(payload, offset, length), encodings);
    }
}
