package dev.lacewing.junit;

import dev.lacewing.core.server.LacewingServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Starts the server {@link LacewingTest} describes and resolves {@link LacewingServerInfo} and
 * {@code LacewingServer} parameters. The server is kept in the JUnit store of the class's context
 * ({@link LacewingTest.Lifecycle#PER_CLASS}) or of each test's, and JUnit closes it, with its
 * temporary directory, when that context ends. A server is started at the first of: the class's
 * {@code @BeforeAll} phase or the test's {@code @BeforeEach} phase, or a parameter that asks for
 * it (a constructor's comes before either). Tests of one class may run in parallel: the store
 * starts a server once per context.
 */
public final class LacewingExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LacewingExtension.class);
    private static final String HOST = "127.0.0.1";

    @Override
    public void beforeAll(ExtensionContext context) {
        if (lifecycle(context) == LacewingTest.Lifecycle.PER_CLASS) {
            server(context);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        server(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == LacewingServerInfo.class || type == LacewingServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        LacewingServer server = server(context).server();
        return parameter.getParameter().getType() == LacewingServer.class
            ? server : new LacewingServerInfo(HOST, server.port());
    }

    private static LacewingTest.Lifecycle lifecycle(ExtensionContext context) {
        return configuration(context).map(LacewingTest::lifecycle).orElse(LacewingTest.Lifecycle.PER_CLASS);
    }

    private static Optional<LacewingTest> configuration(ExtensionContext context) {
        return context.getTestClass().flatMap(type -> AnnotationSupport.findAnnotation(type, LacewingTest.class));
    }

    /** The server of this context: the class's, or the test's for a per-test lifecycle. */
    private static RunningServer server(ExtensionContext context) {
        ExtensionContext owner = context;
        if (lifecycle(context) == LacewingTest.Lifecycle.PER_CLASS || context.getTestMethod().isEmpty()) {
            while (owner.getTestMethod().isPresent() && owner.getParent().isPresent()) {
                owner = owner.getParent().get();
            }
        }
        LacewingTest configuration = configuration(context).orElse(null);
        return owner.getStore(NAMESPACE).computeIfAbsent(RunningServer.class,
            key -> RunningServer.start(configuration), RunningServer.class);
    }

    /** A started server and the directory it may write to; closing stops it and deletes the directory. */
    private record RunningServer(LacewingServer server, Path directory) implements AutoCloseable {

        static RunningServer start(LacewingTest configuration) {
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
            if (configuration != null) {
                builder.engine(configuration.engine().settingValue());
                for (String setting : configuration.settings()) {
                    String line = setting.strip();
                    int split = indexOfSeparator(line);
                    String name = split < 0 ? line : line.substring(0, split);
                    builder.set(name, split < 0 ? "" : unquoted(line.substring(split + 1).strip()));
                }
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
}
