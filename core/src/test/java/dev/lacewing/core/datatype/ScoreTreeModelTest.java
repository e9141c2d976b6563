package dev.lacewing.core.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.datatype.HomeBucketScan;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The large form against a model (a HashMap of scores and a TreeMap ordered as Redis orders a
 * zset), under seeded random adds, score moves, removals and range removals, with every query
 * checked against the model at intervals. Few distinct scores make ties, so member order within a
 * score is exercised; thousands of members make a tree three levels deep with leaf and inner splits,
 * merges and redistributions.
 */
class ScoreTreeModelTest {

    private record Key(double score, String member) implements Comparable<Key> {
        @Override
        public int compareTo(Key other) {
            return SortedSet.compare(score, bytes(member), other.score, bytes(other.member));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String text(byte[] array, int offset, int length) {
        return new String(array, offset, length, StandardCharsets.ISO_8859_1);
    }

    private static void put(ScoreTree tree, String member, double score) {
        byte[] bytes = bytes(member);
        tree.put(bytes, 0, bytes.length, score);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42})
    void behavesAsTheModelUnderRandomOperations(long seed) {
        Random random = new Random(seed);
        ScoreTree tree = new ScoreTree();
        Map<String, Double> scores = new HashMap<>();
        TreeMap<Key, Boolean> order = new TreeMap<>();
        int universe = 6000;
        for (int step = 0; step < 40_000; step++) {
            int operation = random.nextInt(100);
            String member = "m" + random.nextInt(universe);
            if (operation < 60 - (step > 25_000 ? 35 : 0)) {
                double score = random.nextInt(50) - 25 + (random.nextBoolean() ? 0.5 : 0);
                Double old = scores.put(member, score);
                if (old != null) {
                    order.remove(new Key(old, member));
                }
                order.put(new Key(score, member), Boolean.TRUE);
                put(tree, member, score);
            } else if (operation < 97) {
                Double old = scores.remove(member);
                if (old != null) {
                    order.remove(new Key(old, member));
                }
                assertEquals(old != null, tree.remove(bytes(member), 0, member.length()));
            } else if (tree.size() > 0) {
                int from = random.nextInt(tree.size());
                int to = Math.min(tree.size() - 1, from + random.nextInt(200));
                List<Key> keys = new ArrayList<>(order.keySet()).subList(from, to + 1);
                for (Key key : new ArrayList<>(keys)) {
                    order.remove(key);
                    scores.remove(key.member);
                }
                tree.removeRange(from, to);
            }
            assertEquals(scores.size(), tree.size());
            if (step % 2000 == 0 || step == 39_999) {
                check(tree, scores, order, random);
            }
        }
    }

    /**
     * Members arriving in score order, rising or falling (then some removed at random), take the
     * append split at the tree's ends: the tree still answers as the model does, and is smaller
     * than the same members added in random order, whose leaves split in half.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void loadsInScoreOrderFillTheirLeaves(boolean rising) {
        int count = 20_000;
        ScoreTree ordered = new ScoreTree();
        Map<String, Double> scores = new HashMap<>();
        TreeMap<Key, Boolean> order = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            int n = rising ? i : count - 1 - i;
            String member = "m" + n;
            put(ordered, member, n * 1.5);
            scores.put(member, n * 1.5);
            order.put(new Key(n * 1.5, member), Boolean.TRUE);
        }
        Random random = new Random(7);
        check(ordered, scores, order, random);

        List<Integer> shuffled = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            shuffled.add(i);
        }
        Collections.shuffle(shuffled, random);
        ScoreTree unordered = new ScoreTree();
        for (int n : shuffled) {
            put(unordered, "m" + n, n * 1.5);
        }
        assertTrue(ordered.memoryUsage() < unordered.memoryUsage(),
            ordered.memoryUsage() + " bytes in order against " + unordered.memoryUsage() + " at random");

        for (int n : shuffled.subList(0, count * 3 / 4)) {
            String member = "m" + n;
            assertTrue(ordered.remove(bytes(member), 0, member.length()));
            order.remove(new Key(scores.remove(member), member));
        }
        check(ordered, scores, order, random);
    }

    /**
     * Packed members of every length (1 to 300 bytes, and past 32 KiB) in waves: filled with score
     * moves among the adds, then mostly removed in random order, which compacts and drops pages
     * under the tree; order, ranks, scores and the scan still answer as the model does.
     */
    @ParameterizedTest
    @ValueSource(longs = {5, 6})
    void packedMembersKeepTheirOrderThroughCompaction(long seed) {
        Random random = new Random(seed);
        ScoreTree tree = new ScoreTree();
        Map<String, Double> scores = new HashMap<>();
        TreeMap<Key, Boolean> order = new TreeMap<>();
        List<String> present = new ArrayList<>();
        for (int wave = 0; wave < 3; wave++) {
            for (int step = 0; step < 20_000 && present.size() < 4000; step++) {
                boolean move = !present.isEmpty() && random.nextInt(5) == 0;
                String member = move ? present.get(random.nextInt(present.size()))
                    : MemberStoreModelTest.randomMember(random);
                double score = random.nextInt(40) - 20;
                Double old = scores.put(member, score);
                if (old != null) {
                    order.remove(new Key(old, member));
                } else {
                    present.add(member);
                }
                order.put(new Key(score, member), Boolean.TRUE);
                put(tree, member, score);
            }
            check(tree, scores, order, random);
            for (int step = 0; step < 20_000 && present.size() > 200; step++) {
                String member = present.remove(random.nextInt(present.size()));
                order.remove(new Key(scores.remove(member), member));
                assertTrue(tree.remove(bytes(member), 0, member.length()));
            }
            check(tree, scores, order, random);
        }
    }

    private static void check(ScoreTree tree, Map<String, Double> scores, TreeMap<Key, Boolean> order, Random random) {
        List<Key> keys = new ArrayList<>(order.keySet());
        List<String> visited = new ArrayList<>();
        if (tree.size() > 0) {
            tree.visit(0, tree.size() - 1, false,
                (array, offset, length, score) -> visited.add(text(array, offset, length)));
        }
        assertEquals(keys.stream().map(Key::member).toList(), visited);
        List<String> reversed = new ArrayList<>();
        if (tree.size() > 0) {
            tree.visit(0, tree.size() - 1, true,
                (array, offset, length, score) -> reversed.add(text(array, offset, length)));
        }
        List<String> expectedReversed = new ArrayList<>(keys.stream().map(Key::member).toList());
        Collections.reverse(expectedReversed);
        assertEquals(expectedReversed, reversed);
        for (int i = 0; i < keys.size(); i++) {
            Key key = keys.get(i);
            assertEquals(i, tree.rank(bytes(key.member), 0, key.member.length()));
            assertEquals(key.score, tree.scoreAt(i));
            assertArrayEquals(bytes(key.member), tree.memberAt(i));
            assertEquals(key.score, tree.score(bytes(key.member), 0, key.member.length()));
        }
        for (int probe = 0; probe < 50; probe++) {
            double bound = random.nextInt(60) - 30 + (random.nextBoolean() ? 0.5 : 0);
            long below = keys.stream().filter(k -> k.score < bound).count();
            long atMost = keys.stream().filter(k -> k.score <= bound).count();
            assertEquals(below, tree.countByScore(bound, false));
            assertEquals(atMost, tree.countByScore(bound, true));
        }
        assertEquals(-1, tree.rank(bytes("absent"), 0, 6));
        assertTrue(Double.isNaN(tree.score(bytes("absent"), 0, 6)));
        Set<String> scanned = new HashSet<>();
        long cursor = 0;
        int steps = 0;
        do {
            cursor = HomeBucketScan.scan(tree.indexCapacity(), tree.indexLength(), cursor, 7,
                tree::slotOccupied, tree.slotHome(),
                slot -> tree.visitSlot(slot,
                    (array, offset, length, score) -> scanned.add(text(array, offset, length))));
        } while (cursor != 0 && ++steps < 1_000_000);
        assertEquals(scores.keySet(), scanned);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 63, 64, 65, 4096, 5000})
    void lexCountsFollowMemberOrderWhenScoresAreEqual(int size) {
        ScoreTree tree = new ScoreTree();
        TreeMap<String, Boolean> model = new TreeMap<>();
        for (int i = 0; i < size; i++) {
            String member = String.format("k%05d", i * 7 % size);
            put(tree, member, 0);
            model.put(member, Boolean.TRUE);
        }
        for (int i = 0; i <= size; i += Math.max(1, size / 40)) {
            String bound = String.format("k%05d", i);
            assertEquals(model.headMap(bound, false).size(), tree.countByMember(bytes(bound), false));
            assertEquals(model.headMap(bound, true).size(), tree.countByMember(bytes(bound), true));
        }
    }
}
