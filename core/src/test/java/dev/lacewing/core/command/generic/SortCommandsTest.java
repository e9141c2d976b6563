package dev.lacewing.core.command.generic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.core.command.FakeCommandContext;
import dev.lacewing.core.command.hash.HashCommands;
import dev.lacewing.core.command.list.ListCommands;
import dev.lacewing.core.command.set.SetCommands;
import dev.lacewing.core.command.string.StringCommands;
import dev.lacewing.core.command.zset.SortedSetCommands;
import dev.lacewing.core.datatype.Quicklist;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SORT and SORT_RO: numeric and ALPHA order with Redis's tie-break, BY and GET patterns (hash
 * fields, "#", constant patterns), LIMIT bounds, STORE, errors, and the per-request scope that
 * gives pattern and STORE requests the whole keyspace. Byte-exact replies against redis-server are
 * in the integration tests' SortReferenceTest.
 */
class SortCommandsTest {

    private static final String SYNTAX = "-ERR syntax error\r\n";

    private final FakeCommandContext ctx = new FakeCommandContext(KeyCommands::register, StringCommands::register,
        HashCommands::register, ListCommands::register, SetCommands::register, SortedSetCommands::register);

    @Test
    void numericOrderBreaksTiesByTheElementsBytes() {
        ctx.call("RPUSH", "l", "10", "2", "1.5", "-3", "02", "2.0", "inf", "-inf");
        assertEquals(List.of("-inf", "-3", "1.5", "02", "2", "2.0", "10", "inf"), ctx.reply("SORT", "l"));
        assertEquals(List.of("inf", "10", "2.0", "2", "02", "1.5", "-3", "-inf"), ctx.reply("SORT", "l", "DESC"));
    }

    @Test
    void weightsAreReadAsStrtodReadsThem() {
        ctx.call("RPUSH", "l", "", " 5", "4", "0x10");
        assertEquals(List.of("", "4", " 5", "0x10"), ctx.reply("SORT", "l"), "empty is 0, leading spaces skipped");
        for (String bad : new String[] {"5 ", "nan", "1e400", "1e-310", "abc", " "}) {
            ctx.call("DEL", "bad");
            ctx.call("RPUSH", "bad", "1", bad);
            assertEquals("-ERR One or more scores can't be converted into double\r\n", ctx.call("SORT", "bad"), bad);
        }
    }

    @Test
    void alphaComparesBytesAndWorksOnSetsAndSortedSets() {
        ctx.call("SADD", "s", "b", "a", "c", "10", "9");
        assertEquals(List.of("10", "9", "a", "b", "c"), ctx.reply("SORT", "s", "ALPHA"));
        ctx.call("ZADD", "z", "3", "x", "1", "y", "2", "z");
        assertEquals(List.of("z", "y", "x"), ctx.reply("SORT", "z", "ALPHA", "DESC"));
        assertEquals(List.of("y", "z", "x"), ctx.reply("SORT", "z", "BY", "nosort"), "a sorted set keeps its order");
        assertEquals(List.of("z", "y"), ctx.reply("SORT", "z", "BY", "nosort", "DESC", "LIMIT", "1", "5"));
        assertEquals("-ERR One or more scores can't be converted into double\r\n", ctx.call("SORT", "z"));
    }

    @Test
    void alphaRepliesCompareUpToTheFirstNulButStoreComparesEveryByte() {
        ctx.call("RPUSH", "l", "a\0b", "a\0a", "a", "\u00e9", "b", "a\0");
        assertEquals(List.of("a\0b", "a\0a", "a", "a\0", "b", "\u00e9"), ctx.reply("SORT", "l", "ALPHA"),
            "ties up to the NUL keep the list's order");
        ctx.call("SORT", "l", "ALPHA", "STORE", "dst");
        assertEquals(List.of("a", "a\0", "a\0a", "a\0b", "b", "\u00e9"), ctx.reply("LRANGE", "dst", "0", "-1"));
        ctx.call("RPUSH", "ids", "1", "2", "3");
        ctx.call("MSET", "w_1", "x\0b", "w_2", "x\0a", "w_3", "x");
        assertEquals(List.of("1", "2", "3"), ctx.reply("SORT", "ids", "BY", "w_*", "ALPHA"));
        ctx.call("SORT", "ids", "BY", "w_*", "ALPHA", "STORE", "dst");
        assertEquals(List.of("3", "2", "1"), ctx.reply("LRANGE", "dst", "0", "-1"));
    }

    @Test
    void byAndGetPatternsReadStringsAndHashFields() {
        ctx.call("RPUSH", "l", "a", "b", "c");
        ctx.call("SET", "w_a", "3");
        ctx.call("SET", "w_b", "1");
        ctx.call("HSET", "h_a", "f", "x", "g", "10");
        ctx.call("HSET", "h_c", "f", "z", "g", "-1");
        assertEquals(List.of("c", "b", "a"), ctx.reply("SORT", "l", "BY", "w_*"), "a missing weight counts 0");
        assertEquals(List.of("c", "b", "a"), ctx.reply("SORT", "l", "BY", "h_*->g"));
        assertEquals(Arrays.asList("z", "c", null, "b", "x", "a"),
            ctx.reply("SORT", "l", "BY", "h_*->g", "GET", "h_*->f", "GET", "#"));
        assertEquals(Arrays.asList("b", "a", "c"), ctx.reply("SORT", "l", "BY", "h_*->f", "ALPHA"),
            "a missing ALPHA weight sorts first");
        assertEquals(Arrays.asList(null, null, null), ctx.reply("SORT", "l", "ALPHA", "GET", "fixed"),
            "a pattern without '*' names nothing");
        assertEquals(Arrays.asList("3", "1", null), ctx.reply("SORT", "l", "BY", "nosort", "GET", "w_*"));
        assertEquals(Arrays.asList(null, null, null), ctx.reply("SORT", "l", "ALPHA", "GET", "w_*->"),
            "'->' with no field is part of the key name");
    }

    @Test
    void limitIsClampedAsRedisClampsIt() {
        ctx.call("RPUSH", "l", "3", "1", "2", "10");
        assertEquals(List.of("2", "3", "10"), ctx.reply("SORT", "l", "LIMIT", "1", "9223372036854775807"));
        assertEquals(List.of("1", "2"), ctx.reply("SORT", "l", "LIMIT", "-5", "2"));
        assertEquals(List.of("3", "10"), ctx.reply("SORT", "l", "LIMIT", "2", "-1"));
        assertEquals(List.of(), ctx.reply("SORT", "l", "LIMIT", "10", "1"));
        assertEquals(List.of(), ctx.reply("SORT", "missing"));
        assertEquals(List.of("10", "2"), ctx.reply("SORT", "l", "BY", "nosort", "DESC", "LIMIT", "0", "2"),
            "DESC without sorting walks the list from its tail");
    }

    @Test
    void storeReplacesTheDestinationWithAListOrDeletesIt() {
        ctx.call("SADD", "s", "b", "a");
        ctx.call("SET", "dst", "old");
        assertEquals(":2\r\n", ctx.call("SORT", "s", "BY", "nosort", "STORE", "dst"));
        assertTrue(ctx.keyspace().get(FakeCommandContext.bytes("dst")) instanceof Quicklist);
        assertEquals(List.of("a", "b"), ctx.reply("LRANGE", "dst", "0", "-1"), "a set stored with BY nosort is sorted ALPHA");
        assertEquals(":4\r\n", ctx.call("SORT", "s", "ALPHA", "GET", "#", "GET", "nothing*", "STORE", "dst"));
        assertEquals(List.of("a", "", "b", ""), ctx.reply("LRANGE", "dst", "0", "-1"));
        assertEquals(":0\r\n", ctx.call("SORT", "missing", "STORE", "dst"));
        assertEquals(":0\r\n", ctx.call("EXISTS", "dst"));
    }

    @Test
    void errorsComeInRedisOrder() {
        ctx.call("SET", "str", "x");
        assertEquals("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n", ctx.call("SORT", "str"));
        assertEquals("-ERR value is not an integer or out of range\r\n", ctx.call("SORT", "str", "LIMIT", "a", "1"));
        assertEquals(SYNTAX, ctx.call("SORT", "str", "LIMIT", "1"));
        assertEquals(SYNTAX, ctx.call("SORT", "str", "FOO"));
        assertEquals(SYNTAX, ctx.call("SORT_RO", "l", "STORE", "dst"));
        assertEquals(SYNTAX, ctx.call("SORT", "l", "BY"));
    }

    @Test
    void patternsAndStoreWidenARequestToTheWholeKeyspace() {
        CommandSpec sort = ctx.command("sort").spec();
        CommandSpec sortRo = ctx.command("sort_ro").spec();
        assertEquals(KeyScope.KEYS, sort.scope(args("SORT", "l", "ALPHA", "LIMIT", "0", "1")));
        assertEquals(KeyScope.KEYS, sort.scope(args("SORT", "l", "BY", "nosort", "GET", "#", "GET", "fixed")));
        assertEquals(KeyScope.ALL, sort.scope(args("SORT", "l", "BY", "w_*")));
        assertEquals(KeyScope.ALL, sort.scope(args("SORT", "l", "GET", "#", "GET", "h_*->f")));
        assertEquals(KeyScope.ALL, sort.scope(args("SORT", "l", "STORE", "dst")));
        assertEquals(KeyScope.KEYS, sort.scope(args("SORT", "l", "STORE", "dst", "FOO")), "an error touches nothing");
        assertEquals(KeyScope.KEYS, sortRo.scope(args("SORT_RO", "l", "STORE", "dst")));
        assertNull(ctx.keyspace().get(FakeCommandContext.bytes("dst")));
    }

    /** The words as a request's arguments. */
    private static Arguments args(String... words) {
        return FakeCommandContext.arguments(words);
    }
}
