package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.util.ArrayList;
import java.util.List;

/**
 * The list family, blocking commands included: their timeouts are short and never 0, so a call
 * on an empty list returns its timeout reply on both servers instead of blocking the sequence.
 */
final class ListCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of(
        "LPUSH", "RPUSH", "LPUSHX", "RPUSHX", "LPOP", "RPOP", "LLEN", "LRANGE", "LINDEX", "LSET", "LREM", "LTRIM",
        "LINSERT", "LPOS", "LMOVE", "RPOPLPUSH", "LMPOP", "BLPOP", "BRPOP", "BLMOVE", "BRPOPLPUSH", "BLMPOP");

    @Override
    public String family() {
        return "lists";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        String command = draw.pick(COMMANDS);
        return switch (command) {
            case "LPUSH", "RPUSH", "LPUSHX", "RPUSHX" -> Call.exact(words(command, draw.key(), draw.members(1, 4)));
            case "LPOP", "RPOP" -> draw.chance(0.5) ? Call.exact(command, draw.key())
                : Call.exact(command, draw.key(), draw.integer());
            case "LLEN" -> Call.exact(command, draw.key());
            case "LRANGE", "LTRIM" -> Call.exact(command, draw.key(), draw.index(), draw.index());
            case "LINDEX" -> Call.exact(command, draw.key(), draw.index());
            case "LSET" -> Call.exact(command, draw.key(), draw.index(), draw.member());
            case "LREM" -> Call.exact(command, draw.key(), draw.integer(), draw.member());
            case "LINSERT" -> Call.exact(command, draw.key(), draw.option(draw.pick("BEFORE", "AFTER", "MIDDLE")),
                draw.member(), draw.member());
            case "LPOS" -> Call.exact(words(command, draw.key(), draw.member(), lposOptions(draw)));
            case "LMOVE" -> Call.exact(command, draw.key(), draw.key(), side(draw), side(draw));
            case "RPOPLPUSH" -> Call.exact(command, draw.key(), draw.key());
            case "LMPOP" -> Call.exact(words(command, numkeys(draw), side(draw), count(draw)));
            case "BLPOP", "BRPOP" -> Call.exact(words(command, draw.keys(1, 3), draw.timeout()));
            case "BLMOVE" -> Call.exact(command, draw.key(), draw.key(), side(draw), side(draw), draw.timeout());
            case "BRPOPLPUSH" -> Call.exact(command, draw.key(), draw.key(), draw.timeout());
            case "BLMPOP" -> Call.exact(words(command, draw.timeout(), numkeys(draw), side(draw), count(draw)));
            default -> throw new IllegalStateException(command);
        };
    }

    private static String side(Draw draw) {
        return draw.option(draw.chance(0.95) ? draw.pick("LEFT", "RIGHT") : "UP");
    }

    /** numkeys and that many keys; now and then a numkeys that does not match. */
    static List<Object> numkeys(Draw draw) {
        List<Object> keys = draw.keys(1, 3);
        List<Object> words = new ArrayList<>();
        words.add(draw.chance(0.9) ? Integer.toString(keys.size()) : draw.pick("0", "-1", "5", "x"));
        words.addAll(keys);
        return words;
    }

    static List<Object> count(Draw draw) {
        return draw.chance(0.5) ? List.of() : List.of(draw.option("COUNT"), draw.integer());
    }

    private static List<Object> lposOptions(Draw draw) {
        List<List<Object>> options = new ArrayList<>();
        if (draw.chance(0.4)) {
            options.add(List.of(draw.option("RANK"), draw.integer()));
        }
        if (draw.chance(0.4)) {
            options.add(List.of(draw.option("COUNT"), draw.integer()));
        }
        if (draw.chance(0.3)) {
            options.add(List.of(draw.option("MAXLEN"), draw.integer()));
        }
        List<Object> words = new ArrayList<>();
        draw.shuffled(options).forEach(words::addAll);
        return words;
    }
}
