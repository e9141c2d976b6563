package dev.lacewing.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CommandSpecTest {

    private static CommandSpec spec(Set<CommandFlag> flags) {
        return new CommandSpec("Set", -3, flags, 1, 1, 1, KeyScope.KEYS, "string", "Sets a key.");
    }

    @Test
    void hasAnswersEveryFlagAsTheDeclaredSetDoes() {
        Set<CommandFlag> declared = EnumSet.of(CommandFlag.WRITE, CommandFlag.DENYOOM, CommandFlag.PROTECTED);
        CommandSpec spec = spec(Set.copyOf(declared));
        for (CommandFlag flag : CommandFlag.values()) {
            assertEquals(declared.contains(flag), spec.has(flag), flag.name());
            assertEquals(declared.contains(flag), spec.flags().contains(flag), flag.name());
        }
        assertEquals(declared, spec.flags());
        assertEquals(spec.flags(), declared);
        assertEquals(declared.hashCode(), spec.flags().hashCode());
        assertEquals(3, spec.flags().size());
    }

    @Test
    void flagsIterateInDeclarationOrder() {
        CommandSpec spec = spec(Set.of(CommandFlag.ALLOW_BUSY, CommandFlag.FAST, CommandFlag.WRITE));
        assertEquals(List.of(CommandFlag.WRITE, CommandFlag.FAST, CommandFlag.ALLOW_BUSY), new ArrayList<>(spec.flags()));
    }

    @Test
    void anEmptySpecHasNoFlag() {
        CommandSpec spec = spec(Set.of());
        assertTrue(spec.flags().isEmpty());
        for (CommandFlag flag : CommandFlag.values()) {
            assertFalse(spec.has(flag));
        }
        assertFalse(spec.flags().contains("write"));
    }

    @Test
    void flagsCannotBeChanged() {
        CommandSpec spec = spec(EnumSet.of(CommandFlag.READONLY));
        assertThrows(UnsupportedOperationException.class, () -> spec.flags().add(CommandFlag.WRITE));
        assertThrows(UnsupportedOperationException.class, () -> spec.flags().remove(CommandFlag.READONLY));
        assertThrows(UnsupportedOperationException.class, () -> spec.flags().clear());
    }

    @Test
    void aDerivedSpecKeepsTheFlags() {
        CommandSpec spec = spec(EnumSet.of(CommandFlag.READONLY, CommandFlag.FAST)).withNumKeysAt(2);
        assertTrue(spec.has(CommandFlag.READONLY));
        assertTrue(spec.has(CommandFlag.FAST));
        assertFalse(spec.has(CommandFlag.WRITE));
    }

    @Test
    void lastKeyIndexCountsANegativeLastKeyFromTheEnd() {
        CommandSpec fixed = new CommandSpec("get", 2, Set.of(), 1, 1, 1, KeyScope.KEYS, "string", "x");
        CommandSpec toTheEnd = new CommandSpec("del", -2, Set.of(), 1, -1, 1, KeyScope.KEYS, "generic", "x");
        CommandSpec beforeTheLast = new CommandSpec("smove", 4, Set.of(), 1, -2, 1, KeyScope.KEYS, "set", "x");
        assertEquals(1, fixed.lastKeyIndex(2));
        assertEquals(1, fixed.lastKeyIndex(7));
        assertEquals(1, toTheEnd.lastKeyIndex(2));
        assertEquals(4, toTheEnd.lastKeyIndex(5));
        assertEquals(2, beforeTheLast.lastKeyIndex(4));
        assertEquals(0, new CommandSpec("ping", -1, Set.of(), 0, 0, 0, KeyScope.NONE, "connection", "x").lastKeyIndex(3));
    }
}
