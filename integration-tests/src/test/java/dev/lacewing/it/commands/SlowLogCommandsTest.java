package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SLOWLOG GET, LEN, RESET and HELP, with slowlog-log-slower-than 0 so that every command is
 * logged: commands from clients on both threads and on keys of both shards, arguments trimmed to
 * 32 and to 128 bytes as Redis 7.0 trims them, secrets redacted, the commands inside MULTI (EXEC
 * itself is never logged), and the two settings.
 */
class SlowLogCommandsTest {

    private static LacewingServer logEverything(Target target) {
        return Servers.builder(target).set("slowlog-log-slower-than", "0").start();
    }

    @SuppressWarnings("unchecked")
    private static List<List<Object>> entries(RespClient client, String count) {
        return (List<List<Object>>) RespClient.parse(client.call("SLOWLOG", "GET", count));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> arguments(List<Object> entry) {
        return (List<Object>) entry.get(3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void logsEveryCommandOfEveryClientAndThreadNewestFirst(Target target) {
        try (LacewingServer server = logEverything(target)) {
            List<RespClient> clients = new ArrayList<>();
            try {
                for (int c = 0; c < 4; c++) {
                    RespClient client = RespClient.connect(server.port());
                    clients.add(client);
                    assertEquals("+OK\r\n", client.call("CLIENT", "SETNAME", "c" + c));
                }
                Set<String> expected = new HashSet<>();
                for (int i = 0; i < 40; i++) {
                    clients.get(i % 4).call("SET", "slow:" + i, "v");
                    expected.add("slow:" + i + " c" + (i % 4));
                }
                RespClient reader = clients.get(0);
                List<List<Object>> entries = entries(reader, "-1");
                Set<String> logged = new HashSet<>();
                long previousId = Long.MAX_VALUE;
                for (List<Object> entry : entries) {
                    assertEquals(6, entry.size());
                    long id = (Long) entry.get(0);
                    assertTrue(id < previousId, "newest first");
                    previousId = id;
                    long seconds = (Long) entry.get(1);
                    assertTrue(Math.abs(seconds - System.currentTimeMillis() / 1000) < 60);
                    assertTrue((Long) entry.get(2) >= 0);
                    assertTrue(((String) entry.get(4)).matches("127\\.0\\.0\\.1:\\d+"), entry.toString());
                    List<Object> args = arguments(entry);
                    if (args.get(0).equals("SET")) {
                        logged.add(args.get(1) + " " + entry.get(5));
                    }
                }
                assertEquals(expected, logged);
                assertEquals(10, entries(reader, "10").size());
                assertEquals(10, RespClient.parse(reader.call("SLOWLOG", "GET")) instanceof List<?> list ? list.size() : -1);
            } finally {
                clients.forEach(RespClient::close);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void trimsArgumentsAsRedisDoes(Target target) {
        try (LacewingServer server = logEverything(target); RespClient client = RespClient.connect(server.port())) {
            List<String> mset = new ArrayList<>(List.of("MSET"));
            for (int i = 0; i < 20; i++) {
                mset.add("{t}k" + i);
                mset.add("v");
            }
            client.call(mset.toArray(String[]::new));
            client.call("SET", "{t}big", "x".repeat(200));
            client.call("SET", "{t}edge", "y".repeat(128));
            List<List<Object>> entries = entries(client, "3");
            assertEquals(List.of("SET", "{t}edge", "y".repeat(128)), arguments(entries.get(0)));
            assertEquals(List.of("SET", "{t}big", "x".repeat(128) + "... (72 more bytes)"), arguments(entries.get(1)));
            List<Object> trimmed = arguments(entries.get(2));
            assertEquals(32, trimmed.size());
            assertEquals(mset.subList(0, 31), trimmed.subList(0, 31));
            assertEquals("... (10 more arguments)", trimmed.get(31));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void redactsSecretsAndLogsTheCommandsInsideMultiButNotExec(Target target) {
        try (LacewingServer server = logEverything(target); RespClient client = RespClient.connect(server.port())) {
            client.call("AUTH", "user", "pass");
            client.call("HELLO", "2", "AUTH", "default", "nopass", "SETNAME", "n");
            client.call("CONFIG", "SET", "requirepass", "pw", "maxclients", "100");
            client.call("AUTH", "pw");
            client.call("CONFIG", "SET", "requirepass", "");
            client.call("MULTI");
            client.call("SET", "{m}a", "1");
            client.call("INCR", "{m}a");
            client.call("EXEC");
            List<List<Object>> entries = entries(client, "-1");
            List<List<Object>> logged = new ArrayList<>();
            for (List<Object> entry : entries) {
                logged.add(arguments(entry));
            }
            assertEquals(List.of(
                List.of("INCR", "{m}a"),
                List.of("SET", "{m}a", "1"),
                List.of("MULTI"),
                List.of("CONFIG", "SET", "requirepass", "(redacted)"),
                List.of("AUTH", "(redacted)"),
                List.of("CONFIG", "SET", "requirepass", "(redacted)", "maxclients", "100"),
                List.of("HELLO", "2", "AUTH", "(redacted)", "(redacted)", "SETNAME", "n"),
                List.of("AUTH", "(redacted)", "(redacted)")), logged);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void lenResetAndTheSettingsBoundTheLog(Target target) {
        try (LacewingServer server = logEverything(target); RespClient client = RespClient.connect(server.port())) {
            client.call("SLOWLOG", "RESET");
            assertEquals(":1\r\n", client.call("SLOWLOG", "LEN"));
            client.call("CONFIG", "SET", "slowlog-max-len", "5");
            for (int i = 0; i < 20; i++) {
                client.call("SET", "len:" + i, "v");
            }
            assertEquals(":5\r\n", client.call("SLOWLOG", "LEN"));
            List<List<Object>> five = entries(client, "-1");
            assertEquals(5, five.size());
            assertEquals("SLOWLOG", arguments(five.get(0)).get(0));
            long lastId = (Long) five.get(0).get(0);
            assertEquals("+OK\r\n", client.call("SLOWLOG", "RESET"));
            client.call("CONFIG", "SET", "slowlog-log-slower-than", "-1");
            client.call("SET", "len:x", "v");
            // Only SLOWLOG RESET, logged once it ran: the settings apply to the command that sets them.
            assertEquals(":1\r\n", client.call("SLOWLOG", "LEN"));
            client.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
            List<List<Object>> after = entries(client, "-1");
            assertEquals(List.of(List.of("CONFIG", "SET", "slowlog-log-slower-than", "0"), List.of("SLOWLOG", "RESET")),
                after.stream().map(SlowLogCommandsTest::arguments).toList());
            assertTrue((Long) after.get(1).get(0) > lastId, "ids go on after a reset");
            client.call("CONFIG", "SET", "slowlog-log-slower-than", "10000000");
            client.call("SLOWLOG", "RESET");
            client.call("SET", "len:y", "v");
            assertEquals(":0\r\n", client.call("SLOWLOG", "LEN"));
            assertEquals("*0\r\n", client.call("SLOWLOG", "GET", "0"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void badArgumentsGetRedisErrors(Target target) {
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            assertEquals("-ERR count should be greater than or equal to -1\r\n", client.call("SLOWLOG", "GET", "-2"));
            assertEquals("-ERR count should be greater than or equal to -1\r\n", client.call("SLOWLOG", "GET", "x"));
            assertEquals("-ERR unknown subcommand or wrong number of arguments for 'GET'. Try SLOWLOG HELP.\r\n",
                client.call("SLOWLOG", "GET", "1", "2"));
            assertEquals("-ERR wrong number of arguments for 'slowlog|len' command\r\n", client.call("SLOWLOG", "LEN", "1"));
            assertEquals("-ERR unknown subcommand 'foo'. Try SLOWLOG HELP.\r\n", client.call("SLOWLOG", "foo"));
            assertEquals("-ERR CONFIG SET failed (possibly related to argument 'slowlog-log-slower-than') - argument "
                + "must be between -1 and 9223372036854775807 inclusive\r\n",
                client.call("CONFIG", "SET", "slowlog-log-slower-than", "-5"));
            assertEquals(12, RespClient.elements(client.call("SLOWLOG", "HELP")).size());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void lettuceReadsTheLog(Target target) {
        try (LacewingServer server = logEverything(target)) {
            RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", server.port()));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                connection.sync().set("lettuce:k", "v");
                List<Object> entries = connection.sync().slowlogGet(1);
                assertEquals(1, entries.size());
                assertEquals(List.of("SET", "lettuce:k", "v"), ((List<?>) entries.get(0)).get(3));
                assertTrue(connection.sync().slowlogLen() >= 1);
                assertEquals("OK", connection.sync().slowlogReset());
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }
}
