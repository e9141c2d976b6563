package dev.lacewing.core.command;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;

/**
 * The timeout argument of blocking commands (BLPOP, BLMOVE, BZPOPMIN...), read as Redis 7.0's
 * getTimeoutFromObjectOrReply reads it in seconds: a long double ({@code strtold}: decimals,
 * exponents, hexadecimal) times 1000 in long double precision, rounded up to whole milliseconds
 * ({@code ceill}: 0.001 and 0.0001 wait 1 ms, not for ever; -0.0001 rounds to 0); what does not fit
 * a long (inf, 1e100) is negative there, as the C cast makes it; 0 waits for ever.
 *
 * <p>Stateless.
 */
public final class Timeouts {

    public static final String NOT_A_FLOAT = "ERR timeout is not a float or out of range";
    public static final String NEGATIVE = "ERR timeout is negative";

    /** Returned after the error reply was written. */
    public static final long INVALID = -1;

    private Timeouts() {
    }

    /**
     * The deadline argument {@code index} asks for, in milliseconds since the epoch, 0 for none;
     * or {@link #INVALID} once the error reply is written.
     */
    public static long deadline(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        Numbers.LongDouble seconds;
        try {
            seconds = Numbers.parseLongDouble(args.array(), args.offset(index), args.length(index));
        } catch (Numbers.InvalidNumber e) {
            ctx.reply().error(NOT_A_FLOAT);
            return INVALID;
        }
        Long millis;
        try {
            millis = seconds.multiply(1000).ceilingOrNull();
        } catch (Numbers.InvalidNumber e) {
            millis = null;
        }
        if (millis == null || millis < 0) {
            ctx.reply().error(NEGATIVE);
            return INVALID;
        }
        return deadlineAfter(millis);
    }

    /**
     * The deadline {@code millis} (not negative) from now, in milliseconds since the epoch, the
     * largest long for a timeout past it; 0, waiting for ever, stays 0.
     */
    public static long deadlineAfter(long millis) {
        if (millis == 0) {
            return 0;
        }
        long now = System.currentTimeMillis();
        return millis > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + millis;
    }
}
