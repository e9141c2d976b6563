package dev.lacewing.core.command.hash;

import static dev.lacewing.core.command.FakeCommandContext.bulk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.command.FakeCommandContext;
import dev.lacewing.core.command.generic.KeyCommands;
import dev.lacewing.core.command.string.StringCommands;
import dev.lacewing.core.datatype.TypedValue;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The hash family against replies recorded from Redis 7.0.15 for the same commands. */
class HashCommandsTest {

    private static final String NIL = "$-1\r\n";
    private static final String WRONG_TYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";

    private final FakeCommandContext ctx = new FakeCommandContext(HashCommands::register, StringCommands::register,
        KeyCommands::register);

    /** What OBJECT ENCODING replies for a key (OBJECT itself belongs to another family). */
    private String encoding(String key) {
        return ((TypedValue) ctx.keyspace().get(FakeCommandContext.bytes(key))).encoding();
    }

    @Test
    void hsetCountsNewFieldsAndKeepsInsertionOrderInAListpack() {
        assertEquals(":2\r\n", ctx.call("HSET", "h", "a", "1", "b", "2"));
        assertEquals(":1\r\n", ctx.call("HSET", "h", "a", "x", "c", "3"));
        assertEquals(List.of("a", "x", "b", "2", "c", "3"), ctx.reply("HGETALL", "h"));
        assertEquals(List.of("a", "b", "c"), ctx.reply("HKEYS", "h"));
        assertEquals(List.of("x", "2", "3"), ctx.reply("HVALS", "h"));
        assertEquals("listpack", encoding("h"));
        assertEquals("-ERR wrong number of arguments for 'hset' command\r\n", ctx.call("HSET", "h", "a", "1", "b"));
        assertEquals("-ERR wrong number of arguments for 'hmset' command\r\n", ctx.call("HMSET", "h", "a", "1", "b"));
        assertEquals("+OK\r\n", ctx.call("HMSET", "h", "d", "4"));
    }

    @Test
    void readsOfMissingKeysAndFields() {
        ctx.call("HSET", "h", "f", "value");
        assertEquals(NIL, ctx.call("HGET", "h", "nope"));
        assertEquals(bulk("value"), ctx.call("HGET", "h", "f"));
        assertEquals("*2\r\n$5\r\nvalue\r\n$-1\r\n", ctx.call("HMGET", "h", "f", "g"));
        assertEquals("*1\r\n$-1\r\n", ctx.call("HMGET", "nokey", "f"));
        assertEquals(":5\r\n", ctx.call("HSTRLEN", "h", "f"));
        assertEquals(":0\r\n", ctx.call("HSTRLEN", "h", "g"));
        assertEquals(":1\r\n", ctx.call("HEXISTS", "h", "f"));
        assertEquals(":0\r\n", ctx.call("HEXISTS", "nokey", "f"));
        assertEquals(":0\r\n", ctx.call("HLEN", "nokey"));
        assertEquals("*0\r\n", ctx.call("HGETALL", "nokey"));
    }

    @Test
    void hdelRemovesTheKeyWithItsLastField() {
        ctx.call("HSET", "h", "a", "1", "b", "2");
        assertEquals(":2\r\n", ctx.call("HDEL", "h", "a", "zz", "b", "a"));
        assertEquals(":0\r\n", ctx.call("EXISTS", "h"));
        assertEquals(":0\r\n", ctx.call("HDEL", "h", "a"));
    }

    @Test
    void hsetnxSetsOnlyANewField() {
        assertEquals(":1\r\n", ctx.call("HSETNX", "h", "f", "1"));
        assertEquals(":0\r\n", ctx.call("HSETNX", "h", "f", "2"));
        assertEquals(bulk("1"), ctx.call("HGET", "h", "f"));
    }

    @Test
    void everyCommandRefusesAKeyOfAnotherType() {
        ctx.call("SET", "s", "v");
        for (List<String> command : List.of(List.of("HSET", "s", "f", "v"), List.of("HGET", "s", "f"),
            List.of("HMGET", "s", "f"), List.of("HDEL", "s", "f"), List.of("HLEN", "s"), List.of("HGETALL", "s"),
            List.of("HINCRBY", "s", "f", "1"), List.of("HINCRBYFLOAT", "s", "f", "1"), List.of("HRANDFIELD", "s"),
            List.of("HSCAN", "s", "0"), List.of("HSETNX", "s", "f", "v"), List.of("HSTRLEN", "s", "f"))) {
            assertEquals(WRONG_TYPE, ctx.call(command.toArray(String[]::new)), command.toString());
        }
    }

    @Test
    void hincrbyChecksTheIncrementTheStoredValueAndOverflow() {
        assertEquals(":5\r\n", ctx.call("HINCRBY", "h", "n", "5"));
        assertEquals(":-2\r\n", ctx.call("HINCRBY", "h", "n", "-7"));
        assertEquals("-ERR value is not an integer or out of range\r\n", ctx.call("HINCRBY", "h", "n", "x"));
        ctx.call("HSET", "h", "s", "abc", "max", "9223372036854775807");
        assertEquals("-ERR hash value is not an integer\r\n", ctx.call("HINCRBY", "h", "s", "1"));
        assertEquals("-ERR increment or decrement would overflow\r\n", ctx.call("HINCRBY", "h", "max", "1"));
    }

    @Test
    void hincrbyfloatUsesLongDoublesAndRedisErrors() {
        assertEquals(bulk("10.5"), ctx.call("HINCRBYFLOAT", "h", "d", "10.5"));
        assertEquals(bulk("10.6"), ctx.call("HINCRBYFLOAT", "h", "d", "0.1"));
        assertEquals("-ERR value is not a valid float\r\n", ctx.call("HINCRBYFLOAT", "h", "d", "x"));
        assertEquals("-ERR value is NaN or Infinity\r\n", ctx.call("HINCRBYFLOAT", "h", "d", "inf"));
        ctx.call("HSET", "h", "s", "abc", "i", "inf");
        assertEquals("-ERR hash value is not a float\r\n", ctx.call("HINCRBYFLOAT", "h", "s", "1"));
        assertEquals("-ERR increment would produce NaN or Infinity\r\n", ctx.call("HINCRBYFLOAT", "h", "i", "1"));
    }

    @Test
    void theListpackBecomesAHashtablePastEitherLimitAndNeverReturns() {
        ctx.setting("hash-max-listpack-entries", "3");
        ctx.setting("hash-max-listpack-value", "8");
        ctx.call("HSET", "h", "a", "1", "b", "2", "c", "3");
        assertEquals("listpack", encoding("h"));
        ctx.call("HSET", "h", "d", "4");
        assertEquals("hashtable", encoding("h"));
        ctx.call("HDEL", "h", "a", "b", "c");
        assertEquals("hashtable", encoding("h"));
        assertEquals(bulk("4"), ctx.call("HGET", "h", "d"));
        ctx.call("HSET", "long", "f", "123456789");
        assertEquals("hashtable", encoding("long"));
        ctx.call("HSET", "field", "123456789", "v");
        assertEquals("hashtable", encoding("field"));
    }

    @Test
    void hrandfieldCountsAndErrors() {
        ctx.call("HSET", "h", "a", "1", "b", "2", "c", "3");
        assertEquals(List.of("a", "1", "b", "2", "c", "3"), ctx.reply("HRANDFIELD", "h", "5", "WITHVALUES"));
        assertEquals(5, ((List<?>) ctx.reply("HRANDFIELD", "h", "-5")).size());
        assertEquals(10, ((List<?>) ctx.reply("HRANDFIELD", "h", "-5", "WITHVALUES")).size());
        List<?> two = (List<?>) ctx.reply("HRANDFIELD", "h", "2");
        assertEquals(2, new HashSet<>(two).size());
        assertTrue(Set.of("a", "b", "c").contains(ctx.reply("HRANDFIELD", "h")));
        assertEquals(NIL, ctx.call("HRANDFIELD", "nokey"));
        assertEquals("*0\r\n", ctx.call("HRANDFIELD", "nokey", "3"));
        assertEquals("*0\r\n", ctx.call("HRANDFIELD", "h", "0"));
        assertEquals("-ERR syntax error\r\n", ctx.call("HRANDFIELD", "h", "1", "foo"));
        assertEquals("-ERR value is not an integer or out of range\r\n", ctx.call("HRANDFIELD", "h", "x"));
        assertEquals("-ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807\r\n",
            ctx.call("HRANDFIELD", "h", "-9223372036854775808"));
        assertEquals("-ERR value is out of range\r\n", ctx.call("HRANDFIELD", "h", "9223372036854775807",
            "WITHVALUES"));
    }

    @Test
    void hscanWalksALargeHashCompletelyAndFiltersByPattern() {
        ctx.setting("hash-max-listpack-entries", "4");
        for (int i = 0; i < 300; i++) {
            ctx.call("HSET", "h", "f" + i, "v" + i);
        }
        Set<Object> fields = new HashSet<>();
        String cursor = "0";
        int calls = 0;
        do {
            List<?> reply = (List<?>) ctx.reply("HSCAN", "h", cursor, "COUNT", "7");
            cursor = (String) reply.get(0);
            List<?> pairs = (List<?>) reply.get(1);
            for (int i = 0; i < pairs.size(); i += 2) {
                assertEquals("v" + ((String) pairs.get(i)).substring(1), pairs.get(i + 1));
                fields.add(pairs.get(i));
            }
        } while (!cursor.equals("0") && ++calls < 10_000);
        assertEquals(300, fields.size());
        List<?> matched = (List<?>) ((List<?>) ctx.reply("HSCAN", "h", "0", "MATCH", "f1?", "COUNT", "1000")).get(1);
        assertEquals(20, matched.size());
        assertEquals("-ERR syntax error\r\n", ctx.call("HSCAN", "h", "0", "COUNT", "0"));
        assertEquals("-ERR syntax error\r\n", ctx.call("HSCAN", "h", "0", "NOVALUES"));
        assertEquals("-ERR invalid cursor\r\n", ctx.call("HSCAN", "h", "x"));
        assertEquals("*2\r\n$1\r\n0\r\n*0\r\n", ctx.call("HSCAN", "nokey", "0", "COUNT", "0"));
    }

    @Test
    void valueMemoryFollowsTheHash() {
        ctx.call("HSET", "h", "a", "1");
        long small = ctx.keyspace().valueMemory(FakeCommandContext.bytes("h"), 0, 1);
        for (int i = 0; i < 1000; i++) {
            ctx.call("HSET", "h", "field" + i, "value" + i);
        }
        long large = ctx.keyspace().valueMemory(FakeCommandContext.bytes("h"), 0, 1);
        assertTrue(large > small + 1000 * 20, small + " " + large);
    }
}
