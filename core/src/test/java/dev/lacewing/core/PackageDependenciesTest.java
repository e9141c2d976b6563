package dev.lacewing.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.ServerState;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Core's package graph, read from its compiled classes' constant pools (every class, field and
 * method reference and every descriptor and signature names the classes a class uses): it must have
 * no cycle. A compile-time constant (a {@code static final} primitive or String) is inlined by javac
 * and leaves no reference, so a dependency through constants alone is not seen.
 *
 * <p>{@link #KNOWN_BACK_EDGES} are the edges that still close cycles today, each to be removed
 * (issue 21, "honest boundaries"); the test fails on any other cycle, and on a listed edge that is
 * gone, so that the list only shrinks.
 */
class PackageDependenciesTest {

    private static final String CORE = "dev.lacewing.core.";
    private static final Pattern CORE_CLASS = Pattern.compile("dev/lacewing/core/((?:[a-z0-9_]+/)*)[A-Z]");

    /** {@code from -> to}, package names below {@code dev.lacewing.core}. */
    private static final Set<String> KNOWN_BACK_EDGES = Set.of(
        // AclCommandIndex reads the subcommand tables of the command.server family.
        "acl -> command.server",
        // Command families reaching server-wide state (ServerState, ClientConnection, Scripts...).
        "command.pubsub -> server",
        "command.scripting -> server",
        "command.server -> server",
        "command.transaction -> server",
        // Listpack and SetValue format and parse integers with command.Numbers.
        "datatype -> command",
        // Snapshots and BackgroundSave read ServerState.
        "persistence -> server",
        // PubSub replies through command's reply helpers and delivers to server's connections.
        "pubsub -> command",
        "pubsub -> server",
        // Tracking sends invalidations to server's connections.
        "tracking -> server");

    private static Map<String, Set<String>> graph;

    @BeforeAll
    static void readClasses() throws IOException, URISyntaxException {
        Path root = Path.of(ServerState.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
                if (!name.endsWith(".class") || name.endsWith("module-info.class")
                        || !name.startsWith("dev/lacewing/core/")) {
                    continue;
                }
                String from = packageOf(name.substring(0, name.lastIndexOf('/') + 1));
                Set<String> edges = graph.computeIfAbsent(from, p -> new TreeSet<>());
                try (InputStream in = Files.newInputStream(file)) {
                    for (String utf8 : constantPoolStrings(in)) {
                        Matcher m = CORE_CLASS.matcher(utf8);
                        while (m.find()) {
                            String to = packageOf("dev/lacewing/core/" + m.group(1));
                            if (!to.equals(from)) {
                                edges.add(to);
                            }
                        }
                    }
                }
            }
        }
        assertTrue(graph.containsKey("server") && graph.containsKey("command"), "read no core classes under " + root);
    }

    @Test
    void packagesHaveNoCycleBeyondTheKnownBackEdges() {
        Map<String, Set<String>> pruned = new TreeMap<>();
        graph.forEach((from, to) -> {
            Set<String> kept = new TreeSet<>(to);
            kept.removeIf(target -> KNOWN_BACK_EDGES.contains(from + " -> " + target));
            pruned.put(from, kept);
        });
        List<String> cycle = findCycle(pruned);
        assertTrue(cycle.isEmpty(), "core's packages form a cycle: " + String.join(" -> ", cycle));
    }

    @Test
    void everyKnownBackEdgeStillExists() {
        Set<String> gone = new TreeSet<>();
        for (String edge : KNOWN_BACK_EDGES) {
            String[] ends = edge.split(" -> ");
            if (!graph.getOrDefault(ends[0], Set.of()).contains(ends[1])) {
                gone.add(edge);
            }
        }
        assertEquals(Set.of(), gone, "edges no longer there: remove them from KNOWN_BACK_EDGES");
    }

    /** A cycle as the list of its packages, the first repeated at the end; empty when there is none. */
    static List<String> findCycle(Map<String, Set<String>> edges) {
        Map<String, Integer> state = new HashMap<>();
        for (String start : edges.keySet()) {
            if (state.containsKey(start)) {
                continue;
            }
            Deque<String> path = new ArrayDeque<>();
            List<String> cycle = depthFirst(start, edges, state, path);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        return List.of();
    }

    private static List<String> depthFirst(String node, Map<String, Set<String>> edges, Map<String, Integer> state,
                                           Deque<String> path) {
        state.put(node, 1);
        path.addLast(node);
        for (String next : edges.getOrDefault(node, Set.of())) {
            Integer seen = state.get(next);
            if (seen == null) {
                List<String> cycle = depthFirst(next, edges, state, path);
                if (!cycle.isEmpty()) {
                    return cycle;
                }
            } else if (seen == 1) {
                List<String> cycle = new ArrayList<>();
                boolean in = false;
                for (String p : path) {
                    in |= p.equals(next);
                    if (in) {
                        cycle.add(p);
                    }
                }
                cycle.add(next);
                return cycle;
            }
        }
        path.removeLast();
        state.put(node, 2);
        return List.of();
    }

    @Test
    void findCycleSeesACycle() {
        Map<String, Set<String>> edges = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"));
        List<String> cycle = findCycle(edges);
        assertEquals(4, cycle.size(), cycle.toString());
        assertEquals(cycle.get(0), cycle.get(3));
        assertEquals(List.of(), findCycle(Map.of("a", Set.of("b"), "b", Set.of("c"))));
    }

    private static String packageOf(String directory) {
        String dotted = directory.replace('/', '.');
        return dotted.length() == CORE.length() ? "(core)" : dotted.substring(CORE.length(), dotted.length() - 1);
    }

    /** The CONSTANT_Utf8 entries of a class file's constant pool (JVMS 4.4). */
    static List<String> constantPoolStrings(InputStream classFile) throws IOException {
        DataInputStream in = new DataInputStream(classFile);
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        List<String> strings = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> strings.add(in.readUTF());
                case 3, 4 -> in.skipNBytes(4);
                case 5, 6 -> {
                    in.skipNBytes(8);
                    i++;
                }
                case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
                case 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                case 15 -> in.skipNBytes(3);
                default -> throw new IOException("constant pool tag " + tag);
            }
        }
        return strings;
    }
}
