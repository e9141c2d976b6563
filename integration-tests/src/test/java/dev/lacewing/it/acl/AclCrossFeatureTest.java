package dev.lacewing.it.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.config.ConfigSource;
import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.reference.ReferenceRedis;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where ACL meets the other features, on every engine and transport: the AOF's replay at start-up
 * (Redis's fake client is unrestricted), CONFIG REWRITE of users next to AOF settings (the rewritten
 * file restarts the server into the same state).
 */
class AclCrossFeatureTest {

    private static LacewingServer startFrom(Target target, Path file) throws IOException {
        LacewingServer.Builder builder = Servers.builder(target);
        ConfigSource.fromFile(file).forEach(entry -> builder.set(entry.name(), entry.value()));
        return builder.configFile(file).start();
    }

    /** CONFIG GET * as name -> value, less the port (each start listens on an ephemeral one). */
    private static Map<String, String> settings(RespClient client) {
        List<String> pairs = RespClient.elements(client.call("CONFIG", "GET", "*"));
        Map<String, String> settings = new TreeMap<>();
        for (int i = 0; i < pairs.size(); i += 2) {
            settings.put(pairs.get(i), pairs.get(i + 1));
        }
        settings.remove("$4\r\nport\r\n");
        return settings;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void configRewriteRestartsIntoTheSameUsersAndAofSettings(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        Path file = dir.resolve("lacewing.conf");
        Files.writeString(file, String.join("\n",
            "dir " + dir,
            "appendonly yes",
            "appendfsync always",
            "user alice on >secret ~a* %R~r* &ch* +@read -debug",
            "user default on nopass ~* &* +@all",
            ""));
        String users;
        Map<String, String> settings;
        try (LacewingServer server = startFrom(target, file); RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("ACL", "SETUSER", "bob", "on", ">pw", "~b*", "(+get ~x*)",
                "resetchannels", "&news"));
            assertEquals("+OK\r\n", client.call("SET", "kept", "1"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "appendfsync", "everysec"));
            assertEquals("+OK\r\n", client.call("CONFIG", "SET", "requirepass", "topsecret"));
            assertEquals("+OK\r\n", client.call("CONFIG", "REWRITE"));
            users = client.call("ACL", "LIST");
            settings = settings(client);
        }
        try (LacewingServer server = startFrom(target, file); RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("AUTH", "topsecret"));
            assertEquals(users, client.call("ACL", "LIST"));
            assertEquals(settings, settings(client));
            assertEquals("$1\r\n1\r\n", client.call("GET", "kept"));
        }
    }

    /** An aclfile holds the users: CONFIG REWRITE writes none into the config file, as Redis. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void configRewriteWritesNoUsersWhenAnAclFileHoldsThem(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        Path file = dir.resolve("lacewing.conf");
        Path aclFile = dir.resolve("users.acl");
        Files.writeString(aclFile, "user default on nopass ~* &* +@all\n");
        Files.writeString(file, "dir " + dir + "\naclfile " + aclFile + "\n");
        try (LacewingServer server = startFrom(target, file); RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("ACL", "SETUSER", "bob", "on", ">pw", "~b*"));
            assertEquals("+OK\r\n", client.call("CONFIG", "REWRITE"));
        }
        String rewritten = Files.readString(file);
        assertTrue(rewritten.lines().noneMatch(line -> line.startsWith("user ")), rewritten);
    }

    /** Start-up replays the AOF unrestricted, whatever the default user may do or whether it is on. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aofReplayIsNotRefusedByTheDefaultUsersRules(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = Servers.builder(target).set("dir", dir.toString()).set("appendonly", "yes")
            .set("appendfsync", "always").start(); RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("SET", "x", "1"));
            assertEquals(":2\r\n", client.call("RPUSH", "list", "a", "b"));
            assertEquals(":1\r\n", client.call("EVAL", "return redis.call('incr', KEYS[1])", "1", "counter"));
        }
        for (String defaultUser : List.of("default on nopass ~x* +get", "default off", "default on >pw ~* +@all")) {
            try (LacewingServer server = Servers.builder(target).set("dir", dir.toString()).set("appendonly", "yes")
                .set("user", defaultUser).set("user", "admin on >admin ~* +@all").start();
                 RespClient client = RespClient.connect(server.port())) {
                assertEquals("+OK\r\n", client.call("AUTH", "admin", "admin"));
                assertEquals(":3\r\n", client.call("DBSIZE"), defaultUser);
                assertEquals("*2\r\n$1\r\na\r\n$1\r\nb\r\n", client.call("LRANGE", "list", "0", "-1"));
            }
        }
    }

    /** ACL SETUSER and DELUSER change no key: Redis propagates neither to the AOF. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aclCommandsAreNotWrittenToTheAof(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        try (LacewingServer server = Servers.builder(target).set("dir", dir.toString()).set("appendonly", "yes")
            .set("appendfsync", "always").start(); RespClient client = RespClient.connect(server.port())) {
            assertEquals("+OK\r\n", client.call("ACL", "SETUSER", "bob", "on", ">pw", "~*", "+@all"));
            assertEquals(":1\r\n", client.call("ACL", "DELUSER", "bob"));
            assertEquals("+OK\r\n", client.call("SET", "after", "1"));
        }
        StringBuilder text = new StringBuilder();
        try (var files = Files.list(dir.resolve("appendonlydir"))) {
            for (Path aof : files.filter(path -> path.toString().endsWith(".aof")).toList()) {
                text.append(Files.readString(aof, StandardCharsets.ISO_8859_1));
            }
        }
        assertTrue(text.toString().contains("after"), text.toString());
        assertTrue(!text.toString().toLowerCase(java.util.Locale.ROOT).contains("setuser"), text.toString());
    }

    /**
     * A config file's "user default" line resets the default user first (Redis's
     * ACLLoadConfiguredUsers), which sets sanitize-payload; another user's line starts from a new user.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aConfiguredDefaultUserIsResetFirstAsInRedis(Target target) throws Exception {
        String expected;
        try (ReferenceRedis redis = ReferenceRedis.start("--user", "default", "on", "nopass", "~*", "&*", "+@all",
            "--user", "alice", "on", "nopass", "~a*", "+get"); RespClient client = RespClient.connect(redis.port())) {
            expected = client.call("ACL", "LIST");
        }
        try (LacewingServer server = Servers.builder(target).set("user", "default on nopass ~* &* +@all")
            .set("user", "alice on nopass ~a* +get").start(); RespClient client = RespClient.connect(server.port())) {
            assertEquals(expected, client.call("ACL", "LIST"));
        }
    }
}
