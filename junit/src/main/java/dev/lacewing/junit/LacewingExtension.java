package dev.lacewing.junit;

import dev.lacewing.core.server.LacewingServer;
import java.util.Optional;
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
 * starts a server once per context. A {@link LacewingMatrix} method's parameters are left to the
 * matrix, which gives each invocation its target's server.
 */
public final class LacewingExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LacewingExtension.class);

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
        boolean matrix = context.getTestMethod().map(method -> AnnotationSupport.isAnnotated(method, LacewingMatrix.class))
            .orElse(false);
        return !matrix && (type == LacewingServerInfo.class || type == LacewingServer.class);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        LacewingServer server = server(context).server();
        return parameter.getParameter().getType() == LacewingServer.class
            ? server : new LacewingServerInfo(RunningServer.HOST, server.port());
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
        return owner.getStore(NAMESPACE).computeIfAbsent(RunningServer.class, key -> configuration == null
            ? RunningServer.start(null, null, null, new String[0])
            : RunningServer.start(configuration.engine(), null, configuration.storage(), configuration.settings()), RunningServer.class);
    }
}
