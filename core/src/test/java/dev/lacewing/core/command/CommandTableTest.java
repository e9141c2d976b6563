package dev.lacewing.core.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.core.server.CoreCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CommandTableTest {

    private static final CommandTable<?> TABLE = CoreCommands.table();

    private static Command<?> lookup(String name) {
        byte[] bytes = ("*" + name + "*").getBytes(StandardCharsets.ISO_8859_1);
        return TABLE.lookup(bytes, 1, bytes.length - 2);
    }

    @Test
    void aNameIsFoundInAnyCase() {
        Command<?> set = TABLE.lookup("set");
        assertSame(set, lookup("set"));
        assertSame(set, lookup("SET"));
        assertSame(set, lookup("sEt"));
        assertSame(TABLE.lookup("xadd"), lookup("XADD"));
    }

    @Test
    void onlyAsciiLettersFoldCase() {
        // 0xC5 and 0xE5 are 'E' and 'e' with the high bit set: no letter of a command name.
        assertNull(lookup("s\u00c5t"));
        assertNull(lookup("s\u00e5t"));
        assertNull(lookup("se"));
        assertNull(lookup("sets"));
    }

    @Test
    void aPluginHandlerAndACoreBodyBothRun() {
        List<String> ran = new ArrayList<>();
        CommandTable.Builder<CommandContext> builder = new CommandTable.Builder<>("plugin");
        builder.register(new CommandSpec("plug", 1, Set.of(CommandFlag.FAST), 0, 0, 0, KeyScope.NONE, "server", "x"),
            context -> ran.add("plug"));
        builder.registerCore(new CommandSpec("body", 1, Set.of(), 0, 0, 0, KeyScope.NONE, "server", "x"),
            context -> ran.add("body"));
        CommandTable<CommandContext> table = builder.build();
        table.lookup("plug").execute(null);
        table.lookup("body").execute(null);
        assertEquals(List.of("plug", "body"), ran);
    }
}
