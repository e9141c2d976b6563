package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SLOWLOG GET's entries against redis-server 7.0 after the same commands, with every command
 * logged: the shape of each entry, the arguments as logged (trimmed, redacted, MULTI's commands,
 * no EXEC) and the client name; ids, times, durations and ports differ by nature and are masked.
 */
class SlowLogReferenceTest {

    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    private static final List<List<String>> COMMANDS = List.of(
        List.of("CONFIG", "SET", "slowlog-log-slower-than", "0"),
        List.of("SLOWLOG", "RESET"),
        List.of("CLIENT", "SETNAME", "ref"),
        List.of("SET", "{r}a", "x".repeat(300)),
        List.of("GET", "{r}a"),
        List.of("AUTH", "someone", "wrong"),
        List.of("ACL", "SETUSER", "{r}user", "on", ">secret", "~*"),
        List.of("ACL", "DELUSER", "{r}user"),
        List.of("HELLO", "3", "AUTH", "default", "x", "SETNAME", "ref2"),
        List.of("HELLO", "2"),
        List.of("MULTI"),
        List.of("INCR", "{r}n"),
        List.of("NOSUCH"),
        List.of("DISCARD"),
        List.of("MULTI"),
        List.of("INCR", "{r}n"),
        List.of("LPUSH", "{r}n", "x"),
        List.of("EXEC"),
        List.of("DEL", "{r}a", "{r}n"));

    private static List<Object> observed(int port) {
        try (RespClient client = RespClient.connect(port)) {
            for (List<String> command : COMMANDS) {
                client.call(command.toArray(String[]::new));
            }
            List<String> many = new ArrayList<>(List.of("DEL"));
            for (int i = 0; i < 40; i++) {
                many.add("{r}" + i);
            }
            client.call(many.toArray(String[]::new));
            String reply = client.call("SLOWLOG", "GET", "-1");
            client.call("CONFIG", "SET", "slowlog-log-slower-than", "10000");
            return masked(RespClient.parse(reply));
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object> masked(Object reply) {
        List<Object> entries = new ArrayList<>();
        for (Object value : (List<Object>) reply) {
            List<Object> entry = new ArrayList<>((List<Object>) value);
            entry.set(0, entry.get(0) instanceof Long ? "id" : entry.get(0));
            entry.set(1, entry.get(1) instanceof Long ? "time" : entry.get(1));
            entry.set(2, entry.get(2) instanceof Long ? "micros" : entry.get(2));
            entry.set(4, ((String) entry.get(4)).replaceAll(":\\d+$", ":port"));
            entries.add(entry);
        }
        return entries;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void entriesMatchRedis(Target target) {
        try (LacewingServer server = Servers.builder(target).start()) {
            assertEquals(observed(redis.port()), observed(server.port()));
        }
    }
}
