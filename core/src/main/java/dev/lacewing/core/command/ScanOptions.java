package dev.lacewing.core.command;

import dev.lacewing.api.AggregateType;
import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.storage.Aggregate;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import java.util.Collection;
import java.util.function.LongUnaryOperator;

/**
 * The options of SCAN, HSCAN, SSCAN and ZSCAN, read as Redis's one scanGenericCommand reads them:
 * {@code COUNT} a positive integer, {@code MATCH} a pattern and, for SCAN alone, {@code TYPE}; each
 * takes a value, and anything else is a syntax error.
 *
 * @param count how many elements a call aims to gather
 * @param pattern the argument index of the MATCH pattern, 0 when none
 * @param type the argument index of the TYPE name, 0 when none
 */
public record ScanOptions(long count, int pattern, int type) {

    public static final long DEFAULT_COUNT = 10;
    /** ULONG_MAX / 10, for strtoul's overflow check. */
    private static final long CURSOR_LIMIT = Long.divideUnsigned(-1L, 10);

    /**
     * The cursor at argument {@code argument}, as parseScanCursorOrReply reads it (an unsigned
     * 64-bit number); null once the error reply is written.
     */
    public static Long cursor(CommandContext ctx, int argument) {
        Arguments args = ctx.arguments();
        try {
            return parseCursor(args.array(), args.offset(argument), args.length(argument));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.INVALID_CURSOR);
            return null;
        }
    }

    /**
     * What HSCAN, SSCAN and ZSCAN scan, read in scanGenericCommand's order of checks.
     *
     * @param cursor where the scan resumes
     * @param value the aggregate at the key
     * @param options the options after the cursor
     */
    public record KeyScan<T extends Aggregate>(long cursor, T value, ScanOptions options) {
    }

    /**
     * The cursor (argument 2), then the key (argument 1) as {@code type}, then the options from
     * argument 3; null once a reply is written: an error, or the empty scan of a missing key.
     */
    public static <T extends Aggregate> KeyScan<T> ofKey(CommandContext ctx, AggregateType<T> type) {
        Long cursor = cursor(ctx, 2);
        if (cursor == null) {
            return null;
        }
        Arguments args = ctx.arguments();
        T value = ctx.keyspace().aggregate(args.array(), args.offset(1), args.length(1), type);
        if (value == null) {
            replyEmpty(ctx.reply());
            return null;
        }
        ScanOptions options = parse(ctx, 3, false);
        return options == null ? null : new KeyScan<>(cursor, value, options);
    }

    /** Redis's shared.emptyscan: cursor 0 and no element, the reply for a missing key. */
    public static void replyEmpty(ReplyWriter reply) {
        replyHead(reply, 0, 0);
    }

    /** The head of a scan reply: the next cursor, then an array of {@code elements} the caller writes. */
    public static void replyHead(ReplyWriter reply, long cursor, int elements) {
        reply.array(2);
        reply.bulk(Long.toUnsignedString(cursor));
        reply.array(elements);
    }

    /** The options from argument {@code first} on; null once the error reply is written. */
    public static ScanOptions parse(CommandContext ctx, int first, boolean allowType) {
        Arguments args = ctx.arguments();
        long count = DEFAULT_COUNT;
        int pattern = 0;
        int type = 0;
        for (int i = first; i < args.count(); i += 2) {
            boolean hasValue = i + 1 < args.count();
            if (hasValue && args.is(i, "COUNT")) {
                try {
                    count = Numbers.parseLong(args.array(), args.offset(i + 1), args.length(i + 1));
                } catch (InvalidNumber e) {
                    ctx.reply().error(Errors.NOT_INTEGER);
                    return null;
                }
                if (count < 1) {
                    ctx.reply().error(Errors.SYNTAX);
                    return null;
                }
            } else if (hasValue && args.is(i, "MATCH")) {
                pattern = i + 1;
            } else if (allowType && hasValue && args.is(i, "TYPE")) {
                type = i + 1;
            } else {
                ctx.reply().error(Errors.SYNTAX);
                return null;
            }
        }
        return new ScanOptions(count, pattern, type);
    }

    /** Whether MATCH lets {@code element} through: always without MATCH or with the pattern "*". */
    public boolean matches(Arguments args, byte[] element) {
        return matches(args, element, 0, element.length);
    }

    /** {@link #matches(Arguments, byte[])} of an element's slice. */
    public boolean matches(Arguments args, byte[] element, int elementOffset, int elementLength) {
        if (pattern == 0) {
            return true;
        }
        byte[] array = args.array();
        int offset = args.offset(pattern);
        int length = args.length(pattern);
        return length == 1 && array[offset] == '*'
            || Glob.matches(array, offset, length, element, elementOffset, elementLength, false);
    }

    /**
     * One HSCAN, SSCAN or ZSCAN call's walk: {@code bucket} visits the bucket at a cursor and
     * returns the next one, until the walk ends (cursor 0), COUNT elements are {@code gathered}
     * or ten buckets per element asked for were visited (Redis's maxiterations).
     *
     * @return the cursor the next call resumes from
     */
    public long walk(long cursor, LongUnaryOperator bucket, Collection<?> gathered) {
        long steps = count > Long.MAX_VALUE / 10 ? Long.MAX_VALUE : count * 10;
        do {
            cursor = bucket.applyAsLong(cursor);
        } while (cursor != 0 && --steps > 0 && gathered.size() < count);
        return cursor;
    }

    /**
     * A SCAN cursor as parseScanCursorOrReply reads it with strtoul: an unsigned 64-bit decimal,
     * an optional sign (a '-' negates modulo 2^64), no leading space, nothing after the digits.
     * strtoul's quirks are kept: the empty string is cursor 0, and a NUL byte ends the text.
     *
     * @throws InvalidNumber for anything else, or a value past 2^64 - 1
     */
    public static long parseCursor(byte[] array, int offset, int length) {
        int end = offset + length;
        if (length > 0 && isSpace(array[offset])) {
            throw Numbers.INVALID;
        }
        int i = offset;
        boolean negative = false;
        if (i < end && (array[i] == '+' || array[i] == '-')) {
            negative = array[i] == '-';
            i++;
        }
        int digits = i;
        long value = 0;
        for (; i < end && array[i] >= '0' && array[i] <= '9'; i++) {
            int digit = array[i] - '0';
            if (Long.compareUnsigned(value, CURSOR_LIMIT) > 0 || (value == CURSOR_LIMIT && digit > 5)) {
                throw Numbers.INVALID;
            }
            value = value * 10 + digit;
        }
        int stop = i == digits ? offset : i;
        if (stop < end && array[stop] != 0) {
            throw Numbers.INVALID;
        }
        return negative ? -value : value;
    }

    /** C's isspace in the C locale. */
    private static boolean isSpace(byte b) {
        return b == ' ' || (b >= '\t' && b <= '\r');
    }
}
