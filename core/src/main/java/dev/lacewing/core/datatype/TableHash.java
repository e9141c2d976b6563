package dev.lacewing.core.datatype;

/**
 * The hash of a key, field or member in Lacewing's open-addressing tables (the keyspace's key
 * tables, {@link PackedTable}, {@link MemberStore}): FNV-1a over the bytes, then murmur3's
 * finalizer, so that the low bits a table masks with are well mixed. Stateless.
 */
public final class TableHash {

    private TableHash() {
    }

    public static int of(byte[] key, int offset, int length) {
        int h = 0x9747b28c ^ length;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            h = (h ^ key[i]) * 0x01000193;
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
