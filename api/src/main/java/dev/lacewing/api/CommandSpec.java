package dev.lacewing.api;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * What the command table knows of a command, as Redis's {@code src/commands/*.json} declares it.
 *
 * @param name lower-case command name
 * @param arity Redis arity: exact argument count when positive, minimum when negative; the name counts
 * @param flags the flags COMMAND reports
 * @param firstKey index of the first key argument, 0 when there is none
 * @param lastKey index of the last key, negative counts from the end (-1 = last argument)
 * @param step distance between keys
 * @param scope which part of the keyspace the command touches
 * @param group Redis's command group ({@code string}, {@code generic}, {@code server}, ...)
 * @param summary one line for COMMAND DOCS
 * @param details key specs, tips, ACL categories, docs and subcommands; {@link CommandDetails#NONE} when
 *                the spec alone describes the command
 * @param keyCountArgument for a command whose keys are counted by an argument (Redis's movable keys:
 *                LMPOP numkeys key..., ZUNIONSTORE dst numkeys key...): that argument's index, the keys
 *                following it; firstKey, lastKey and step are then 0. 0 for every other command
 */
public record CommandSpec(String name, int arity, Set<CommandFlag> flags, int firstKey, int lastKey,
                          int step, KeyScope scope, String group, String summary, CommandDetails details,
                          int keyCountArgument) {

    public CommandSpec {
        name = name.toLowerCase(Locale.ROOT);
        flags = Set.copyOf(flags);
        Objects.requireNonNull(details);
    }

    public CommandSpec(String name, int arity, Set<CommandFlag> flags, int firstKey, int lastKey, int step,
                       KeyScope scope, String group, String summary, CommandDetails details) {
        this(name, arity, flags, firstKey, lastKey, step, scope, group, summary, details, 0);
    }

    /** A command whose keys follow a count at argument {@code keyCountArgument} (movable keys). */
    public static CommandSpec countedKeys(String name, int arity, Set<CommandFlag> flags, int keyCountArgument,
                                          String group, String summary) {
        return new CommandSpec(name, arity, flags, 0, 0, 0, KeyScope.KEYS, group, summary, CommandDetails.NONE,
            keyCountArgument);
    }

    /** A spec without details: COMMAND INFO and DOCS describe it from these fields alone. */
    public CommandSpec(String name, int arity, Set<CommandFlag> flags, int firstKey, int lastKey, int step,
                       KeyScope scope, String group, String summary) {
        this(name, arity, flags, firstKey, lastKey, step, scope, group, summary, CommandDetails.NONE);
    }

    public CommandSpec withDetails(CommandDetails newDetails) {
        return new CommandSpec(name, arity, flags, firstKey, lastKey, step, scope, group, summary, newDetails,
            keyCountArgument);
    }

    public boolean has(CommandFlag flag) {
        return flags.contains(flag);
    }

    /** Whether {@code argumentCount} (the name included) satisfies the arity. */
    public boolean acceptsArgumentCount(int argumentCount) {
        return arity >= 0 ? argumentCount == arity : argumentCount >= -arity;
    }

    /**
     * The number of keys a request names, from its arguments: for counted keys the count argument
     * when it is a decimal integer from 1 to what the request holds after it, 0 otherwise (the
     * command then runs without keys and replies its error); for the others, from the key positions.
     */
    public int keyCount(Arguments arguments) {
        int count = arguments.count();
        if (keyCountArgument > 0) {
            if (keyCountArgument >= count) {
                return 0;
            }
            long keys = 0;
            byte[] array = arguments.array();
            int offset = arguments.offset(keyCountArgument);
            int length = arguments.length(keyCountArgument);
            for (int i = 0; i < length && length <= 10; i++) {
                int digit = array[offset + i] - '0';
                if (digit < 0 || digit > 9) {
                    return 0;
                }
                keys = keys * 10 + digit;
            }
            return length == 0 || length > 10 || keys > count - 1 - keyCountArgument ? 0 : (int) keys;
        }
        if (firstKey <= 0 || firstKey >= count) {
            return 0;
        }
        int last = lastKeyIndex(count);
        return last < firstKey ? 0 : (last - firstKey) / Math.max(step, 1) + 1;
    }

    /** The argument index of key {@code i} of a request. */
    public int keyArgument(int i) {
        return keyCountArgument > 0 ? keyCountArgument + 1 + i : firstKey + i * Math.max(step, 1);
    }

    /** The index of the last key for a request of {@code argumentCount} arguments. */
    public int lastKeyIndex(int argumentCount) {
        return lastKey >= 0 ? lastKey : argumentCount + lastKey;
    }
}
