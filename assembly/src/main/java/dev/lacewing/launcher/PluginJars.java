package dev.lacewing.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The plugin jars of a plugins directory, in name order so that every start loads them alike. */
final class PluginJars {

    private PluginJars() {
    }

    /** The {@code *.jar} files directly in {@code directory}; IllegalArgumentException when it is not a directory. */
    static List<Path> in(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException("plugins directory " + directory + " does not exist");
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".jar") && Files.isRegularFile(file))
                .sorted()
                .toList();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot list plugins directory " + directory + ": " + e.getMessage(), e);
        }
    }
}
