package dev.lacewing.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import dev.lacewing.core.server.LacewingServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/** The extension drives real servers: lettuce over a socket to the injected port. */
class LacewingExtensionTest {

    static <T> T withLettuce(LacewingServerInfo server, Function<RedisCommands<String, String>, T> use) {
        RedisClient client = RedisClient.create(server.uri().toString());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return use.apply(connection.sync());
        } finally {
            client.shutdown();
        }
    }

    static String info(LacewingServerInfo server, String field) {
        return withLettuce(server, redis -> redis.info("server").lines()
            .filter(line -> line.startsWith(field + ":")).findFirst().orElseThrow().substring(field.length() + 1));
    }

    static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    @Nested
    @LacewingTest
    class DefaultsToTheSharedNothingEngine {

        @Test
        void servesLettuceOnTheInjectedPort(LacewingServerInfo server) {
            assertEquals("127.0.0.1", server.host());
            assertEquals("redis://127.0.0.1:" + server.port(), server.uri().toString());
            assertEquals("OK", withLettuce(server, redis -> redis.set("greeting", "hello")));
            assertEquals("hello", withLettuce(server, redis -> redis.get("greeting")));
            assertEquals("shared-nothing", info(server, "lacewing_engine"));
        }
    }

    @Nested
    @LacewingTest(engine = LacewingTest.Engine.MULTITHREAD, settings = {"databases 4", "maxmemory=64mb", "save \"\""})
    class TheAnnotationChoosesTheEngineAndSettings {

        @Test
        void runsTheMultithreadEngineWithTheSettings(LacewingServerInfo server) {
            assertEquals("multithread", info(server, "lacewing_engine"));
            assertEquals(Map.of("databases", "4"), withLettuce(server, redis -> redis.configGet("databases")));
            assertEquals(Map.of("maxmemory", "67108864"), withLettuce(server, redis -> redis.configGet("maxmemory")));
            assertEquals(Map.of("save", ""), withLettuce(server, redis -> redis.configGet("save")));
        }
    }

    @Nested
    @LacewingTest
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class OneServerPerClassByDefault {

        private final LacewingServerInfo fromConstructor;

        OneServerPerClassByDefault(LacewingServerInfo server) {
            this.fromConstructor = server;
        }

        @Test
        @Order(1)
        void theFirstTestWritesAKey(LacewingServerInfo server) {
            assertEquals(fromConstructor, server);
            withLettuce(server, redis -> redis.set("kept", "1"));
        }

        @Test
        @Order(2)
        void theNextTestSeesIt(LacewingServerInfo server, LacewingServer running) {
            assertEquals(fromConstructor, server);
            assertEquals(server.port(), running.port());
            assertEquals("1", withLettuce(server, redis -> redis.get("kept")));
        }
    }

    @Nested
    @LacewingTest(lifecycle = LacewingTest.Lifecycle.PER_TEST)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class AServerPerTestWhenAsked {

        static LacewingServer first;

        @Test
        @Order(1)
        void theFirstTestWritesAKey(LacewingServer server, LacewingServerInfo info) {
            first = server;
            assertEquals(0L, (long) withLettuce(info, RedisCommands::dbsize));
            withLettuce(info, redis -> redis.set("gone", "1"));
        }

        @Test
        @Order(2)
        void theNextTestGetsAnotherServerAndTheFirstIsClosed(LacewingServer server, LacewingServerInfo info) {
            assertNotSame(first, server);
            if (first.port() != server.port()) {
                assertFalse(listening(first.port()), "the first test's server still listens");
            }
            assertEquals(0L, (long) withLettuce(info, RedisCommands::dbsize));
        }
    }

    @Nested
    @ExtendWith(LacewingExtension.class)
    class ExtendWithAloneGetsTheDefaults {

        static int port;

        @Test
        void aServerOnTheSharedNothingEngine(LacewingServerInfo server) {
            port = server.port();
            assertEquals("shared-nothing", info(server, "lacewing_engine"));
        }

        @AfterAll
        static void sameServerForTheClass(LacewingServerInfo server) {
            assertEquals(port, server.port());
        }
    }
}
