package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.util.ArrayList;
import java.util.List;

/**
 * The set family, over members that mix integers (intsets) and strings. SPOP draws random
 * members, which would make the two servers' sets differ, so it is sent only with a count past
 * any set here (it then pops all of them) or one that pops nothing.
 */
final class SetCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of(
        "SADD", "SREM", "SMEMBERS", "SISMEMBER", "SMISMEMBER", "SCARD", "SPOP", "SRANDMEMBER", "SMOVE", "SINTER",
        "SINTERCARD", "SUNION", "SDIFF", "SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE", "SSCAN");

    private static final ReplyCheck SORTED = ReplyCheck.normalized(ReplyCheck.SORTED);

    @Override
    public String family() {
        return "sets";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        String command = draw.pick(COMMANDS);
        return switch (command) {
            case "SADD", "SREM" -> Call.exact(words(command, draw.key(), draw.members(1, 5)));
            case "SMEMBERS" -> Call.of(SORTED, command, draw.key());
            case "SISMEMBER" -> Call.exact(command, draw.key(), draw.member());
            case "SMISMEMBER" -> Call.exact(words(command, draw.key(), draw.members(1, 4)));
            case "SCARD" -> Call.exact(command, draw.key());
            case "SPOP" -> Call.of(SORTED, command, draw.key(), draw.pick("1000", "0", "-1", "x"));
            case "SRANDMEMBER" -> draw.chance(0.3) ? Call.of(ReplyCheck.normalized(ReplyCheck.SHAPE), command, draw.key())
                : Call.of(ReplyCheck.normalized(ReplyCheck.SHAPE), command, draw.key(), draw.integer());
            case "SMOVE" -> Call.exact(command, draw.key(), draw.key(), draw.member());
            case "SINTER", "SUNION", "SDIFF" -> Call.of(SORTED, words(command, draw.keys(1, 3)));
            case "SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE" -> Call.exact(words(command, draw.key(), draw.keys(1, 3)));
            case "SINTERCARD" -> Call.exact(words(command, ListCommandsGenerator.numkeys(draw),
                draw.chance(0.5) ? List.of() : List.of(draw.option("LIMIT"), draw.integer())));
            case "SSCAN" -> scan(draw);
            default -> throw new IllegalStateException(command);
        };
    }

    private static Call scan(Draw draw) {
        List<Object> words = new ArrayList<>(List.of("SSCAN", draw.key(), "0", "COUNT", "1000"));
        if (draw.chance(0.4)) {
            words.addAll(List.of("MATCH", draw.pick("*", "m*", "1*", "?")));
        }
        return Call.of(ReplyCheck.normalized(ReplyCheck.SCAN_SORTED), words.toArray());
    }
}
