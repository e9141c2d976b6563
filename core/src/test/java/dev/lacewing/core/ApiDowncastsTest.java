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
 * The places in core's sources that take what an api accessor gives ({@code server()}, {@code client()},
 * {@code keyspace()}, {@code reply()}, {@code arguments()}, of a command context or a storage engine)
 * for one of core's classes, by a cast or a type test, and the type tests of a context itself: code that
 * does so cannot run on a context or a storage a plugin makes, so the api does not tell the truth about
 * what it needs (issue 21, "honest boundaries"). Core's own command code gets core's side typed
 * instead: dispatch hands a family's {@code ContextHandler} a {@code CoreContext}.
 *
 * <p>There are none: what a command needs beyond the api's accessors is either in the api (keyspace
 * notifications, a database's index, FLUSHALL's persistence, SORT's key-access check) or typed on
 * {@code CoreContext}, so the test fails as soon as a file gains one.
 */
class ApiDowncastsTest {

    private static final Pattern DOWNCAST = Pattern.compile(
        // (Type) x.accessor(...), the accessor's result itself cast (not a value read through it)
        "\\(\\s*[A-Z]\\w*\\s*\\)\\s*(?:[\\w.]|\\(\\))*\\.(server|client|keyspace|reply|arguments)\\([^()]*\\)(?!\\s*\\.)"
            // x.accessor(...) instanceof Type
            + "|\\.(server|client|keyspace|reply|arguments)\\([^()]*\\)\\s+instanceof\\s+[A-Z]"
            // ctx instanceof Type
            + "|\\b(ctx|context)\\s+instanceof\\s+[A-Z]");

    @Test
    void noFileCastsWhatAnApiAccessorGivesToCore() throws IOException {
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
        assertEquals(Map.of(), found, "api accessors (server, client, keyspace, reply, arguments) cast to core classes, by file");
    }
}
