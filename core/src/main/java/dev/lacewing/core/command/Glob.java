package dev.lacewing.core.command;

/**
 * Redis's glob-style matching ({@code stringmatchlen} in util.c) over byte slices, for KEYS,
 * SCAN MATCH and CONFIG GET: {@code *}, {@code ?}, {@code [abc]}, {@code [^a-z]} and {@code \}
 * escapes, bytes compared as signed chars the way x86 C compares them, and its quirks kept
 * (an unterminated {@code [} class, {@code []} matching nothing, the empty string matching no
 * non-empty pattern, not even "*").
 *
 * <p>Redis recurses at each {@code *} and gives up as soon as a nested star has tried every
 * suffix; that is exactly the classic backtracking to the last star used here, without the
 * recursion, so a pattern of many stars cannot exhaust the thread's stack. O(pattern * string)
 * in the worst case.
 *
 * <p>Stateless; safe from any thread.
 */
public final class Glob {

    private static final int NO_MATCH = -1;

    private Glob() {
    }

    public static boolean matches(byte[] pattern, byte[] string, boolean nocase) {
        return matches(pattern, 0, pattern.length, string, 0, string.length, nocase);
    }

    public static boolean matches(byte[] pattern, int patternOffset, int patternLength,
                                  byte[] string, int stringOffset, int stringLength, boolean nocase) {
        if (stringLength == 0) {
            return patternLength == 0;
        }
        int patternEnd = patternOffset + patternLength;
        int stringEnd = stringOffset + stringLength;
        int p = patternOffset;
        int s = stringOffset;
        int starResume = -1;
        int starString = -1;
        while (true) {
            if (s == stringEnd) {
                while (p < patternEnd && pattern[p] == '*') {
                    p++;
                }
                if (p == patternEnd) {
                    return true;
                }
            } else if (p < patternEnd && pattern[p] == '*') {
                while (p + 1 < patternEnd && pattern[p + 1] == '*') {
                    p++;
                }
                if (p + 1 == patternEnd) {
                    return true;
                }
                starResume = p + 1;
                starString = s;
                p = starResume;
                continue;
            } else if (p < patternEnd) {
                int next = matchOne(pattern, p, patternEnd, string[s], nocase);
                if (next != NO_MATCH) {
                    p = next;
                    s++;
                    continue;
                }
            }
            /* A mismatch: let the last star swallow one more byte, if it can. */
            if (starResume < 0 || ++starString == stringEnd) {
                return false;
            }
            p = starResume;
            s = starString;
        }
    }

    /**
     * Matches the single-byte element at {@code p} ({@code ?}, a class, an escape or a literal)
     * against {@code c}; returns the index after the element, or {@link #NO_MATCH}.
     */
    private static int matchOne(byte[] pattern, int p, int end, byte c, boolean nocase) {
        switch (pattern[p]) {
            case '?':
                return p + 1;
            case '[':
                return matchClass(pattern, p + 1, end, c, nocase);
            case '\\':
                if (end - p >= 2) {
                    p++;
                }
                return equal(pattern[p], c, nocase) ? p + 1 : NO_MATCH;
            default:
                return equal(pattern[p], c, nocase) ? p + 1 : NO_MATCH;
        }
    }

    /**
     * A class whose first byte after '[' is at {@code p}. As in Redis: an escaped byte matches
     * exactly (even with nocase), "a-z" is a range in either order, and a class without its
     * closing ']' runs to the end of the pattern.
     */
    private static int matchClass(byte[] pattern, int p, int end, byte c, boolean nocase) {
        boolean negated = p < end && pattern[p] == '^';
        if (negated) {
            p++;
        }
        boolean match = false;
        while (true) {
            if (p < end && pattern[p] == '\\' && end - p >= 2) {
                p++;
                if (pattern[p] == c) {
                    match = true;
                }
            } else if (p < end && pattern[p] == ']') {
                break;
            } else if (p == end) {
                p--;
                break;
            } else if (end - p >= 3 && pattern[p + 1] == '-') {
                int start = pattern[p];
                int stop = pattern[p + 2];
                if (start > stop) {
                    int swap = start;
                    start = stop;
                    stop = swap;
                }
                int value = c;
                if (nocase) {
                    start = lower(start);
                    stop = lower(stop);
                    value = lower(value);
                }
                p += 2;
                if (value >= start && value <= stop) {
                    match = true;
                }
            } else if (equal(pattern[p], c, nocase)) {
                match = true;
            }
            p++;
        }
        return match != negated ? p + 1 : NO_MATCH;
    }

    private static boolean equal(byte patternByte, byte c, boolean nocase) {
        return patternByte == c || (nocase && lower(patternByte) == lower(c));
    }

    /** C's tolower in the C locale: only 'A'..'Z' change. */
    private static int lower(int c) {
        return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
    }
}
