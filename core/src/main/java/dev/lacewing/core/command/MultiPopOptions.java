package dev.lacewing.core.command;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.core.command.Numbers.InvalidNumber;

/**
 * The arguments LMPOP, BLMPOP, ZMPOP and BZMPOP share, read as Redis's one mpopGenericCommand reads
 * them: numkeys, a positive integer; the keys; the end to pop from, one of two words; then
 * [COUNT count], a positive integer, at most once. A blocking form's timeout is read after them.
 *
 * @param numKeys how many keys follow numkeys
 * @param firstEnd whether the end is the first of the two words (LEFT, MIN)
 * @param count how many elements to pop, 1 without COUNT
 */
public record MultiPopOptions(int numKeys, boolean firstEnd, long count) {

    /**
     * The arguments from numkeys at {@code numKeysIndex} on, the end one of {@code first} and
     * {@code second} in any case; null once the error reply is written.
     */
    public static MultiPopOptions parse(CommandContext ctx, int numKeysIndex, String first, String second) {
        Arguments args = ctx.arguments();
        long numKeys;
        try {
            numKeys = Numbers.parseLong(args.array(), args.offset(numKeysIndex), args.length(numKeysIndex));
        } catch (InvalidNumber e) {
            numKeys = 0;
        }
        if (numKeys < 1) {
            ctx.reply().error(Errors.NUMKEYS_NOT_POSITIVE);
            return null;
        }
        long whereIndex = numKeysIndex + numKeys + 1;
        if (whereIndex >= args.count()) {
            ctx.reply().error(Errors.SYNTAX);
            return null;
        }
        int where = (int) whereIndex;
        boolean firstEnd;
        if (args.is(where, first)) {
            firstEnd = true;
        } else if (args.is(where, second)) {
            firstEnd = false;
        } else {
            ctx.reply().error(Errors.SYNTAX);
            return null;
        }
        long count = -1;
        for (int i = where + 1; i < args.count(); i++) {
            if (count == -1 && args.is(i, "count") && i + 1 < args.count()) {
                i++;
                try {
                    count = Numbers.parseLong(args.array(), args.offset(i), args.length(i));
                } catch (InvalidNumber e) {
                    count = 0;
                }
                if (count < 1) {
                    ctx.reply().error(Errors.COUNT_NOT_POSITIVE);
                    return null;
                }
            } else {
                ctx.reply().error(Errors.SYNTAX);
                return null;
            }
        }
        return new MultiPopOptions((int) numKeys, firstEnd, count == -1 ? 1 : count);
    }
}
