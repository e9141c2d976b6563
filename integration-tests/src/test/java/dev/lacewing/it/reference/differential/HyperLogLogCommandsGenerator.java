package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.util.List;

/**
 * The HyperLogLog family. HLLs are strings, so GET from the string family reads their bytes: the
 * comparison then also checks that Lacewing writes Redis's own sparse and dense representation.
 */
final class HyperLogLogCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of("PFADD", "PFCOUNT", "PFMERGE");

    @Override
    public String family() {
        return "hyperloglog";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        String command = draw.pick(COMMANDS);
        return switch (command) {
            case "PFADD" -> Call.exact(words(command, draw.key(), draw.members(0, 6)));
            case "PFCOUNT" -> Call.exact(words(command, draw.keys(1, 3)));
            case "PFMERGE" -> Call.exact(words(command, draw.key(), draw.keys(0, 3)));
            default -> throw new IllegalStateException(command);
        };
    }
}
