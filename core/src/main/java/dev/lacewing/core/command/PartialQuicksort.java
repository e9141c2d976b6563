package dev.lacewing.core.command;

import java.util.Comparator;

/**
 * Redis's pqsort (pqsort.c, after NetBSD's qsort, Bentley and McIlroy's "Engineering a Sort
 * Function"): a quicksort that sorts only as far as a range of positions needs. Parts of a
 * partition lying wholly outside [lrange, rrange] are left unsorted, so the positions inside the
 * range end up holding what a full sort would put there. It is not stable: SORT and the geo
 * searches use it where Redis does, so that elements comparing equal come out in the order Redis
 * gives them.
 *
 * <p>The algorithm is pqsort's, step for step: insertion sort below 7 elements; pivot the middle
 * element, the median of three (first, middle, last) above 7, the median of three medians of three
 * above 40; elements equal to the pivot swapped to both ends while partitioning, then swapped into
 * the middle. One difference: pqsort recurses into the lower part and loops on the upper one, this
 * port recurses into the smaller and loops on the larger, which keeps the stack O(log n). The
 * parts are disjoint, so the order they are sorted in does not change the result.
 *
 * <p>Stateless; sorts the caller's array in place on the caller's thread.
 */
public final class PartialQuicksort {

    private PartialQuicksort() {
    }

    /**
     * Orders {@code a} so that positions {@code lrange..rrange} hold what sorting all of it by
     * {@code cmp} would put there, as pqsort does. O(n log n) expected.
     */
    public static <T> void sort(T[] a, Comparator<? super T> cmp, int lrange, int rrange) {
        sort(a, 0, a.length, cmp, lrange, rrange);
    }

    /** _pqsort on the {@code n} elements from {@code base}. */
    private static <T> void sort(T[] a, int base, int n, Comparator<? super T> cmp, int lrange, int rrange) {
        while (true) {
            if (n < 7) {
                insertionSort(a, base, n, cmp);
                return;
            }
            swap(a, base, pivot(a, base, n, cmp));
            int pa = base + 1;
            int pb = pa;
            int pc = base + n - 1;
            int pd = pc;
            while (true) {
                int result;
                while (pb <= pc && (result = cmp.compare(a[pb], a[base])) <= 0) {
                    if (result == 0) {
                        swap(a, pa++, pb);
                    }
                    pb++;
                }
                while (pb <= pc && (result = cmp.compare(a[pc], a[base])) >= 0) {
                    if (result == 0) {
                        swap(a, pc, pd--);
                    }
                    pc--;
                }
                if (pb > pc) {
                    break;
                }
                swap(a, pb++, pc--);
            }
            int pn = base + n;
            int r = Math.min(pa - base, pb - pa);
            swapRuns(a, base, pb - r, r);
            r = Math.min(pd - pc, pn - pd - 1);
            swapRuns(a, pb, pn - r, r);
            // The elements below the pivot's value now lie at base.., those above it at ..pn.
            int lowerLength = pb - pa;
            int upperLength = pd - pc;
            int upperBase = pn - upperLength;
            boolean lower = lowerLength > 1 && overlaps(base, lowerLength, lrange, rrange);
            boolean upper = upperLength > 1 && overlaps(upperBase, upperLength, lrange, rrange);
            if (lower && upper) {
                if (lowerLength <= upperLength) {
                    sort(a, base, lowerLength, cmp, lrange, rrange);
                    base = upperBase;
                    n = upperLength;
                } else {
                    sort(a, upperBase, upperLength, cmp, lrange, rrange);
                    n = lowerLength;
                }
            } else if (lower) {
                n = lowerLength;
            } else if (upper) {
                base = upperBase;
                n = upperLength;
            } else {
                return;
            }
        }
    }

    /**
     * The pivot's position: the middle one; for more than 7 elements the median of the first,
     * middle and last, each of those the median of three spread by n / 8 for more than 40.
     */
    private static <T> int pivot(T[] a, int base, int n, Comparator<? super T> cmp) {
        int pm = base + n / 2;
        if (n > 7) {
            int pl = base;
            int pn = base + n - 1;
            if (n > 40) {
                int d = n / 8;
                pl = median(a, pl, pl + d, pl + 2 * d, cmp);
                pm = median(a, pm - d, pm, pm + d, cmp);
                pn = median(a, pn - 2 * d, pn - d, pn, cmp);
            }
            pm = median(a, pl, pm, pn, cmp);
        }
        return pm;
    }

    /** med3: the position of the median of three, ties resolved exactly as pqsort resolves them. */
    private static <T> int median(T[] a, int x, int y, int z, Comparator<? super T> cmp) {
        if (cmp.compare(a[x], a[y]) < 0) {
            return cmp.compare(a[y], a[z]) < 0 ? y : cmp.compare(a[x], a[z]) < 0 ? z : x;
        }
        return cmp.compare(a[y], a[z]) > 0 ? y : cmp.compare(a[x], a[z]) < 0 ? x : z;
    }

    private static <T> void insertionSort(T[] a, int base, int n, Comparator<? super T> cmp) {
        for (int m = base + 1; m < base + n; m++) {
            for (int l = m; l > base && cmp.compare(a[l - 1], a[l]) > 0; l--) {
                swap(a, l, l - 1);
            }
        }
    }

    /** Whether the {@code length} positions from {@code from} and [lrange, rrange] meet, as pqsort tests it. */
    private static boolean overlaps(int from, int length, int lrange, int rrange) {
        int to = from + length - 1;
        return !((lrange < from && rrange < from) || (lrange > to && rrange > to));
    }

    /** vecswap: swaps the {@code count} elements from {@code i} with those from {@code j}, pairwise. */
    private static <T> void swapRuns(T[] a, int i, int j, int count) {
        for (int k = 0; k < count; k++) {
            swap(a, i + k, j + k);
        }
    }

    private static <T> void swap(T[] a, int i, int j) {
        T t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
