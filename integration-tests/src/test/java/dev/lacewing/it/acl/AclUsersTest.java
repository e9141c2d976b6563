package dev.lacewing.it.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;

/**
 * ACL users with real clients on every engine x transport: lettuce's AUTH with a username from
 * RedisURI, Jedis's {@code auth(user, pass)}, redis-cli's {@code --user --pass}; clients closed
 * when their user is deleted or loses the channels they subscribed to; {@code requirepass} as the
 * default user's password; {@code user} directives; an ACL file saved and loaded back, one written
 * as Redis's docs write them, and the refusal of both at once. Each test has a server of its own.
 */
class AclUsersTest {

    private static final String ALICE = "alice";
    private static final String PASSWORD = "s3cret";

    private static LacewingServer withAlice(Target target) {
        LacewingServer server = Servers.builder(target).set("user", ALICE + " on >" + PASSWORD + " ~a:* +@all").start();
        return server;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void lettuceAuthenticatesWithAUsernameFromTheUri(Target target) {
        try (LacewingServer server = withAlice(target)) {
            RedisURI uri = RedisURI.builder().withHost("127.0.0.1").withPort(server.port())
                .withAuthentication(ALICE, PASSWORD.toCharArray()).withTimeout(Duration.ofSeconds(10)).build();
            RedisClient client = RedisClient.create(uri);
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                assertEquals(ALICE, connection.sync().aclWhoami());
                assertEquals("OK", connection.sync().set("a:1", "v"));
                Exception refused = assertThrows(Exception.class, () -> connection.sync().set("b:1", "v"));
                assertEquals("NOPERM this user has no permissions to access one of the keys used as arguments",
                    refused.getMessage());
            } finally {
                client.shutdown(0, 5, TimeUnit.SECONDS);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void jedisAuthenticatesAsAUser(Target target) {
        try (LacewingServer server = withAlice(target);
             Jedis jedis = new Jedis("127.0.0.1", server.port(), DefaultJedisClientConfig.builder()
                 .socketTimeoutMillis(10_000).build())) {
            assertEquals("OK", jedis.auth(ALICE, PASSWORD));
            assertEquals(ALICE, jedis.aclWhoAmI());
            assertThrows(Exception.class, () -> jedis.auth(ALICE, "wrong"));
            assertEquals(ALICE, jedis.aclWhoAmI());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void redisCliLogsInWithUserAndPass(Target target) throws Exception {
        try (LacewingServer server = withAlice(target)) {
            assertEquals(ALICE, redisCli(server.port(), "--user", ALICE, "--pass", PASSWORD, "ACL", "WHOAMI"));
            assertTrue(redisCli(server.port(), "--user", ALICE, "--pass", "wrong", "ACL", "WHOAMI")
                .contains("WRONGPASS"));
        }
    }

    private static String redisCli(int port, String... arguments) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port),
            "--no-auth-warning"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), "redis-cli did not finish");
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void deletingAUserClosesItsClientsAndTheCallersAfterTheReply(Target target) {
        try (LacewingServer server = withAlice(target);
             RespClient alice = RespClient.connect(server.port());
             RespClient self = RespClient.connect(server.port());
             RespClient admin = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", alice.call("AUTH", ALICE, PASSWORD));
            assertEquals("+OK\r\n", admin.call("ACL", "SETUSER", "admin", "on", ">x", "+@all", "~*"));
            assertEquals("+OK\r\n", self.call("AUTH", "admin", "x"));
            assertEquals(":1\r\n", admin.call("ACL", "DELUSER", ALICE));
            assertTrue(alice.closedByServer(5000), "alice's client is closed");
            assertEquals(":1\r\n", self.call("ACL", "DELUSER", "admin"));
            assertTrue(self.closedByServer(5000), "the deleted user's own client is closed after its reply");
            assertEquals("$7\r\ndefault\r\n", admin.call("ACL", "WHOAMI"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void losingChannelsClosesTheUsersSubscribers(Target target) {
        try (LacewingServer server = withAlice(target);
             RespClient subscriber = RespClient.connect(server.port());
             RespClient admin = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", admin.call("ACL", "SETUSER", ALICE, "resetchannels", "&news"));
            assertEquals("+OK\r\n", subscriber.call("AUTH", ALICE, PASSWORD));
            assertTrue(subscriber.call("SUBSCRIBE", "news").contains("subscribe"));
            assertEquals("+OK\r\n", admin.call("ACL", "SETUSER", ALICE, "&more"));
            assertTrue(!subscriber.closedByServer(300), "adding a channel keeps the subscriber");
            assertEquals("+OK\r\n", admin.call("ACL", "SETUSER", ALICE, "resetchannels", "&more"));
            assertTrue(subscriber.closedByServer(5000), "the subscriber of a channel taken away is closed");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void requirepassIsTheDefaultUsersPassword(Target target) {
        try (LacewingServer server = Servers.builder(target).set("requirepass", "pw").start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("-NOAUTH Authentication required.\r\n", client.call("GET", "x"));
            assertEquals("+OK\r\n", client.call("AUTH", "default", "pw"));
            String user = client.call("ACL", "GETUSER", "default");
            assertTrue(user.contains("$64\r\n"), user);
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "requirepass", ""));
            assertTrue(client.call("ACL", "LIST").contains("user default on nopass ~* &* +@all"));
            try (RespClient other = RespClient.connect(server.port())) {
                assertEquals("$-1\r\n", other.call("GET", "x"));
                assertEquals("+OK\r\n", client.call("CONFIG", "SET", "requirepass", "new"));
                assertEquals("-WRONGPASS invalid username-password pair or user is disabled.\r\n",
                    other.call("AUTH", "pw"));
                assertEquals("+OK\r\n", other.call("AUTH", "new"));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void anAclFileIsSavedAndLoadedBack(Target target) throws IOException {
        Path file = Servers.freshDirectory().resolve("users.acl");
        Files.writeString(file, "");
        try (LacewingServer server = Servers.builder(target).set("aclfile", file.toString()).start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("ACL", "SETUSER", "bob", "on", ">pw", "~b:*", "%R~r:*", "&ch",
                "+@read", "-keys", "(~c:* +set)"));
            String listed = client.call("ACL", "LIST");
            assertEquals("+OK\r\n", client.call("ACL", "SAVE"));
            assertEquals(List.of("user bob on #" + sha256("pw") + " ~b:* %R~r:* resetchannels &ch -@all +@read -keys"
                    + " (~c:* resetchannels -@all +set)", "user default on nopass ~* &* +@all"),
                Files.readAllLines(file));
            assertEquals(":1\r\n", client.call("ACL", "DELUSER", "bob"));
            assertEquals("+OK\r\n", client.call("ACL", "LOAD"));
            assertEquals(listed, client.call("ACL", "LIST"));
            Files.writeString(file, "user bob on nosuchrule\n");
            assertEquals("-ERR " + file + ":1: Syntax error. WARNING: ACL errors detected, no change to the "
                + "previously active ACL rules was performed\r\n", client.call("ACL", "LOAD"));
            assertEquals(listed, client.call("ACL", "LIST"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void anAclFileAsRedisDocumentsItLoadsAtStart(Target target) throws IOException {
        Path file = Servers.freshDirectory().resolve("users.acl");
        Files.writeString(file, """
            user default on nopass ~* &* +@all
            user worker on #%s ~jobs:* &jobs:* -@all +@list +@connection -blpop
            user reader on >readpw %%R~* -@all +@read +@connection

            user antirez on >a1 >a2 allkeys allchannels allcommands -debug
            """.formatted(sha256("workerpw")));
        try (LacewingServer server = Servers.builder(target).set("aclfile", file.toString()).start();
             RespClient client = RespClient.connect(server.port())) {
            assertEquals("*4\r\n$7\r\nantirez\r\n$7\r\ndefault\r\n$6\r\nreader\r\n$6\r\nworker\r\n",
                client.call("ACL", "USERS"));
            assertEquals("+OK\r\n", client.call("AUTH", "worker", "workerpw"));
            assertEquals(":1\r\n", client.call("LPUSH", "jobs:1", "x"));
            assertEquals("-NOPERM this user has no permissions to run the 'blpop' command\r\n",
                client.call("BLPOP", "jobs:1", "1"));
            assertEquals("+OK\r\n", client.call("AUTH", "reader", "readpw"));
            assertEquals("*1\r\n$1\r\nx\r\n", client.call("LRANGE", "jobs:1", "0", "-1"));
            assertEquals("-NOPERM this user has no permissions to run the 'lpush' command\r\n",
                client.call("LPUSH", "jobs:1", "y"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void userDirectivesAndAnAclFileTogetherAreRefused(Target target) throws IOException {
        Path file = Servers.freshDirectory().resolve("users.acl");
        Files.writeString(file, "");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Servers.builder(target)
            .set("aclfile", file.toString()).set("user", "bob on nopass").start().close());
        assertTrue(refused.getMessage().contains("please define either an ACL file or declare users directly in "
            + "your redis.conf, but not both"), refused.getMessage());
    }

    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
