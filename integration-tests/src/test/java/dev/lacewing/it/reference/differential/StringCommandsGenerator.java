package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.util.ArrayList;
import java.util.List;

/** The string family: every string command on main, with options in odd orders and bad numbers. */
final class StringCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of(
        "GET", "SET", "SETNX", "SETEX", "PSETEX", "MGET", "MSET", "MSETNX", "GETSET", "GETDEL", "GETEX", "INCR",
        "DECR", "INCRBY", "DECRBY", "INCRBYFLOAT", "APPEND", "STRLEN", "GETRANGE", "SUBSTR", "SETRANGE", "LCS");

    @Override
    public String family() {
        return "strings";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        String command = draw.pick(COMMANDS);
        return switch (command) {
            case "GET", "STRLEN", "GETDEL", "INCR", "DECR" -> Call.exact(command, draw.key());
            case "SET" -> Call.exact(words(command, draw.key(), draw.value(), setOptions(draw)));
            case "SETNX", "GETSET", "APPEND" -> Call.exact(command, draw.key(), draw.value());
            case "SETEX" -> Call.exact(command, draw.key(), draw.seconds(), draw.value());
            case "PSETEX" -> Call.exact(command, draw.key(), draw.milliseconds(), draw.value());
            case "MGET" -> Call.exact(words(command, draw.keys(1, 4)));
            case "MSET", "MSETNX" -> Call.exact(words(command, pairs(draw)));
            case "GETEX" -> Call.exact(words(command, draw.key(), getexOptions(draw)));
            case "INCRBY", "DECRBY" -> Call.exact(command, draw.key(), draw.integer());
            case "INCRBYFLOAT" -> Call.exact(command, draw.key(), draw.decimal());
            case "GETRANGE", "SUBSTR" -> Call.exact(command, draw.key(), draw.index(), draw.index());
            case "SETRANGE" -> Call.exact(command, draw.key(), offset(draw), draw.value());
            case "LCS" -> Call.exact(words(command, draw.key(), draw.key(), lcsOptions(draw)));
            default -> throw new IllegalStateException(command);
        };
    }

    /** Zero to three of SET's options, in any order, sometimes clashing or repeated. */
    private static List<Object> setOptions(Draw draw) {
        List<List<Object>> options = new ArrayList<>();
        int count = draw.between(0, 3);
        for (int i = 0; i < count; i++) {
            options.add(switch (draw.below(8)) {
                case 0 -> List.of(draw.option("NX"));
                case 1 -> List.of(draw.option("XX"));
                case 2 -> List.of(draw.option("GET"));
                case 3 -> List.of(draw.option("KEEPTTL"));
                case 4 -> List.of(draw.option("EX"), draw.seconds());
                case 5 -> List.of(draw.option("PX"), draw.milliseconds());
                case 6 -> List.of(draw.option("EXAT"), draw.futureUnixSeconds());
                default -> List.of(draw.option("PXAT"), draw.futureUnixMilliseconds());
            });
        }
        List<Object> words = new ArrayList<>();
        options.forEach(words::addAll);
        return words;
    }

    private static List<Object> getexOptions(Draw draw) {
        return switch (draw.below(8)) {
            case 0, 1 -> List.of();
            case 2 -> List.of(draw.option("EX"), draw.seconds());
            case 3 -> List.of(draw.option("PX"), draw.milliseconds());
            case 4 -> List.of(draw.option("EXAT"), draw.unixSeconds());
            case 5 -> List.of(draw.option("PXAT"), draw.unixMilliseconds());
            case 6 -> List.of(draw.option("PERSIST"));
            default -> List.of(draw.pick("PERSIST", "EX", "KEEPTTL"), draw.pick("EX", "PERSIST", "100000"));
        };
    }

    /** Zero to three of LCS's options in any order, LEN and IDX together now and then (an error). */
    private static List<Object> lcsOptions(Draw draw) {
        List<Object> words = new ArrayList<>();
        int count = draw.between(0, 3);
        for (int i = 0; i < count; i++) {
            switch (draw.below(5)) {
                case 0 -> words.add(draw.option("LEN"));
                case 1, 2 -> words.add(draw.option("IDX"));
                case 3 -> words.add(draw.option("WITHMATCHLEN"));
                default -> {
                    words.add(draw.option("MINMATCHLEN"));
                    if (draw.chance(0.95)) {
                        words.add(draw.integer());
                    }
                }
            }
        }
        return words;
    }

    /** One to three key-value pairs, now and then with a value missing. */
    private static List<Object> pairs(Draw draw) {
        List<Object> words = new ArrayList<>();
        int pairs = draw.between(1, 3);
        for (int i = 0; i < pairs; i++) {
            words.add(draw.key());
            words.add(draw.value());
        }
        if (draw.chance(0.05)) {
            words.remove(words.size() - 1);
        }
        return words;
    }

    /** A SETRANGE offset: small, negative, or past the 512 MB limit (an error, never an allocation). */
    private static String offset(Draw draw) {
        return draw.chance(0.85) ? Integer.toString(draw.between(0, 20))
            : draw.pick("-1", "536870912", "x", "", "9223372036854775807");
    }
}
