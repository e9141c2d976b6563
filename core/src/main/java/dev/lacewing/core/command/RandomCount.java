package dev.lacewing.core.command;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.core.command.Numbers.InvalidNumber;

/**
 * The count of SRANDMEMBER, HRANDFIELD and ZRANDMEMBER (argument 2) and the flag that asks the
 * last two for values or scores, as Redis 7.0 reads them: an integer in -LONG_MAX..LONG_MAX, then
 * the flag, with which the count must lie within half that range, since each pick then replies
 * two elements.
 *
 * @param count picks asked for: negative when they may repeat
 * @param withFlag whether the flag (WITHVALUES, WITHSCORES) follows the count
 */
public record RandomCount(long count, boolean withFlag) {

    /**
     * The count and, when {@code flag} names one, the flag; anything else after the count is a
     * syntax error. Null once the error reply is written. The key is read afterwards.
     */
    public static RandomCount parse(CommandContext ctx, String flag) {
        Arguments args = ctx.arguments();
        long count;
        try {
            count = Numbers.parseLong(args.array(), args.offset(2), args.length(2));
        } catch (InvalidNumber e) {
            ctx.reply().error(Errors.NOT_INTEGER);
            return null;
        }
        if (count == Long.MIN_VALUE) {
            ctx.reply().error(Errors.valueOutOfRange(-Long.MAX_VALUE, Long.MAX_VALUE));
            return null;
        }
        boolean withFlag = args.count() == 4 && flag != null && args.is(3, flag);
        if (args.count() > (withFlag ? 4 : 3)) {
            ctx.reply().error(Errors.SYNTAX);
            return null;
        }
        if (withFlag && (count < -Long.MAX_VALUE / 2 || count > Long.MAX_VALUE / 2)) {
            ctx.reply().error(Errors.VALUE_OUT_OF_RANGE);
            return null;
        }
        return new RandomCount(count, withFlag);
    }
}
