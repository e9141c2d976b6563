package dev.lacewing.core.command.zset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.core.command.FakeCommandContext;
import dev.lacewing.core.command.generic.KeyCommands;
import dev.lacewing.core.command.string.StringCommands;
import dev.lacewing.core.datatype.SortedSet;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sorted-set family: encodings switched where Redis 7.0 switches them, memory counted as the
 * set changes, empty sets removed, RESP3 reply shapes, and the key positions of numkeys commands.
 * Byte-exact replies against redis-server are in the integration tests' SortedSetReferenceTest.
 */
class SortedSetCommandsTest {

    private final FakeCommandContext ctx = new FakeCommandContext(SortedSetCommands::register, KeyCommands::register,
        StringCommands::register);

    private SortedSet stored(String key) {
        return (SortedSet) ctx.keyspace().get(FakeCommandContext.bytes(key));
    }

    private void addMembers(String key, int from, int to) {
        for (int i = from; i < to; i++) {
            ctx.call("ZADD", key, Integer.toString(i), "m" + i);
        }
    }

    @Test
    void theSmallFormHoldsUpToTheEntryThresholdThenBecomesLargeForGood() {
        addMembers("z", 0, 128);
        assertEquals("listpack", stored("z").encoding());
        addMembers("z", 128, 129);
        assertEquals("skiplist", stored("z").encoding());
        assertEquals(":121\r\n", ctx.call("ZREMRANGEBYRANK", "z", "0", "120"));
        assertEquals("skiplist", stored("z").encoding(), "Redis does not convert back on removal");
        assertEquals(List.of("m121", "m122"), ctx.reply("ZRANGE", "z", "0", "1"));
    }

    /** Found by the differential test: incompatible options are reported before INCR's single pair. */
    @Test
    void zaddChecksIncompatibleOptionsBeforeIncrsSinglePair() {
        assertEquals("-ERR GT, LT, and/or NX options at the same time are not compatible\r\n",
            ctx.call("ZADD", "z", "LT", "INCR", "GT", "3", "c", "-1", "d"));
        assertEquals("-ERR XX and NX options at the same time are not compatible\r\n",
            ctx.call("ZADD", "z", "NX", "XX", "INCR", "3", "c", "-1", "d"));
        assertEquals("-ERR INCR option supports a single increment-element pair\r\n",
            ctx.call("ZADD", "z", "INCR", "3", "c", "-1", "d"));
    }

    @Test
    void aLongMemberOrALowerSettingMakesTheLargeForm() {
        ctx.call("ZADD", "long", "1", "x".repeat(65));
        assertEquals("skiplist", stored("long").encoding());
        ctx.call("ZADD", "short", "1", "x".repeat(64));
        assertEquals("listpack", stored("short").encoding());
        ctx.setting("zset-max-listpack-entries", "2");
        addMembers("two", 0, 2);
        assertEquals("listpack", stored("two").encoding());
        addMembers("two", 2, 3);
        assertEquals("skiplist", stored("two").encoding());
        assertEquals(":2\r\n", ctx.call("ZRANGESTORE", "dst", "two", "0", "1"));
        assertEquals("listpack", stored("dst").encoding(), "a stored result is sized by what it holds");
        ctx.setting("zset-max-listpack-entries", "0");
        ctx.call("ZADD", "zero", "1", "a");
        assertEquals("skiplist", stored("zero").encoding());
    }

    @Test
    void memoryUsageFollowsEveryChangeInBothForms() {
        for (int members : new int[] {10, 1000}) {
            String key = "mem" + members;
            addMembers(key, 0, members);
            long full = stored(key).memoryUsage();
            /* "mN" and an integer score take at least 6 listpack bytes a pair; the skiplist costs more. */
            assertTrue(full > members * 6L, "every member's bytes are counted");
            ctx.call("ZREMRANGEBYRANK", key, "0", Integer.toString(members / 2 - 1));
            long half = stored(key).memoryUsage();
            assertTrue(half < full, "removals give bytes back: " + half + " < " + full);
            addMembers(key, 0, members / 2);
            assertTrue(stored(key).memoryUsage() <= full * 11 / 10, "ids and slots are reused");
        }
    }

    @Test
    void theLastMemberGoingRemovesTheKey() {
        ctx.call("ZADD", "z", "1", "a", "2", "b");
        assertEquals(":1\r\n", ctx.call("ZREM", "z", "a"));
        assertEquals(":1\r\n", ctx.call("EXISTS", "z"));
        assertEquals("*2\r\n$1\r\nb\r\n$1\r\n2\r\n", ctx.call("ZPOPMIN", "z"));
        assertEquals(":0\r\n", ctx.call("EXISTS", "z"));
        ctx.call("ZADD", "z", "1", "a");
        assertEquals(":1\r\n", ctx.call("ZREMRANGEBYSCORE", "z", "-inf", "+inf"));
        assertEquals(":0\r\n", ctx.call("EXISTS", "z"));
    }

    @Test
    void anIncrementToNaNIsRefusedAndLeavesTheScore() {
        ctx.call("ZADD", "z", "inf", "a");
        assertEquals("-ERR resulting score is not a number (NaN)\r\n", ctx.call("ZINCRBY", "z", "-inf", "a"));
        assertEquals("$3\r\ninf\r\n", ctx.call("ZSCORE", "z", "a"));
    }

    @Test
    void resp3NestsScoredPairsAndRepliesDoubles() {
        ctx.setProtocol(3);
        ctx.call("ZADD", "z", "1", "a", "2.5", "b");
        assertEquals(",2.5\r\n", ctx.call("ZSCORE", "z", "b"));
        assertEquals("*2\r\n*2\r\n$1\r\na\r\n,1\r\n*2\r\n$1\r\nb\r\n,2.5\r\n",
            ctx.call("ZRANGE", "z", "0", "-1", "WITHSCORES"));
        assertEquals("*2\r\n$1\r\na\r\n,1\r\n", ctx.call("ZPOPMIN", "z"));
        assertEquals("*1\r\n*2\r\n$1\r\nb\r\n,2.5\r\n", ctx.call("ZPOPMAX", "z", "1"));
        assertEquals("_\r\n", ctx.call("ZSCORE", "z", "b"));
    }

    @Test
    void aCopyIsIndependentOfItsSource() {
        addMembers("z", 0, 200);
        SortedSet copy = stored("z").copy();
        ctx.call("ZREM", "z", "m5");
        assertEquals(200, copy.size());
        assertEquals(5.0, copy.score(FakeCommandContext.bytes("m5"), 0, 2));
        assertNull(ctx.reply("ZSCORE", "z", "m5"));
    }

    @Test
    void numkeysCommandsNameTheirCountedKeys() {
        Arguments store = arguments("ZUNIONSTORE", "dst", "2", "a", "b", "WEIGHTS", "1", "2");
        CommandSpec zunionstore = ctx.command("zunionstore").spec();
        assertEquals(3, zunionstore.keyCount(store));
        assertArrayEquals(new int[] {1, 3, 4}, new int[] {zunionstore.keyArgument(store, 0),
            zunionstore.keyArgument(store, 1), zunionstore.keyArgument(store, 2)});
        Arguments pop = arguments("ZMPOP", "2", "a", "b", "MIN");
        CommandSpec zmpop = ctx.command("zmpop").spec();
        assertEquals(2, zmpop.keyCount(pop));
        assertArrayEquals(new int[] {2, 3}, new int[] {zmpop.keyArgument(pop, 0), zmpop.keyArgument(pop, 1)});
        assertEquals(0, ctx.command("zinter").spec().keyCount(arguments("ZINTER", "5", "a")));
        assertEquals(0, ctx.command("zinter").spec().keyCount(arguments("ZINTER", "x", "a")));
    }

    @Test
    void blockingPopsServeAtOnceWhenASetHasMembers() {
        ctx.call("ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d");
        assertEquals(List.of("z", "a", "1"), ctx.reply("BZPOPMIN", "none", "z", "0"));
        assertEquals(List.of("z", "d", "4"), ctx.reply("BZPOPMAX", "z", "0.5"));
        assertEquals(List.of("z", List.of(List.of("c", "3"), List.of("b", "2"))),
            ctx.reply("BZMPOP", "0", "2", "none", "z", "MAX", "COUNT", "5"));
        assertNull(ctx.keyspace().get(FakeCommandContext.bytes("z")), "the emptied set is removed");
        assertEquals("*-1\r\n", ctx.call("ZMPOP", "1", "z", "MIN"), "ZMPOP never blocks");
    }

    @Test
    void blockingPopsCheckTheirArgumentsInRedisOrder() {
        ctx.call("SET", "s", "v");
        assertEquals("-ERR timeout is not a float or out of range\r\n", ctx.call("BZPOPMIN", "s", "abc"));
        assertEquals("-ERR timeout is negative\r\n", ctx.call("BZPOPMAX", "s", "-0.5"));
        assertEquals("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
            ctx.call("BZPOPMIN", "none", "s", "0"));
        assertEquals("-ERR numkeys should be greater than 0\r\n", ctx.call("BZMPOP", "abc", "0", "k", "MIN"));
        assertEquals("-ERR timeout is not a float or out of range\r\n", ctx.call("BZMPOP", "abc", "1", "k", "MIN"));
        assertEquals("-ERR count should be greater than 0\r\n", ctx.call("BZMPOP", "0", "1", "k", "MIN", "COUNT", "0"));
        assertEquals("-ERR syntax error\r\n", ctx.call("BZMPOP", "0", "1", "k", "UP"));
        CommandSpec bzmpop = ctx.command("bzmpop").spec();
        Arguments request = arguments("BZMPOP", "0", "2", "a", "b", "MIN");
        assertEquals(2, bzmpop.keyCount(request));
        assertEquals(3, bzmpop.keyArgument(request, 0));
    }

    /** The words as a request's arguments. */
    private static Arguments arguments(String... words) {
        return FakeCommandContext.arguments(words);
    }
}
