package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.ProtocolVersion;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** PING, ECHO, QUIT, RESET, HELLO, AUTH, CLIENT and SELECT, over raw sockets and lettuce. */
class ConnectionCommandsTest {

    private static int port(Target target) {
        return Servers.server(target).port();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void pingEchoQuitAndReset(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            assertEquals("+PONG\r\n", client.call("PING"));
            assertEquals("$2\r\nhi\r\n", client.call("PING", "hi"));
            assertEquals("$3\r\na\0b\r\n", client.call("ECHO", "a\0b"));
            assertEquals("+OK\r\n", client.call("CLIENT", "SETNAME", "before-reset"));
            assertTrue(client.call("HELLO", "3").startsWith("%7\r\n"));
            assertEquals("+RESET\r\n", client.call("RESET"));
            assertEquals("$-1\r\n", client.call("CLIENT", "GETNAME"), "RESET went back to RESP2 and no name");
            assertEquals("+OK\r\n", client.call("QUIT"));
            assertTrue(client.closedByServer(5000));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void helloSwitchesProtocolAndSetsTheName(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            String hello3 = client.call("HELLO", "3", "SETNAME", "conn-test");
            assertTrue(hello3.startsWith("%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15\r\n"
                + "$5\r\nproto\r\n:3\r\n$2\r\nid\r\n:"), hello3);
            assertEquals("_\r\n", client.call("GET", "conn:missing"));
            assertEquals("$9\r\nconn-test\r\n", client.call("CLIENT", "GETNAME"));
            assertTrue(client.call("HELLO", "2").startsWith("*14\r\n"));
            assertEquals("$-1\r\n", client.call("GET", "conn:missing"));
            assertEquals("-NOPROTO unsupported protocol version\r\n", client.call("HELLO", "4"));
            assertEquals("-ERR Protocol version is not an integer or out of range\r\n", client.call("HELLO", "x"));
        }
    }

    /** The clients cron (once a second, on the worker's periodic timer) closes what was idle past {@code timeout}. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aClientIdleLongerThanTimeoutIsClosedAndOneThatKeepsTalkingIsNot(Target target) {
        try (LacewingServer server = Servers.builder(target).set("timeout", "2").start();
             RespClient idle = RespClient.connect(server.port());
             RespClient talking = RespClient.connect(server.port())) {
            assertEquals("+PONG\r\n", idle.call("PING"));
            boolean closed = false;
            for (int round = 0; round < 50 && !closed; round++) {
                assertEquals("+PONG\r\n", talking.call("PING"));
                closed = idle.closedByServer(200);
            }
            assertTrue(closed, "closed within 50 rounds of 200 ms, timeout 2 s");
            assertEquals("+PONG\r\n", talking.call("PING"), "a client that talked every 200 ms stays");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void requirepassGatesCommandsUntilAuthOrHelloAuth(Target target) {
        try (LacewingServer server = Servers.builder(target).set("requirepass", "s3cret").start()) {
            try (RespClient client = RespClient.connect(server.port())) {
                assertEquals("-NOAUTH Authentication required.\r\n", client.call("GET", "k"));
                assertEquals("-NOAUTH Authentication required.\r\n", client.call("CLIENT", "ID"));
                assertTrue(client.call("HELLO", "3").startsWith("-NOAUTH HELLO must be called with the client "
                    + "already authenticated"));
                assertEquals("-WRONGPASS invalid username-password pair or user is disabled.\r\n",
                    client.call("AUTH", "wrong"));
                assertEquals("-WRONGPASS invalid username-password pair or user is disabled.\r\n",
                    client.call("AUTH", "someone", "s3cret"));
                assertEquals("+OK\r\n", client.call("AUTH", "s3cret"));
                assertEquals("$-1\r\n", client.call("GET", "k"));
                assertEquals("+RESET\r\n", client.call("RESET"));
                assertEquals("-NOAUTH Authentication required.\r\n", client.call("GET", "k"), "RESET logs out");
                assertTrue(client.call("HELLO", "3", "AUTH", "default", "s3cret", "SETNAME", "authed")
                    .startsWith("%7\r\n"));
                assertEquals("$6\r\nauthed\r\n", client.call("CLIENT", "GETNAME"));
            }
            RedisClient lettuce = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(server.port())
                .withPassword("s3cret".toCharArray()).withTimeout(Duration.ofSeconds(10)).build());
            try (StatefulRedisConnection<String, String> connection = lettuce.connect()) {
                assertEquals("OK", connection.sync().set("k", "v"));
                assertEquals("v", connection.sync().getdel("k"));
            } finally {
                lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
            RedisClient anonymous = RedisClient.create(RedisURI.create("127.0.0.1", server.port()));
            try {
                assertThrows(Exception.class, () -> {
                    try (StatefulRedisConnection<String, String> connection = anonymous.connect()) {
                        connection.sync().get("k");
                    }
                });
            } finally {
                anonymous.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void clientSubcommandsDescribeAndKillConnections(Target target) {
        try (RespClient client = RespClient.connect(port(target));
             RespClient victim = RespClient.connect(port(target))) {
            String id = client.call("CLIENT", "ID").substring(1).trim();
            assertEquals("+OK\r\n", client.call("CLIENT", "SETNAME", "inspector"));
            assertEquals("$9\r\ninspector\r\n", client.call("CLIENT", "GETNAME"));
            assertEquals("-ERR Client names cannot contain spaces, newlines or special characters.\r\n",
                client.call("CLIENT", "SETNAME", "a b"));
            String info = client.call("CLIENT", "INFO");
            assertTrue(info.contains("id=" + id + " ") && info.contains(" name=inspector ")
                && info.contains(" cmd=client|info "), info);
            String victimId = victim.call("CLIENT", "ID").substring(1).trim();
            String list = client.call("CLIENT", "LIST");
            assertTrue(list.contains("id=" + victimId + " ") && list.contains(" cmd=client|list "), list);
            assertTrue(client.call("CLIENT", "LIST", "ID", victimId).contains(" cmd=client|id "));
            assertEquals(":1\r\n", client.call("CLIENT", "KILL", "ID", victimId));
            assertTrue(victim.closedByServer(5000));
            assertEquals(":0\r\n", client.call("CLIENT", "KILL", "ID", victimId));
            assertEquals("-ERR wrong number of arguments for 'client|id' command\r\n", client.call("CLIENT", "ID", "x"));
            assertEquals("-ERR unknown subcommand 'NOPE'. Try CLIENT HELP.\r\n", client.call("CLIENT", "NOPE"));
        }
    }

    /** Checked against redis-server 7.0.15: a subscribed client, RESP2 or RESP3, is of type pubsub. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void clientListAndKillTypePubsubAreTheSubscribedClientsAndNormalTheOthers(Target target) {
        try (RespClient client = RespClient.connect(port(target));
             RespClient subscriber = RespClient.connect(port(target));
             RespClient resp3Subscriber = RespClient.connect(port(target))) {
            String id = client.call("CLIENT", "ID").substring(1).trim();
            String subscriberId = subscriber.call("CLIENT", "ID").substring(1).trim();
            String resp3SubscriberId = resp3Subscriber.call("CLIENT", "ID").substring(1).trim();
            subscriber.call("SUBSCRIBE", "conn:type");
            resp3Subscriber.call("HELLO", "3");
            resp3Subscriber.call("PSUBSCRIBE", "conn:type*");

            String pubsub = client.call("CLIENT", "LIST", "TYPE", "pubsub");
            assertTrue(pubsub.contains("id=" + subscriberId + " ") && pubsub.contains("id=" + resp3SubscriberId + " ")
                && !pubsub.contains("id=" + id + " "), pubsub);
            String normal = client.call("CLIENT", "LIST", "TYPE", "NORMAL");
            assertTrue(normal.contains("id=" + id + " ") && !normal.contains("id=" + subscriberId + " ")
                && !normal.contains("id=" + resp3SubscriberId + " "), normal);
            for (String type : List.of("master", "replica", "slave")) {
                assertEquals("$0\r\n\r\n", client.call("CLIENT", "LIST", "TYPE", type), type);
            }
            assertEquals("-ERR Unknown client type 'bogus'\r\n", client.call("CLIENT", "LIST", "TYPE", "bogus"));

            assertEquals(":0\r\n", client.call("CLIENT", "KILL", "TYPE", "normal", "ID", subscriberId));
            assertEquals(":0\r\n", client.call("CLIENT", "KILL", "TYPE", "slave", "ID", subscriberId));
            assertEquals(":0\r\n", client.call("CLIENT", "KILL", "TYPE", "pubsub", "ID", id, "SKIPME", "no"));
            assertEquals(":1\r\n", client.call("CLIENT", "KILL", "TYPE", "pubsub", "ID", subscriberId));
            assertTrue(subscriber.closedByServer(5000));
            assertEquals(":1\r\n", client.call("CLIENT", "KILL", "TYPE", "PubSub", "ID", resp3SubscriberId));
            assertTrue(resp3Subscriber.closedByServer(5000));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void lettucesHandshakeSucceedsInBothProtocols(Target target) {
        for (ProtocolVersion version : ProtocolVersion.values()) {
            RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(port(target))
                .withClientName("lettuce-" + version).withTimeout(Duration.ofSeconds(10)).build());
            client.setOptions(ClientOptions.builder().protocolVersion(version).build());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                assertEquals("PONG", connection.sync().ping());
                assertEquals("lettuce-" + version, connection.sync().clientGetname());
                assertTrue(connection.sync().clientInfo().contains("resp=" + (version == ProtocolVersion.RESP3 ? 3 : 2)));
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void selectChoosesDatabasesZeroToFifteen(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            assumeTrue(!client.call("COMMAND", "INFO", "select").equals("*1\r\n$-1\r\n"),
                "SELECT comes with the key family, not merged yet");
            for (int db = 0; db < 16; db++) {
                assertEquals("+OK\r\n", client.call("SELECT", Integer.toString(db)));
                assertEquals("+OK\r\n", client.call("SET", "conn:select", "db" + db));
            }
            for (int db = 0; db < 16; db++) {
                client.call("SELECT", Integer.toString(db));
                assertEquals("$" + ("db" + db).length() + "\r\ndb" + db + "\r\n", client.call("GETDEL", "conn:select"));
            }
            assertEquals("-ERR DB index is out of range\r\n", client.call("SELECT", "16"));
            assertEquals("-ERR DB index is out of range\r\n", client.call("SELECT", "-1"));
            assertEquals("-ERR value is not an integer or out of range\r\n", client.call("SELECT", "x"));
        }
        RedisClient lettuce = Servers.client(target);
        try (StatefulRedisConnection<String, String> connection = lettuce.connect()) {
            RedisCommandExecutionException e = assertThrows(RedisCommandExecutionException.class,
                () -> connection.sync().select(16));
            assertEquals("ERR DB index is out of range", e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void clientNoEvictSetsFlagEAsRedis70Does(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            assertEquals("+OK\r\n", client.call("CLIENT", "NO-EVICT", "on"));
            String info = client.call("CLIENT", "INFO");
            assertTrue(info.contains(" flags=e "), info);
            assertEquals("+OK\r\n", client.call("CLIENT", "NO-EVICT", "OFF"));
            info = client.call("CLIENT", "INFO");
            assertTrue(info.contains(" flags=N "), info);
            assertEquals("-ERR syntax error\r\n", client.call("CLIENT", "NO-EVICT", "maybe"));
            assertEquals("-ERR wrong number of arguments for 'client|no-evict' command\r\n",
                client.call("CLIENT", "NO-EVICT"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void clientReplyOffAndSkipDropRepliesAsRedisDoes(Target target) {
        try (RespClient client = RespClient.connect(port(target))) {
            client.send(RespClient.encode(RespClient.toBytes("CLIENT", "REPLY", "OFF")));
            client.send(RespClient.encode(RespClient.toBytes("SET", "cr:k", "1")));
            client.send(RespClient.encode(RespClient.toBytes("GET", "cr:k")));
            client.send(RespClient.encode(RespClient.toBytes("NOSUCHCOMMAND")));
            client.send(RespClient.encode(RespClient.toBytes("CLIENT", "REPLY", "SKIP")));
            assertEquals("+OK\r\n", client.call("CLIENT", "REPLY", "ON"));
            assertEquals("$1\r\n1\r\n", client.call("GET", "cr:k"));
            client.send(RespClient.encode(RespClient.toBytes("CLIENT", "REPLY", "SKIP")));
            client.send(RespClient.encode(RespClient.toBytes("INCR", "cr:k")));
            assertEquals("$1\r\n2\r\n", client.call("GET", "cr:k"));
            assertEquals("-ERR syntax error\r\n", client.call("CLIENT", "REPLY", "maybe"));
            assertEquals("-ERR wrong number of arguments for 'client|reply' command\r\n", client.call("CLIENT", "REPLY"));
            assertEquals(":1\r\n", client.call("DEL", "cr:k"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void clientPauseHoldsCommandsUntilUnpauseWithoutRefusingThem(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient pauser = RespClient.connect(server.port());
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("-ERR timeout is not an integer or out of range\r\n", pauser.call("CLIENT", "PAUSE", "x"));
            assertEquals("-ERR CLIENT PAUSE mode must be WRITE or ALL\r\n", pauser.call("CLIENT", "PAUSE", "10", "FOO"));
            assertEquals("-ERR timeout is negative\r\n", pauser.call("CLIENT", "PAUSE", "-1"));
            assertEquals("-ERR unknown subcommand or wrong number of arguments for 'PAUSE'. Try CLIENT HELP.\r\n",
                pauser.call("CLIENT", "PAUSE", "10", "write", "extra"));

            assertEquals("+OK\r\n", pauser.call("CLIENT", "PAUSE", "60000", "WRITE"));
            assertEquals("$-1\r\n", client.call("GET", "cp:k"));
            client.send(RespClient.encode(RespClient.toBytes("SET", "cp:k", "1")));
            client.send(RespClient.encode(RespClient.toBytes("GET", "cp:k")));
            assertEquals("$-1\r\n", pauser.call("GET", "cp:k"));
            assertEquals("+OK\r\n", pauser.call("CLIENT", "UNPAUSE"));
            assertEquals("+OK\r\n", client.readReplyText());
            assertEquals("$1\r\n1\r\n", client.readReplyText());

            assertEquals("+OK\r\n", pauser.call("CLIENT", "PAUSE", "300", "ALL"));
            client.send(RespClient.encode(RespClient.toBytes("GET", "cp:k")));
            pauser.send(RespClient.encode(RespClient.toBytes("CLIENT", "UNPAUSE")));
            assertEquals("$1\r\n1\r\n", client.readReplyText());
            assertEquals("+OK\r\n", pauser.readReplyText());
        }
    }

    /**
     * An UNPAUSE that lands while a write is being postponed (after its pause check, before it is
     * held) still lets it go at once, not when the pause's time would have run out: each round
     * pauses for a minute and unpauses right after sending the write, so a lost wake-up shows as a
     * write answered only after the reply timeout.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void anUnpauseRacingAPostponedWriteLetsItGoAtOnce(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient pauser = RespClient.connect(server.port());
             RespClient client = RespClient.connect(server.port())) {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            for (int round = 0; round < 300 && System.nanoTime() < deadline; round++) {
                assertEquals("+OK\r\n", pauser.call("CLIENT", "PAUSE", "60000", "WRITE"));
                client.send(RespClient.encode(RespClient.toBytes("SET", "race:k", Integer.toString(round))));
                assertEquals("+OK\r\n", pauser.call("CLIENT", "UNPAUSE"));
                assertEquals("+OK\r\n", client.readReplyText(), "round " + round);
            }
        }
    }
}
