package dev.lacewing.core.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The packed member store of the large sorted-set form against a model (member -> score, and the
 * id each add returned), under seeded waves: members of varied lengths are added and re-scored,
 * then most of them removed in random order, so pages fall under half live and are compacted
 * (their live entries found through the index and moved) or dropped. Members run from 1 byte to
 * 300 (the length varint crosses 127) and now and then past 32 KiB (a page of their own). After
 * each phase every member is found under its id with its score and bytes, removed ones are not,
 * the live count is exact and the pages hold at most about twice the live bytes; the same with the
 * positions widened from ints to longs part-way.
 */
class MemberStoreModelTest {

    private static final int PAGE = 1 << 16;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42})
    void keepsEveryMemberThroughCompaction(long seed) {
        MemberStore store = new MemberStore();
        changeInWaves(store, new Random(seed));
        assertFalse(store.wide(), "a few MB of pages fit int positions");
    }

    /**
     * Past 2^16 pages (4 GiB) positions no longer fit an int: the store widens them to longs and
     * goes on. Shown with the limit lowered to a few pages, widening mid-way through the first wave.
     */
    @ParameterizedTest
    @ValueSource(longs = {4, 5})
    void widensPositionsPastTheNarrowPages(long seed) {
        MemberStore store = new MemberStore(3);
        changeInWaves(store, new Random(seed));
        assertTrue(store.wide());
    }

    private static void changeInWaves(MemberStore store, Random random) {
        Map<String, Double> scores = new HashMap<>();
        Map<String, Integer> ids = new HashMap<>();
        List<String> present = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        long highWater = 0;
        for (int wave = 0; wave < 5; wave++) {
            int target = 8000 + random.nextInt(4000);
            for (int step = 0; step < 100_000 && present.size() < target; step++) {
                if (!present.isEmpty() && random.nextInt(10) == 0) {
                    String member = present.get(random.nextInt(present.size()));
                    double score = random.nextGaussian();
                    store.setScore(ids.get(member), score);
                    scores.put(member, score);
                    continue;
                }
                String member = randomMember(random);
                if (scores.containsKey(member)) {
                    continue;
                }
                byte[] bytes = bytes(member);
                double score = random.nextInt(1000) - 500;
                assertEquals(-1, store.find(bytes, 0, bytes.length));
                ids.put(member, store.add(bytes, 0, bytes.length, score));
                scores.put(member, score);
                present.add(member);
            }
            check(store, scores, ids, removed);
            highWater = Math.max(highWater, store.pages().pageBytes());
            int keep = present.size() / 20;
            for (int step = 0; step < 100_000 && present.size() > keep; step++) {
                String member = present.remove(random.nextInt(present.size()));
                int at = present.size();
                store.remove(ids.remove(member));
                scores.remove(member);
                removed.add(member);
                assertEquals(at, store.size());
            }
            check(store, scores, ids, removed);
            long live = store.pages().liveBytes();
            long pages = store.pages().pageBytes();
            assertTrue(pages <= 2 * live + 3L * PAGE,
                "wave " + wave + ": " + pages + " page bytes for " + live + " live (at most " + highWater + " before)");
            removed.subList(0, Math.max(0, removed.size() - 2000)).clear();
        }
        for (String member : new ArrayList<>(present)) {
            store.remove(ids.remove(member));
        }
        assertEquals(0, store.size());
        assertEquals(0, store.pages().liveBytes());
        assertTrue(store.pages().pageBytes() <= PAGE + 16, "only the open page may stay: " + store.pages().pageBytes());
    }

    @Test
    void compactionMovesLiveEntriesAndKeepsTheirIds() {
        MemberStore store = new MemberStore();
        int count = 100_000;
        for (int i = 0; i < count; i++) {
            byte[] member = bytes("member:" + i);
            assertEquals(i, store.add(member, 0, member.length, i * 1.5));
        }
        long full = store.pages().pageBytes();
        for (int i = 0; i < count; i++) {
            if (i % 8 != 0) {
                store.remove(i);
            }
        }
        assertTrue(store.pages().pageBytes() < full / 2, store.pages().pageBytes() + " of " + full);
        for (int i = 0; i < count; i += 8) {
            byte[] member = bytes("member:" + i);
            assertEquals(i, store.find(member, 0, member.length));
            assertEquals(i * 1.5, store.score(i));
            assertArrayEquals(member, store.member(i));
        }
        byte[] fresh = bytes("fresh");
        int id = store.add(fresh, 0, fresh.length, 7);
        assertTrue(id < count && id % 8 != 0, "a removed member's id is reused: " + id);
    }

    /** A random member: 2 in 1000 over 32 KiB, a quarter 100 to 300 bytes, the rest 1 to 20. */
    static String randomMember(Random random) {
        int kind = random.nextInt(1000);
        int length = kind < 2 ? 33_000 + random.nextInt(8000)
            : kind < 250 ? 100 + random.nextInt(201)
            : 1 + random.nextInt(20);
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void check(MemberStore store, Map<String, Double> scores, Map<String, Integer> ids,
                              List<String> removed) {
        assertEquals(scores.size(), store.size());
        long live = 0;
        for (Map.Entry<String, Double> entry : scores.entrySet()) {
            byte[] member = bytes(entry.getKey());
            int id = ids.get(entry.getKey());
            assertEquals(id, store.find(member, 0, member.length));
            assertEquals(entry.getValue(), store.score(id));
            assertArrayEquals(member, store.member(id));
            assertEquals(member.length, store.memberLength(id));
            live += Varint.size(member.length) + member.length;
        }
        for (String gone : removed) {
            byte[] member = bytes(gone);
            if (!scores.containsKey(gone)) {
                assertEquals(-1, store.find(member, 0, member.length));
            }
        }
        assertEquals(live, store.pages().liveBytes());
    }
}
