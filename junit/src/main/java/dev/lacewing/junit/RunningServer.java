package dev.lacewing.junit;

import dev.lacewing.core.server.LacewingServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A started server and the directory it may write to; closing stops it and deletes the directory. */
record RunningServer(LacewingServer server, Path directory) implements AutoCloseable {

    static final String HOST = "127.0.0.1";

    /**
     * Starts a server with the extension's own settings, then the engine, transport and storage
     * (with the storage's own settings) where given (null: the server's default), then
     * {@code settings} as redis.conf lines.
     */
    static RunningServer start(LacewingTest.Engine engine, LacewingTest.Transport transport,
            LacewingTest.Storage storage, String[] settings) {
        Path directory;
        try {
            directory = Files.createTempDirectory("lacewing-test-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LacewingServer.Builder builder = LacewingServer.builder()
            .port(0)
            .set("bind", HOST)
            .set("save", "")
            .set("dir", directory.toString());
        if (engine != null) {
            builder.engine(engine.settingValue());
        }
        if (transport != null) {
            builder.transport(transport.settingValue());
        }
        if (storage != null) {
            builder.set("storage", storage.settingValue());
            storage.settings().forEach(builder::set);
        }
        for (String setting : settings) {
            String line = setting.strip();
            int split = indexOfSeparator(line);
            String name = split < 0 ? line : line.substring(0, split);
            builder.set(name, split < 0 ? "" : unquoted(line.substring(split + 1).strip()));
        }
        try {
            return new RunningServer(builder.start(), directory);
        } catch (RuntimeException e) {
            delete(directory);
            throw e;
        }
    }

    /** The value without the quotes around it: {@code save ""} is an empty value, as in redis.conf. */
    private static String unquoted(String value) {
        boolean quoted = value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '\'')
            && value.charAt(value.length() - 1) == value.charAt(0);
        return quoted ? value.substring(1, value.length() - 1) : value;
    }

    /** The first blank or '=' of "name value" or "name=value". */
    private static int indexOfSeparator(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '=' || Character.isWhitespace(c)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            delete(directory);
        }
    }

    private static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // A temporary directory left behind harms no test.
        }
    }
}
