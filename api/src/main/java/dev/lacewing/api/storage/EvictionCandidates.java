package dev.lacewing.api.storage;

/**
 * Receives the keys a table samples for eviction ({@link Table#sample}). The key is a slice valid
 * only during the call: a receiver that keeps it copies it.
 */
@FunctionalInterface
public interface EvictionCandidates {

    void offer(byte[] key, int keyOffset, int keyLength, int access, long expireAt);
}
