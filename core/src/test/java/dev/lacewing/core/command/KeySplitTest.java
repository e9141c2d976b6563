package dev.lacewing.core.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.core.server.CoreCommands;
import org.junit.jupiter.api.Test;

/** Which commands split into per-shard parts, and how their parts' replies join, from Redis's command tips. */
class KeySplitTest {

    private final CommandTable<?> table = CoreCommands.table();

    private KeySplit of(String name) {
        return table.lookup(name).keySplit();
    }

    @Test
    void readsOfOneValuePerKeyJoinInKeyOrder() {
        assertEquals(KeySplit.VALUES, of("mget"));
    }

    @Test
    void countingCommandsSumTheirParts() {
        assertEquals(KeySplit.SUM, of("del"));
        assertEquals(KeySplit.SUM, of("unlink"));
        assertEquals(KeySplit.SUM, of("exists"));
        assertEquals(KeySplit.SUM, of("touch"));
    }

    @Test
    void msetRepliesItsPartsCommonOk() {
        assertEquals(KeySplit.ALL_SUCCEEDED, of("mset"));
    }

    @Test
    void msetnxChecksEveryPartBeforeAnySets() {
        assertEquals(KeySplit.NONE_EXISTED, of("msetnx"));
    }

    @Test
    void commandsThatReadSomeKeysAndWriteOneGather() {
        assertEquals(KeySplit.GATHER, of("rename"));
        assertEquals(KeySplit.GATHER, of("sinterstore"));
        assertEquals(KeySplit.GATHER, of("lmove"));
        assertEquals(KeySplit.NONE, of("blmove"));
        assertEquals(KeySplit.NONE, of("eval"));
    }

    @Test
    void commandsWithoutTheMultiShardPolicyRunWhole() {
        assertEquals(KeySplit.NONE, of("dbsize"));
        assertEquals(KeySplit.NONE, of("get"));
    }
}
