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
 * Scripts' and functions' commands are entries of their own, from the script client "?:0".
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

    /** Scripts and functions: each command they run that reaches call() is logged, before the script's entry. */
    private static final List<List<String>> SCRIPTS = List.of(
        List.of("CONFIG", "SET", "slowlog-log-slower-than", "0"),
        List.of("SLOWLOG", "RESET"),
        List.of("CLIENT", "SETNAME", "ref"),
        List.of("EVAL", "redis.call('set',KEYS[1],ARGV[1]) return redis.call('get',KEYS[1])", "1", "{r}a", "v"),
        List.of("EVALSHA", "11d0e1a7e31eed4b48b2f3da22d294cb0647766b", "1", "{r}a", "w"),
        List.of("EVAL", "return redis.pcall('incr',KEYS[1])", "1", "{r}a"),
        List.of("EVAL", "return redis.call('nosuch')", "0"),
        List.of("EVAL", "return redis.call('get')", "0"),
        List.of("EVAL_RO", "return redis.call('set',KEYS[1],'x')", "1", "{r}a"),
        List.of("EVAL", "return redis.call('set',KEYS[1],string.rep('x',300))", "1", "{r}a"),
        List.of("EVAL", "local n = 0 for i = 1, 40 do n = n + redis.call('incr',KEYS[1]) end return n", "1", "{r}n"),
        List.of("MULTI"),
        List.of("EVAL", "return redis.call('incr',KEYS[1])", "1", "{r}n"),
        List.of("GET", "{r}n"),
        List.of("EXEC"),
        // Declares one key, later reaches another: a rerun over the whole keyspace on Lacewing, one run in Redis.
        List.of("EVAL", "redis.call('get',KEYS[1]) if ARGV[1] == '1' then return redis.call('get','{r}b') end return 1",
            "1", "{r}a", "0"),
        List.of("EVAL", "redis.call('get',KEYS[1]) if ARGV[1] == '1' then return redis.call('get','{r}b') end return 1",
            "1", "{r}a", "0"),
        List.of("EVAL", "redis.call('get',KEYS[1]) if ARGV[1] == '1' then return redis.call('get','{r}b') end return 1",
            "1", "{r}a", "1"),
        List.of("FUNCTION", "LOAD", "#!lua name=slowlib\nredis.register_function('slowf', "
            + "function(keys, args) return redis.call('incr', keys[1]) end)"),
        List.of("FCALL", "slowf", "1", "{r}n"),
        List.of("FUNCTION", "DELETE", "slowlib"),
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

    /**
     * With slowlog-max-len 3, a script that runs five commands leaves its last two and its own entry;
     * the ids of the entries pushed and trimmed at once are used all the same, as in Redis.
     */
    private static List<Object> observedScripts(int port) {
        try (RespClient client = RespClient.connect(port)) {
            for (List<String> command : SCRIPTS) {
                client.call(command.toArray(String[]::new));
            }
            List<Object> observed = new ArrayList<>(masked(RespClient.parse(client.call("SLOWLOG", "GET", "-1"))));
            client.call("CONFIG", "SET", "slowlog-max-len", "3");
            client.call("PING");
            long before = firstId(client.call("SLOWLOG", "GET", "1"));
            client.call("EVAL", "for i = 1, 5 do redis.call('incr',KEYS[1]) end return 1", "1", "{r}n");
            String trimmed = client.call("SLOWLOG", "GET", "-1");
            observed.add(firstId(trimmed) - before);
            observed.add(masked(RespClient.parse(trimmed)));
            client.call("DEL", "{r}n");
            client.call("CONFIG", "SET", "slowlog-max-len", "128");
            client.call("CONFIG", "SET", "slowlog-log-slower-than", "10000");
            return observed;
        }
    }

    @SuppressWarnings("unchecked")
    private static long firstId(String reply) {
        return (Long) ((List<Object>) ((List<Object>) RespClient.parse(reply)).get(0)).get(0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void scriptsCommandsAreEntriesOfTheirOwnAsInRedis(Target target) {
        try (LacewingServer server = Servers.builder(target).start()) {
            assertEquals(observedScripts(redis.port()), observedScripts(server.port()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void entriesMatchRedis(Target target) {
        try (LacewingServer server = Servers.builder(target).start()) {
            assertEquals(observed(redis.port()), observed(server.port()));
        }
    }
}
