package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.core.server.LacewingServer;
import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.AggregateReaderFixture;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A command plugin written against the api alone ({@link AggregateReaderFixture}) reads the hashes,
 * sets, sorted sets and lists core's commands store, in their small and large encodings, through
 * {@code Keyspace.aggregate} and the api's views, and gets Redis's WRONGTYPE for a key of another type.
 */
class PluginAggregateReadTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aPluginOnTheApiAloneReadsHashesSetsSortedSetsAndListsAndGetsWrongType(Target target) {
        try (LacewingServer server = Servers.builder(target).start();
             RespClient client = RespClient.connect(server.port())) {
            server.state().addCommands(new AggregateReaderFixture());
            client.call("HSET", "h", "f1", "v1", "f2", "v2");
            List<Object> hash = read(client, "TEST.HREAD", "h", "f2");
            assertEquals(List.of("2", "v2"), hash.subList(0, 2));
            assertEquals(pairs(RespClient.parse(client.call("HGETALL", "h"))), hash.subList(2, hash.size()));
            assertEquals("nil", read(client, "TEST.HREAD", "h", "f3").get(1));

            client.call("SADD", "s", "1", "2", "3");
            client.call("SADD", "sw", "a", "b");
            List<Object> intset = read(client, "TEST.SREAD", "s", "2");
            assertEquals(List.of("3", "true"), intset.subList(0, 2));
            assertEquals(new HashSet<>(list(RespClient.parse(client.call("SMEMBERS", "s")))),
                new HashSet<>(intset.subList(2, intset.size())));
            assertEquals(List.of("2", "false", "a", "b"), sorted(read(client, "TEST.SREAD", "sw", "c"), 2));

            client.call("ZADD", "z", "2", "b", "1", "a", "2", "c");
            assertEquals(List.of("3", "2.0", "1", "a=1.0", "b=2.0", "c=2.0"), read(client, "TEST.ZREAD", "z", "b"));
            assertEquals(List.of("NaN", "-1"), read(client, "TEST.ZREAD", "z", "d").subList(1, 3));

            client.call("RPUSH", "l", "x", "y", "z");
            assertEquals(List.of("3", "y", "x", "y", "z"), read(client, "TEST.LREAD", "l", "1"));

            // The large encodings: hashtable, skiplist, a quicklist of several nodes.
            List<String> fields = new ArrayList<>(List.of("HSET", "bigh"));
            List<String> members = new ArrayList<>(List.of("ZADD", "bigz"));
            List<String> elements = new ArrayList<>(List.of("RPUSH", "bigl"));
            for (int i = 0; i < 600; i++) {
                fields.addAll(List.of("field" + i, "value" + i));
                members.addAll(List.of(String.valueOf(i), "member" + i));
                elements.add("element" + i + "-".repeat(40));
            }
            client.call(fields.toArray(String[]::new));
            client.call(members.toArray(String[]::new));
            client.call(elements.toArray(String[]::new));
            assertEquals("$9\r\nhashtable\r\n", client.call("OBJECT", "ENCODING", "bigh"));
            assertEquals("$8\r\nskiplist\r\n", client.call("OBJECT", "ENCODING", "bigz"));
            assertEquals(List.of("600", "value123"), read(client, "TEST.HREAD", "bigh", "field123").subList(0, 2));
            assertEquals(List.of("600", "123.0", "123"), read(client, "TEST.ZREAD", "bigz", "member123").subList(0, 3));
            List<Object> list = read(client, "TEST.LREAD", "bigl", "599");
            String padding = "-".repeat(40);
            assertEquals(List.of("600", "element599" + padding, "element0" + padding), list.subList(0, 3));
            assertEquals(602, list.size());

            assertEquals("*0\r\n", client.call("TEST.HREAD", "missing", "f"));
            client.call("SET", "str", "v");
            String wrongType = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
            assertEquals(wrongType, client.call("TEST.HREAD", "str", "f"));
            assertEquals(wrongType, client.call("TEST.SREAD", "h", "f"));
            assertEquals(wrongType, client.call("TEST.ZREAD", "l", "f"));
            assertEquals(wrongType, client.call("TEST.LREAD", "z", "0"));
            assertEquals("+PONG\r\n", client.call("PING"), "the connection goes on");
        }
    }

    private static List<Object> read(RespClient client, String... command) {
        return list(RespClient.parse(client.call(command)));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object reply) {
        return (List<Object>) reply;
    }

    /** HGETALL's flat reply as field=value lines. */
    private static List<Object> pairs(Object reply) {
        List<Object> flat = list(reply);
        List<Object> pairs = new ArrayList<>();
        for (int i = 0; i < flat.size(); i += 2) {
            pairs.add(flat.get(i) + "=" + flat.get(i + 1));
        }
        return pairs;
    }

    /** The reply with its elements from {@code from} on sorted (a set's order is its own). */
    private static List<Object> sorted(List<Object> reply, int from) {
        List<Object> tail = new ArrayList<>(reply.subList(from, reply.size()));
        tail.sort((a, b) -> ((String) a).compareTo((String) b));
        List<Object> result = new ArrayList<>(reply.subList(0, from));
        result.addAll(tail);
        return result;
    }
}
