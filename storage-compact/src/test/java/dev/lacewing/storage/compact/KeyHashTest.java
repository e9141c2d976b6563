package dev.lacewing.storage.compact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link KeyHash}: word-at-a-time hashing, at every length and offset a key may have. */
class KeyHashTest {

    private static final int LONGEST = 70;

    @Test
    void hashDependsOnTheSliceOnlyAndOnEveryByteOfIt() {
        Random random = new Random(17);
        for (int length = 0; length <= LONGEST; length++) {
            byte[] key = new byte[length];
            random.nextBytes(key);
            byte[] framed = new byte[length + 13];
            random.nextBytes(framed);
            System.arraycopy(key, 0, framed, 6, length);
            int hash = KeyHash.of(key, 0, length);
            assertEquals(hash, KeyHash.of(framed, 6, length), "length " + length);
            for (int at = 0; at < length; at++) {
                key[at] ^= 1;
                assertTrue(hash != KeyHash.of(key, 0, length), "length " + length + ", byte " + at);
                key[at] ^= 1;
            }
        }
    }

    /**
     * Keys as redis-benchmark and memtier name them (a prefix and a decimal number) spread over the
     * low bits the index's homes and tags take: 100,000 such keys fill every one of 4,096 homes and
     * share their 24 low bits with few others.
     */
    @Test
    void numberedKeysSpreadOverTheLowBits() {
        int keys = 100_000;
        int[] homes = new int[4096];
        Set<Integer> tags = new HashSet<>();
        for (int i = 0; i < keys; i++) {
            byte[] key = String.format("key:%012d", i).getBytes(StandardCharsets.US_ASCII);
            int hash = KeyHash.of(key, 0, key.length);
            homes[hash & 4095]++;
            tags.add(hash & 0xffffff);
        }
        int fullest = Arrays.stream(homes).max().orElseThrow();
        int emptiest = Arrays.stream(homes).min().orElseThrow();
        // Uniform: about 24.4 a home, with a standard deviation near 5.
        assertTrue(emptiest >= 3 && fullest <= 60, "homes hold " + emptiest + " to " + fullest);
        // Uniform over 2^24: about 300 keys share a tag with another.
        assertTrue(tags.size() > keys - 1_000, tags.size() + " distinct 24-bit tags");
    }
}
