package dev.lacewing.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeySequenceTest {

    @Test
    void sequentialCountsFromTheMinimumAndWrapsAfterTheMaximum() {
        KeySequence keys = KeySequence.of(KeyPattern.SEQUENTIAL, 5, 7, 0, 0, 3, 10, new SplittableRandom(1));
        long[] expected = {5, 6, 7, 5, 6};
        for (long key : expected) {
            assertEquals(key, keys.next());
        }
    }

    @Test
    void randomStaysInTheInclusiveRangeAndReachesBothEnds() {
        KeySequence keys = KeySequence.of(KeyPattern.RANDOM, 10, 13, 0, 0, 0, 1, new SplittableRandom(1));
        boolean[] seen = new boolean[4];
        for (int i = 0; i < 1000; i++) {
            long key = keys.next();
            assertTrue(key >= 10 && key <= 13, Long.toString(key));
            seen[(int) (key - 10)] = true;
        }
        assertTrue(seen[0] && seen[1] && seen[2] && seen[3]);
    }

    @Test
    void gaussianCentresOnTheMedianWithASixthOfTheRangeAsStddevByDefault() {
        KeySequence keys = KeySequence.of(KeyPattern.GAUSSIAN, 0, 60_000, 0, 0, 0, 1, new SplittableRandom(7));
        int n = 100_000;
        double sum = 0;
        double squares = 0;
        for (int i = 0; i < n; i++) {
            long key = keys.next();
            assertTrue(key >= 0 && key <= 60_000);
            sum += key;
            squares += (double) key * key;
        }
        double mean = sum / n;
        double stddev = Math.sqrt(squares / n - mean * mean);
        assertEquals(30_000, mean, 200);
        assertEquals(10_000, stddev, 300);
    }

    @Test
    void gaussianHonoursMedianAndStddev() {
        KeySequence keys = KeySequence.of(KeyPattern.GAUSSIAN, 0, 1_000_000, 100, 2_000, 0, 1, new SplittableRandom(7));
        double sum = 0;
        for (int i = 0; i < 10_000; i++) {
            long key = keys.next();
            assertTrue(Math.abs(key - 2_000) < 1_000, Long.toString(key));
            sum += key;
        }
        assertEquals(2_000, sum / 10_000, 5);
    }

    @Test
    void parallelGivesEachClientItsOwnSliceAndTheLastTheRest() {
        // memtier's slice: (max - min) / clients + 1 keys = 34 over [1, 100] for 3 clients
        KeySequence first = KeySequence.of(KeyPattern.PARALLEL, 1, 100, 0, 0, 0, 3, new SplittableRandom(1));
        KeySequence second = KeySequence.of(KeyPattern.PARALLEL, 1, 100, 0, 0, 1, 3, new SplittableRandom(1));
        KeySequence last = KeySequence.of(KeyPattern.PARALLEL, 1, 100, 0, 0, 2, 3, new SplittableRandom(1));
        assertEquals(1, first.minimum());
        assertEquals(34, first.maximum());
        assertEquals(35, second.minimum());
        assertEquals(68, second.maximum());
        assertEquals(69, last.minimum());
        assertEquals(100, last.maximum());
        assertEquals(35, second.next());
        assertEquals(36, second.next());
    }

    @Test
    void theSameSeedGivesTheSameKeys() {
        KeySequence a = KeySequence.of(KeyPattern.RANDOM, 0, 1_000_000, 0, 0, 0, 2, new SplittableRandom(42));
        KeySequence b = KeySequence.of(KeyPattern.RANDOM, 0, 1_000_000, 0, 0, 1, 2, new SplittableRandom(42));
        for (int i = 0; i < 100; i++) {
            assertEquals(a.next(), b.next());
        }
    }
}
