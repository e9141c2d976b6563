package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.util.ArrayList;
import java.util.List;

/**
 * The bitmap family, over the same keys as the strings. Bit offsets that are written stay small
 * (a high one would make both servers allocate up to 512 MB); out-of-range offsets are sent
 * where they are errors or reads.
 */
final class BitmapCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of(
        "SETBIT", "GETBIT", "BITCOUNT", "BITPOS", "BITOP", "BITFIELD", "BITFIELD_RO");

    @Override
    public String family() {
        return "bitmaps";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        String command = draw.pick(COMMANDS);
        return switch (command) {
            case "SETBIT" -> Call.exact(command, draw.key(), writtenOffset(draw), draw.pick("0", "1", "1", "2", "x"));
            case "GETBIT" -> Call.exact(command, draw.key(), draw.chance(0.8) ? writtenOffset(draw)
                : draw.pick("4294967295", "4294967296", "-1"));
            case "BITCOUNT" -> Call.exact(words(command, draw.key(), byteOrBitRange(draw)));
            case "BITPOS" -> Call.exact(words(command, draw.key(), draw.pick("0", "1", "1", "2"), byteOrBitRange(draw)));
            case "BITOP" -> Call.exact(words(command, draw.option(draw.pick("AND", "OR", "XOR", "NOT", "NAND")),
                draw.key(), draw.keys(1, 3)));
            case "BITFIELD" -> Call.exact(words(command, draw.key(), subcommands(draw, true)));
            case "BITFIELD_RO" -> Call.exact(words(command, draw.key(), subcommands(draw, false)));
            default -> throw new IllegalStateException(command);
        };
    }

    private static String writtenOffset(Draw draw) {
        return draw.chance(0.9) ? Integer.toString(draw.between(0, 200)) : draw.pick("-1", "x", "4294967296");
    }

    private static List<Object> byteOrBitRange(Draw draw) {
        return switch (draw.below(4)) {
            case 0 -> List.of();
            case 1 -> List.of(draw.index());
            case 2 -> List.of(draw.index(), draw.index());
            default -> List.of(draw.index(), draw.index(), draw.option(draw.pick("BYTE", "BIT", "WORD")));
        };
    }

    private static List<Object> subcommands(Draw draw, boolean writes) {
        List<Object> words = new ArrayList<>();
        int count = draw.between(1, 3);
        for (int i = 0; i < count; i++) {
            int which = writes ? draw.below(4) : 0;
            String type = draw.pick("i1", "i8", "u8", "i16", "u4", "i64", "u63", "u64", "i65", "x8");
            String offset = draw.chance(0.8) ? Integer.toString(draw.between(0, 100)) : draw.pick("#1", "#0", "-1", "x");
            switch (which) {
                case 0 -> words.addAll(List.of(draw.option("GET"), type, offset));
                case 1 -> words.addAll(List.of(draw.option("SET"), type, offset, draw.integer()));
                case 2 -> words.addAll(List.of(draw.option("INCRBY"), type, offset, draw.integer()));
                default -> words.addAll(List.of(draw.option("OVERFLOW"), draw.pick("WRAP", "SAT", "FAIL", "NONE")));
            }
        }
        return words;
    }
}
