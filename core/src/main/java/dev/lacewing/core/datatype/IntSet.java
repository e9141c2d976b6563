package dev.lacewing.core.datatype;

import java.util.Arrays;

/**
 * Redis's intset: a sorted array of distinct integers, all stored at one width (2, 4 or 8 bytes,
 * little-endian) in one {@code byte[]}, the width being the smallest that holds every member. An
 * add that needs a wider width rewrites the whole array at that width (an upgrade is never undone,
 * as in Redis). Lookups are binary searches, O(log n); adds and removes move the tail, O(n), which
 * the {@code set-max-intset-entries} bound keeps small. Iteration order is ascending, as Redis's.
 *
 * <p>Thread rule: belongs to the set value holding it, touched only by the thread the engine
 * gives the command on that key.
 */
public final class IntSet {

    /** Object header, three fields, and the array's header. */
    private static final long FIXED_BYTES = 24 + 16;

    private byte[] bytes;
    private int width;
    private int size;

    public IntSet() {
        this.bytes = new byte[0];
        this.width = 2;
    }

    private IntSet(byte[] bytes, int width, int size) {
        this.bytes = bytes;
        this.width = width;
        this.size = size;
    }

    public int size() {
        return size;
    }

    /** The member at an index, in ascending order. */
    public long get(int index) {
        int at = index * width;
        return switch (width) {
            case 2 -> (short) (bytes[at] & 0xFF | bytes[at + 1] << 8);
            case 4 -> bytes[at] & 0xFF | (bytes[at + 1] & 0xFF) << 8 | (bytes[at + 2] & 0xFF) << 16 | bytes[at + 3] << 24;
            default -> {
                long value = 0;
                for (int i = 7; i >= 0; i--) {
                    value = value << 8 | (bytes[at + i] & 0xFF);
                }
                yield value;
            }
        };
    }

    private static void put(byte[] bytes, int width, int index, long value) {
        int at = index * width;
        for (int i = 0; i < width; i++) {
            bytes[at + i] = (byte) (value >>> (8 * i));
        }
    }

    public boolean contains(long value) {
        return widthOf(value) <= width && search(value) >= 0;
    }

    /** Adds a member; false when present. */
    public boolean add(long value) {
        int needed = widthOf(value);
        if (needed > width) {
            upgrade(needed);
        }
        int found = search(value);
        if (found >= 0) {
            return false;
        }
        int index = -found - 1;
        byte[] grown = bytes;
        if ((size + 1) * width > bytes.length) {
            // Grow by a quarter: Redis reallocates exactly, but a Java array cannot shrink or grow in place.
            grown = Arrays.copyOf(bytes, Math.max(width * 4, (size + 1 + size / 4) * width));
        }
        System.arraycopy(bytes, index * width, grown, (index + 1) * width, (size - index) * width);
        bytes = grown;
        put(bytes, width, index, value);
        size++;
        return true;
    }

    /** Removes a member; false when absent. */
    public boolean remove(long value) {
        if (widthOf(value) > width) {
            return false;
        }
        int index = search(value);
        if (index < 0) {
            return false;
        }
        System.arraycopy(bytes, (index + 1) * width, bytes, index * width, (size - index - 1) * width);
        size--;
        if (size * width * 2 < bytes.length && bytes.length > width * 8) {
            bytes = Arrays.copyOf(bytes, size * width + width * 2);
        }
        return true;
    }

    public IntSet copy() {
        return new IntSet(Arrays.copyOf(bytes, size * width), width, size);
    }

    public long memoryUsage() {
        return FIXED_BYTES + bytes.length;
    }

    /** The width of the members: 2, 4 or 8 bytes. */
    public int width() {
        return width;
    }

    /** The index of a value, or -(insertion point) - 1. */
    private int search(long value) {
        int low = 0;
        int high = size - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            long found = get(middle);
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
     * Rewrites every member at a wider width. The value that forced it lies outside the old range,
     * so it goes first (negative) or last; {@link #add} then finds that place by searching.
     */
    private void upgrade(int newWidth) {
        byte[] wider = new byte[(size + 1) * newWidth];
        for (int i = 0; i < size; i++) {
            put(wider, newWidth, i, get(i));
        }
        bytes = wider;
        width = newWidth;
    }

    private static int widthOf(long value) {
        if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            return 2;
        }
        return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? 4 : 8;
    }
}
