package dev.lacewing.core.datatype;

/**
 * Redis's intset (intset.c) as one exactly sized {@code byte[]}: byte 0 is the width (2, 4 or 8
 * bytes, the smallest that holds every member), then the members, sorted and distinct, each
 * little-endian at that width; the size is {@code (length - 1) / width}. An add that needs a wider
 * width rewrites every member at that width (an upgrade is never undone, as in Redis).
 *
 * <p>The array is the whole set, with no object around it and no slack: a set of 10 small
 * integers is one 40-byte array beside its {@link SetValue}, where an object holding a grown array
 * cost about 30 bytes more per set (issue 5's small-set memory target). As Redis's intsetAdd and
 * intsetRemove return the blob they reallocated, {@link #add} and {@link #remove} return a new
 * array and never write the one they are given: callers keep the result, and copies may share an
 * array. Lookups are binary searches, O(log n); adds and removes copy the array, O(n), which the
 * {@code set-max-intset-entries} bound keeps small. Iteration order is ascending, as Redis's.
 *
 * <p>Thread rule: no state of its own; an array belongs to the set value holding it, touched only
 * by the thread the engine gives the command on that key.
 */
public final class IntSet {

    /** Array header with compressed oops; arrays are 8-byte aligned. */
    private static final long ARRAY_HEADER_BYTES = 16;

    /** The empty intset at the narrowest width; shared, as no array here is ever written twice. */
    private static final byte[] EMPTY = {2};

    private IntSet() {
    }

    /** An empty intset. */
    public static byte[] empty() {
        return EMPTY;
    }

    public static int size(byte[] set) {
        return (set.length - 1) / set[0];
    }

    /** The width of the members: 2, 4 or 8 bytes. */
    public static int width(byte[] set) {
        return set[0];
    }

    /** Heap bytes of the array, header and alignment included. */
    public static long memoryUsage(byte[] set) {
        return (ARRAY_HEADER_BYTES + set.length + 7) & ~7L;
    }

    /** The member at an index, in ascending order. */
    public static long get(byte[] set, int index) {
        int width = set[0];
        int at = 1 + index * width;
        return switch (width) {
            case 2 -> (short) (set[at] & 0xFF | set[at + 1] << 8);
            case 4 -> set[at] & 0xFF | (set[at + 1] & 0xFF) << 8 | (set[at + 2] & 0xFF) << 16 | set[at + 3] << 24;
            default -> {
                long value = 0;
                for (int i = 7; i >= 0; i--) {
                    value = value << 8 | (set[at + i] & 0xFF);
                }
                yield value;
            }
        };
    }

    public static boolean contains(byte[] set, long value) {
        return widthOf(value) <= set[0] && search(set, value) >= 0;
    }

    /** The set with a member added: a new array, or {@code set} itself when the member is there. */
    public static byte[] add(byte[] set, long value) {
        int needed = widthOf(value);
        if (needed > set[0]) {
            return upgradeAndAdd(set, needed, value);
        }
        int found = search(set, value);
        if (found >= 0) {
            return set;
        }
        int width = set[0];
        int at = 1 + (-found - 1) * width;
        byte[] added = new byte[set.length + width];
        System.arraycopy(set, 0, added, 0, at);
        System.arraycopy(set, at, added, at + width, set.length - at);
        put(added, at, width, value);
        return added;
    }

    /** The set without a member: a new array, or {@code set} itself when the member is absent. */
    public static byte[] remove(byte[] set, long value) {
        if (widthOf(value) > set[0]) {
            return set;
        }
        int index = search(set, value);
        return index < 0 ? set : removeAt(set, index);
    }

    /** The set without the member at an index, as a new array. */
    public static byte[] removeAt(byte[] set, int index) {
        int width = set[0];
        int at = 1 + index * width;
        byte[] removed = new byte[set.length - width];
        System.arraycopy(set, 0, removed, 0, at);
        System.arraycopy(set, at + width, removed, at, removed.length - at);
        return removed;
    }

    private static void put(byte[] set, int at, int width, long value) {
        for (int i = 0; i < width; i++) {
            set[at + i] = (byte) (value >>> (8 * i));
        }
    }

    /** The index of a value, or -(insertion point) - 1. */
    private static int search(byte[] set, long value) {
        int low = 0;
        int high = size(set) - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            long found = get(set, middle);
            if (found < value) {
                low = middle + 1;
            } else if (found > value) {
                high = middle - 1;
            } else {
                return middle;
            }
        }
        return -(low + 1);
    }

    /**
     * Rewrites every member at a wider width with the value that needs it. That value lies outside
     * the old range, so it goes first (negative) or last (intsetUpgradeAndAdd).
     */
    private static byte[] upgradeAndAdd(byte[] set, int width, long value) {
        int size = size(set);
        byte[] wider = new byte[1 + (size + 1) * width];
        wider[0] = (byte) width;
        int shift = value < 0 ? 1 : 0;
        for (int i = 0; i < size; i++) {
            put(wider, 1 + (i + shift) * width, width, get(set, i));
        }
        put(wider, value < 0 ? 1 : 1 + size * width, width, value);
        return wider;
    }

    private static int widthOf(long value) {
        if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            return 2;
        }
        return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? 4 : 8;
    }
}
