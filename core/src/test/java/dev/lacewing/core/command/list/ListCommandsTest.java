package dev.lacewing.core.command.list;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.core.command.FakeCommandContext;
import dev.lacewing.core.command.generic.KeyCommands;
import dev.lacewing.core.command.string.StringCommands;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The list family against replies recorded from Redis 7.0.15 for the same commands, with
 * {@code list-compress-depth} 0 (no compression), 1 and 2.
 */
@ParameterizedClass(name = "list-compress-depth {0}")
@ValueSource(ints = {0, 1, 2})
class ListCommandsTest {

    private static final String WRONG_TYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    private static final String NOT_INTEGER = "-ERR value is not an integer or out of range\r\n";
    private static final String SYNTAX = "-ERR syntax error\r\n";

    private final FakeCommandContext ctx = new FakeCommandContext(ListCommands::register, StringCommands::register,
        KeyCommands::register);

    @Parameter
    int compressDepth;

    @BeforeEach
    void configure() {
        ctx.setting("list-compress-depth", Integer.toString(compressDepth));
    }

    private static String array(String... bulks) {
        StringBuilder resp = new StringBuilder("*" + bulks.length + "\r\n");
        for (String bulk : bulks) {
            resp.append(FakeCommandContext.bulk(bulk));
        }
        return resp.toString();
    }

    @Test
    void pushesReplyTheLengthAndKeepOrder() {
        assertEquals(":3\r\n", ctx.call("RPUSH", "l", "a", "b", "c"));
        assertEquals(":5\r\n", ctx.call("LPUSH", "l", "y", "x"));
        assertEquals(array("x", "y", "a", "b", "c"), ctx.call("LRANGE", "l", "0", "-1"));
        assertEquals(":0\r\n", ctx.call("LPUSHX", "none", "a"));
        assertEquals(":6\r\n", ctx.call("RPUSHX", "l", "z"));
        assertEquals("+list\r\n", ctx.call("TYPE", "l"));
    }

    @Test
    void popsWithAndWithoutCount() {
        ctx.call("RPUSH", "l", "a", "b", "c", "a", "x", "a");
        assertEquals(FakeCommandContext.bulk("a"), ctx.call("LPOP", "l"));
        assertEquals("*0\r\n", ctx.call("LPOP", "l", "0"));
        assertEquals(array("a", "x"), ctx.call("RPOP", "l", "2"));
        assertEquals("*-1\r\n", ctx.call("LPOP", "none", "2"));
        assertEquals("$-1\r\n", ctx.call("LPOP", "none"));
        assertEquals("-ERR value is out of range, must be positive\r\n", ctx.call("LPOP", "l", "-1"));
        assertEquals("-ERR wrong number of arguments for 'lpop' command\r\n", ctx.call("LPOP", "l", "1", "2"));
        assertEquals(array("b", "c", "a"), ctx.call("LPOP", "l", "10"));
        assertEquals(":0\r\n", ctx.call("EXISTS", "l"), "the last pop removes the key");
    }

    @Test
    void indexAndRangeFollowRedisBounds() {
        ctx.call("RPUSH", "l", "a", "b", "c", "d");
        assertEquals(FakeCommandContext.bulk("d"), ctx.call("LINDEX", "l", "-1"));
        assertEquals("$-1\r\n", ctx.call("LINDEX", "l", "4"));
        assertEquals("$-1\r\n", ctx.call("LINDEX", "none", "x"));
        assertEquals(NOT_INTEGER, ctx.call("LINDEX", "l", "x"));
        assertEquals(array("b", "c"), ctx.call("LRANGE", "l", "1", "-2"));
        assertEquals("*0\r\n", ctx.call("LRANGE", "l", "5", "1"));
        assertEquals(NOT_INTEGER, ctx.call("LRANGE", "none", "x", "1"));
        assertEquals("+OK\r\n", ctx.call("LSET", "l", "-4", "A"));
        assertEquals("-ERR index out of range\r\n", ctx.call("LSET", "l", "10", "v"));
        assertEquals("-ERR no such key\r\n", ctx.call("LSET", "none", "0", "v"));
        assertEquals("+OK\r\n", ctx.call("LTRIM", "l", "0", "1"));
        assertEquals(array("A", "b"), ctx.call("LRANGE", "l", "0", "-1"));
        assertEquals("+OK\r\n", ctx.call("LTRIM", "l", "5", "10"));
        assertEquals(":0\r\n", ctx.call("EXISTS", "l"));
    }

    @Test
    void removeInsertAndPosition() {
        ctx.call("RPUSH", "l", "a", "b", "a", "c", "a");
        assertEquals(":1\r\n", ctx.call("LREM", "l", "-1", "a"));
        assertEquals(array("a", "b", "a", "c"), ctx.call("LRANGE", "l", "0", "-1"));
        assertEquals(":5\r\n", ctx.call("LINSERT", "l", "AFTER", "b", "x"));
        assertEquals(":-1\r\n", ctx.call("LINSERT", "l", "BEFORE", "zz", "x"));
        assertEquals(":0\r\n", ctx.call("LINSERT", "none", "BEFORE", "a", "x"));
        assertEquals(SYNTAX, ctx.call("LINSERT", "l", "middle", "a", "x"));
        assertEquals(":2\r\n", ctx.call("LREM", "l", "0", "a"));
        ctx.call("DEL", "l");
        ctx.call("RPUSH", "l", "a", "b", "c", "a", "x", "a");
        assertEquals(":3\r\n", ctx.call("LPOS", "l", "a", "RANK", "2"));
        assertEquals("*2\r\n:3\r\n:0\r\n", ctx.call("LPOS", "l", "a", "RANK", "-2", "COUNT", "0"));
        assertEquals("*0\r\n", ctx.call("LPOS", "l", "a", "RANK", "2", "COUNT", "2", "MAXLEN", "3"));
        assertEquals(":5\r\n", ctx.call("LPOS", "l", "a", "RANK", "-9223372036854775808"));
        assertEquals("$-1\r\n", ctx.call("LPOS", "none", "a"));
        assertEquals("*0\r\n", ctx.call("LPOS", "none", "a", "COUNT", "1"));
        assertEquals("-ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use "
            + "negative to start from the end of the list\r\n", ctx.call("LPOS", "l", "a", "RANK", "0"));
        assertEquals("-ERR COUNT can't be negative\r\n", ctx.call("LPOS", "l", "a", "COUNT", "-1"));
        assertEquals("-ERR MAXLEN can't be negative\r\n", ctx.call("LPOS", "l", "a", "MAXLEN", "-1"));
        assertEquals(SYNTAX, ctx.call("LPOS", "l", "a", "RANK"));
    }

    @Test
    void movesRotateAndCreateTheDestination() {
        ctx.call("RPUSH", "src", "a", "b");
        assertEquals(FakeCommandContext.bulk("b"), ctx.call("RPOPLPUSH", "src", "src"));
        assertEquals(array("b", "a"), ctx.call("LRANGE", "src", "0", "-1"));
        assertEquals(FakeCommandContext.bulk("b"), ctx.call("LMOVE", "src", "dst", "LEFT", "RIGHT"));
        assertEquals(FakeCommandContext.bulk("a"), ctx.call("LMOVE", "src", "dst", "LEFT", "LEFT"));
        assertEquals(array("a", "b"), ctx.call("LRANGE", "dst", "0", "-1"));
        assertEquals(":0\r\n", ctx.call("EXISTS", "src"));
        assertEquals("$-1\r\n", ctx.call("LMOVE", "none", "dst", "LEFT", "LEFT"));
        assertEquals(SYNTAX, ctx.call("LMOVE", "dst", "x", "UP", "LEFT"));
        ctx.call("SET", "s", "v");
        assertEquals(WRONG_TYPE, ctx.call("LMOVE", "dst", "s", "LEFT", "LEFT"));
        assertEquals(array("a", "b"), ctx.call("LRANGE", "dst", "0", "-1"), "the element stays on WRONGTYPE");
    }

    @Test
    void lmpopPopsFromTheFirstNonEmptyList() {
        ctx.call("RPUSH", "l", "a", "b", "c");
        assertEquals("*2\r\n" + FakeCommandContext.bulk("l") + array("c", "b"),
            ctx.call("LMPOP", "2", "none", "l", "RIGHT", "COUNT", "2"));
        assertEquals("*-1\r\n", ctx.call("LMPOP", "1", "none", "LEFT"));
        assertEquals("-ERR numkeys should be greater than 0\r\n", ctx.call("LMPOP", "0", "l", "LEFT"));
        assertEquals("-ERR numkeys should be greater than 0\r\n", ctx.call("LMPOP", "x", "l", "LEFT"));
        assertEquals(SYNTAX, ctx.call("LMPOP", "3", "l", "LEFT"));
        assertEquals("-ERR count should be greater than 0\r\n", ctx.call("LMPOP", "1", "l", "LEFT", "COUNT", "0"));
        assertEquals(SYNTAX, ctx.call("LMPOP", "1", "l", "LEFT", "COUNT", "1", "COUNT", "2"));
    }

    @Test
    void blockingFormsServeAtOnceWhenAListHasElements() {
        ctx.call("RPUSH", "l", "a", "b");
        assertEquals(array("l", "a"), ctx.call("BLPOP", "none", "l", "0.5"));
        assertEquals(array("l", "b"), ctx.call("BRPOP", "l", "1"));
        ctx.call("RPUSH", "l", "a");
        assertEquals(FakeCommandContext.bulk("a"), ctx.call("BLMOVE", "l", "d", "RIGHT", "LEFT", "0"));
        assertEquals(FakeCommandContext.bulk("a"), ctx.call("BRPOPLPUSH", "d", "l", "0"));
        assertEquals("*2\r\n" + FakeCommandContext.bulk("l") + array("a"), ctx.call("BLMPOP", "0", "1", "l", "LEFT"));
    }

    @Test
    void blockingFormsCheckTheirArguments() {
        assertEquals("-ERR timeout is negative\r\n", ctx.call("BLPOP", "l", "-1"));
        assertEquals("-ERR timeout is negative\r\n", ctx.call("BLPOP", "l", "inf"));
        assertEquals("-ERR timeout is negative\r\n", ctx.call("BLPOP", "l", "1e100"));
        assertEquals("-ERR timeout is not a float or out of range\r\n", ctx.call("BLPOP", "l", "abc"));
        assertEquals("-ERR timeout is not a float or out of range\r\n", ctx.call("BRPOP", "l", " 1"));
        assertEquals("-ERR timeout is not a float or out of range\r\n", ctx.call("BLMPOP", "x", "1", "l", "LEFT"));
        assertEquals("-ERR numkeys should be greater than 0\r\n", ctx.call("BLMPOP", "0.1", "0", "l", "LEFT"));
        assertEquals(SYNTAX, ctx.call("BLMOVE", "a", "b", "UP", "LEFT", "1"));
        ctx.call("SET", "s", "v");
        assertEquals(WRONG_TYPE, ctx.call("BLPOP", "none", "s", "0.1"));
        assertEquals(WRONG_TYPE, ctx.call("BLMOVE", "s", "x", "LEFT", "LEFT", "0.1"));
    }

    @Test
    void wrongTypeEverywhere() {
        ctx.call("SET", "s", "v");
        for (String[] command : new String[][] {{"LPUSH", "s", "a"}, {"RPUSHX", "s", "a"}, {"LPOP", "s"},
            {"LLEN", "s"}, {"LRANGE", "s", "0", "1"}, {"LINDEX", "s", "0"}, {"LSET", "s", "0", "v"},
            {"LREM", "s", "0", "v"}, {"LTRIM", "s", "0", "1"}, {"LINSERT", "s", "BEFORE", "a", "b"},
            {"LPOS", "s", "a"}, {"LMPOP", "1", "s", "LEFT"}, {"RPOPLPUSH", "s", "d"}}) {
            assertEquals(WRONG_TYPE, ctx.call(command), String.join(" ", command));
        }
    }

    private static String[] command(String name, String key, List<String> values) {
        List<String> words = new ArrayList<>(List.of(name, key));
        words.addAll(values);
        return words.toArray(String[]::new);
    }

    private void assertContent(List<String> model, String key) {
        assertEquals(array(model.toArray(String[]::new)), ctx.call("LRANGE", key, "0", "-1"));
        assertEquals(":" + model.size() + "\r\n", ctx.call("LLEN", key));
    }

    /** Every command over lists of many small nodes, which are compressed past the depth. */
    @Test
    void everyCommandWorksOnLongLists() {
        ctx.setting("list-max-listpack-size", "8");
        List<String> model = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            model.add("value:" + (i % 5) + ":padding-padding-padding");
        }
        ctx.call(command("RPUSH", "l", model));
        assertContent(model, "l");
        for (int index : new int[] {0, 7, 8, 199, 200, 391, 399}) {
            assertEquals(FakeCommandContext.bulk(model.get(index)), ctx.call("LINDEX", "l", Integer.toString(index)));
        }
        assertEquals(array(model.subList(150, 171).toArray(String[]::new)), ctx.call("LRANGE", "l", "150", "170"));
        assertEquals("+OK\r\n", ctx.call("LSET", "l", "201", "changed"));
        model.set(201, "changed");
        assertEquals("+OK\r\n", ctx.call("LSET", "l", "202", "x".repeat(300)));
        model.set(202, "x".repeat(300));
        assertEquals(":401\r\n", ctx.call("LINSERT", "l", "BEFORE", "changed", "inserted"));
        model.add(201, "inserted");
        assertEquals(":202\r\n", ctx.call("LPOS", "l", "changed"));
        int last = model.lastIndexOf("value:4:padding-padding-padding");
        int beforeLast = model.subList(0, last).lastIndexOf("value:4:padding-padding-padding");
        assertEquals("*2\r\n:" + last + "\r\n:" + beforeLast + "\r\n",
            ctx.call("LPOS", "l", "value:4:padding-padding-padding", "RANK", "-1", "COUNT", "2"));
        assertEquals(":10\r\n", ctx.call("LREM", "l", "10", "value:1:padding-padding-padding"));
        for (int removed = 0, i = 0; removed < 10; i++) {
            if (model.get(i).equals("value:1:padding-padding-padding")) {
                model.remove(i--);
                removed++;
            }
        }
        assertEquals(":5\r\n", ctx.call("LREM", "l", "-5", "value:2:padding-padding-padding"));
        for (int removed = 0, i = model.size() - 1; removed < 5; i--) {
            if (model.get(i).equals("value:2:padding-padding-padding")) {
                model.remove(i);
                removed++;
            }
        }
        assertContent(model, "l");
        assertEquals(":" + Collections.frequency(model, "value:3:padding-padding-padding") + "\r\n",
            ctx.call("LREM", "l", "0", "value:3:padding-padding-padding"));
        model.removeIf("value:3:padding-padding-padding"::equals);
        assertContent(model, "l");
        assertEquals("+OK\r\n", ctx.call("LTRIM", "l", "13", "-17"));
        model = new ArrayList<>(model.subList(13, model.size() - 16));
        assertContent(model, "l");
        assertEquals(array(model.subList(0, 20).toArray(String[]::new)), ctx.call("LPOP", "l", "20"));
        model.subList(0, 20).clear();
        List<String> tail = new ArrayList<>(model.subList(model.size() - 20, model.size()));
        Collections.reverse(tail);
        assertEquals(array(tail.toArray(String[]::new)), ctx.call("RPOP", "l", "20"));
        model.subList(model.size() - 20, model.size()).clear();
        assertEquals(array("l", model.get(0)), ctx.call("BLPOP", "l", "0"));
        model.remove(0);
        assertEquals(array("l", model.get(model.size() - 1)), ctx.call("BRPOP", "l", "0"));
        model.remove(model.size() - 1);
        ctx.call(command("RPUSH", "d", model));
        List<String> destination = new ArrayList<>(model);
        assertEquals(FakeCommandContext.bulk(model.get(0)), ctx.call("LMOVE", "l", "d", "LEFT", "RIGHT"));
        destination.add(model.remove(0));
        assertEquals(FakeCommandContext.bulk(model.get(model.size() - 1)), ctx.call("BLMOVE", "l", "d", "RIGHT", "LEFT",
            "0"));
        destination.add(0, model.remove(model.size() - 1));
        assertContent(model, "l");
        assertContent(destination, "d");
        ctx.call("COPY", "d", "copy");
        assertContent(destination, "copy");
    }

    @Test
    void nodeSizeFollowsTheSetting() {
        ctx.setting("list-max-listpack-size", "2");
        for (int i = 0; i < 100; i++) {
            ctx.call("RPUSH", "l", Integer.toString(i));
        }
        assertEquals(FakeCommandContext.bulk("57"), ctx.call("LINDEX", "l", "57"));
        assertEquals(":100\r\n", ctx.call("LLEN", "l"));
    }
}
