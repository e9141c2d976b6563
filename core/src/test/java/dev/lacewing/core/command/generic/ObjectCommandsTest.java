package dev.lacewing.core.command.generic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.command.FakeCommandContext;
import dev.lacewing.core.command.bitmap.BitmapCommands;
import dev.lacewing.core.command.hyperloglog.HyperLogLogCommands;
import dev.lacewing.core.command.string.StringCommands;
import org.junit.jupiter.api.Test;

class ObjectCommandsTest {

    private static final String NIL = "$-1\r\n";
    private static final String LFU_NOT_SELECTED = "-ERR An LFU maxmemory policy is not selected, access frequency "
        + "not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some "
        + "time to adjust.\r\n";
    private static final String LFU_SELECTED = "-ERR An LFU maxmemory policy is selected, idle time not tracked. "
        + "Please note that when switching between policies at runtime LRU and LFU data will take some time to "
        + "adjust.\r\n";

    private final FakeCommandContext ctx = new FakeCommandContext(StringCommands::register, KeyCommands::register,
        BitmapCommands::register, HyperLogLogCommands::register);

    private String encodingOf(String value) {
        ctx.call("SET", "k", value);
        return ctx.call("OBJECT", "ENCODING", "k");
    }

    @Test
    void stringEncodingIsIntForCanonicalIntegersEmbstrUpTo44BytesRawBeyond() {
        assertEquals(FakeCommandContext.bulk("int"), encodingOf("12345"));
        assertEquals(FakeCommandContext.bulk("int"), encodingOf("-9223372036854775808"));
        assertEquals(FakeCommandContext.bulk("int"), encodingOf("0"));
        assertEquals(FakeCommandContext.bulk("embstr"), encodingOf("9223372036854775808"));
        assertEquals(FakeCommandContext.bulk("embstr"), encodingOf("0123"));
        assertEquals(FakeCommandContext.bulk("embstr"), encodingOf("-0"));
        assertEquals(FakeCommandContext.bulk("embstr"), encodingOf("+1"));
        assertEquals(FakeCommandContext.bulk("embstr"), encodingOf("x".repeat(44)));
        assertEquals(FakeCommandContext.bulk("raw"), encodingOf("x".repeat(45)));
        assertEquals(NIL, ctx.call("OBJECT", "ENCODING", "missing"));
    }

    @Test
    void stringsEditedInPlaceAreRawUntilANewValueIsStored() {
        String raw = FakeCommandContext.bulk("raw");
        ctx.call("APPEND", "a", "12");
        assertEquals(FakeCommandContext.bulk("int"), ctx.call("OBJECT", "ENCODING", "a"),
            "APPEND creating a key stores as SET does");
        ctx.call("APPEND", "a", "3");
        assertEquals(raw, ctx.call("OBJECT", "ENCODING", "a"));
        assertEquals(":1\r\n", ctx.call("OBJECT", "REFCOUNT", "a"), "a raw integer is not shared");
        ctx.call("EXPIRE", "a", "100");
        assertEncodingKeptThroughRenameCopyAndMove(raw);
        ctx.call("INCR", "b");
        assertEquals(FakeCommandContext.bulk("int"), ctx.call("OBJECT", "ENCODING", "b"));
        ctx.call("SETRANGE", "r", "0", "x");
        ctx.call("SETBIT", "s", "0", "1");
        ctx.call("BITFIELD", "f", "SET", "u8", "0", "1");
        ctx.call("BITOP", "NOT", "o", "s");
        ctx.call("PFADD", "h", "x");
        for (String key : new String[] {"r", "s", "f", "o", "h"}) {
            assertEquals(raw, ctx.call("OBJECT", "ENCODING", key), key);
        }
        ctx.call("SET", "r", "x");
        assertEquals(FakeCommandContext.bulk("embstr"), ctx.call("OBJECT", "ENCODING", "r"));
        ctx.call("SETRANGE", "r", "0", "");
        assertEquals(FakeCommandContext.bulk("embstr"), ctx.call("OBJECT", "ENCODING", "r"), "setting nothing");
        ctx.call("SET", "copied", (String) ctx.reply("GET", "h"));
        ctx.call("PFCOUNT", "copied");
        assertEquals(raw, ctx.call("OBJECT", "ENCODING", "copied"), "PFCOUNT unshares the value it names");
    }

    @Test
    void incrbyfloatResultsAreNeverIntUntilANewValueIsStored() {
        String embstr = FakeCommandContext.bulk("embstr");
        ctx.call("INCRBYFLOAT", "a", "1");
        assertEquals(embstr, ctx.call("OBJECT", "ENCODING", "a"));
        assertEquals(":1\r\n", ctx.call("OBJECT", "REFCOUNT", "a"), "text is not a shared integer");
        ctx.call("EXPIRE", "a", "100");
        ctx.call("PERSIST", "a");
        assertEncodingKeptThroughRenameCopyAndMove(embstr);
        ctx.call("INCR", "b");
        assertEquals(FakeCommandContext.bulk("int"), ctx.call("OBJECT", "ENCODING", "b"));
        ctx.call("INCRBYFLOAT", "b", "1");
        ctx.call("SET", "b", "3");
        assertEquals(FakeCommandContext.bulk("int"), ctx.call("OBJECT", "ENCODING", "b"));
        ctx.call("INCRBYFLOAT", "big", "1e50");
        assertEquals(FakeCommandContext.bulk("raw"), ctx.call("OBJECT", "ENCODING", "big"), "past 44 bytes");
        ctx.call("INCRBYFLOAT", "s", "1");
        ctx.call("SETBIT", "s", "0", "0");
        assertEquals(FakeCommandContext.bulk("raw"), ctx.call("OBJECT", "ENCODING", "s"), "SETBIT unshares it");
    }

    @Test
    void refcountOfSharedIntegersIsIntMaxUnlessStoredWhileAnLruPolicyWithALimitForbadeSharing() {
        ctx.call("SET", "small", "9999");
        ctx.call("SET", "large", "10000");
        ctx.call("SET", "text", "abc");
        assertEquals(":2147483647\r\n", ctx.call("OBJECT", "REFCOUNT", "small"));
        assertEquals(":1\r\n", ctx.call("OBJECT", "REFCOUNT", "large"));
        assertEquals(":1\r\n", ctx.call("OBJECT", "REFCOUNT", "text"));
        ctx.setting("maxmemory-policy", "allkeys-lru");
        ctx.call("SET", "nolimit", "7");
        assertEquals(":2147483647\r\n", ctx.call("OBJECT", "REFCOUNT", "nolimit"), "no limit: still shared");
        ctx.setting("maxmemory", "1000000000");
        ctx.call("SET", "lru", "7");
        ctx.call("INCR", "counter");
        assertEquals(":1\r\n", ctx.call("OBJECT", "REFCOUNT", "lru"));
        assertEquals(":1\r\n", ctx.call("OBJECT", "REFCOUNT", "counter"), "INCR's result is not shared either");
        assertEquals(":2147483647\r\n", ctx.call("OBJECT", "REFCOUNT", "small"), "decided when it was stored");
        assertEquals(FakeCommandContext.bulk("int"), ctx.call("OBJECT", "ENCODING", "lru"));
        ctx.setting("maxmemory-policy", "noeviction");
        ctx.setting("maxmemory", "0");
        assertEquals(":1\r\n", ctx.call("OBJECT", "REFCOUNT", "lru"), "a later policy does not share it");
        ctx.call("INCR", "counter");
        assertEquals(":2147483647\r\n", ctx.call("OBJECT", "REFCOUNT", "counter"), "a new value is shared");
        assertEquals(NIL, ctx.call("OBJECT", "REFCOUNT", "missing"));
    }

    @Test
    void renameAndMoveKeepAnIntegersSharingAndCopyGivesTheCopyAnObjectOfItsOwn() {
        ctx.call("SET", "shared", "5");
        ctx.setting("maxmemory", "1000000000");
        ctx.setting("maxmemory-policy", "allkeys-lfu");
        ctx.call("SET", "own", "5");
        ctx.call("RENAME", "shared", "renamed");
        ctx.call("MOVE", "own", "1");
        ctx.call("COPY", "renamed", "copied");
        assertEquals(":2147483647\r\n", ctx.call("OBJECT", "REFCOUNT", "renamed"));
        assertEquals(":1\r\n", ctx.call("OBJECT", "REFCOUNT", "copied"));
        assertEquals(FakeCommandContext.bulk("int"), ctx.call("OBJECT", "ENCODING", "copied"));
        ctx.setting("maxmemory", "0");
        ctx.call("COPY", "renamed", "copied2");
        assertEquals(":1\r\n", ctx.call("OBJECT", "REFCOUNT", "copied2"), "COPY duplicates under any policy");
        ctx.call("SELECT", "1");
        assertEquals(":1\r\n", ctx.call("OBJECT", "REFCOUNT", "own"));
    }

    @Test
    void idletimeCountsSecondsSinceTheLastAccessAndNoTouchLookupsLeaveIt() {
        ctx.call("SET", "k", "v");
        ctx.advance(5_000);
        assertEquals(":5\r\n", ctx.call("OBJECT", "IDLETIME", "k"));
        ctx.call("TYPE", "k");
        ctx.call("EXISTS", "k");
        ctx.call("TTL", "k");
        ctx.call("OBJECT", "ENCODING", "k");
        assertEquals(":5\r\n", ctx.call("OBJECT", "IDLETIME", "k"), "LOOKUP_NOTOUCH commands");
        ctx.call("GET", "k");
        assertEquals(":0\r\n", ctx.call("OBJECT", "IDLETIME", "k"));
        ctx.advance(3_000);
        ctx.call("TOUCH", "k");
        assertEquals(":0\r\n", ctx.call("OBJECT", "IDLETIME", "k"));
        ctx.advance(2_000);
        ctx.call("SET", "k", "w");
        assertEquals(":0\r\n", ctx.call("OBJECT", "IDLETIME", "k"), "an overwrite is a new value");
        assertEquals(NIL, ctx.call("OBJECT", "IDLETIME", "missing"));
        assertEquals(LFU_NOT_SELECTED, ctx.call("OBJECT", "FREQ", "k"));
    }

    @Test
    void freqStartsAtFiveCountsAccessesLogarithmicallyAndDecaysPerMinute() {
        ctx.setting("maxmemory-policy", "allkeys-lfu");
        ctx.call("SET", "k", "v");
        assertEquals(":5\r\n", ctx.call("OBJECT", "FREQ", "k"));
        ctx.call("EXISTS", "k");
        ctx.call("TYPE", "k");
        assertEquals(":5\r\n", ctx.call("OBJECT", "FREQ", "k"));
        ctx.call("GET", "k");
        assertEquals(":6\r\n", ctx.call("OBJECT", "FREQ", "k"), "the first increment is certain");
        for (int i = 0; i < 1000; i++) {
            ctx.call("GET", "k");
        }
        long frequent = (Long) ctx.reply("OBJECT", "FREQ", "k");
        assertTrue(frequent > 10 && frequent < 40, "logarithmic: " + frequent);
        ctx.call("SET", "k", "w");
        long overwritten = (Long) ctx.reply("OBJECT", "FREQ", "k");
        assertTrue(overwritten >= frequent, "an overwrite keeps the counter");
        ctx.advance(3 * 60_000);
        assertEquals(overwritten - 3, (Long) ctx.reply("OBJECT", "FREQ", "k"), "one per lfu-decay-time minute");
        assertEquals(LFU_SELECTED, ctx.call("OBJECT", "IDLETIME", "k"));
        assertEquals(NIL, ctx.call("OBJECT", "FREQ", "missing"));
    }

    @Test
    void helpArityAndUnknownSubcommandAsRedisWordsThem() {
        String help = ctx.call("OBJECT", "HELP");
        assertTrue(help.startsWith("*15\r\n+OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"
            + "+ENCODING <key>\r\n"), help);
        assertTrue(help.endsWith("+HELP\r\n+    Prints this help.\r\n"), help);
        assertEquals("-ERR wrong number of arguments for 'object|encoding' command\r\n",
            ctx.call("OBJECT", "ENCODING"));
        assertEquals("-ERR unknown subcommand 'foo'. Try OBJECT HELP.\r\n", ctx.call("OBJECT", "foo"));
    }

    /** RENAME a to b, COPY b to c, MOVE c to database 1: b and c keep the encoding a had. */
    private void assertEncodingKeptThroughRenameCopyAndMove(String encoding) {
        ctx.call("RENAME", "a", "b");
        ctx.call("COPY", "b", "c");
        ctx.call("MOVE", "c", "1");
        assertEquals(encoding, ctx.call("OBJECT", "ENCODING", "b"));
        ctx.call("SELECT", "1");
        assertEquals(encoding, ctx.call("OBJECT", "ENCODING", "c"));
        ctx.call("SELECT", "0");
    }
}
