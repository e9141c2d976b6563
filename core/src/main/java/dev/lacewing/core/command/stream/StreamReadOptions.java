package dev.lacewing.core.command.stream;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.command.Timeouts;

/**
 * The options of XREAD and XREADGROUP, read as Redis's one xreadCommand reads them for both: BLOCK,
 * COUNT, GROUP and NOACK up to STREAMS, which takes the rest; GROUP and NOACK belong to
 * XREADGROUP, and XREAD refuses them by name.
 *
 * @param count most entries per stream, 0 for all
 * @param deadline the BLOCK deadline in milliseconds since the epoch, 0 for ever, -1 without BLOCK
 * @param groupAt the argument index of the group name, the consumer's next to it; 0 for XREAD
 * @param noAck whether NOACK was given
 * @param streamsAt the argument index of the first key
 * @param streams how many keys follow STREAMS, and as many IDs after them
 */
record StreamReadOptions(long count, long deadline, int groupAt, boolean noAck, int streamsAt, int streams) {

    private static final String UNBALANCED_XREAD = "ERR Unbalanced XREAD list of streams: for each stream key an ID "
        + "or '$' must be specified.";
    private static final String TIMEOUT_NOT_INTEGER = "ERR timeout is not an integer or out of range";
    private static final String GROUP_ONLY_XREADGROUP = "ERR The GROUP option is only supported by XREADGROUP. You "
        + "called XREAD instead.";
    private static final String NOACK_ONLY_XREADGROUP = "ERR The NOACK option is only supported by XREADGROUP. You "
        + "called XREAD instead.";
    private static final String MISSING_GROUP = "ERR Missing GROUP option for XREADGROUP";

    /** XREAD's options ({@code group} false) or XREADGROUP's; null once the error reply is written. */
    static StreamReadOptions parse(CommandContext ctx, boolean group) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        long count = 0;
        long deadline = -1;
        boolean noAck = false;
        int groupAt = 0;
        int streamsAt = 0;
        int streams = 0;
        try {
            for (int i = 1; i < args.count(); i++) {
                int more = args.count() - i - 1;
                if (args.is(i, "BLOCK") && more > 0) {
                    i++;
                    long timeout;
                    try {
                        timeout = Numbers.parseLong(args.array(), args.offset(i), args.length(i));
                    } catch (InvalidNumber e) {
                        reply.error(TIMEOUT_NOT_INTEGER);
                        return null;
                    }
                    if (timeout < 0) {
                        reply.error(Timeouts.NEGATIVE);
                        return null;
                    }
                    deadline = Timeouts.deadlineAfter(timeout);
                } else if (args.is(i, "COUNT") && more > 0) {
                    i++;
                    count = Math.max(0, Numbers.parseLong(args.array(), args.offset(i), args.length(i)));
                } else if (args.is(i, "STREAMS") && more > 0) {
                    streamsAt = i + 1;
                    int rest = args.count() - streamsAt;
                    if (rest % 2 != 0) {
                        reply.error(UNBALANCED_XREAD);
                        return null;
                    }
                    streams = rest / 2;
                    break;
                } else if (args.is(i, "GROUP") && more >= 2) {
                    if (!group) {
                        reply.error(GROUP_ONLY_XREADGROUP);
                        return null;
                    }
                    groupAt = i + 1;
                    i += 2;
                } else if (args.is(i, "NOACK")) {
                    if (!group) {
                        reply.error(NOACK_ONLY_XREADGROUP);
                        return null;
                    }
                    noAck = true;
                } else {
                    reply.error(Errors.SYNTAX);
                    return null;
                }
            }
        } catch (InvalidNumber e) {
            reply.error(Errors.NOT_INTEGER);
            return null;
        }
        if (streamsAt == 0) {
            reply.error(Errors.SYNTAX);
            return null;
        }
        if (group && groupAt == 0) {
            reply.error(MISSING_GROUP);
            return null;
        }
        return new StreamReadOptions(count, deadline, groupAt, noAck, streamsAt, streams);
    }
}
