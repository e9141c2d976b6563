package dev.lacewing.core.keyspace;

/**
 * Redis Cluster's key to hash-slot mapping: CRC16 (XMODEM) of the key, or of the part between the
 * first <code>{</code> and the next <code>}</code> when that part is not empty, modulo 16384. The
 * same routing serves shards inside one server and, later, a real cluster.
 */
public final class Slots {

    public static final int COUNT = 16384;

    private static final int[] TABLE = new int[256];
    /**
     * Two bytes a step: CRC is linear, so the second byte's lookup need not wait for the first's.
     * For the register {@code h:l}, two bytewise steps give {@code PAIR[h ^ b0] ^ TABLE[l ^ b1]},
     * where {@code PAIR[x] = (TABLE[x] & 0xff) << 8 ^ TABLE[TABLE[x] >>> 8]}: half the chain of
     * dependent loads the bytewise loop has. Every request with a key computes this.
     */
    private static final int[] PAIR = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            TABLE[i] = crc & 0xffff;
        }
        for (int i = 0; i < 256; i++) {
            PAIR[i] = (TABLE[i] & 0xff) << 8 ^ TABLE[TABLE[i] >>> 8];
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
        int i = from;
        for (; i + 1 < to; i += 2) {
            crc = PAIR[(crc >>> 8) ^ (bytes[i] & 0xff)] ^ TABLE[(crc & 0xff) ^ (bytes[i + 1] & 0xff)];
        }
        if (i < to) {
            crc = bytewise(crc, bytes[i]);
        }
        return crc;
    }

    /** One byte into the register: the definition {@link #crc16} is checked against. */
    static int bytewise(int crc, byte next) {
        return ((crc << 8) ^ TABLE[((crc >>> 8) ^ next) & 0xff]) & 0xffff;
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
