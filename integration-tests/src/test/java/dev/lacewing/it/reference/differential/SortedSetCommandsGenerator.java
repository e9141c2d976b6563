package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.util.ArrayList;
import java.util.List;

/**
 * The sorted set family: scores with exponents, infinities and bad spellings, exclusive
 * {@code (} score bounds and {@code [ ( - +} lex bounds, every range form and the set algebra
 * with WEIGHTS and AGGREGATE. Ties are ordered by member on both servers, so every reply but the
 * random picks is deterministic.
 */
final class SortedSetCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of(
        "ZADD", "ZREM", "ZSCORE", "ZMSCORE", "ZINCRBY", "ZCARD", "ZCOUNT", "ZLEXCOUNT", "ZRANGE", "ZRANGESTORE",
        "ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZRANGEBYLEX", "ZREVRANGEBYLEX", "ZREVRANGE", "ZRANK", "ZREVRANK",
        "ZPOPMIN", "ZPOPMAX", "ZMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP", "ZRANDMEMBER", "ZREMRANGEBYRANK",
        "ZREMRANGEBYSCORE", "ZREMRANGEBYLEX", "ZUNION", "ZINTER", "ZDIFF", "ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE",
        "ZINTERCARD", "ZSCAN");

    @Override
    public String family() {
        return "sorted sets";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        String command = draw.pick(COMMANDS);
        return switch (command) {
            case "ZADD" -> Call.exact(words(command, draw.key(), zaddOptions(draw), scoreMembers(draw)));
            case "ZREM", "ZMSCORE" -> Call.exact(words(command, draw.key(), draw.members(1, 4)));
            case "ZSCORE", "ZRANK", "ZREVRANK" -> Call.exact(command, draw.key(), draw.member());
            case "ZINCRBY" -> Call.exact(command, draw.key(), draw.decimal(), draw.member());
            case "ZCARD" -> Call.exact(command, draw.key());
            case "ZCOUNT", "ZREMRANGEBYSCORE" -> Call.exact(command, draw.key(), scoreBound(draw), scoreBound(draw));
            case "ZLEXCOUNT", "ZREMRANGEBYLEX" -> Call.exact(command, draw.key(), lexBound(draw), lexBound(draw));
            case "ZRANGE" -> Call.exact(words(command, draw.key(), range(draw)));
            case "ZRANGESTORE" -> Call.exact(words(command, draw.key(), draw.key(), range(draw)));
            case "ZRANGEBYSCORE", "ZREVRANGEBYSCORE" -> Call.exact(words(command, draw.key(), scoreBound(draw),
                scoreBound(draw), withScores(draw), limit(draw)));
            case "ZRANGEBYLEX", "ZREVRANGEBYLEX" -> Call.exact(words(command, draw.key(), lexBound(draw),
                lexBound(draw), limit(draw)));
            case "ZREVRANGE", "ZREMRANGEBYRANK" -> Call.exact(words(command, draw.key(), draw.index(), draw.index(),
                command.equals("ZREVRANGE") ? withScores(draw) : List.of()));
            case "ZPOPMIN", "ZPOPMAX" -> draw.chance(0.5) ? Call.exact(command, draw.key())
                : Call.exact(command, draw.key(), draw.integer());
            case "ZMPOP" -> Call.exact(words(command, ListCommandsGenerator.numkeys(draw), minMax(draw),
                ListCommandsGenerator.count(draw)));
            case "BZPOPMIN", "BZPOPMAX" -> Call.exact(words(command, draw.keys(1, 3), draw.timeout()));
            case "BZMPOP" -> Call.exact(words(command, draw.timeout(), ListCommandsGenerator.numkeys(draw),
                minMax(draw), ListCommandsGenerator.count(draw)));
            case "ZRANDMEMBER" -> randomMember(draw);
            case "ZUNION", "ZINTER", "ZDIFF" -> Call.exact(words(command, ListCommandsGenerator.numkeys(draw),
                command.equals("ZDIFF") ? List.of() : algebraOptions(draw), withScores(draw)));
            case "ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE" -> Call.exact(words(command, draw.key(),
                ListCommandsGenerator.numkeys(draw), command.equals("ZDIFFSTORE") ? List.of() : algebraOptions(draw)));
            case "ZINTERCARD" -> Call.exact(words(command, ListCommandsGenerator.numkeys(draw),
                draw.chance(0.5) ? List.of() : List.of(draw.option("LIMIT"), draw.integer())));
            case "ZSCAN" -> Call.of(ReplyCheck.normalized(ReplyCheck.SCAN_SORTED_PAIRS), "ZSCAN", draw.key(), "0",
                "COUNT", "1000");
            default -> throw new IllegalStateException(command);
        };
    }

    private static List<Object> zaddOptions(Draw draw) {
        List<Object> words = new ArrayList<>();
        for (String option : List.of("NX", "XX", "GT", "LT", "CH", "INCR")) {
            if (draw.chance(0.15)) {
                words.add(draw.option(option));
            }
        }
        return draw.shuffled(words);
    }

    private static List<Object> scoreMembers(Draw draw) {
        List<Object> words = new ArrayList<>();
        int pairs = draw.between(1, 3);
        for (int i = 0; i < pairs; i++) {
            words.add(draw.decimal());
            words.add(draw.member());
        }
        if (draw.chance(0.05)) {
            words.remove(words.size() - 1);
        }
        return words;
    }

    private static String scoreBound(Draw draw) {
        return draw.chance(0.3) ? "(" + draw.decimal() : draw.pick(draw.decimal(), "-inf", "+inf", "(5", "((1");
    }

    private static String lexBound(Draw draw) {
        return draw.pick("-", "+", "[a", "(a", "[m1", "(m2", "[", "(", "a", "[\u0000", "[10");
    }

    /** ZRANGE's forms: by rank, BYSCORE or BYLEX, REV, LIMIT, WITHSCORES. */
    private static List<Object> range(Draw draw) {
        List<Object> words = new ArrayList<>();
        int by = draw.below(3);
        if (by == 0) {
            words.addAll(List.of(draw.index(), draw.index()));
        } else if (by == 1) {
            words.addAll(List.of(scoreBound(draw), scoreBound(draw), draw.option("BYSCORE")));
        } else {
            words.addAll(List.of(lexBound(draw), lexBound(draw), draw.option("BYLEX")));
        }
        if (draw.chance(0.3)) {
            words.add(draw.option("REV"));
        }
        words.addAll(limit(draw));
        words.addAll(withScores(draw));
        return words;
    }

    private static List<Object> limit(Draw draw) {
        return draw.chance(0.7) ? List.of() : List.of(draw.option("LIMIT"), draw.integer(), draw.integer());
    }

    private static List<Object> withScores(Draw draw) {
        return draw.chance(0.5) ? List.of() : List.of(draw.option("WITHSCORES"));
    }

    private static String minMax(Draw draw) {
        return draw.option(draw.chance(0.95) ? draw.pick("MIN", "MAX") : "MID");
    }

    private static List<Object> algebraOptions(Draw draw) {
        List<Object> words = new ArrayList<>();
        if (draw.chance(0.3)) {
            words.add(draw.option("WEIGHTS"));
            int weights = draw.between(1, 3);
            for (int i = 0; i < weights; i++) {
                words.add(draw.decimal());
            }
        }
        if (draw.chance(0.3)) {
            words.add(draw.option("AGGREGATE"));
            words.add(draw.pick("SUM", "MIN", "MAX", "AVG"));
        }
        return words;
    }

    private static Call randomMember(Draw draw) {
        ReplyCheck shape = ReplyCheck.normalized(ReplyCheck.SHAPE);
        return switch (draw.below(3)) {
            case 0 -> Call.of(shape, "ZRANDMEMBER", draw.key());
            case 1 -> Call.of(shape, "ZRANDMEMBER", draw.key(), draw.integer());
            default -> Call.of(shape, "ZRANDMEMBER", draw.key(), draw.integer(), draw.option("WITHSCORES"));
        };
    }
}
