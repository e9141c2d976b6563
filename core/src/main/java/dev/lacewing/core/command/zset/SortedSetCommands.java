package dev.lacewing.core.command.zset;

import static dev.lacewing.api.CommandFlag.BLOCKING;
import static dev.lacewing.api.CommandFlag.DENYOOM;
import static dev.lacewing.api.CommandFlag.FAST;
import static dev.lacewing.api.CommandFlag.NOSCRIPT;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.WRITE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.BlockedCommand;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandHandler;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.AggregateChanges;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.IndexRange;
import dev.lacewing.core.command.MultiPopOptions;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.command.RandomCount;
import dev.lacewing.core.command.ScanOptions;
import dev.lacewing.core.command.Timeouts;
import dev.lacewing.core.datatype.SetValue;
import dev.lacewing.core.datatype.SortedSet;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import dev.lacewing.core.resp.DoubleFormat;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The sorted-set family (Redis 7.0's t_zset.c), over {@link SortedSet}. Replies and errors follow
 * Redis 7.0 in both protocols: scores are RESP3 doubles (bulk strings in RESP2), and WITHSCORES
 * replies nest each member/score pair in RESP3 as Redis 7 does. Every range command works on
 * ranks: a score or lex range becomes the rank interval between two O(log n) counts, so one
 * emission path serves ZRANGE and its older forms, the store forms and the removals.
 *
 * <p>Commands whose keys follow a numkeys argument (ZUNIONSTORE, ZMPOP, ZINTERCARD...) declare
 * it ({@link CommandSpec#withNumKeysAt}): the engines find their keys from it, so a command over
 * keys of several shards runs as one transaction.
 *
 * <p>BZPOPMIN, BZPOPMAX and BZMPOP first do what their non-blocking forms do; when none of their
 * keys holds a set they block through {@link CommandContext#block} (the lists' mechanism) with a
 * {@link SetWaiter}, served by the first command that stores or grows a set at one of those keys.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its keys.
 */
public final class SortedSetCommands {

    private static final String GROUP = "sorted-set";
    private static final long DEFAULT_MAX_LISTPACK_ENTRIES = 128;
    private static final long DEFAULT_MAX_LISTPACK_VALUE = 64;

    /* ZADD options, as Redis's ZADD_IN_* flags. */
    private static final int INCR = 1;
    private static final int NX = 1 << 1;
    private static final int XX = 1 << 2;
    private static final int GT = 1 << 3;
    private static final int LT = 1 << 4;
    private static final int CH = 1 << 5;

    private enum RangeType { AUTO, RANK, SCORE, LEX }

    private enum SetOperation { UNION, INTER, DIFF }

    private enum Aggregate { SUM, MIN, MAX }

    private SortedSetCommands() {
    }

    public static void register(CommandRegistry registry) {
        register(registry, "zadd", -4, 1, 1, 1, "Add one or more members to a sorted set, or update its score if it already exists",
            SortedSetCommands::zadd, WRITE, DENYOOM, FAST);
        register(registry, "zincrby", 4, 1, 1, 1, "Increment the score of a member in a sorted set",
            SortedSetCommands::zincrby, WRITE, DENYOOM, FAST);
        register(registry, "zrem", -3, 1, 1, 1, "Remove one or more members from a sorted set",
            SortedSetCommands::zrem, WRITE, FAST);
        register(registry, "zcard", 2, 1, 1, 1, "Get the number of members in a sorted set",
            SortedSetCommands::zcard, READONLY, FAST);
        register(registry, "zscore", 3, 1, 1, 1, "Get the score associated with the given member in a sorted set",
            SortedSetCommands::zscore, READONLY, FAST);
        register(registry, "zmscore", -3, 1, 1, 1, "Get the score associated with the given members in a sorted set",
            SortedSetCommands::zmscore, READONLY, FAST);
        register(registry, "zcount", 4, 1, 1, 1, "Count the members in a sorted set with scores within the given values",
            SortedSetCommands::zcount, READONLY, FAST);
        register(registry, "zlexcount", 4, 1, 1, 1,
            "Count the number of members in a sorted set between a given lexicographical range",
            SortedSetCommands::zlexcount, READONLY, FAST);
        register(registry, "zrange", -4, 1, 1, 1, "Return a range of members in a sorted set",
            ctx -> zrange(ctx, -1, RangeType.AUTO, 0), READONLY);
        register(registry, "zrangestore", -5, 1, 2, 1, "Store a range of members from sorted set into another key",
            ctx -> zrange(ctx, 1, RangeType.AUTO, 0), WRITE, DENYOOM);
        register(registry, "zrangebyscore", -4, 1, 1, 1, "Return a range of members in a sorted set, by score",
            ctx -> zrange(ctx, -1, RangeType.SCORE, 1), READONLY);
        register(registry, "zrevrangebyscore", -4, 1, 1, 1,
            "Return a range of members in a sorted set, by score, with scores ordered from high to low",
            ctx -> zrange(ctx, -1, RangeType.SCORE, -1), READONLY);
        register(registry, "zrangebylex", -4, 1, 1, 1,
            "Return a range of members in a sorted set, by lexicographical range",
            ctx -> zrange(ctx, -1, RangeType.LEX, 1), READONLY);
        register(registry, "zrevrangebylex", -4, 1, 1, 1,
            "Return a range of members in a sorted set, by lexicographical range, ordered from higher to lower strings.",
            ctx -> zrange(ctx, -1, RangeType.LEX, -1), READONLY);
        register(registry, "zrevrange", -4, 1, 1, 1,
            "Return a range of members in a sorted set, by index, with scores ordered from high to low",
            ctx -> zrange(ctx, -1, RangeType.RANK, -1), READONLY);
        register(registry, "zrank", 3, 1, 1, 1, "Determine the index of a member in a sorted set",
            ctx -> zrank(ctx, false), READONLY, FAST);
        register(registry, "zrevrank", 3, 1, 1, 1,
            "Determine the index of a member in a sorted set, with scores ordered from high to low",
            ctx -> zrank(ctx, true), READONLY, FAST);
        register(registry, "zpopmin", -2, 1, 1, 1, "Remove and return members with the lowest scores in a sorted set",
            ctx -> zpop(ctx, false), WRITE, FAST);
        register(registry, "zpopmax", -2, 1, 1, 1, "Remove and return members with the highest scores in a sorted set",
            ctx -> zpop(ctx, true), WRITE, FAST);
        registerCounted(registry, "zmpop", -4, 1, 0, 0, 0,
            "Remove and return members with scores in a sorted set", ctx -> zmpop(ctx, 1, false), WRITE);
        register(registry, "bzpopmin", -3, 1, -2, 1,
            "Remove and return the member with the lowest score from one or more sorted sets, or block until one is available",
            ctx -> blockingPop(ctx, false), WRITE, NOSCRIPT, FAST, BLOCKING);
        register(registry, "bzpopmax", -3, 1, -2, 1,
            "Remove and return the member with the highest score from one or more sorted sets, or block until one is available",
            ctx -> blockingPop(ctx, true), WRITE, NOSCRIPT, FAST, BLOCKING);
        registerCounted(registry, "bzmpop", -5, 2, 0, 0, 0,
            "Remove and return members with scores in a sorted set or block until one is available",
            ctx -> zmpop(ctx, 2, true), WRITE, BLOCKING);
        register(registry, "zrandmember", -2, 1, 1, 1, "Get one or multiple random elements from a sorted set",
            SortedSetCommands::zrandmember, READONLY);
        register(registry, "zremrangebyrank", 4, 1, 1, 1,
            "Remove all members in a sorted set within the given indexes",
            ctx -> zremrange(ctx, RangeType.RANK), WRITE);
        register(registry, "zremrangebyscore", 4, 1, 1, 1, "Remove all members in a sorted set within the given scores",
            ctx -> zremrange(ctx, RangeType.SCORE), WRITE);
        register(registry, "zremrangebylex", 4, 1, 1, 1,
            "Remove all members in a sorted set between the given lexicographical range",
            ctx -> zremrange(ctx, RangeType.LEX), WRITE);
        registerCounted(registry, "zunion", -3, 1, 0, 0, 0, "Add multiple sorted sets",
            ctx -> setOperation(ctx, 0, 1, SetOperation.UNION, false, "zunion"), READONLY);
        registerCounted(registry, "zinter", -3, 1, 0, 0, 0, "Intersect multiple sorted sets",
            ctx -> setOperation(ctx, 0, 1, SetOperation.INTER, false, "zinter"), READONLY);
        registerCounted(registry, "zdiff", -3, 1, 0, 0, 0, "Subtract multiple sorted sets",
            ctx -> setOperation(ctx, 0, 1, SetOperation.DIFF, false, "zdiff"), READONLY);
        registerCounted(registry, "zunionstore", -4, 2, 1, 1, 1, "Add multiple sorted sets and store the resulting sorted set in a new key",
            ctx -> setOperation(ctx, 1, 2, SetOperation.UNION, false, "zunionstore"), WRITE, DENYOOM);
        registerCounted(registry, "zinterstore", -4, 2, 1, 1, 1,
            "Intersect multiple sorted sets and store the resulting sorted set in a new key",
            ctx -> setOperation(ctx, 1, 2, SetOperation.INTER, false, "zinterstore"), WRITE, DENYOOM);
        registerCounted(registry, "zdiffstore", -4, 2, 1, 1, 1, "Subtract multiple sorted sets and store the resulting sorted set in a new key",
            ctx -> setOperation(ctx, 1, 2, SetOperation.DIFF, false, "zdiffstore"), WRITE, DENYOOM);
        registerCounted(registry, "zintercard", -3, 1, 0, 0, 0, "Intersect multiple sorted sets and return the cardinality of the result",
            ctx -> setOperation(ctx, 0, 1, SetOperation.INTER, true, "zintercard"), READONLY);
        register(registry, "zscan", -3, 1, 1, 1, "Incrementally iterate sorted sets elements and associated scores",
            SortedSetCommands::zscan, READONLY);
    }

    private static void register(CommandRegistry registry, String name, int arity, int firstKey, int lastKey,
                                 int step, String summary, CommandHandler handler, CommandFlag... flags) {
        registry.register(new CommandSpec(name, arity, Set.of(flags), firstKey, lastKey, step, KeyScope.KEYS,
            GROUP, summary), handler);
    }

    /** A command whose keys (after the fixed ones, if any) are counted by the argument at {@code numKeysIndex}. */
    private static void registerCounted(CommandRegistry registry, String name, int arity, int numKeysIndex,
                                        int firstKey, int lastKey, int step, String summary, CommandHandler handler,
                                        CommandFlag... flags) {
        registry.register(new CommandSpec(name, arity, Set.of(flags), firstKey, lastKey, step, KeyScope.KEYS,
            GROUP, summary).withNumKeysAt(numKeysIndex), handler);
    }

    // ---- shared helpers -----------------------------------------------------------------------

    /**
     * An input of ZUNION, ZINTER, ZDIFF, their store forms and ZINTERCARD: a sorted set, or a set
     * read as one whose members all score 1, as zunionInterDiffGenericCommand reads it; null when
     * absent; WRONGTYPE ends the command for another type. A set is copied: O(n), as Redis walks it.
     */
    private static SortedSet lookupInput(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        Object value = ctx.keyspace().get(args.array(), args.offset(index), args.length(index));
        if (value instanceof SetValue set) {
            SortedSet scored = new SortedSet();
            for (int at = set.first(); at >= 0; at = set.next(at)) {
                scored.add(set.member(at), 1, Long.MAX_VALUE, Long.MAX_VALUE);
            }
            return scored;
        }
        return SortedSet.TYPE.of(value);
    }

    /** The sorted set at argument {@code index}, or null; WRONGTYPE ends the command for another type. */
    private static SortedSet lookup(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        return ctx.keyspace().aggregate(args.array(), args.offset(index), args.length(index), SortedSet.TYPE);
    }

    private static long maxListpackEntries(CommandContext ctx) {
        return ctx.server().settings().getLong("zset-max-listpack-entries", DEFAULT_MAX_LISTPACK_ENTRIES);
    }

    private static long maxListpackValue(CommandContext ctx) {
        return ctx.server().settings().getLong("zset-max-listpack-value", DEFAULT_MAX_LISTPACK_VALUE);
    }

    /**
     * After changing a stored set in place: removes the key when the set is empty, as Redis does;
     * then the command's keyspace event, and "del" when the key went. The dirty counter counts
     * {@code members}, one per member removed.
     */
    private static void changed(CommandContext ctx, int keyIndex, SortedSet set, String event, long members) {
        AggregateChanges.changedInPlace(ctx, keyIndex, set.size() == 0, members, KeyspaceEvents.ZSET, event);
    }

    /**
     * Stores a computed result at argument {@code keyIndex} and replies its size, with the
     * command's keyspace event; an empty result deletes the key ("del" when there was one).
     */
    private static void store(CommandContext ctx, int keyIndex, SortedSet result, String event) {
        AggregateChanges.stored(ctx, keyIndex, result.size() > 0 ? result : null, 1, KeyspaceEvents.ZSET, event);
        ctx.reply().integer(result.size());
    }

    private static String popEvent(boolean max) {
        return max ? "zpopmax" : "zpopmin";
    }

    private static long parseLong(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        return Numbers.parseLong(args.array(), args.offset(index), args.length(index));
    }

    /** The header of a reply of {@code count} members, with their scores when asked, as zrangeResultBeginClient writes it. */
    private static void beginMembers(ReplyWriter reply, int count, boolean withScores) {
        reply.array(withScores && reply.protocol() == 2 ? count * 2 : count);
    }

    /** Replies each member visited (and its score when {@code withScores}), as {@link #beginMembers} announced. */
    private static SortedSet.Visitor replying(ReplyWriter reply, boolean withScores) {
        return replying(reply, withScores, withScores && reply.protocol() > 2);
    }

    /** The same, each member and score as a two-element array when {@code nested}. */
    private static SortedSet.Visitor replying(ReplyWriter reply, boolean withScores, boolean nested) {
        return (array, offset, length, score) -> {
            if (nested) {
                reply.array(2);
            }
            reply.bulk(array, offset, length);
            if (withScores) {
                reply.doubleValue(score);
            }
        };
    }

    /** Adds each member visited (copied) to {@code result}, with the listpack limits given. */
    private static SortedSet.Visitor adding(SortedSet result, long maxEntries, long maxValue) {
        return (array, offset, length, score) -> result.add(array, offset, length, score, maxEntries, maxValue);
    }

    /** A member's own copy, as a key of the set operations' result map. */
    private static ByteBuffer copyOf(byte[] array, int offset, int length) {
        return ByteBuffer.wrap(Arrays.copyOfRange(array, offset, offset + length));
    }

    // ---- score and lex ranges -------------------------------------------------------------------

    /** A score range as zslParseRange reads it: '(' makes a bound exclusive. Null when not a float. */
    private record ScoreRange(double min, boolean minExclusive, double max, boolean maxExclusive) {

        static ScoreRange parse(Arguments args, int minIndex, int maxIndex) {
            try {
                byte[] array = args.array();
                boolean minExclusive = args.length(minIndex) > 0 && array[args.offset(minIndex)] == '(';
                boolean maxExclusive = args.length(maxIndex) > 0 && array[args.offset(maxIndex)] == '(';
                int minSkip = minExclusive ? 1 : 0;
                int maxSkip = maxExclusive ? 1 : 0;
                double min = Numbers.parseBound(array, args.offset(minIndex) + minSkip, args.length(minIndex) - minSkip);
                double max = Numbers.parseBound(array, args.offset(maxIndex) + maxSkip, args.length(maxIndex) - maxSkip);
                return new ScoreRange(min, minExclusive, max, maxExclusive);
            } catch (InvalidNumber e) {
                return null;
            }
        }

        /** The first rank in the range. */
        int first(SortedSet set) {
            return set.countByScore(min, minExclusive);
        }

        /** The last rank in the range; below {@link #first} when the range is empty. */
        int last(SortedSet set) {
            return set.countByScore(max, !maxExclusive) - 1;
        }
    }

    /**
     * A lex range as zslParseLexRange reads it: {@code -} and {@code +} alone are the ends,
     * {@code [} and {@code (} start an inclusive and an exclusive bound. Null when malformed.
     */
    private record LexRange(byte[] min, int minKind, byte[] max, int maxKind) {

        static final int INCLUSIVE = 0;
        static final int EXCLUSIVE = 1;
        static final int MINUS = 2;
        static final int PLUS = 3;

        static LexRange parse(Arguments args, int minIndex, int maxIndex) {
            int minKind = kind(args, minIndex);
            int maxKind = kind(args, maxIndex);
            if (minKind < 0 || maxKind < 0) {
                return null;
            }
            return new LexRange(bound(args, minIndex), minKind, bound(args, maxIndex), maxKind);
        }

        private static int kind(Arguments args, int index) {
            int length = args.length(index);
            if (length == 0) {
                return -1;
            }
            byte first = args.array()[args.offset(index)];
            return switch (first) {
                case '-' -> length == 1 ? MINUS : -1;
                case '+' -> length == 1 ? PLUS : -1;
                case '[' -> INCLUSIVE;
                case '(' -> EXCLUSIVE;
                default -> -1;
            };
        }

        private static byte[] bound(Arguments args, int index) {
            int offset = args.offset(index);
            return Arrays.copyOfRange(args.array(), offset + 1, offset + args.length(index));
        }

        int first(SortedSet set) {
            return switch (minKind) {
                case MINUS -> 0;
                case PLUS -> set.size();
                default -> set.countByMember(min, minKind == EXCLUSIVE);
            };
        }

        int last(SortedSet set) {
            return switch (maxKind) {
                case MINUS -> -1;
                case PLUS -> set.size() - 1;
                default -> set.countByMember(max, maxKind != EXCLUSIVE) - 1;
            };
        }

        /**
         * Whether Redis's answer for this set is its listpack walk ({@link #walk}) rather than what
         * {@link #first} and {@link #last} find by search: a set in the small form whose members do
         * not all share a score, so that score order is not lex order. Redis documents lex ranges on
         * such a set as unspecified, but its listpack answer is fixed, and clients get it; in the
         * skiplist form its answer depends on the nodes' random levels, so a large set keeps the
         * search.
         */
        boolean walked(SortedSet set) {
            int size = set.size();
            return !set.isLarge() && size > 1 && set.scoreAt(0) != set.scoreAt(size - 1);
        }

        /**
         * The ranks {@code [from, to]} Redis's listpack walk gives (zzlFirstInLexRange or
         * zzlLastInLexRange, then genericZrangebylexCommand's loop): nothing unless the last member
         * is above the minimum and the first below the maximum; forwards, from the first member
         * above the minimum (which must also be below the maximum), {@code offset} members on,
         * then on while members stay below the maximum; backwards the same from the last member
         * below the maximum. At most {@code limit} members, all when negative.
         */
        int[] walk(SortedSet set, boolean reverse, long offset, long limit) {
            int size = set.size();
            byte[][] members = new byte[size][];
            int[] next = {0};
            set.visit(0, size - 1, false,
                (array, from, length, score) -> members[next[0]++] = Arrays.copyOfRange(array, from, from + length));
            int[] none = {0, -1};
            if (!spansSomething() || !aboveMin(members[size - 1]) || !belowMax(members[0])) {
                return none;
            }
            if (!reverse) {
                int first = 0;
                while (!aboveMin(members[first])) {
                    first++;
                }
                if (!belowMax(members[first]) || offset >= size - first) {
                    return none;
                }
                int start = first + (int) offset;
                int end = start;
                while (end < size && belowMax(members[end]) && (limit < 0 || end - start < limit)) {
                    end++;
                }
                return new int[] {start, end - 1};
            }
            int last = size - 1;
            while (!belowMax(members[last])) {
                last--;
            }
            if (!aboveMin(members[last]) || offset > last) {
                return none;
            }
            int start = last - (int) offset;
            int end = start;
            while (end >= 0 && aboveMin(members[end]) && (limit < 0 || start - end < limit)) {
                end--;
            }
            return new int[] {end + 1, start};
        }

        /** zslLexValueGteMin. */
        private boolean aboveMin(byte[] member) {
            return switch (minKind) {
                case MINUS -> true;
                case PLUS -> false;
                default -> {
                    int compared = Arrays.compareUnsigned(member, min);
                    yield minKind == EXCLUSIVE ? compared > 0 : compared >= 0;
                }
            };
        }

        /** zslLexValueLteMax. */
        private boolean belowMax(byte[] member) {
            return switch (maxKind) {
                case PLUS -> true;
                case MINUS -> false;
                default -> {
                    int compared = Arrays.compareUnsigned(member, max);
                    yield maxKind == EXCLUSIVE ? compared < 0 : compared <= 0;
                }
            };
        }

        /** zzlIsInLexRange's first test: the minimum is below the maximum, or equal with both inclusive. */
        private boolean spansSomething() {
            int compared = minKind == maxKind && (minKind == MINUS || minKind == PLUS) ? 0
                : minKind == MINUS || maxKind == PLUS ? -1
                : minKind == PLUS || maxKind == MINUS ? 1
                : Arrays.compareUnsigned(min, max);
            return compared < 0 || compared == 0 && minKind == INCLUSIVE && maxKind == INCLUSIVE;
        }
    }

    // ---- ZADD, ZINCRBY, ZREM ---------------------------------------------------------------------

    private static void zadd(CommandContext ctx) {
        zaddGeneric(ctx, 0);
    }

    private static void zincrby(CommandContext ctx) {
        zaddGeneric(ctx, INCR);
    }

    /** zaddGenericCommand: options, then every score parsed before anything changes. */
    private static void zaddGeneric(CommandContext ctx, int flags) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        int scoreIndex = 2;
        for (; scoreIndex < args.count(); scoreIndex++) {
            if (args.is(scoreIndex, "nx")) {
                flags |= NX;
            } else if (args.is(scoreIndex, "xx")) {
                flags |= XX;
            } else if (args.is(scoreIndex, "ch")) {
                flags |= CH;
            } else if (args.is(scoreIndex, "incr")) {
                flags |= INCR;
            } else if (args.is(scoreIndex, "gt")) {
                flags |= GT;
            } else if (args.is(scoreIndex, "lt")) {
                flags |= LT;
            } else {
                break;
            }
        }
        boolean incr = (flags & INCR) != 0;
        int elements = args.count() - scoreIndex;
        if (elements % 2 != 0 || elements == 0) {
            reply.error(Errors.SYNTAX);
            return;
        }
        elements /= 2;
        // Incompatible options first, then INCR's single pair, in zaddGenericCommand's order.
        if ((flags & NX) != 0 && (flags & XX) != 0) {
            reply.error(Errors.ZADD_NX_XX);
            return;
        }
        int exclusive = (flags & GT) != 0 ? 1 : 0;
        exclusive += (flags & LT) != 0 ? 1 : 0;
        exclusive += (flags & NX) != 0 ? 1 : 0;
        if (exclusive > 1) {
            reply.error(Errors.ZADD_GT_LT_NX);
            return;
        }
        if (incr && elements > 1) {
            reply.error(Errors.ZADD_INCR_PAIRS);
            return;
        }
        double[] scores = new double[elements];
        for (int j = 0; j < elements; j++) {
            int index = scoreIndex + j * 2;
            try {
                scores[j] = Numbers.parseDouble(args.array(), args.offset(index), args.length(index));
            } catch (InvalidNumber e) {
                reply.error(Errors.NOT_FLOAT);
                return;
            }
        }
        SortedSet set = lookup(ctx, 1);
        boolean created = false;
        if (set == null) {
            if ((flags & XX) != 0) {
                replyZadd(reply, incr, 0, 0, false, 0);
                return;
            }
            long maxEntries = maxListpackEntries(ctx);
            set = maxEntries == 0 || maxListpackValue(ctx) < args.length(scoreIndex + 1) ? SortedSet.large() : new SortedSet();
            created = true;
        }
        long maxEntries = maxListpackEntries(ctx);
        long maxValue = maxListpackValue(ctx);
        int added = 0;
        int updated = 0;
        int processed = 0;
        double score = 0;
        String error = null;
        for (int j = 0; j < elements; j++) {
            int index = scoreIndex + j * 2 + 1;
            double current = set.score(args.array(), args.offset(index), args.length(index));
            score = scores[j];
            if (!Double.isNaN(current)) {
                if ((flags & NX) != 0) {
                    continue;
                }
                if (incr) {
                    score += current;
                    if (Double.isNaN(score)) {
                        error = Errors.SCORE_NAN;
                        break;
                    }
                }
                if (((flags & LT) != 0 && score >= current) || ((flags & GT) != 0 && score <= current)) {
                    continue;
                }
                processed++;
                if (score != current) {
                    set.add(args.array(), args.offset(index), args.length(index), score, maxEntries, maxValue);
                    updated++;
                }
            } else {
                if ((flags & XX) != 0) {
                    continue;
                }
                set.add(args.array(), args.offset(index), args.length(index), score, maxEntries, maxValue);
                added++;
                processed++;
            }
        }
        // zaddGenericCommand's server.dirty += added + updated, whether CH replies them or not.
        AggregateChanges.added(ctx, 1, set, created, added + updated, KeyspaceEvents.ZSET, incr ? "zincr" : "zadd");
        if (error != null) {
            reply.error(error);
            return;
        }
        replyZadd(reply, incr, (flags & CH) != 0 ? added + updated : added, processed, true, score);
    }

    private static void replyZadd(ReplyWriter reply, boolean incr, int count, int processed, boolean exists,
                                  double score) {
        if (!incr) {
            reply.integer(count);
        } else if (processed > 0 && exists) {
            reply.doubleValue(score);
        } else {
            reply.nullBulk();
        }
    }

    private static void zrem(CommandContext ctx) {
        Arguments args = ctx.arguments();
        SortedSet set = lookup(ctx, 1);
        if (set == null) {
            ctx.reply().integer(0);
            return;
        }
        int deleted = 0;
        for (int i = 2; i < args.count() && set.size() > 0; i++) {
            if (set.remove(args.array(), args.offset(i), args.length(i))) {
                deleted++;
            }
        }
        if (deleted > 0) {
            changed(ctx, 1, set, "zrem", deleted);
        }
        ctx.reply().integer(deleted);
    }

    // ---- reads of single members ------------------------------------------------------------------

    private static void zcard(CommandContext ctx) {
        SortedSet set = lookup(ctx, 1);
        ctx.reply().integer(set == null ? 0 : set.size());
    }

    private static void zscore(CommandContext ctx) {
        Arguments args = ctx.arguments();
        SortedSet set = lookup(ctx, 1);
        double score = set == null ? Double.NaN : set.score(args.array(), args.offset(2), args.length(2));
        if (Double.isNaN(score)) {
            ctx.reply().nullBulk();
        } else {
            ctx.reply().doubleValue(score);
        }
    }

    private static void zmscore(CommandContext ctx) {
        Arguments args = ctx.arguments();
        SortedSet set = lookup(ctx, 1);
        ReplyWriter reply = ctx.reply();
        reply.array(args.count() - 2);
        for (int i = 2; i < args.count(); i++) {
            double score = set == null ? Double.NaN : set.score(args.array(), args.offset(i), args.length(i));
            if (Double.isNaN(score)) {
                reply.nullBulk();
            } else {
                reply.doubleValue(score);
            }
        }
    }

    private static void zrank(CommandContext ctx, boolean reverse) {
        Arguments args = ctx.arguments();
        SortedSet set = lookup(ctx, 1);
        int rank = set == null ? -1 : set.rank(args.array(), args.offset(2), args.length(2));
        if (rank < 0) {
            ctx.reply().nullBulk();
        } else {
            ctx.reply().integer(reverse ? set.size() - 1 - rank : rank);
        }
    }

    private static void zcount(CommandContext ctx) {
        ScoreRange range = ScoreRange.parse(ctx.arguments(), 2, 3);
        if (range == null) {
            ctx.reply().error(Errors.NOT_FLOAT_RANGE);
            return;
        }
        SortedSet set = lookup(ctx, 1);
        ctx.reply().integer(set == null ? 0 : Math.max(0, range.last(set) - range.first(set) + 1));
    }

    private static void zlexcount(CommandContext ctx) {
        LexRange range = LexRange.parse(ctx.arguments(), 2, 3);
        if (range == null) {
            ctx.reply().error(Errors.NOT_LEX_RANGE);
            return;
        }
        SortedSet set = lookup(ctx, 1);
        int[] walked = set != null && range.walked(set) ? range.walk(set, false, 0, -1) : null;
        ctx.reply().integer(set == null ? 0 : walked != null ? walked[1] - walked[0] + 1
            : Math.max(0, range.last(set) - range.first(set) + 1));
    }

    // ---- ZRANGE and its forms -------------------------------------------------------------------

    /**
     * zrangeGenericCommand. {@code storeIndex} is the destination's argument (ZRANGESTORE) or -1;
     * the source key follows it. {@code type} and {@code direction} (1, -1, or 0 for "from the
     * options") are fixed by the older commands.
     */
    private static void zrange(CommandContext ctx, int storeIndex, RangeType type, int direction) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        boolean store = storeIndex > 0;
        int keyIndex = store ? storeIndex + 1 : 1;
        int minIndex = keyIndex + 1;
        int maxIndex = keyIndex + 2;
        boolean withScores = false;
        long offset = 0;
        long limit = -1;
        for (int j = keyIndex + 3; j < args.count(); j++) {
            int left = args.count() - j - 1;
            if (!store && args.is(j, "withscores")) {
                withScores = true;
            } else if (args.is(j, "limit") && left >= 2) {
                try {
                    offset = parseLong(ctx, j + 1);
                    limit = parseLong(ctx, j + 2);
                } catch (InvalidNumber e) {
                    reply.error(Errors.NOT_INTEGER);
                    return;
                }
                j += 2;
            } else if (direction == 0 && args.is(j, "rev")) {
                direction = -1;
            } else if (type == RangeType.AUTO && args.is(j, "bylex")) {
                type = RangeType.LEX;
            } else if (type == RangeType.AUTO && args.is(j, "byscore")) {
                type = RangeType.SCORE;
            } else {
                reply.error(Errors.SYNTAX);
                return;
            }
        }
        if (direction == 0) {
            direction = 1;
        }
        if (type == RangeType.AUTO) {
            type = RangeType.RANK;
        }
        if (limit != -1 && type == RangeType.RANK) {
            reply.error(Errors.LIMIT_NEEDS_BYSCORE_OR_BYLEX);
            return;
        }
        if (withScores && type == RangeType.LEX) {
            reply.error(Errors.WITHSCORES_WITH_BYLEX);
            return;
        }
        boolean reverse = direction < 0;
        if (reverse && type != RangeType.RANK) {
            int swap = minIndex;
            minIndex = maxIndex;
            maxIndex = swap;
        }
        long start = 0;
        long end = 0;
        ScoreRange scoreRange = null;
        LexRange lexRange = null;
        switch (type) {
            case RANK -> {
                try {
                    start = parseLong(ctx, minIndex);
                    end = parseLong(ctx, maxIndex);
                } catch (InvalidNumber e) {
                    reply.error(Errors.NOT_INTEGER);
                    return;
                }
            }
            case SCORE -> {
                scoreRange = ScoreRange.parse(args, minIndex, maxIndex);
                if (scoreRange == null) {
                    reply.error(Errors.NOT_FLOAT_RANGE);
                    return;
                }
            }
            default -> {
                lexRange = LexRange.parse(args, minIndex, maxIndex);
                if (lexRange == null) {
                    reply.error(Errors.NOT_LEX_RANGE);
                    return;
                }
            }
        }
        SortedSet set = lookup(ctx, keyIndex);
        if (set == null && store) {
            KeyspaceEvents.missed(ctx, args, keyIndex);
        }
        int from;
        int to;
        if (set == null) {
            from = 0;
            to = -1;
        } else if (type == RangeType.RANK) {
            int length = set.size();
            IndexRange ranks = new IndexRange(start, end).within(length);
            if (ranks == null) {
                from = 0;
                to = -1;
            } else {
                from = (int) (reverse ? length - 1 - ranks.end() : ranks.start());
                to = (int) (reverse ? length - 1 - ranks.start() : ranks.end());
            }
        } else if (lexRange != null && offset >= 0 && lexRange.walked(set)) {
            int[] ranks = lexRange.walk(set, reverse, offset, limit);
            from = ranks[0];
            to = ranks[1];
        } else {
            int first = scoreRange != null ? scoreRange.first(set) : lexRange.first(set);
            int last = scoreRange != null ? scoreRange.last(set) : lexRange.last(set);
            if (offset < 0 || (offset > 0 && offset >= set.size())) {
                from = 0;
                to = -1;
            } else if (!reverse) {
                from = (int) Math.min(first + offset, Integer.MAX_VALUE);
                to = limit < 0 ? last : (int) Math.min(last, from + limit - 1);
            } else {
                to = (int) Math.max(last - offset, -1);
                from = limit < 0 ? first : (int) Math.max(first, to - limit + 1);
            }
        }
        int count = Math.max(0, to - from + 1);
        if (store) {
            SortedSet result = new SortedSet();
            if (count > 0) {
                set.visit(from, to, reverse, adding(result, maxListpackEntries(ctx), maxListpackValue(ctx)));
            }
            store(ctx, storeIndex, result, "zrangestore");
            return;
        }
        beginMembers(reply, count, withScores);
        if (count > 0) {
            set.visit(from, to, reverse, replying(reply, withScores));
        }
    }

    // ---- removals by range ----------------------------------------------------------------------

    private static void zremrange(CommandContext ctx, RangeType type) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        long start = 0;
        long end = 0;
        ScoreRange scoreRange = null;
        LexRange lexRange = null;
        if (type == RangeType.RANK) {
            try {
                start = parseLong(ctx, 2);
                end = parseLong(ctx, 3);
            } catch (InvalidNumber e) {
                reply.error(Errors.NOT_INTEGER);
                return;
            }
        } else if (type == RangeType.SCORE) {
            scoreRange = ScoreRange.parse(args, 2, 3);
            if (scoreRange == null) {
                reply.error(Errors.NOT_FLOAT_RANGE);
                return;
            }
        } else {
            lexRange = LexRange.parse(args, 2, 3);
            if (lexRange == null) {
                reply.error(Errors.NOT_LEX_RANGE);
                return;
            }
        }
        SortedSet set = lookup(ctx, 1);
        if (set == null) {
            reply.integer(0);
            return;
        }
        int from;
        int to;
        if (type == RangeType.RANK) {
            IndexRange ranks = new IndexRange(start, end).within(set.size());
            if (ranks == null) {
                reply.integer(0);
                return;
            }
            from = (int) ranks.start();
            to = (int) ranks.end();
        } else if (lexRange != null && lexRange.walked(set)) {
            int[] ranks = lexRange.walk(set, false, 0, -1);
            from = ranks[0];
            to = ranks[1];
        } else {
            from = scoreRange != null ? scoreRange.first(set) : lexRange.first(set);
            to = scoreRange != null ? scoreRange.last(set) : lexRange.last(set);
        }
        int removed = Math.max(0, to - from + 1);
        if (removed > 0) {
            set.removeRange(from, to);
            changed(ctx, 1, set, switch (type) {
                case RANK -> "zremrangebyrank";
                case SCORE -> "zremrangebyscore";
                default -> "zremrangebylex";
            }, removed);
        }
        reply.integer(removed);
    }

    // ---- pops -----------------------------------------------------------------------------------

    /**
     * Removes and replies {@code count} (at most the set's size) members from the low end, or the
     * high end when {@code max}: each as a [member, score] array when {@code nested}, else as
     * member then score. The caller writes the reply's header and removes the key once the set is
     * empty; the blocking pops call this when a set they wait on gets members.
     */
    public static void popMembers(SortedSet set, boolean max, int count, boolean nested, ReplyWriter reply) {
        int size = set.size();
        int from = max ? size - count : 0;
        int to = max ? size - 1 : count - 1;
        set.visit(from, to, max, replying(reply, true, nested));
        set.removeRange(from, to);
    }

    /** ZPOPMIN / ZPOPMAX key [count] (genericZpopCommand). */
    private static void zpop(CommandContext ctx, boolean max) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        if (args.count() > 3) {
            reply.error(Errors.SYNTAX);
            return;
        }
        boolean hasCount = args.count() == 3;
        long count = 1;
        if (hasCount) {
            try {
                count = parseLong(ctx, 2);
            } catch (InvalidNumber e) {
                count = -1;
            }
            if (count < 0) {
                reply.error(Errors.VALUE_MUST_BE_POSITIVE);
                return;
            }
        }
        SortedSet set = lookup(ctx, 1);
        if (set == null || count == 0) {
            reply.array(0);
            return;
        }
        int popped = (int) Math.min(count, set.size());
        boolean nested = hasCount && reply.protocol() > 2;
        reply.array(nested ? popped : popped * 2);
        popMembers(set, max, popped, nested, reply);
        changed(ctx, 1, set, popEvent(max), popped);
    }

    /**
     * ZMPOP numkeys key [key ...] MIN|MAX [COUNT count] ({@code numKeysIndex} 1) and BZMPOP timeout
     * numkeys ... (2, {@code blocking}), as zmpopGenericCommand: the options are checked before the
     * timeout, then the first key holding a set is popped; none gives a null array (ZMPOP) or blocks.
     */
    private static void zmpop(CommandContext ctx, int numKeysIndex, boolean blocking) {
        MultiPopOptions options = MultiPopOptions.parse(ctx, numKeysIndex, "min", "max");
        if (options == null) {
            return;
        }
        boolean max = !options.firstEnd();
        long count = options.count();
        long deadline = 0;
        if (blocking) {
            deadline = Timeouts.deadline(ctx, 1);
            if (deadline == Timeouts.INVALID) {
                return;
            }
        }
        int[] keys = new int[options.numKeys()];
        for (int k = 0; k < keys.length; k++) {
            int key = numKeysIndex + 1 + k;
            keys[k] = key;
            SortedSet set = lookup(ctx, key);
            if (set != null) {
                popFromKey(ctx, set, key, max, count, true);
                return;
            }
        }
        if (!blocking) {
            ctx.reply().nullArray();
            return;
        }
        ctx.block(deadline, keys, -1, new SetWaiter(max, count, true));
    }

    /**
     * Pops from the set at key argument {@code key} with the key in the reply, as genericZpopCommand
     * with emitkey: [key, [[member, score]...]] for ZMPOP and BZMPOP ({@code many}, up to
     * {@code count}), [key, member, score] for BZPOPMIN and BZPOPMAX (one member).
     */
    private static void popFromKey(CommandContext ctx, SortedSet set, int key, boolean max, long count, boolean many) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        int popped = (int) Math.min(count, set.size());
        if (many) {
            reply.array(2);
            reply.bulk(args.array(), args.offset(key), args.length(key));
            reply.array(popped);
        } else {
            reply.array(popped * 2 + 1);
            reply.bulk(args.array(), args.offset(key), args.length(key));
        }
        popMembers(set, max, popped, many, reply);
        changed(ctx, key, set, popEvent(max), popped);
    }

    /**
     * BZPOPMIN / BZPOPMAX key [key ...] timeout (blockingGenericZpopCommand): the timeout is checked
     * first, then the keys in order; the first holding a set gives its lowest (highest) member.
     */
    private static void blockingPop(CommandContext ctx, boolean max) {
        Arguments args = ctx.arguments();
        long deadline = Timeouts.deadline(ctx, args.count() - 1);
        if (deadline == Timeouts.INVALID) {
            return;
        }
        int[] keys = new int[args.count() - 2];
        for (int key = 1; key < args.count() - 1; key++) {
            keys[key - 1] = key;
            SortedSet set = lookup(ctx, key);
            if (set != null) {
                popFromKey(ctx, set, key, max, 1, false);
                return;
            }
        }
        ctx.block(deadline, keys, -1, new SetWaiter(max, 1, false));
    }

    /**
     * A blocked BZPOPMIN, BZPOPMAX ([key, member, score]) or BZMPOP (up to {@code count} members,
     * [key, [[member, score]...]]): ready once its key holds a sorted set (a stored set is never
     * empty), served as its non-blocking form would have been.
     */
    private record SetWaiter(boolean max, long count, boolean many) implements BlockedCommand {
        @Override
        public boolean ready(CommandContext context, int keyArgument) {
            Arguments args = context.arguments();
            return context.keyspace().get(args.array(), args.offset(keyArgument), args.length(keyArgument))
                instanceof SortedSet;
        }

        @Override
        public void serve(CommandContext context, int keyArgument) {
            popFromKey(context, lookup(context, keyArgument), keyArgument, max, count, many);
        }
    }

    // ---- ZRANDMEMBER ----------------------------------------------------------------------------

    private static void zrandmember(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        if (args.count() == 2) {
            SortedSet set = lookup(ctx, 1);
            if (set == null) {
                reply.nullBulk();
            } else {
                int rank = ThreadLocalRandom.current().nextInt(set.size());
                set.visit(rank, rank, false, (array, offset, length, score) -> reply.bulk(array, offset, length));
            }
            return;
        }
        RandomCount asked = RandomCount.parse(ctx, "withscores");
        if (asked == null) {
            return;
        }
        long requested = asked.count();
        boolean withScores = asked.withFlag();
        SortedSet set = lookup(ctx, 1);
        if (set == null || requested == 0) {
            reply.array(0);
            return;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int size = set.size();
        if (requested < 0) {
            /* Repetitions allowed: each pick independent. The reply is bounded by the request, as in Redis. */
            long count = -requested;
            beginMembers(reply, (int) Math.min(count, Integer.MAX_VALUE / 2), withScores);
            SortedSet.Visitor emit = replying(reply, withScores);
            for (long i = 0; i < count && i < Integer.MAX_VALUE / 2; i++) {
                int rank = random.nextInt(size);
                set.visit(rank, rank, false, emit);
            }
            return;
        }
        if (requested >= size) {
            /* The whole set, from the highest score down, as Redis 7.0 replies it. */
            beginMembers(reply, size, withScores);
            set.visit(0, size - 1, true, replying(reply, withScores));
            return;
        }
        /* Distinct ranks by Floyd's sampling, in the random order they are drawn. */
        int count = (int) requested;
        LinkedHashSet<Integer> ranks = new LinkedHashSet<>();
        for (int j = size - count; j < size; j++) {
            int pick = random.nextInt(j + 1);
            ranks.add(ranks.contains(pick) ? j : pick);
        }
        beginMembers(reply, count, withScores);
        SortedSet.Visitor emit = replying(reply, withScores);
        for (int rank : ranks) {
            set.visit(rank, rank, false, emit);
        }
    }

    // ---- ZUNION, ZINTER, ZDIFF and their store forms; ZINTERCARD ---------------------------------------

    /**
     * zunionInterDiffGenericCommand. {@code storeIndex} is the destination's argument or 0;
     * {@code numKeysIndex} the numkeys argument. Inputs are checked for type before the options
     * are parsed, as Redis does.
     */
    private static void setOperation(CommandContext ctx, int storeIndex, int numKeysIndex, SetOperation operation,
                                     boolean cardinalityOnly, String name) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        long numKeys;
        try {
            numKeys = parseLong(ctx, numKeysIndex);
        } catch (InvalidNumber e) {
            reply.error(Errors.NOT_INTEGER);
            return;
        }
        if (numKeys < 1) {
            reply.error(Errors.atLeastOneInputKey(name));
            return;
        }
        if (numKeys > args.count() - (numKeysIndex + 1)) {
            reply.error(Errors.SYNTAX);
            return;
        }
        int sources = (int) numKeys;
        SortedSet[] sets = new SortedSet[sources];
        double[] weights = new double[sources];
        int j = numKeysIndex + 1;
        for (int i = 0; i < sources; i++, j++) {
            SortedSet set = lookupInput(ctx, j);
            if (set == null && storeIndex != 0) {
                // A store form is a write; Redis reads its sources with lookupKeyRead.
                KeyspaceEvents.missed(ctx, args, j);
            }
            sets[i] = set;
            weights[i] = 1;
        }
        Aggregate aggregate = Aggregate.SUM;
        boolean withScores = false;
        long limit = 0;
        int remaining = args.count() - j;
        while (remaining > 0) {
            if (operation != SetOperation.DIFF && !cardinalityOnly && remaining >= sources + 1 && args.is(j, "weights")) {
                j++;
                remaining--;
                for (int i = 0; i < sources; i++, j++, remaining--) {
                    try {
                        weights[i] = Numbers.parseDouble(args.array(), args.offset(j), args.length(j));
                    } catch (InvalidNumber e) {
                        reply.error(Errors.WEIGHT_NOT_FLOAT);
                        return;
                    }
                }
            } else if (operation != SetOperation.DIFF && !cardinalityOnly && remaining >= 2 && args.is(j, "aggregate")) {
                j++;
                if (args.is(j, "sum")) {
                    aggregate = Aggregate.SUM;
                } else if (args.is(j, "min")) {
                    aggregate = Aggregate.MIN;
                } else if (args.is(j, "max")) {
                    aggregate = Aggregate.MAX;
                } else {
                    reply.error(Errors.SYNTAX);
                    return;
                }
                j++;
                remaining -= 2;
            } else if (storeIndex == 0 && !cardinalityOnly && args.is(j, "withscores")) {
                j++;
                remaining--;
                withScores = true;
            } else if (cardinalityOnly && remaining >= 2 && args.is(j, "limit")) {
                j++;
                try {
                    limit = parseLong(ctx, j);
                } catch (InvalidNumber e) {
                    limit = -1;
                }
                if (limit < 0) {
                    reply.error(Errors.LIMIT_NEGATIVE);
                    return;
                }
                j++;
                remaining -= 2;
            } else {
                reply.error(Errors.SYNTAX);
                return;
            }
        }
        Integer[] order = new Integer[sources];
        for (int i = 0; i < sources; i++) {
            order[i] = i;
        }
        /* Smallest first, as Redis orders its inputs (the first input of a difference stays first). */
        Comparator<Integer> bySize = Comparator.comparingInt(i -> sets[i] == null ? 0 : sets[i].size());
        if (operation == SetOperation.DIFF) {
            Arrays.sort(order, 1, sources, bySize);
        } else {
            Arrays.sort(order, bySize);
        }
        if (cardinalityOnly) {
            reply.integer(intersectionCardinality(sets, order, limit));
            return;
        }
        Map<ByteBuffer, double[]> result = switch (operation) {
            case UNION -> union(sets, weights, order, aggregate);
            case INTER -> intersection(sets, weights, order, aggregate);
            case DIFF -> difference(sets, order);
        };
        SortedSet sorted = new SortedSet();
        long maxEntries = storeIndex > 0 ? maxListpackEntries(ctx) : Long.MAX_VALUE;
        long maxValue = storeIndex > 0 ? maxListpackValue(ctx) : Long.MAX_VALUE;
        for (Map.Entry<ByteBuffer, double[]> entry : result.entrySet()) {
            sorted.add(entry.getKey().array(), entry.getValue()[0], maxEntries, maxValue);
        }
        if (storeIndex > 0) {
            store(ctx, storeIndex, sorted, switch (operation) {
                case UNION -> "zunionstore";
                case INTER -> "zinterstore";
                case DIFF -> "zdiffstore";
            });
            return;
        }
        beginMembers(reply, sorted.size(), withScores);
        sorted.visit(0, sorted.size() - 1, false, replying(reply, withScores));
    }

    private static double weighted(double weight, double score) {
        double value = weight * score;
        return Double.isNaN(value) ? 0 : value;
    }

    private static double aggregate(Aggregate aggregate, double target, double value) {
        return switch (aggregate) {
            case SUM -> {
                double sum = target + value;
                yield Double.isNaN(sum) ? 0 : sum;
            }
            case MIN -> value < target ? value : target;
            case MAX -> value > target ? value : target;
        };
    }

    private static Map<ByteBuffer, double[]> union(SortedSet[] sets, double[] weights, Integer[] order,
                                                   Aggregate aggregate) {
        Map<ByteBuffer, double[]> result = new LinkedHashMap<>();
        for (int i : order) {
            SortedSet set = sets[i];
            if (set == null) {
                continue;
            }
            double weight = weights[i];
            set.visit(0, set.size() - 1, false, (array, offset, length, score) -> {
                double value = weighted(weight, score);
                double[] target = result.get(ByteBuffer.wrap(array, offset, length));
                if (target == null) {
                    result.put(copyOf(array, offset, length), new double[] {value});
                } else {
                    target[0] = aggregate(aggregate, target[0], value);
                }
            });
        }
        return result;
    }

    private static Map<ByteBuffer, double[]> intersection(SortedSet[] sets, double[] weights, Integer[] order,
                                                          Aggregate aggregate) {
        Map<ByteBuffer, double[]> result = new LinkedHashMap<>();
        SortedSet smallest = sets[order[0]];
        if (smallest == null) {
            return result;
        }
        double firstWeight = weights[order[0]];
        smallest.visit(0, smallest.size() - 1, false, (array, offset, length, score) -> {
            double value = weighted(firstWeight, score);
            for (int k = 1; k < order.length; k++) {
                SortedSet other = sets[order[k]];
                double otherScore = other == null ? Double.NaN : other.score(array, offset, length);
                if (Double.isNaN(otherScore)) {
                    return;
                }
                value = aggregate(aggregate, value, weighted(weights[order[k]], otherScore));
            }
            result.put(copyOf(array, offset, length), new double[] {value});
        });
        return result;
    }

    private static Map<ByteBuffer, double[]> difference(SortedSet[] sets, Integer[] order) {
        Map<ByteBuffer, double[]> result = new LinkedHashMap<>();
        SortedSet first = sets[0];
        if (first == null) {
            return result;
        }
        first.visit(0, first.size() - 1, false, (array, offset, length, score) -> {
            for (int k = 1; k < order.length; k++) {
                SortedSet other = sets[order[k]];
                if (other != null && !Double.isNaN(other.score(array, offset, length))) {
                    return;
                }
            }
            result.put(copyOf(array, offset, length), new double[] {score});
        });
        return result;
    }

    /** ZINTERCARD: members in every input, counting stops at {@code limit} when it is not 0. */
    private static long intersectionCardinality(SortedSet[] sets, Integer[] order, long limit) {
        SortedSet smallest = sets[order[0]];
        if (smallest == null) {
            return 0;
        }
        long count = 0;
        for (int rank = 0; rank < smallest.size() && (limit == 0 || count < limit); rank++) {
            byte[] member = smallest.memberAt(rank);
            boolean everywhere = true;
            for (int k = 1; k < order.length && everywhere; k++) {
                SortedSet other = sets[order[k]];
                everywhere = other != null && !Double.isNaN(other.score(member, 0, member.length));
            }
            if (everywhere) {
                count++;
            }
        }
        return count;
    }

    // ---- ZSCAN ----------------------------------------------------------------------------------

    /** A member ZSCAN gathered: a slice of the set's bytes, and its score. */
    private record Scanned(byte[] array, int offset, int length, double score) {
    }

    /**
     * ZSCAN key cursor [MATCH pattern] [COUNT count]: the small form whole with cursor 0, the large
     * form by its member index's buckets, as Redis scans a listpack whole and a skiplist's dict by
     * buckets. Scores are bulk strings in both protocols, as scanGenericCommand replies them.
     */
    private static void zscan(CommandContext ctx) {
        ScanOptions.KeyScan<SortedSet> scan = ScanOptions.ofKey(ctx, SortedSet.TYPE);
        if (scan == null) {
            return;
        }
        SortedSet set = scan.value();
        ScanOptions options = scan.options();
        // Slices of the set's own bytes: nothing changes the set before the reply is written.
        List<Scanned> members = new ArrayList<>();
        SortedSet.Visitor gather =
            (array, offset, length, score) -> members.add(new Scanned(array, offset, length, score));
        long cursor = 0;
        if (!set.isLarge()) {
            set.visit(0, set.size() - 1, false, gather);
        } else {
            cursor = options.walk(scan.cursor(), bucket -> set.scan(bucket, 1, gather), members);
        }
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        members.removeIf(member -> !options.matches(args, member.array, member.offset, member.length));
        ScanOptions.replyHead(reply, cursor, members.size() * 2);
        for (Scanned member : members) {
            reply.bulk(member.array, member.offset, member.length);
            reply.bulk(DoubleFormat.reply(member.score));
        }
    }
}
