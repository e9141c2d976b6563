package dev.lacewing.core.command.generic;

import static dev.lacewing.api.CommandFlag.DENYOOM;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.WRITE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.AggregateChanges;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.PartialQuicksort;
import dev.lacewing.core.command.list.ListCommands;
import dev.lacewing.core.datatype.HashValue;
import dev.lacewing.core.datatype.Quicklist;
import dev.lacewing.core.datatype.SetValue;
import dev.lacewing.core.datatype.SortedSet;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * SORT and SORT_RO (Redis 7.0's sort.c): the elements of a list, set or sorted set, ordered
 * numerically or (ALPHA) as bytes, by themselves or by the values BY pattern names, cut by LIMIT,
 * replied or stored as a list (STORE), each element replaced by the values its GET patterns name.
 *
 * <p><b>Keys.</b> The spec names one key, the one sorted. A BY or GET pattern with a '*' reads keys
 * derived from the elements, and STORE writes a key, anywhere in the keyspace: such a request runs
 * over the whole keyspace ({@link CommandSpec#withWholeKeyspaceWhen}), like KEYS: atomic, and in the
 * shared-nothing engine every shard is parked while it runs. A plain SORT (or BY nosort, GET #)
 * keeps the cost of a one-key command.
 *
 * <p><b>Order.</b> As sortCompare: numeric order by score (the element or its BY value read as
 * strtod reads it; a missing BY key counts 0), equal scores ordered by the elements' bytes; ALPHA
 * compares the elements or their BY values, a missing BY value first. When storing, Redis compares
 * them binary-safe (memcmp, then length); when replying, with strcoll under the locale
 * redis-server took from its environment (setlocale(LC_COLLATE, "")). Lacewing copies what the
 * reference redis-server does where the tests run it: a Debian system whose only locales are C,
 * C.UTF-8 and POSIX, all of which collate as strcmp, so each value is a C string: unsigned byte
 * order up to its first NUL ("a", "a\0" and "a\0b" tie). A server under a richer locale
 * (en_US.UTF-8) would order differently there; Lacewing does not follow the process locale. Only
 * ALPHA compares can tie (equal or both missing BY values, C strings equal up to a NUL), and ties
 * come out in Redis's order: where sort.c sorts with qsort, stably, as glibc's merge-sorting qsort
 * does, so ties keep the collection's order; with a BY pattern and a LIMIT short of the whole, where
 * sort.c calls pqsort, with {@link PartialQuicksort}, pqsort's unstable partial quicksort ported
 * step for step. DESC reverses the comparison, not the result. O(n log n) for n elements, plus one
 * key lookup per element and pattern.
 *
 * <p>Stateless; runs on the thread the engine gives the command, with its key or the whole keyspace.
 */
public final class SortCommands {

    private static final String SCORES_NOT_DOUBLE = "ERR One or more scores can't be converted into double";

    private SortCommands() {
    }

    public static void register(CommandRegistry registry) {
        registry.register(spec("sort", "Sort the elements in a list, set or sorted set", false, WRITE, DENYOOM),
            ctx -> sort(ctx, false));
        registry.register(spec("sort_ro", "Sort the elements in a list, set or sorted set. Read-only variant of SORT.",
            true, READONLY), ctx -> sort(ctx, true));
    }

    private static CommandSpec spec(String name, String summary, boolean readonly, CommandFlag... flags) {
        CommandSpec spec = new CommandSpec(name, -2, Set.of(flags), 1, 1, 1, KeyScope.KEYS, "generic", summary)
            .withWholeKeyspaceWhen(args -> Options.parse(args, readonly).touchesOtherKeys(args));
        return readonly ? spec : spec.withOptionKey(SortCommands::storeKey);
    }

    /**
     * The STORE destination as sortGetKeys finds it (COMMAND GETKEYS): the last "STORE key", skipping
     * the arguments of LIMIT, GET and BY, and accepting words the command itself refuses; -1 for none.
     */
    private static int storeKey(Arguments args) {
        int store = -1;
        for (int i = 2; i < args.count(); i++) {
            if (args.is(i, "limit")) {
                i += 2;
            } else if (args.is(i, "get") || args.is(i, "by")) {
                i++;
            } else if (args.is(i, "store") && i + 1 < args.count()) {
                store = ++i;
            }
        }
        return store;
    }

    /** One element being sorted: its bytes, and what it sorts by. */
    private static final class Element {
        final byte[] value;
        double score;
        /** The BY value under ALPHA; null when the BY key is missing. */
        byte[] byValue;

        Element(byte[] value) {
            this.value = value;
        }
    }

    /**
     * The parsed options, or the error they give. Parsing is shared by the command and the scope
     * rule, so that the engine grants the whole keyspace exactly to the requests that reach beyond
     * their key.
     */
    private static final class Options {
        boolean desc;
        boolean alpha;
        long limitStart;
        long limitCount = -1;
        /** Argument index of the BY pattern, or -1. */
        int by = -1;
        /** Argument index of the STORE destination, or -1. */
        int store = -1;
        /** Argument indexes of the GET patterns, in order. */
        final List<Integer> gets = new ArrayList<>();
        String error;
        /** Where the error was found: an ACL refusal of an earlier BY or GET comes first, as in Redis. */
        int errorAt = Integer.MAX_VALUE;
        /**
         * The first BY pattern with a '*' or GET, as the error a user without read access to every
         * key gets for it (Redis checks ACLUserCheckCmdWithUnrestrictedKeyAccess while parsing); null when none.
         */
        String keyAccessError;
        int keyAccessAt = Integer.MAX_VALUE;

        /** The options from argument 2 on, as sortCommandGeneric parses them; {@link #error} set when they are wrong. */
        static Options parse(Arguments args, boolean readonly) {
            Options options = new Options();
            for (int j = 2; j < args.count(); j++) {
                int left = args.count() - j - 1;
                if (args.is(j, "asc")) {
                    options.desc = false;
                } else if (args.is(j, "desc")) {
                    options.desc = true;
                } else if (args.is(j, "alpha")) {
                    options.alpha = true;
                } else if (args.is(j, "limit") && left >= 2) {
                    try {
                        options.limitStart = Numbers.parseLong(args.array(), args.offset(j + 1), args.length(j + 1));
                        options.limitCount = Numbers.parseLong(args.array(), args.offset(j + 2), args.length(j + 2));
                    } catch (Numbers.InvalidNumber e) {
                        options.error = Errors.NOT_INTEGER;
                        options.errorAt = j;
                        return options;
                    }
                    j += 2;
                } else if (!readonly && args.is(j, "store") && left >= 1) {
                    options.store = ++j;
                } else if (args.is(j, "by") && left >= 1) {
                    options.by = ++j;
                    if (hasStar(args, j)) {
                        options.keyAccessNeeded(j, "ERR BY option of SORT denied due to insufficient ACL permissions.");
                    }
                } else if (args.is(j, "get") && left >= 1) {
                    options.gets.add(++j);
                    options.keyAccessNeeded(j, "ERR GET option of SORT denied due to insufficient ACL permissions.");
                } else {
                    options.error = Errors.SYNTAX;
                    options.errorAt = j;
                    return options;
                }
            }
            return options;
        }

        private void keyAccessNeeded(int at, String refusal) {
            if (keyAccessError == null) {
                keyAccessError = refusal;
                keyAccessAt = at;
            }
        }

        /**
         * The error for these options: the parse error, or the BY or GET refusal before it when
         * the client's user may not read every key; null when none.
         */
        String error(CommandContext ctx) {
            if (keyAccessError != null && keyAccessAt < errorAt && !ctx.readsEveryKey()) {
                return keyAccessError;
            }
            return error;
        }

        /**
         * Whether running these options may read or write keys other than the sorted one: STORE, or
         * a BY or GET pattern with a '*' (one without reads nothing; neither does GET #).
         */
        boolean touchesOtherKeys(Arguments args) {
            if (error != null) {
                return false;
            }
            if (store >= 0 || (by >= 0 && hasStar(args, by))) {
                return true;
            }
            for (int get : gets) {
                if (hasStar(args, get)) {
                    return true;
                }
            }
            return false;
        }

        /** A BY pattern without '*' is constant: nothing to sort by, the collection's order stays. */
        boolean dontSort(Arguments args) {
            return by >= 0 && !hasStar(args, by);
        }
    }

    private static boolean hasStar(Arguments args, int index) {
        byte[] array = args.array();
        for (int i = args.offset(index); i < args.offset(index) + args.length(index); i++) {
            if (array[i] == '*') {
                return true;
            }
        }
        return false;
    }

    private static void sort(CommandContext ctx, boolean readonly) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        Options options = Options.parse(args, readonly);
        String error = options.error(ctx);
        if (error != null) {
            reply.error(error);
            return;
        }
        Keyspace keyspace = ctx.keyspace();
        Object value = keyspace.get(args.array(), args.offset(1), args.length(1));
        // SORT is a write that reads with lookupKeyRead, its key and each BY and GET key; SORT_RO's
        // view reports its own misses.
        CommandContext missesTo = readonly ? null : ctx;
        if (value == null && missesTo != null) {
            KeyspaceEvents.missed(ctx, args, 1);
        }
        if (value != null && !(value instanceof Quicklist) && !(value instanceof SetValue)
            && !(value instanceof SortedSet)) {
            reply.error(Errors.WRONG_TYPE);
            return;
        }
        boolean dontSort = options.dontSort(args);
        boolean alpha = options.alpha;
        int by = options.by;
        if (dontSort && value instanceof SetValue && options.store >= 0) {
            // A set has no order of its own: what is stored must not depend on its layout.
            dontSort = false;
            alpha = true;
            by = -1;
        }
        long size = value == null ? 0 : value instanceof Quicklist list ? list.size()
            : value instanceof SetValue set ? set.size() : ((SortedSet) value).size();
        long start = Math.min(Math.max(options.limitStart, 0), size);
        long count = Math.min(Math.max(options.limitCount, -1), size);
        long end = count < 0 ? size - 1 : start + count - 1;
        if (start >= size) {
            start = size - 1;
            end = size - 2;
        }
        if (end >= size) {
            end = size - 1;
        }
        Element[] elements;
        if (dontSort && (value instanceof Quicklist || value instanceof SortedSet)) {
            // The collection's own order, the LIMIT range taken directly.
            elements = orderedRange(value, start, end, options.desc);
            end -= start;
            start = 0;
        } else {
            elements = all(value);
        }
        if (!dontSort) {
            boolean invalid = false;
            for (Element element : elements) {
                byte[] weight = by >= 0 ? lookupByPattern(keyspace, missesTo, args, by, element.value) : element.value;
                if (weight == null) {
                    continue;
                }
                if (alpha) {
                    element.byValue = by >= 0 ? weight : null;
                } else {
                    try {
                        element.score = Numbers.parseSortWeight(weight, 0, weight.length);
                    } catch (Numbers.InvalidNumber e) {
                        invalid = true;
                    }
                }
            }
            if (invalid) {
                reply.error(SCORES_NOT_DOUBLE);
                return;
            }
            boolean byPattern = by >= 0;
            boolean byAlpha = alpha;
            boolean binary = options.store >= 0;
            boolean desc = options.desc;
            Comparator<Element> order = (a, b) -> {
                int cmp = compare(a, b, byAlpha, byPattern, binary);
                return desc ? -cmp : cmp;
            };
            if (byPattern && (start != 0 || end != elements.length - 1)) {
                PartialQuicksort.sort(elements, order, (int) start, (int) end);
            } else {
                Arrays.sort(elements, order);
            }
        }
        int getCount = options.gets.size();
        long outputLength = (getCount == 0 ? 1 : getCount) * (end - start + 1);
        if (options.store < 0) {
            reply.array((int) outputLength);
            for (long j = start; j <= end; j++) {
                byte[] element = elements[(int) j].value;
                if (getCount == 0) {
                    reply.bulk(element);
                }
                for (int get : options.gets) {
                    byte[] found = lookupByPattern(keyspace, missesTo, args, get, element);
                    if (found == null) {
                        reply.nullBulk();
                    } else {
                        reply.bulk(found);
                    }
                }
            }
            return;
        }
        Quicklist stored = ListCommands.newList(ctx);
        for (long j = start; j <= end; j++) {
            byte[] element = elements[(int) j].value;
            if (getCount == 0) {
                stored.pushTail(element);
            }
            for (int get : options.gets) {
                byte[] found = lookupByPattern(keyspace, missesTo, args, get, element);
                // A string value may be the stored array itself: the list gets its own copy.
                stored.pushTail(found == null ? new byte[0] : found == element ? element : found.clone());
            }
        }
        int destination = options.store;
        // server.dirty += outputlen: one change per element stored.
        AggregateChanges.stored(ctx, destination, outputLength > 0 ? stored : null, outputLength, KeyspaceEvents.LIST,
            "sortstore");
        reply.integer(outputLength);
    }

    /** sortCompare, before DESC; ALPHA compares {@code binary} (STORE) or as C strings (see the class comment). */
    private static int compare(Element a, Element b, boolean alpha, boolean byPattern, boolean binary) {
        if (!alpha) {
            if (a.score > b.score) {
                return 1;
            }
            if (a.score < b.score) {
                return -1;
            }
            return Arrays.compareUnsigned(a.value, b.value);
        }
        if (byPattern && (a.byValue == null || b.byValue == null)) {
            return a.byValue == b.byValue ? 0 : a.byValue == null ? -1 : 1;
        }
        byte[] first = byPattern ? a.byValue : a.value;
        byte[] second = byPattern ? b.byValue : b.value;
        return binary ? Arrays.compareUnsigned(first, second)
            : Arrays.compareUnsigned(first, 0, cStringLength(first), second, 0, cStringLength(second));
    }

    /** The length strcmp sees: up to the first NUL. */
    private static int cStringLength(byte[] value) {
        for (int i = 0; i < value.length; i++) {
            if (value[i] == 0) {
                return i;
            }
        }
        return value.length;
    }

    /** Every element of the collection (none for a missing key), in its iteration order. */
    private static Element[] all(Object value) {
        if (value == null) {
            return new Element[0];
        }
        if (value instanceof SetValue set) {
            byte[][] members = set.members();
            Element[] elements = new Element[members.length];
            for (int i = 0; i < members.length; i++) {
                elements[i] = new Element(members[i]);
            }
            return elements;
        }
        if (value instanceof Quicklist list) {
            Element[] elements = new Element[(int) list.size()];
            int[] n = {0};
            list.forEach(0, list.size() - 1, entry -> elements[n[0]++] = new Element(entry));
            return elements;
        }
        SortedSet set = (SortedSet) value;
        Element[] elements = new Element[set.size()];
        int[] n = {0};
        set.visit(0, set.size() - 1, false, collecting(elements, n));
        return elements;
    }

    /** Collects each member visited, copied, into {@code elements} from {@code n[0]} on. */
    private static SortedSet.Visitor collecting(Element[] elements, int[] n) {
        return (array, offset, length, score) -> elements[n[0]++] = new Element(Arrays.copyOfRange(array, offset,
            offset + length));
    }

    /**
     * Elements {@code start..end} of a list or sorted set in its own order, or counted from its
     * far end when {@code desc}; none when {@code end < start}.
     */
    private static Element[] orderedRange(Object value, long start, long end, boolean desc) {
        if (end < start) {
            return new Element[0];
        }
        Element[] elements = new Element[(int) (end - start + 1)];
        int[] n = {0};
        if (value instanceof Quicklist list) {
            if (desc) {
                Quicklist.Cursor cursor = list.cursor(list.size() - 1 - start, false);
                while (n[0] < elements.length) {
                    elements[n[0]++] = new Element(cursor.next());
                }
            } else {
                list.forEach(start, end, entry -> elements[n[0]++] = new Element(entry));
            }
        } else {
            SortedSet set = (SortedSet) value;
            int size = set.size();
            if (desc) {
                set.visit((int) (size - 1 - end), (int) (size - 1 - start), true,
                    collecting(elements, n));
            } else {
                set.visit((int) start, (int) end, false, collecting(elements, n));
            }
        }
        return elements;
    }

    /**
     * lookupKeyByPattern: "#" is the element itself; otherwise the first '*' of the pattern at
     * argument {@code pattern} is replaced by the element, and the key so named gives its string
     * value, or, when "->field" follows the '*', that field of its hash. Null when the pattern has
     * no '*', the key is missing or of another type, or the field is missing.
     */
    private static byte[] lookupByPattern(Keyspace keyspace, CommandContext missesTo, Arguments args, int pattern,
                                          byte[] element) {
        byte[] array = args.array();
        int offset = args.offset(pattern);
        int length = args.length(pattern);
        if (length == 1 && array[offset] == '#') {
            return element;
        }
        int star = -1;
        for (int i = 0; i < length; i++) {
            if (array[offset + i] == '*') {
                star = i;
                break;
            }
        }
        if (star < 0) {
            return null;
        }
        int arrow = -1;
        for (int i = star + 1; i + 1 < length; i++) {
            if (array[offset + i] == '-' && array[offset + i + 1] == '>') {
                arrow = i;
                break;
            }
        }
        int fieldLength = arrow >= 0 && arrow + 2 < length ? length - arrow - 2 : 0;
        int postfixLength = length - star - 1 - (fieldLength > 0 ? fieldLength + 2 : 0);
        byte[] key = new byte[star + element.length + postfixLength];
        System.arraycopy(array, offset, key, 0, star);
        System.arraycopy(element, 0, key, star, element.length);
        System.arraycopy(array, offset + star + 1, key, star + element.length, postfixLength);
        Object value = keyspace.get(key, 0, key.length);
        if (value == null) {
            if (missesTo != null) {
                KeyspaceEvents.notify(missesTo, KeyspaceEvents.KEY_MISS, "keymiss", key);
            }
            return null;
        }
        if (fieldLength > 0) {
            if (!(value instanceof HashValue hash)) {
                return null;
            }
            int at = hash.find(array, offset + length - fieldLength, fieldLength);
            return at < 0 ? null : hash.value(at);
        }
        return value instanceof byte[] string ? string : null;
    }
}
