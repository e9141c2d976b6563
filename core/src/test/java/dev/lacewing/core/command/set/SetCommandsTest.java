package dev.lacewing.core.command.set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.command.FakeCommandContext;
import dev.lacewing.core.command.generic.KeyCommands;
import dev.lacewing.core.command.string.StringCommands;
import dev.lacewing.core.datatype.TypedValue;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The set family against replies recorded from Redis 7.0.15 for the same commands. */
class SetCommandsTest {

    private static final String WRONG_TYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    private static final String EMPTY = "*0\r\n";

    private final FakeCommandContext ctx = new FakeCommandContext(SetCommands::register, StringCommands::register,
        KeyCommands::register);

    private String encoding(String key) {
        return ((TypedValue) ctx.keyspace().get(FakeCommandContext.bytes(key))).encoding();
    }

    private Set<Object> members(String... command) {
        return new TreeSet<>((List<?>) ctx.reply(command));
    }

    @Test
    void integersStayAnIntsetInAscendingOrderUntilAStringOrTheLimit() {
        ctx.setting("set-max-intset-entries", "4");
        assertEquals(":3\r\n", ctx.call("SADD", "s", "30", "-2", "100000"));
        assertEquals(List.of("-2", "30", "100000"), ctx.reply("SMEMBERS", "s"));
        assertEquals("intset", encoding("s"));
        ctx.call("SADD", "s", "9223372036854775807");
        assertEquals("intset", encoding("s"));
        ctx.call("SADD", "s", "5");
        assertEquals("hashtable", encoding("s"));
        ctx.call("SADD", "t", "1", "01");
        assertEquals("hashtable", encoding("t"));
        ctx.call("SADD", "u", "abc");
        assertEquals("hashtable", encoding("u"));
        ctx.call("SREM", "s", "5", "30");
        assertEquals("hashtable", encoding("s"));
        assertEquals(Set.of("-2", "100000", "9223372036854775807"), members("SMEMBERS", "s"));
    }

    @Test
    void membershipCardinalityAndRemoval() {
        ctx.call("SADD", "s", "a", "b", "1");
        assertEquals(":0\r\n", ctx.call("SADD", "s", "a"));
        assertEquals(":1\r\n", ctx.call("SISMEMBER", "s", "a"));
        assertEquals(":0\r\n", ctx.call("SISMEMBER", "nokey", "a"));
        assertEquals("*3\r\n:1\r\n:0\r\n:1\r\n", ctx.call("SMISMEMBER", "s", "a", "z", "1"));
        assertEquals("*1\r\n:0\r\n", ctx.call("SMISMEMBER", "nokey", "a"));
        assertEquals(":3\r\n", ctx.call("SCARD", "s"));
        assertEquals(":3\r\n", ctx.call("SREM", "s", "a", "b", "1", "a"));
        assertEquals(":0\r\n", ctx.call("EXISTS", "s"));
        assertEquals(EMPTY, ctx.call("SMEMBERS", "s"));
    }

    @Test
    void everyCommandRefusesAKeyOfAnotherType() {
        ctx.call("SET", "str", "v");
        for (List<String> command : List.of(List.of("SADD", "str", "a"), List.of("SREM", "str", "a"),
            List.of("SMEMBERS", "str"), List.of("SISMEMBER", "str", "a"), List.of("SCARD", "str"),
            List.of("SPOP", "str"), List.of("SRANDMEMBER", "str", "2"), List.of("SINTER", "str"),
            List.of("SUNION", "str", "nokey"), List.of("SDIFF", "nokey", "str"), List.of("SSCAN", "str", "0"),
            List.of("SINTERCARD", "1", "str"))) {
            assertEquals(WRONG_TYPE, ctx.call(command.toArray(String[]::new)), command.toString());
        }
        // Redis 7.0 type-checks every key before a missing one makes the intersection empty.
        assertEquals(WRONG_TYPE, ctx.call("SINTER", "nokey", "str"));
        assertEquals(WRONG_TYPE, ctx.call("SINTERCARD", "2", "nokey", "str"));
        // SMOVE from a missing source replies 0 whatever the destination.
        assertEquals(":0\r\n", ctx.call("SMOVE", "nokey", "str", "a"));
    }

    @Test
    void setAlgebraAndTheStoreForms() {
        ctx.call("SADD", "a", "1", "2", "3", "4");
        ctx.call("SADD", "b", "3", "4", "5");
        ctx.call("SADD", "c", "x", "4");
        assertEquals(List.of("3", "4"), ctx.reply("SINTER", "a", "b"));
        assertEquals(List.of("1", "2", "3", "4", "5"), ctx.reply("SUNION", "a", "b", "nokey"));
        assertEquals(List.of("1", "2"), ctx.reply("SDIFF", "a", "b", "nokey"));
        assertEquals(EMPTY, ctx.call("SDIFF", "a", "a"));
        assertEquals(Set.of("1", "2", "3", "4", "5", "x"), members("SUNION", "a", "b", "c"));
        assertEquals(":1\r\n", ctx.call("SINTERSTORE", "dst", "a", "b", "c"));
        assertEquals(List.of("4"), ctx.reply("SMEMBERS", "dst"));
        assertEquals("intset", encoding("dst"));
        assertEquals(":0\r\n", ctx.call("SINTERSTORE", "dst", "a", "nokey"));
        assertEquals(":0\r\n", ctx.call("EXISTS", "dst"));
        ctx.call("SET", "dst", "string");
        assertEquals(":6\r\n", ctx.call("SUNIONSTORE", "dst", "a", "b", "c"));
        assertEquals("hashtable", encoding("dst"));
        assertEquals(":2\r\n", ctx.call("SDIFFSTORE", "a", "a", "b"));
        assertEquals(List.of("1", "2"), ctx.reply("SMEMBERS", "a"));
    }

    @Test
    void sintercardCountsUpToTheLimitAndChecksItsArguments() {
        ctx.call("SADD", "a", "1", "2", "3", "4");
        ctx.call("SADD", "b", "2", "3", "4", "5");
        assertEquals(":3\r\n", ctx.call("SINTERCARD", "2", "a", "b"));
        assertEquals(":2\r\n", ctx.call("SINTERCARD", "2", "a", "b", "LIMIT", "2"));
        assertEquals(":3\r\n", ctx.call("SINTERCARD", "2", "a", "b", "LIMIT", "0"));
        assertEquals(":0\r\n", ctx.call("SINTERCARD", "2", "a", "nokey"));
        assertEquals("-ERR numkeys should be greater than 0\r\n", ctx.call("SINTERCARD", "0", "a"));
        assertEquals("-ERR numkeys should be greater than 0\r\n", ctx.call("SINTERCARD", "x", "a"));
        assertEquals("-ERR Number of keys can't be greater than number of args\r\n",
            ctx.call("SINTERCARD", "3", "a", "b"));
        assertEquals("-ERR LIMIT can't be negative\r\n", ctx.call("SINTERCARD", "1", "a", "LIMIT", "-1"));
        assertEquals("-ERR syntax error\r\n", ctx.call("SINTERCARD", "1", "a", "LIMIT"));
        assertEquals("-ERR syntax error\r\n", ctx.call("SINTERCARD", "1", "a", "foo", "1"));
    }

    @Test
    void smoveMovesCreatesAndDeletes() {
        ctx.call("SADD", "src", "m");
        assertEquals(":1\r\n", ctx.call("SMOVE", "src", "src", "m"));
        assertEquals(":0\r\n", ctx.call("SMOVE", "src", "src", "z"));
        assertEquals(":0\r\n", ctx.call("SMOVE", "src", "dst", "z"));
        assertEquals(":1\r\n", ctx.call("SMOVE", "src", "dst", "m"));
        assertEquals(":0\r\n", ctx.call("EXISTS", "src"));
        assertEquals(List.of("m"), ctx.reply("SMEMBERS", "dst"));
        ctx.call("SET", "str", "v");
        ctx.call("SADD", "src", "m");
        assertEquals(WRONG_TYPE, ctx.call("SMOVE", "src", "str", "m"));
    }

    @Test
    void spopAndSrandmemberWithCounts() {
        ctx.call("SADD", "s", "1", "2", "3", "4", "5");
        assertEquals(9, ((List<?>) ctx.reply("SRANDMEMBER", "s", "-9")).size());
        assertEquals(List.of("1", "2", "3", "4", "5"), ctx.reply("SRANDMEMBER", "s", "10"));
        assertEquals(3, new HashSet<>((List<?>) ctx.reply("SRANDMEMBER", "s", "3")).size());
        assertEquals(EMPTY, ctx.call("SRANDMEMBER", "s", "0"));
        assertEquals(EMPTY, ctx.call("SRANDMEMBER", "nokey", "3"));
        assertEquals("$-1\r\n", ctx.call("SRANDMEMBER", "nokey"));
        assertEquals("-ERR syntax error\r\n", ctx.call("SRANDMEMBER", "s", "1", "2"));
        List<?> popped = (List<?>) ctx.reply("SPOP", "s", "2");
        assertEquals(2, new HashSet<>(popped).size());
        assertEquals(":3\r\n", ctx.call("SCARD", "s"));
        assertEquals("-ERR value is out of range, must be positive\r\n", ctx.call("SPOP", "s", "-1"));
        assertEquals("-ERR syntax error\r\n", ctx.call("SPOP", "s", "1", "2"));
        assertEquals(3, ((List<?>) ctx.reply("SPOP", "s", "3")).size());
        assertEquals(":0\r\n", ctx.call("EXISTS", "s"));
        assertEquals("$-1\r\n", ctx.call("SPOP", "s"));
        assertEquals(EMPTY, ctx.call("SPOP", "s", "2"));
    }

    @Test
    void sscanWalksALargeSetCompletely() {
        for (int i = 0; i < 700; i++) {
            ctx.call("SADD", "s", "m" + i);
        }
        Set<Object> seen = new HashSet<>();
        String cursor = "0";
        int calls = 0;
        do {
            List<?> reply = (List<?>) ctx.reply("SSCAN", "s", cursor, "MATCH", "m*", "COUNT", "13");
            cursor = (String) reply.get(0);
            seen.addAll((List<?>) reply.get(1));
        } while (!cursor.equals("0") && ++calls < 10_000);
        assertEquals(700, seen.size());
        assertTrue(calls > 10);
        ctx.call("SADD", "ints", "3", "1", "2");
        assertEquals(List.of("0", List.of("1", "2", "3")), ctx.reply("SSCAN", "ints", "0"));
        assertEquals("-ERR syntax error\r\n", ctx.call("SSCAN", "ints", "0", "TYPE", "set"));
    }
}
