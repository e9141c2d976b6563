package dev.lacewing.storage.compact;

/**
 * The hash of a key in {@link CompactTable}: FNV-1a over the bytes, then murmur3's finalizer, so
 * that the low bits the index masks with are well mixed. The same function as core's TableHash
 * (kept apart so that this module needs the API only); a snapshot's walk does not depend on it
 * being the same, since it asks the table ({@link CompactTable#visited}). Stateless.
 */
final class KeyHash {

    private KeyHash() {
    }

    static int of(byte[] key, int offset, int length) {
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
