package dev.lacewing.core.keyspace;

/**
 * Redis Cluster's key to hash-slot mapping: CRC16 (XMODEM) of the key, or of the part between the
 * first <code>{</code> and the next <code>}</code> when that part is not empty, modulo 16384. The
 * same routing serves shards inside one server and, later, a real cluster.
 */
public final class Slots {

    public static final int COUNT = 16384;

    private static final int[] TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            TABLE[i] = crc & 0xffff;
        }
    }

    private Slots() {
    }

    public static int slot(byte[] key, int offset, int length) {
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            if (key[i] == '{') {
                for (int j = i + 1; j < end; j++) {
                    if (key[j] == '}') {
                        if (j > i + 1) {
                            return crc16(key, i + 1, j) & (COUNT - 1);
                        }
                        break;
                    }
                }
                break;
            }
        }
        return crc16(key, offset, end) & (COUNT - 1);
    }

    static int crc16(byte[] bytes, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ bytes[i]) & 0xff]) & 0xffff;
        }
        return crc;
    }

    /** The partition of a slot when the keyspace has {@code partitions} partitions: contiguous slot ranges. */
    public static int partition(int slot, int partitions) {
        return (slot * partitions) >>> 14;
    }

    /** The partition of a key. */
    public static int partitionOf(byte[] key, int offset, int length, int partitions) {
        return partitions == 1 ? 0 : partition(slot(key, offset, length), partitions);
    }
}
