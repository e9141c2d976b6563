package dev.lacewing.core.command;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** PartialQuicksort's contract; its tie order against Redis's pqsort is SortTiesReferenceTest's. */
class PartialQuicksortTest {

    @Test
    void rangeHoldsWhatAFullSortPutsThere() {
        Random random = new Random(42);
        for (int trial = 0; trial < 2000; trial++) {
            int size = 1 + random.nextInt(200);
            Integer[] values = new Integer[size];
            for (int i = 0; i < size; i++) {
                values[i] = random.nextInt(1 + random.nextInt(size));
            }
            Integer[] sorted = values.clone();
            Arrays.sort(sorted);
            int lrange = random.nextInt(size);
            int rrange = lrange + random.nextInt(size - lrange);
            PartialQuicksort.sort(values, Comparator.naturalOrder(), lrange, rrange);
            assertArrayEquals(Arrays.copyOfRange(sorted, lrange, rrange + 1),
                Arrays.copyOfRange(values, lrange, rrange + 1), "trial " + trial);
        }
    }

    @Test
    void sortsLargeOrderedInputWholly() {
        Integer[] values = new Integer[200_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = values.length - i;
        }
        Integer[] sorted = values.clone();
        Arrays.sort(sorted);
        PartialQuicksort.sort(values, Comparator.naturalOrder(), 1, values.length - 1);
        assertArrayEquals(sorted, values);
    }
}
