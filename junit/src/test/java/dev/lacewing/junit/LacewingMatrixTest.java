package dev.lacewing.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.core.server.Plugins;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * {@link LacewingMatrix} runs a sample class through the JUnit launcher: each method once per
 * engine x transport, named after its target, on that target's real server, a transport that
 * cannot load here skipped with its reason, and one server per target shared by the class.
 */
class LacewingMatrixTest {

    /** What each test of {@link SampleMatrix} saw, by method and target. */
    private static final Map<String, Integer> PORTS = new ConcurrentHashMap<>();

    /** Run by the launcher only: a static nested class is not picked up by the build's test run. */
    static class SampleMatrix {

        @LacewingMatrix
        void runsOnItsTarget(LacewingServerInfo server, LacewingTarget target) {
            assertEquals(target.engine().settingValue(), LacewingExtensionTest.info(server, "lacewing_engine"));
            assertEquals(target.transport().settingValue(), LacewingExtensionTest.info(server, "lacewing_transport"));
            PORTS.put("runsOnItsTarget " + target, server.port());
        }

        @LacewingMatrix
        void sharesTheTargetsServer(LacewingServer server, LacewingTarget target) {
            PORTS.put("sharesTheTargetsServer " + target, server.port());
        }

        @LacewingMatrix(engines = LacewingTest.Engine.MULTITHREAD, transports = LacewingTest.Transport.NIO,
            settings = "databases 4")
        void hasItsOwnServerForOtherSettings(LacewingServerInfo server, LacewingTarget target) {
            assertEquals(Map.of("databases", "4"),
                LacewingExtensionTest.withLettuce(server, redis -> redis.configGet("databases")));
            PORTS.put("hasItsOwnServerForOtherSettings " + target, server.port());
        }
    }

    /** The invocations in the order they ran: "method target outcome", a skip with its reason. */
    private static List<String> run(Class<?> type) {
        List<String> outcomes = new ArrayList<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionSkipped(TestIdentifier test, String reason) {
                outcomes.add(name(test) + " SKIPPED " + reason);
            }

            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (test.isTest()) {
                    outcomes.add(name(test) + " " + result.getStatus()
                        + result.getThrowable().map(failure -> " " + failure).orElse(""));
                }
            }

            private String name(TestIdentifier test) {
                String uniqueId = test.getUniqueId();
                String method = uniqueId.substring(uniqueId.indexOf("[test-template:") + "[test-template:".length(),
                    uniqueId.indexOf('(', uniqueId.indexOf("[test-template:")));
                return method + " " + test.getDisplayName();
            }
        };
        LauncherFactory.create().execute(
            LauncherDiscoveryRequestBuilder.request().selectors(selectClass(type)).build(), listener);
        return outcomes;
    }

    private static String expected(String method, LacewingTarget target) {
        Optional<String> cause = LacewingMatrixExtension.unavailability(target.transport());
        return method + " " + target + cause
            .map(reason -> " SKIPPED " + target.transport().settingValue() + " transport unavailable: " + reason)
            .orElse(" SUCCESSFUL");
    }

    @Test
    void aTransportWithoutItsPluginIsUnavailableWithTheReason() {
        Plugins none = new Plugins("test", List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        assertEquals(Optional.of("no epoll transport plugin on the class path"),
            LacewingMatrixExtension.unavailability(LacewingTest.Transport.EPOLL, none));
        assertEquals(Optional.of("no io_uring transport plugin on the class path"),
            LacewingMatrixExtension.unavailability(LacewingTest.Transport.IO_URING, none));
        assertEquals(Optional.empty(), LacewingMatrixExtension.unavailability(LacewingTest.Transport.NIO, none));
    }

    @Test
    void runsEachMethodOncePerEngineAndTransportNamedAfterTheTarget() {
        List<String> expected = new ArrayList<>();
        for (String method : List.of("hasItsOwnServerForOtherSettings", "runsOnItsTarget", "sharesTheTargetsServer")) {
            LacewingMatrix matrix;
            try {
                matrix = SampleMatrix.class.getDeclaredMethod(method,
                    method.equals("sharesTheTargetsServer") ? LacewingServer.class : LacewingServerInfo.class,
                    LacewingTarget.class).getAnnotation(LacewingMatrix.class);
            } catch (NoSuchMethodException e) {
                throw new AssertionError(e);
            }
            for (LacewingTest.Engine engine : matrix.engines()) {
                for (LacewingTest.Transport transport : matrix.transports()) {
                    expected.add(expected(method, new LacewingTarget(engine, transport)));
                }
            }
        }
        List<String> outcomes = run(SampleMatrix.class);
        outcomes.sort(null);
        expected.sort(null);
        assertEquals(expected, outcomes);
        assertEquals(13, outcomes.size());

        LacewingTarget multithreadNio = new LacewingTarget(LacewingTest.Engine.MULTITHREAD, LacewingTest.Transport.NIO);
        LacewingTarget sharedNothingNio = new LacewingTarget(LacewingTest.Engine.SHARED_NOTHING, LacewingTest.Transport.NIO);
        assertEquals(PORTS.get("runsOnItsTarget " + multithreadNio), PORTS.get("sharesTheTargetsServer " + multithreadNio),
            "one server per target for the class");
        assertNotEquals(PORTS.get("runsOnItsTarget " + multithreadNio), PORTS.get("runsOnItsTarget " + sharedNothingNio));
        assertNotEquals(PORTS.get("runsOnItsTarget " + multithreadNio),
            PORTS.get("hasItsOwnServerForOtherSettings " + multithreadNio), "other settings, another server");
    }
}
