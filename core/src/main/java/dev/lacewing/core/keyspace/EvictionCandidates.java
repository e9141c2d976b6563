package dev.lacewing.core.keyspace;

/**
 * Receives the keys a table samples for eviction ({@link DatabaseTable#sample}). The key is a
 * slice valid only during the call: a receiver that keeps it copies it.
 */
@FunctionalInterface
public interface EvictionCandidates {

    void offer(byte[] key, int keyOffset, int keyLength, int access, long expireAt);
}
