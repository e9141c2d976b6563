package dev.lacewing.core.command;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandDetails.BeginSearch;
import dev.lacewing.api.CommandDetails.FindKeys;
import dev.lacewing.api.CommandDetails.KeySpec;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import java.util.Arrays;

/**
 * The key positions of a request to a command flagged {@link CommandFlag#MOVABLEKEYS} (ZUNIONSTORE,
 * ZMPOP, ZINTERCARD...), whose keys follow a count given in the request: found from the command's
 * Redis 7 key specs as Redis's {@code getKeysUsingKeySpecs} finds them, so the engines lock or park
 * exactly the keys the command will touch. A request whose key specs do not fit it (a count that is
 * not a number, or names more arguments than there are) has no keys: its command refuses it before
 * touching the keyspace.
 *
 * <p>Stateless; safe from any thread.
 */
public final class KeyPositions {

    private KeyPositions() {
    }

    /**
     * Fills {@code positions} (grown as needed and returned through {@code holder[0]}) with the
     * argument indexes of the keys, relative to {@code base} (the command name's index, 2 for
     * COMMAND GETKEYS); returns how many, 0 when the request does not fit the key specs.
     */
    public static int find(CommandSpec spec, Arguments args, int base, int[][] holder) {
        int argc = args.count() - base;
        int count = 0;
        for (KeySpec keySpec : spec.details().keySpecs()) {
            int begin = begin(keySpec.beginSearch(), args, base, argc);
            if (begin <= 0 || begin >= argc) {
                continue;
            }
            FindKeys find = keySpec.findKeys();
            int first;
            int last;
            int step;
            switch (find.type()) {
                case "range" -> {
                    first = begin;
                    step = Math.max(find.keyStep(), 1);
                    if (find.lastKey() >= 0) {
                        last = first + find.lastKey();
                    } else if (find.limit() == 0) {
                        last = argc + find.lastKey();
                    } else {
                        last = first + ((argc - first) / find.limit() + find.lastKey());
                    }
                }
                case "keynum" -> {
                    int numIndex = begin + find.keyNumIndex();
                    if (numIndex >= argc) {
                        return 0;
                    }
                    long keys;
                    try {
                        keys = Numbers.parseLong(args.array(), args.offset(base + numIndex), args.length(base + numIndex));
                    } catch (Numbers.InvalidNumber e) {
                        return 0;
                    }
                    first = begin + find.firstKey();
                    step = Math.max(find.keyStep(), 1);
                    if (keys <= 0 || keys > argc) {
                        return 0;
                    }
                    last = first + (int) (keys - 1) * step;
                }
                default -> {
                    return 0;
                }
            }
            if (last >= argc || last < first) {
                return 0;
            }
            for (int i = first; i <= last; i += step) {
                if (count == holder[0].length) {
                    holder[0] = Arrays.copyOf(holder[0], Math.max(8, count * 2));
                }
                holder[0][count++] = base + i;
            }
        }
        return count;
    }

    private static int begin(BeginSearch search, Arguments args, int base, int argc) {
        switch (search.type()) {
            case "index" -> {
                return search.index();
            }
            case "keyword" -> {
                int start = search.startFrom() >= 0 ? search.startFrom() : argc + search.startFrom();
                int direction = search.startFrom() >= 0 ? 1 : -1;
                for (int i = start; i > 0 && i < argc; i += direction) {
                    if (args.is(base + i, search.keyword())) {
                        return i + 1;
                    }
                }
                return -1;
            }
            default -> {
                return -1;
            }
        }
    }
}
