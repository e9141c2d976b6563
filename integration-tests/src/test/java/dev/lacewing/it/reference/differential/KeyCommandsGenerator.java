package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.util.ArrayList;
import java.util.List;

/**
 * The generic key family and the databases: existence, renames and copies (across shards and
 * databases), the expire family with its NX XX GT LT conditions, and the database commands.
 *
 * <p>Two relative expires of the same length set a moment apart differ by that moment, so GT and
 * LT, whose answer would then depend on timing, are combined only with absolute times or with
 * times in the past; TTL-like replies are compared within a tolerance.
 */
final class KeyCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of(
        "DEL", "UNLINK", "EXISTS", "TOUCH", "TYPE", "RENAME", "RENAMENX", "COPY", "MOVE", "EXPIRE", "PEXPIRE",
        "EXPIREAT", "PEXPIREAT", "TTL", "PTTL", "EXPIRETIME", "PEXPIRETIME", "PERSIST", "DBSIZE", "SELECT",
        "SWAPDB", "FLUSHDB", "KEYS", "SCAN", "RANDOMKEY");

    private static final List<String> PATTERNS = List.of(
        "*", "k*", "{t}*", "?", "[ab]", "[^a]", "\\{t\\}?", "*:*", "\u0000*", "", "nomatch*");

    private static final ReplyCheck SECONDS = ReplyCheck.integerWithin(2);
    private static final ReplyCheck MILLISECONDS = ReplyCheck.integerWithin(2000);

    @Override
    public String family() {
        return "keys";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        String command = draw.pick(COMMANDS);
        return switch (command) {
            case "DEL", "UNLINK", "EXISTS", "TOUCH" -> Call.exact(words(command, draw.keys(1, 4)));
            case "TYPE", "PERSIST" -> Call.exact(command, draw.key());
            case "RENAME", "RENAMENX" -> Call.exact(command, draw.key(), draw.key());
            case "COPY" -> Call.exact(words(command, draw.key(), draw.key(), copyOptions(draw)));
            case "MOVE" -> Call.exact(command, draw.key(), draw.db());
            case "EXPIRE" -> Call.exact(words(command, draw.key(), relative(draw, draw.seconds())));
            case "PEXPIRE" -> Call.exact(words(command, draw.key(), relative(draw, draw.milliseconds())));
            case "EXPIREAT" -> Call.exact(words(command, draw.key(), draw.unixSeconds(), conditions(draw)));
            case "PEXPIREAT" -> Call.exact(words(command, draw.key(), draw.unixMilliseconds(), conditions(draw)));
            case "TTL", "EXPIRETIME" -> Call.of(SECONDS, command, draw.key());
            case "PTTL", "PEXPIRETIME" -> Call.of(MILLISECONDS, command, draw.key());
            case "DBSIZE", "RANDOMKEY" -> Call.of(command.equals("DBSIZE") ? ReplyCheck.EXACT
                : ReplyCheck.normalized(ReplyCheck.SHAPE), command);
            case "SELECT" -> Call.exact(command, draw.db());
            case "SWAPDB" -> Call.exact(command, draw.db(), draw.db());
            case "FLUSHDB" -> draw.chance(0.7) ? Call.exact(command)
                : Call.exact(command, draw.pick("ASYNC", "SYNC", "sync", "FOO"));
            case "KEYS" -> Call.of(ReplyCheck.normalized(ReplyCheck.SORTED), command, draw.pick(PATTERNS));
            case "SCAN" -> scan(draw);
            default -> throw new IllegalStateException(command);
        };
    }

    /** DB and REPLACE in any order, sometimes repeated or malformed. */
    private static List<Object> copyOptions(Draw draw) {
        List<List<Object>> options = new ArrayList<>();
        if (draw.chance(0.5)) {
            options.add(List.of(draw.option("DB"), draw.db()));
        }
        if (draw.chance(0.5)) {
            options.add(List.of(draw.option("REPLACE")));
        }
        if (draw.chance(0.05)) {
            options.add(List.of(draw.pick("DB", "FOO")));
        }
        List<Object> words = new ArrayList<>();
        draw.shuffled(options).forEach(words::addAll);
        return words;
    }

    /** A relative time and its conditions: GT and LT only with a time that is not in the future. */
    private static List<Object> relative(Draw draw, String time) {
        List<Object> words = new ArrayList<>();
        words.add(time);
        boolean future = time.matches("[1-9][0-9]*") && time.length() < 15;
        int count = draw.between(0, 2);
        for (int i = 0; i < count; i++) {
            words.add(future ? draw.pick("NX", "XX", "nx") : draw.pick("NX", "XX", "GT", "LT", "FOO"));
        }
        return words;
    }

    /** Zero to two of NX XX GT LT (two may clash), now and then a bad one. */
    private static List<Object> conditions(Draw draw) {
        List<Object> words = new ArrayList<>();
        int count = draw.between(0, 2);
        for (int i = 0; i < count; i++) {
            words.add(draw.chance(0.95) ? draw.option(draw.pick("NX", "XX", "GT", "LT")) : draw.junk());
        }
        return words;
    }

    /**
     * A SCAN from cursor 0 with a COUNT past the keyspace, so that it returns every match and
     * cursor 0 on both servers; MATCH and TYPE in any order. Refused forms are compared exactly.
     */
    private static Call scan(Draw draw) {
        if (draw.chance(0.1)) {
            // Always refused (a bad cursor, COUNT or option): a partial scan's cursor is the table's own.
            return Call.exact("SCAN", draw.pick("abc", "0"), draw.pick("COUNT", "FOO"), draw.pick("0", "-1", "x"));
        }
        List<List<Object>> options = new ArrayList<>();
        options.add(List.of("COUNT", "1000"));
        if (draw.chance(0.5)) {
            options.add(List.of("MATCH", draw.pick(PATTERNS)));
        }
        if (draw.chance(0.4)) {
            options.add(List.of("TYPE", draw.pick("string", "list", "hash", "set", "zset", "none")));
        }
        List<Object> words = new ArrayList<>(List.of("SCAN", "0"));
        draw.shuffled(options).forEach(words::addAll);
        return Call.of(ReplyCheck.normalized(ReplyCheck.SCAN_SORTED), words.toArray());
    }
}
