package dev.lacewing.core.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.CoreCommands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/compatibility.md true: a command it calls done or partial is in Lacewing's command
 * table, one it calls missing is not, and every built-in command is listed, as a Redis command or
 * among Lacewing's own. Regenerate the file with tools/compatibility/gen.py when this fails.
 */
class CompatibilityDocTest {

    private static final Path DOC = Path.of("..", "docs", "compatibility.md");
    private static final Pattern ROW = Pattern.compile("^\\| ([A-Z][A-Z0-9_.-]*) \\| (done|partial|missing) \\|");

    @Test
    void everyStatusMatchesTheCommandTable() throws IOException {
        Map<String, String> statuses = new HashMap<>();
        Set<String> own = new TreeSet<>();
        boolean inOwn = false;
        for (String line : Files.readAllLines(DOC)) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                statuses.put(row.group(1).toLowerCase(Locale.ROOT), row.group(2));
            } else if (line.startsWith("## Lacewing's own commands")) {
                inOwn = true;
            } else if (inOwn && !line.isBlank()) {
                for (String name : line.split(",\\s*")) {
                    own.add(name.trim().toLowerCase(Locale.ROOT));
                }
            }
        }
        assertTrue(statuses.size() > 200, "the file lists Redis 7.0's commands: " + statuses.size());
        CommandTable<?> table = CoreCommands.table();
        statuses.forEach((name, status) -> {
            boolean present = table.lookup(name) != null;
            if (status.equals("missing")) {
                assertFalse(present, name + " is listed as missing but Lacewing has it: regenerate " + DOC);
            } else {
                assertTrue(present, name + " is listed as " + status + " but Lacewing lacks it");
            }
        });
        Set<String> unlisted = new TreeSet<>();
        for (Command<?> command : table.commands()) {
            String name = command.spec().name();
            if (!statuses.containsKey(name) && !own.contains(name)) {
                unlisted.add(name);
            }
        }
        assertEquals(Set.of(), unlisted, "built-in commands missing from " + DOC);
    }
}
