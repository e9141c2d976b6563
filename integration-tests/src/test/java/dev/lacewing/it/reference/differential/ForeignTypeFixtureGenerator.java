package dev.lacewing.it.reference.differential;

import java.util.List;

/**
 * Puts a list at a key of the pool while the list family is not merged, so that the enabled
 * families meet a value of another type and answer WRONGTYPE: {@code TEST.SETLIST key} (the test
 * suite's fixture command) on Lacewing, {@code DEL key} and {@code RPUSH key x} on Redis.
 */
final class ForeignTypeFixtureGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of("TEST.SETLIST");

    @Override
    public String family() {
        return "list fixture";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        byte[] key = draw.key();
        return new Call(List.of(Call.bytes("TEST.SETLIST"), key), ReplyCheck.NOT_COMPARED,
            List.of(List.of(Call.bytes("DEL"), key), List.of(Call.bytes("RPUSH"), key, Call.bytes("x"))));
    }

    @Override
    public int weight() {
        return 2;
    }
}
