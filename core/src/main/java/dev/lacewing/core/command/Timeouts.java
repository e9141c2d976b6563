package dev.lacewing.core.command;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;

/**
 * The timeout argument of blocking commands (BLPOP, BLMOVE, BZPOPMIN...), read as Redis 7.0's
 * getTimeoutFromObjectOrReply reads it in seconds: a long double ({@code strtold}: decimals,
 * exponents, hexadecimal) times 1000, truncated to milliseconds; what does not fit a long (inf,
 * 1e100) is negative there, as the C cast makes it; 0 waits for ever.
 *
 * <p>Stateless.
 */
public final class Timeouts {

    public static final String NOT_A_FLOAT = "ERR timeout is not a float or out of range";
    public static final String NEGATIVE = "ERR timeout is negative";

    /** Returned after the error reply was written. */
    public static final long INVALID = -1;

    private static final double LONG_RANGE = 9.223372036854775807E18;

    private Timeouts() {
    }

    /**
     * The deadline argument {@code index} asks for, in milliseconds since the epoch, 0 for none;
     * or {@link #INVALID} once the error reply is written.
     */
    public static long deadline(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        double seconds;
        try {
            seconds = Numbers.parseLongDouble(args.array(), args.offset(index), args.length(index)).toDouble();
        } catch (Numbers.InvalidNumber e) {
            ctx.reply().error(NOT_A_FLOAT);
            return INVALID;
        }
        double millis = seconds * 1000.0;
        if (!(millis > -LONG_RANGE && millis < LONG_RANGE) || (long) millis < 0) {
            ctx.reply().error(NEGATIVE);
            return INVALID;
        }
        long timeout = (long) millis;
        if (timeout == 0) {
            return 0;
        }
        long now = System.currentTimeMillis();
        return timeout > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + timeout;
    }
}
