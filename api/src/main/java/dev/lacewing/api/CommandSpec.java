package dev.lacewing.api;

import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

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
 * @param numKeysIndex for commands with movable keys (Redis's keynum key spec: SINTERCARD, ZUNIONSTORE,
 *                     LMPOP...), the index of the numkeys argument; the keys it counts follow it at once.
 *                     The keys of the range (firstKey, lastKey, step) come before it (ZUNIONSTORE's
 *                     destination) or there are none (firstKey 0). 0 for every other command
 * @param wholeKeyspaceWhen for a {@link KeyScope#KEYS} command some of whose requests read or write keys
 *                          their key positions do not name (SORT with BY/GET patterns or STORE, Redis's
 *                          getkeys_proc case), which requests those are: they run over the whole keyspace
 *                          ({@link #scope(Arguments)}). Null for every other command
 * @param optionKey for a command one of whose options names a key (SORT's STORE destination), the argument
 *                  index of that key in a request, or -1 when the request names none: Redis's getkeys_proc
 *                  for such a command. It counts after every other key. Null for every other command
 * @param partitionCursor for a {@link KeyScope#ALL} command whose request names one partition of the keyspace
 *                        through an unsigned cursor (SCAN: the cursor's remainder by the partition count is the
 *                        partition it continues in), that cursor; any cursor for a request whose cursor is invalid
 *                        (the command replies the error wherever it runs). An engine whose partitions belong to different threads may run
 *                        such a request on that partition alone ({@link #partitionOf(Arguments, int)}); the
 *                        command then stops at the partition's end. Null for every other command
 * @param keysAfterKeyword for a command whose keys are the first half of the arguments after a keyword
 *                         (XREAD's and XREADGROUP's STREAMS key... id..., Redis's keyword key spec with range
 *                         -1 and limit 2), that keyword, upper case; the first argument equal to it, ignoring
 *                         case, starts the keys, and an odd count after it names none. The command has no
 *                         other keys. Null for every other command
 */
public record CommandSpec(String name, int arity, Set<CommandFlag> flags, int firstKey, int lastKey,
                          int step, KeyScope scope, String group, String summary, CommandDetails details,
                          int numKeysIndex, Predicate<Arguments> wholeKeyspaceWhen,
                          ToIntFunction<Arguments> optionKey, ToLongFunction<Arguments> partitionCursor,
                          String keysAfterKeyword) {

    public CommandSpec {
        name = name.toLowerCase(Locale.ROOT);
        // has() runs several times per command: one final set class holding the flags as bits makes it a
        // field load and a bit test, where a wrapped EnumSet cost a megamorphic Set.contains call.
        flags = Flags.of(flags);
        Objects.requireNonNull(details);
    }

    /** A spec with details and fixed key positions. */
    public CommandSpec(String name, int arity, Set<CommandFlag> flags, int firstKey, int lastKey, int step,
                       KeyScope scope, String group, String summary, CommandDetails details) {
        this(name, arity, flags, firstKey, lastKey, step, scope, group, summary, details, 0, null, null, null, null);
    }

    /** A spec without details: COMMAND INFO and DOCS describe it from these fields alone. */
    public CommandSpec(String name, int arity, Set<CommandFlag> flags, int firstKey, int lastKey, int step,
                       KeyScope scope, String group, String summary) {
        this(name, arity, flags, firstKey, lastKey, step, scope, group, summary, CommandDetails.NONE, 0, null, null,
            null, null);
    }

    public CommandSpec withDetails(CommandDetails newDetails) {
        return new CommandSpec(name, arity, flags, firstKey, lastKey, step, scope, group, summary, newDetails,
            numKeysIndex, wholeKeyspaceWhen, optionKey, partitionCursor, keysAfterKeyword);
    }

    /** A command whose keys are only those counted by the argument at {@code numKeysIndex} (LMPOP numkeys key...). */
    public static CommandSpec countedKeys(String name, int arity, Set<CommandFlag> flags, int numKeysIndex,
                                          String group, String summary) {
        return new CommandSpec(name, arity, flags, 0, 0, 0, KeyScope.KEYS, group, summary, CommandDetails.NONE,
            numKeysIndex, null, null, null, null);
    }

    /** The same command with movable keys counted by the argument at {@code index}. */
    public CommandSpec withNumKeysAt(int index) {
        return new CommandSpec(name, arity, flags, firstKey, lastKey, step, scope, group, summary, details, index,
            wholeKeyspaceWhen, optionKey, partitionCursor, keysAfterKeyword);
    }

    /**
     * The same command, run over the whole keyspace ({@link KeyScope#ALL}) for the requests
     * {@code rule} accepts. The rule sees a request that passed the arity check; it must not keep it.
     */
    public CommandSpec withWholeKeyspaceWhen(Predicate<Arguments> rule) {
        return new CommandSpec(name, arity, flags, firstKey, lastKey, step, scope, group, summary, details,
            numKeysIndex, rule, optionKey, partitionCursor, keysAfterKeyword);
    }

    /**
     * The same command, one of whose options may name one more key: {@code finder} gives its argument
     * index in a request, or -1. The finder sees a request that passed the arity check; it must not keep it.
     */
    public CommandSpec withOptionKey(ToIntFunction<Arguments> finder) {
        return new CommandSpec(name, arity, flags, firstKey, lastKey, step, scope, group, summary, details,
            numKeysIndex, wholeKeyspaceWhen, finder, partitionCursor, keysAfterKeyword);
    }

    /**
     * The same whole-keyspace command, whose requests continue in one partition named by a cursor:
     * {@code cursor} reads it from a request. The function sees a request that
     * passed the arity check; it must not keep it.
     */
    public CommandSpec withPartitionCursor(ToLongFunction<Arguments> cursor) {
        return new CommandSpec(name, arity, flags, firstKey, lastKey, step, scope, group, summary, details,
            numKeysIndex, wholeKeyspaceWhen, optionKey, cursor, keysAfterKeyword);
    }

    /**
     * The one partition of {@code partitions} a request continues in ({@link #partitionCursor}), or -1
     * when the command names none.
     */
    public int partitionOf(Arguments args, int partitions) {
        return partitionCursor == null ? -1 : (int) Long.remainderUnsigned(partitionCursor.applyAsLong(args), partitions);
    }

    /** A command without fixed keys whose keys are the first half of the arguments after {@code keyword}. */
    public static CommandSpec keysAfter(String keyword, String name, int arity, Set<CommandFlag> flags, String group,
                                        String summary) {
        return new CommandSpec(name, arity, flags, 0, 0, 0, KeyScope.KEYS, group, summary, CommandDetails.NONE, 0,
            null, null, null, keyword.toUpperCase(Locale.ROOT));
    }

    /**
     * The scope of one request: {@link #scope()}, but {@link KeyScope#ALL} for a request that reads or
     * writes keys it does not name ({@link #wholeKeyspaceWhen}). Engines ask it through
     * {@link Invocation#scope()}.
     */
    public KeyScope scope(Arguments args) {
        return wholeKeyspaceWhen != null && scope == KeyScope.KEYS && wholeKeyspaceWhen.test(args) ? KeyScope.ALL : scope;
    }

    /**
     * Whether the keys a request touches depend on its arguments (Redis's movablekeys flag): keys
     * counted by a numkeys argument, a key an option names, or keys only some requests reach (SORT's
     * patterns and STORE).
     */
    public boolean hasMovableKeys() {
        return numKeysIndex > 0 || wholeKeyspaceWhen != null || optionKey != null || keysAfterKeyword != null;
    }

    /**
     * Number of keys a request names. A numkeys argument that is not a positive integer, or counts
     * more keys than the request has, makes the whole request name no keys, the fixed ones included
     * (as Redis's getKeysUsingKeySpecs gives up on an invalid spec): the command itself then replies
     * the error without touching the keyspace.
     */
    public int keyCount(Arguments args) {
        if (keysAfterKeyword != null) {
            int keyword = keywordIndex(args);
            int after = args.count() - keyword - 1;
            return keyword < 0 || after % 2 != 0 ? 0 : after / 2;
        }
        int count = args.count();
        int movable = movableKeyCount(args);
        if (numKeysIndex > 0 && movable == 0) {
            return 0;
        }
        int fixed = 0;
        if (firstKey > 0 && firstKey < count) {
            int last = numKeysIndex > 0 ? Math.min(lastKeyIndex(count), numKeysIndex - 1) : lastKeyIndex(count);
            fixed = last < firstKey ? 0 : (last - firstKey) / Math.max(step, 1) + 1;
        }
        return fixed + movable + (optionKeyArgument(args) >= 0 ? 1 : 0);
    }

    /** The argument index of key {@code i} of a request ({@code i < keyCount(args)}). */
    public int keyArgument(Arguments args, int i) {
        if (keysAfterKeyword != null) {
            return keywordIndex(args) + 1 + i;
        }
        int option = optionKeyArgument(args);
        int movable = movableKeyCount(args);
        int fixed = keyCount(args) - movable - (option >= 0 ? 1 : 0);
        if (i < fixed) {
            return firstKey + i * Math.max(step, 1);
        }
        return i < fixed + movable ? numKeysIndex + 1 + (i - fixed) : option;
    }

    private int keywordIndex(Arguments args) {
        for (int i = 1; i < args.count(); i++) {
            if (args.is(i, keysAfterKeyword)) {
                return i;
            }
        }
        return -1;
    }

    private int optionKeyArgument(Arguments args) {
        return optionKey == null ? -1 : optionKey.applyAsInt(args);
    }

    private int movableKeyCount(Arguments args) {
        if (numKeysIndex <= 0 || numKeysIndex >= args.count()) {
            return 0;
        }
        long numKeys = parseCount(args.array(), args.offset(numKeysIndex), args.length(numKeysIndex));
        return numKeys > 0 && numKeys <= args.count() - numKeysIndex - 1 ? (int) numKeys : 0;
    }

    /** A plain positive decimal below 2^31, or -1: enough to bound numkeys, whose exact errors the command replies. */
    private static long parseCount(byte[] array, int offset, int length) {
        if (length == 0 || length > 10) {
            return -1;
        }
        long value = 0;
        for (int i = offset; i < offset + length; i++) {
            int digit = array[i] - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value <= Integer.MAX_VALUE ? value : -1;
    }

    public boolean has(CommandFlag flag) {
        return ((Flags) flags).has(flag);
    }

    /** Whether {@code argumentCount} (the name included) satisfies the arity. */
    public boolean acceptsArgumentCount(int argumentCount) {
        return arity >= 0 ? argumentCount == arity : argumentCount >= -arity;
    }

    /**
     * The index of the last key for a request of {@code argumentCount} arguments. Without a branch:
     * {@code lastKey >> 31} is all ones only for a negative lastKey, which then counts from the end.
     * A branch here, profiled on one command's sign, made the compiled dispatch path deoptimize when
     * the first command of the other sign arrived (DEL after XADD).
     */
    public int lastKeyIndex(int argumentCount) {
        return lastKey + (argumentCount & (lastKey >> 31));
    }

    /**
     * An unmodifiable set of flags held as one bit per {@link CommandFlag#ordinal()}; it iterates in
     * declaration order, as an EnumSet does. Immutable, so any thread may read it.
     */
    static final class Flags extends AbstractSet<CommandFlag> {
        private static final CommandFlag[] ALL = CommandFlag.values();

        static {
            if (ALL.length > Long.SIZE) {
                throw new IllegalStateException("more command flags than bits in a long");
            }
        }

        private final long bits;

        private Flags(long bits) {
            this.bits = bits;
        }

        static Flags of(Set<CommandFlag> flags) {
            if (flags instanceof Flags given) {
                return given;
            }
            long bits = 0;
            for (CommandFlag flag : flags) {
                bits |= 1L << flag.ordinal();
            }
            return new Flags(bits);
        }

        boolean has(CommandFlag flag) {
            return (bits & (1L << flag.ordinal())) != 0;
        }

        @Override
        public boolean contains(Object o) {
            return o instanceof CommandFlag flag && has(flag);
        }

        @Override
        public int size() {
            return Long.bitCount(bits);
        }

        @Override
        public Iterator<CommandFlag> iterator() {
            return new Iterator<>() {
                private long left = bits;

                @Override
                public boolean hasNext() {
                    return left != 0;
                }

                @Override
                public CommandFlag next() {
                    if (left == 0) {
                        throw new NoSuchElementException();
                    }
                    CommandFlag flag = ALL[Long.numberOfTrailingZeros(left)];
                    left &= left - 1;
                    return flag;
                }
            };
        }
    }
}
