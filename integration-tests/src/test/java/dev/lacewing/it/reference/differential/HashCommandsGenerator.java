package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.util.ArrayList;
import java.util.List;

/** The hash family: fields from a small shared pool, so small hashes grow past the listpack limits only by long values. */
final class HashCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of(
        "HSET", "HSETNX", "HMSET", "HGET", "HMGET", "HDEL", "HLEN", "HSTRLEN", "HEXISTS", "HKEYS", "HVALS", "HGETALL",
        "HINCRBY", "HINCRBYFLOAT", "HRANDFIELD", "HSCAN");

    @Override
    public String family() {
        return "hashes";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        String command = draw.pick(COMMANDS);
        return switch (command) {
            case "HSET", "HMSET" -> Call.exact(words(command, draw.key(), fieldValues(draw)));
            case "HSETNX" -> Call.exact(command, draw.key(), draw.member(), draw.value());
            case "HGET", "HSTRLEN", "HEXISTS" -> Call.exact(command, draw.key(), draw.member());
            case "HMGET", "HDEL" -> Call.exact(words(command, draw.key(), draw.members(1, 4)));
            case "HLEN" -> Call.exact(command, draw.key());
            case "HKEYS", "HVALS" -> Call.of(ReplyCheck.normalized(ReplyCheck.SORTED), command, draw.key());
            case "HGETALL" -> Call.of(ReplyCheck.normalized(ReplyCheck.SORTED_PAIRS), command, draw.key());
            case "HINCRBY" -> Call.exact(command, draw.key(), draw.member(), draw.integer());
            case "HINCRBYFLOAT" -> Call.exact(command, draw.key(), draw.member(), draw.decimal());
            case "HRANDFIELD" -> randomField(draw);
            case "HSCAN" -> scan(draw);
            default -> throw new IllegalStateException(command);
        };
    }

    private static List<Object> fieldValues(Draw draw) {
        List<Object> words = new ArrayList<>();
        int pairs = draw.between(1, 4);
        for (int i = 0; i < pairs; i++) {
            words.add(draw.member());
            words.add(draw.value());
        }
        if (draw.chance(0.05)) {
            words.remove(words.size() - 1);
        }
        return words;
    }

    /** Which fields are picked is random: only the reply's shape is compared. */
    private static Call randomField(Draw draw) {
        ReplyCheck shape = ReplyCheck.normalized(ReplyCheck.SHAPE);
        return switch (draw.below(4)) {
            case 0 -> Call.of(shape, "HRANDFIELD", draw.key());
            case 1 -> Call.of(shape, "HRANDFIELD", draw.key(), draw.integer());
            case 2 -> Call.of(shape, "HRANDFIELD", draw.key(), draw.integer(), draw.option("WITHVALUES"));
            default -> Call.of(shape, "HRANDFIELD", draw.key(), draw.integer(), draw.junk());
        };
    }

    /** A full scan (cursor 0, COUNT past any hash here), so that every field comes back. */
    private static Call scan(Draw draw) {
        List<Object> words = new ArrayList<>(List.of("HSCAN", draw.key(), "0", "COUNT", "1000"));
        if (draw.chance(0.4)) {
            words.addAll(List.of("MATCH", draw.pick("*", "m*", "?", "[ab]")));
        }
        return Call.of(ReplyCheck.normalized(ReplyCheck.SCAN_SORTED_PAIRS), words.toArray());
    }
}
