package dev.lacewing.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.core.server.Plugins;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * {@link LacewingMatrix} runs a sample class through the JUnit launcher: each method once per
 * target of its all-pairs covering (every engine x transport for one storage), named after its
 * target, on that target's real server, a transport that cannot load here skipped with its reason,
 * and one server per target shared by the class.
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

        @LacewingMatrix(storages = {LacewingTest.Storage.COMPACT, LacewingTest.Storage.TIERED})
        void runsOnEachStorageWithTieredStringsOnDisk(LacewingServerInfo server, LacewingTarget target) {
            assertEquals(target.storage().settingValue(), LacewingExtensionTest.info(server, "lacewing_storage"));
            String offloaded = LacewingExtensionTest.withLettuce(server, redis -> {
                redis.set("matrix:" + target, "v");
                return redis.info("server").lines().filter(line -> line.startsWith("tiered_offloaded_values:"))
                    .findFirst().orElse("none");
            });
            assertEquals(target.storage() == LacewingTest.Storage.TIERED ? "tiered_offloaded_values:1" : "none", offloaded);
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
        Optional<String> cause = LacewingMatrixExtension.unavailability(target, Plugins.fromClassPath());
        return method + " " + target + cause.map(reason -> " SKIPPED " + reason).orElse(" SUCCESSFUL");
    }

    @Test
    void aTransportWithoutItsPluginIsUnavailableWithTheReason() {
        Plugins none = new Plugins("test", List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        assertEquals(Optional.of("no epoll transport plugin on the class path"),
            LacewingMatrixExtension.unavailability(LacewingTest.Transport.EPOLL, none));
        assertEquals(Optional.of("no io_uring transport plugin on the class path"),
            LacewingMatrixExtension.unavailability(LacewingTest.Transport.IO_URING, none));
        assertEquals(Optional.empty(), LacewingMatrixExtension.unavailability(LacewingTest.Transport.NIO, none));
        assertEquals(Optional.of("no tiered storage plugin on the class path"),
            LacewingMatrixExtension.unavailability(LacewingTest.Storage.TIERED, none));
        assertEquals(Optional.of("tiered storage unavailable: no tiered storage plugin on the class path"),
            LacewingMatrixExtension.unavailability(new LacewingTarget(LacewingTest.Engine.MULTITHREAD,
                LacewingTest.Transport.NIO, LacewingTest.Storage.TIERED), none));
    }

    @Test
    void allPairsCoversEveryPairOfTwoDimensionsInSixTargets() {
        List<LacewingTarget> targets = LacewingTarget.allPairs(List.of(LacewingTest.Engine.values()),
            List.of(LacewingTest.Transport.values()), List.of(LacewingTest.Storage.values()));
        assertEquals(6, targets.size(), targets::toString);
        Set<String> pairs = new HashSet<>();
        for (LacewingTarget target : targets) {
            pairs.add(target.engine() + "+" + target.transport());
            pairs.add(target.engine() + "+" + target.storage());
            pairs.add(target.transport() + "+" + target.storage());
        }
        assertEquals(2 * 3 + 2 * 2 + 3 * 2, pairs.size(), pairs::toString);
    }

    @Test
    void allPairsOfOneStorageIsEveryEngineAndTransport() {
        List<LacewingTarget> expected = new ArrayList<>();
        for (LacewingTest.Engine engine : LacewingTest.Engine.values()) {
            for (LacewingTest.Transport transport : LacewingTest.Transport.values()) {
                expected.add(new LacewingTarget(engine, transport, LacewingTest.Storage.COMPACT));
            }
        }
        assertEquals(expected, LacewingTarget.allPairs(List.of(LacewingTest.Engine.values()),
            List.of(LacewingTest.Transport.values()), List.of(LacewingTest.Storage.COMPACT)));
    }

    @Test
    void runsEachMethodOncePerTargetOfItsPairsNamedAfterTheTarget() {
        List<String> expected = new ArrayList<>();
        for (String method : List.of("hasItsOwnServerForOtherSettings", "runsOnItsTarget", "sharesTheTargetsServer",
                "runsOnEachStorageWithTieredStringsOnDisk")) {
            LacewingMatrix matrix;
            try {
                matrix = SampleMatrix.class.getDeclaredMethod(method,
                    method.equals("sharesTheTargetsServer") ? LacewingServer.class : LacewingServerInfo.class,
                    LacewingTarget.class).getAnnotation(LacewingMatrix.class);
            } catch (NoSuchMethodException e) {
                throw new AssertionError(e);
            }
            for (LacewingTarget target : LacewingTarget.allPairs(List.of(matrix.engines()), List.of(matrix.transports()),
                    List.of(matrix.storages()))) {
                expected.add(expected(method, target));
            }
        }
        List<String> outcomes = run(SampleMatrix.class);
        outcomes.sort(null);
        expected.sort(null);
        assertEquals(expected, outcomes);
        assertEquals(19, outcomes.size());

        LacewingTarget multithreadNio = new LacewingTarget(LacewingTest.Engine.MULTITHREAD, LacewingTest.Transport.NIO,
            LacewingTest.Storage.COMPACT);
        LacewingTarget sharedNothingNio = new LacewingTarget(LacewingTest.Engine.SHARED_NOTHING, LacewingTest.Transport.NIO,
            LacewingTest.Storage.COMPACT);
        assertEquals(PORTS.get("runsOnItsTarget " + multithreadNio), PORTS.get("sharesTheTargetsServer " + multithreadNio),
            "one server per target for the class");
        assertNotEquals(PORTS.get("runsOnItsTarget " + multithreadNio), PORTS.get("runsOnItsTarget " + sharedNothingNio));
        assertNotEquals(PORTS.get("runsOnItsTarget " + multithreadNio),
            PORTS.get("hasItsOwnServerForOtherSettings " + multithreadNio), "other settings, another server");
    }
}
