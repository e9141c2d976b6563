package dev.lacewing.junit;

import dev.lacewing.api.TransportProvider;
import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.core.server.Plugins;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Expands a {@link LacewingMatrix} method into one invocation per target of its all-pairs
 * covering of engines x transports x storages. Each
 * invocation's server lives in the JUnit store of the test class's context, keyed by target and
 * settings, so the class's matrix methods share it and JUnit closes it, with its temporary
 * directory, after the class; the store starts each once even when tests run in parallel.
 */
public final class LacewingMatrixExtension implements TestTemplateInvocationContextProvider {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LacewingMatrixExtension.class);

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().map(method -> AnnotationSupport.isAnnotated(method, LacewingMatrix.class)).orElse(false);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        LacewingMatrix matrix = AnnotationSupport.findAnnotation(context.getRequiredTestMethod(), LacewingMatrix.class)
            .orElseThrow();
        List<String> settings = List.of(matrix.settings());
        List<TestTemplateInvocationContext> invocations = new ArrayList<>();
        Plugins plugins = Plugins.fromClassPath();
        for (LacewingTarget target : LacewingTarget.allPairs(List.of(matrix.engines()), List.of(matrix.transports()),
                List.of(matrix.storages()))) {
            invocations.add(new Invocation(target, settings, unavailability(target, plugins)));
        }
        return invocations.stream();
    }

    /** Why a target cannot run with these plugins, or empty: its transport's reason, else its storage's. */
    static Optional<String> unavailability(LacewingTarget target, Plugins plugins) {
        Optional<String> transport = unavailability(target.transport(), plugins)
            .map(cause -> target.transport().settingValue() + " transport unavailable: " + cause);
        return transport.isPresent() ? transport : unavailability(target.storage(), plugins)
            .map(cause -> target.storage().settingValue() + " storage unavailable: " + cause);
    }

    /** Why a storage cannot run with these plugins, or empty: its plugin is not among them. */
    static Optional<String> unavailability(LacewingTest.Storage storage, Plugins plugins) {
        return plugins.storages().stream().anyMatch(provider -> provider.name().equals(storage.settingValue()))
            ? Optional.empty()
            : Optional.of("no " + storage.settingValue() + " storage plugin on the class path");
    }

    /** Why a transport cannot run with these plugins, or empty: NIO always can; the others ask their plugin. */
    static Optional<String> unavailability(LacewingTest.Transport transport, Plugins plugins) {
        if (transport == LacewingTest.Transport.NIO) {
            return Optional.empty();
        }
        for (TransportProvider provider : plugins.transports()) {
            if (provider.name().equals(transport.settingValue())) {
                return provider.unavailabilityCause();
            }
        }
        return Optional.of("no " + transport.settingValue() + " transport plugin on the class path");
    }

    private record ServerKey(LacewingTarget target, List<String> settings) {
    }

    /** One target of the matrix: skipped with its reason when its transport or storage cannot load, else given its server. */
    private record Invocation(LacewingTarget target, List<String> settings, Optional<String> unavailability)
            implements TestTemplateInvocationContext, ExecutionCondition, ParameterResolver {

        @Override
        public String getDisplayName(int invocationIndex) {
            return target.toString();
        }

        @Override
        public List<Extension> getAdditionalExtensions() {
            return List.of(this);
        }

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return unavailability
                .map(ConditionEvaluationResult::disabled)
                .orElseGet(() -> ConditionEvaluationResult.enabled(target + " can run here"));
        }

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            Class<?> type = parameter.getParameter().getType();
            return type == LacewingServerInfo.class || type == LacewingServer.class || type == LacewingTarget.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            Class<?> type = parameter.getParameter().getType();
            if (type == LacewingTarget.class) {
                return target;
            }
            LacewingServer server = server(context).server();
            return type == LacewingServer.class ? server : new LacewingServerInfo(RunningServer.HOST, server.port());
        }

        private RunningServer server(ExtensionContext context) {
            ExtensionContext owner = context;
            while (owner.getTestMethod().isPresent() && owner.getParent().isPresent()) {
                owner = owner.getParent().get();
            }
            return owner.getStore(NAMESPACE).computeIfAbsent(new ServerKey(target, settings),
                key -> RunningServer.start(target.engine(), target.transport(), target.storage(), settings.toArray(String[]::new)),
                RunningServer.class);
        }
    }
}
