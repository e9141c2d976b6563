package dev.lacewing.it.reference.differential;

import java.util.List;

/** The connection family: PING and ECHO with odd payloads, and switching protocol with HELLO. */
final class ConnectionCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of("PING", "ECHO", "HELLO");

    @Override
    public String family() {
        return "connection";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        return switch (draw.below(5)) {
            case 0 -> Call.exact("PING");
            case 1 -> Call.exact("PING", draw.value());
            case 2, 3 -> Call.exact("ECHO", draw.value());
            default -> Call.exact("HELLO", draw.pick("2", "3", "3", "4", "abc"));
        };
    }

    @Override
    public int weight() {
        return 2;
    }
}
