package dev.lacewing.core.command;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.core.command.Numbers.InvalidNumber;

/**
 * Element indexes as LRANGE, LTRIM, LINDEX, LSET, ZRANGE and ZREMRANGEBYRANK read them: integers,
 * a negative one counting from the end (-1 is the last element); and the byte or bit offsets of
 * GETRANGE, BITCOUNT and BITPOS, which clamp an end before the start to 0 where a list range is empty.
 *
 * @param start the first index asked for
 * @param end the last index asked for, inclusive
 */
public record IndexRange(long start, long end) {

    /**
     * The integers at arguments {@code first} and {@code first + 1}; null once the error reply is
     * written. Where Redis reads them, before the key or (BITCOUNT) after it, is the caller's.
     */
    public static IndexRange parse(CommandContext ctx, int first) {
        Arguments args = ctx.arguments();
        try {
            return new IndexRange(Numbers.parseLong(args.array(), args.offset(first), args.length(first)),
                Numbers.parseLong(args.array(), args.offset(first + 1), args.length(first + 1)));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return null;
        }
    }

    /**
     * This range over {@code size} elements (listTypeRange, zrangeGeneric): negative indexes
     * counted from the end, the start raised to 0 and the end cut to the last element; null when
     * no element falls in it.
     */
    public IndexRange within(long size) {
        long first = Math.max(0, start < 0 ? size + start : start);
        long last = end < 0 ? size + end : end;
        if (first > last || first >= size) {
            return null;
        }
        return new IndexRange(first, Math.min(last, size - 1));
    }

    /**
     * A start index over {@code size} bytes (or bits) as GETRANGE, BITCOUNT and BITPOS clamp it:
     * counted from the end when negative, then raised to 0.
     */
    public static long clampStart(long start, long size) {
        return Math.max(start < 0 ? start + size : start, 0);
    }

    /**
     * An end index over {@code size} bytes (or bits) as GETRANGE, BITCOUNT and BITPOS clamp it:
     * counted from the end when negative, raised to 0, then cut to the last one (-1 when size is 0).
     */
    public static long clampEnd(long end, long size) {
        return Math.min(Math.max(end < 0 ? end + size : end, 0), size - 1);
    }

    /** One index over {@code size} elements, counted from the end when negative; -1 when out of range. */
    public static long element(long index, long size) {
        long at = index < 0 ? size + index : index;
        return at >= 0 && at < size ? at : -1;
    }
}
