package dev.lacewing.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The places in core's sources that take the api's {@code CommandContext.server()} or
 * {@code client()} for core's {@code ServerState} or {@code ClientConnection}, by a cast or a type
 * test: command code that does so cannot run on a context a plugin or another engine makes, so the
 * api does not tell the truth about what a command needs (issue 21, "honest boundaries").
 *
 * <p>{@link #KNOWN} is where they are today, file by file; they are to go, so the test fails when a
 * file gains one (or a new file has one) and when a file loses one (lower its count, or drop it).
 */
class ApiDowncastsTest {

    private static final Pattern DOWNCAST = Pattern.compile(
        "\\(\\s*(ServerState|ClientConnection)\\s*\\)\\s*[\\w.]*\\.(server|client)\\(\\)"
            + "|\\.(server|client)\\(\\)\\s+instanceof\\s+(ServerState|ClientConnection)\\b");

    /** Path under {@code src/main/java/dev/lacewing/core/} to how many there are in it. */
    private static final Map<String, Integer> KNOWN = Map.ofEntries(
        Map.entry("command/generic/SortCommands.java", 2),
        Map.entry("command/pubsub/PubSubCommands.java", 3),
        Map.entry("command/server/AclCommands.java", 2),
        Map.entry("command/server/ConnectionCommands.java", 16),
        Map.entry("command/server/DiagnosticCommands.java", 4),
        Map.entry("command/server/PersistenceCommands.java", 5),
        Map.entry("command/server/ServerCommands.java", 2),
        Map.entry("command/server/TrackingCommands.java", 4),
        Map.entry("pubsub/KeyspaceEvents.java", 1),
        Map.entry("server/Multi.java", 1),
        Map.entry("server/Watch.java", 3),
        Map.entry("tracking/Tracking.java", 2));

    @Test
    void noFileCastsTheApisServerOrClientToCoreBeyondTheKnownPlaces() throws IOException {
        Path root = Path.of("src/main/java/dev/lacewing/core");
        assertTrue(Files.isDirectory(root), "core's sources are not at " + root.toAbsolutePath());
        Map<String, Integer> found = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                Matcher matcher = DOWNCAST.matcher(Files.readString(file));
                int count = 0;
                while (matcher.find()) {
                    count++;
                }
                if (count > 0) {
                    found.put(root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/"), count);
                }
            }
        }
        assertEquals(new TreeMap<>(KNOWN), found, "downcasts of ctx.server() / ctx.client() to core classes, by file");
    }
}
