package dev.lacewing.core.command.string;

import static dev.lacewing.core.command.FakeCommandContext.START;
import static dev.lacewing.core.command.FakeCommandContext.bulk;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.api.Keyspace;
import dev.lacewing.core.command.FakeCommandContext;
import dev.lacewing.core.command.generic.KeyCommands;
import dev.lacewing.core.datatype.TypedValue;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The string family against replies recorded from Redis 7.0.15 for the same commands. */
class StringCommandsTest {

    private static final String OK = "+OK\r\n";
    private static final String NIL = "$-1\r\n";
    private static final String ZERO = ":0\r\n";
    private static final String ONE = ":1\r\n";
    private static final String SYNTAX = "-ERR syntax error\r\n";
    private static final String NOT_INTEGER = "-ERR value is not an integer or out of range\r\n";
    private static final String WRONG_TYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";

    private final FakeCommandContext ctx = new FakeCommandContext(StringCommands::register, KeyCommands::register);

    private static String expireError(String command) {
        return "-ERR invalid expire time in '" + command + "' command\r\n";
    }

    /** Any aggregate value: the string commands only need to see that it is not a string. */
    private void putAggregate(String key) {
        TypedValue list = new TypedValue() {
            @Override
            public String typeName() {
                return "list";
            }

            @Override
            public String encoding() {
                return "quicklist";
            }

            @Override
            public TypedValue copy() {
                return this;
            }

            @Override
            public long memoryUsage() {
                return 0;
            }
        };
        byte[] name = FakeCommandContext.bytes(key);
        ctx.keyspace().put(name, 0, name.length, list, Keyspace.NO_EXPIRY);
    }

    @Nested
    class Set {

        @Test
        void setAndGetStoreAnyBytes() {
            String value = "\0\r\n\u00ff binary";
            assertEquals(OK, ctx.call("SET", "k\0", value));
            assertEquals(bulk(value), ctx.call("GET", "k\0"));
            assertEquals(NIL, ctx.call("GET", "k"));
        }

        @Test
        void setReplacesTheValueAndClearsTheExpiryUnlessKeepttl() {
            ctx.call("SET", "k", "v", "EX", "100");
            assertEquals(OK, ctx.call("SET", "k", "w", "KEEPTTL"));
            assertEquals(":100\r\n", ctx.call("TTL", "k"));
            assertEquals(OK, ctx.call("SET", "k", "x"));
            assertEquals(":-1\r\n", ctx.call("TTL", "k"));
        }

        @Test
        void setTakesEveryFormOfExpire() {
            ctx.call("SET", "a", "v", "EX", "10");
            ctx.call("SET", "b", "v", "PX", "1500");
            ctx.call("SET", "c", "v", "EXAT", Long.toString(START / 1000 + 20));
            ctx.call("SET", "d", "v", "PXAT", Long.toString(START + 2500));
            assertEquals(":10000\r\n", ctx.call("PTTL", "a"));
            assertEquals(":1500\r\n", ctx.call("PTTL", "b"));
            assertEquals(":20000\r\n", ctx.call("PTTL", "c"));
            assertEquals(":2500\r\n", ctx.call("PTTL", "d"));
        }

        @Test
        void anAbsoluteTimeInThePastStoresAKeyThatIsAlreadyGone() {
            assertEquals(OK, ctx.call("SET", "k", "v", "PXAT", "1"));
            assertEquals(":-2\r\n", ctx.call("TTL", "k"));
        }

        @Test
        void nxAndXxDecideOnExistence() {
            assertEquals(NIL, ctx.call("SET", "k", "v", "XX"));
            assertEquals(ZERO, ctx.call("EXISTS", "k"));
            assertEquals(OK, ctx.call("SET", "k", "v", "NX"));
            assertEquals(NIL, ctx.call("SET", "k", "w", "nx"));
            assertEquals(OK, ctx.call("SET", "k", "w", "XX"));
            assertEquals(bulk("w"), ctx.call("GET", "k"));
        }

        @Test
        void getRepliesTheOldValueEvenWhenNxStopsTheSet() {
            assertEquals(NIL, ctx.call("SET", "k", "v", "GET"));
            assertEquals(bulk("v"), ctx.call("SET", "k", "w", "GET"));
            assertEquals(bulk("w"), ctx.call("SET", "k", "x", "NX", "GET"));
            assertEquals(bulk("w"), ctx.call("GET", "k"));
            assertEquals(NIL, ctx.call("SET", "n", "v", "NX", "GET"));
            assertEquals(bulk("v"), ctx.call("GET", "n"));
        }

        @Test
        void getOnAnAggregateIsWrongTypeAndSetsNothing() {
            putAggregate("l");
            assertEquals(WRONG_TYPE, ctx.call("SET", "l", "v", "GET"));
            assertEquals("+list\r\n", ctx.call("TYPE", "l"));
            assertEquals(OK, ctx.call("SET", "l", "v"));
            assertEquals("+string\r\n", ctx.call("TYPE", "l"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"NX XX", "KEEPTTL EX 10", "EX 10 PX 10", "EX", "PX 1 KEEPTTL", "FOO", "EXAT 1 PXAT 1",
            "PERSIST"})
        void conflictingOrUnknownOptionsAreSyntaxErrors(String options) {
            String[] words = ("SET k v " + options).split(" ");
            assertEquals(SYNTAX, ctx.call(words));
            assertEquals(ZERO, ctx.call("EXISTS", "k"));
        }

        @Test
        void expireTimesMustBePositiveAndNotOverflow() {
            assertEquals(expireError("set"), ctx.call("SET", "k", "v", "EX", "0"));
            assertEquals(expireError("set"), ctx.call("SET", "k", "v", "PX", "-1"));
            assertEquals(expireError("set"), ctx.call("SET", "k", "v", "EX", "9223372036854776"));
            assertEquals(expireError("set"), ctx.call("SET", "k", "v", "PX", "9223372036854775807"));
            assertEquals(NOT_INTEGER, ctx.call("SET", "k", "v", "EX", "ten"));
            assertEquals(ZERO, ctx.call("EXISTS", "k"));
        }

        @Test
        void setnxSetexAndPsetex() {
            assertEquals(ONE, ctx.call("SETNX", "k", "v"));
            assertEquals(ZERO, ctx.call("SETNX", "k", "z"));
            assertEquals(OK, ctx.call("SETEX", "e", "10", "v"));
            assertEquals(":10\r\n", ctx.call("TTL", "e"));
            assertEquals(OK, ctx.call("PSETEX", "p", "1500", "v"));
            assertEquals(":1500\r\n", ctx.call("PTTL", "p"));
            assertEquals(expireError("setex"), ctx.call("SETEX", "k", "0", "v"));
            assertEquals(expireError("psetex"), ctx.call("PSETEX", "k", "-1", "v"));
            assertEquals(NOT_INTEGER, ctx.call("SETEX", "k", "abc", "v"));
        }

        @Test
        void anExpiredKeyReadsAsMissing() {
            ctx.call("SET", "k", "v", "PX", "100");
            ctx.advance(99);
            assertEquals(bulk("v"), ctx.call("GET", "k"));
            ctx.advance(1);
            assertEquals(NIL, ctx.call("GET", "k"));
            assertEquals(ONE, ctx.call("SETNX", "k", "again"));
        }
    }

    @Nested
    class GetVariants {

        @Test
        void getsetRepliesTheOldValueAndClearsTheExpiry() {
            assertEquals(NIL, ctx.call("GETSET", "k", "1"));
            ctx.call("EXPIRE", "k", "100");
            assertEquals(bulk("1"), ctx.call("GETSET", "k", "2"));
            assertEquals(":-1\r\n", ctx.call("TTL", "k"));
        }

        @Test
        void getdelRepliesAndDeletes() {
            ctx.call("SET", "k", "v");
            assertEquals(bulk("v"), ctx.call("GETDEL", "k"));
            assertEquals(NIL, ctx.call("GETDEL", "k"));
        }

        @Test
        void getexChangesOrRemovesTheExpiry() {
            ctx.call("SET", "k", "v");
            assertEquals(bulk("v"), ctx.call("GETEX", "k", "EX", "10"));
            assertEquals(":10\r\n", ctx.call("TTL", "k"));
            assertEquals(bulk("v"), ctx.call("GETEX", "k", "PERSIST"));
            assertEquals(":-1\r\n", ctx.call("TTL", "k"));
            assertEquals(bulk("v"), ctx.call("GETEX", "k"));
            assertEquals(bulk("v"), ctx.call("GETEX", "k", "EXAT", "1"));
            assertEquals(ZERO, ctx.call("EXISTS", "k"));
        }

        @Test
        void getexChecksOptionsThenTheKeyThenTheTime() {
            assertEquals(SYNTAX, ctx.call("GETEX", "k", "PERSIST", "EX", "10"));
            assertEquals(SYNTAX, ctx.call("GETEX", "k", "bogus"));
            assertEquals(SYNTAX, ctx.call("GETEX", "k", "KEEPTTL"));
            assertEquals(NIL, ctx.call("GETEX", "missing", "EX", "0"));
            ctx.call("SET", "k", "v");
            assertEquals(expireError("getex"), ctx.call("GETEX", "k", "EX", "0"));
        }

        @Test
        void mgetRepliesNilForMissingKeysAndAggregates() {
            ctx.call("SET", "a", "1");
            putAggregate("l");
            assertEquals("*3\r\n" + bulk("1") + NIL + NIL, ctx.call("MGET", "a", "missing", "l"));
        }
    }

    @Nested
    class MultiSet {

        @Test
        void msetSetsEveryPairAndNeedsPairs() {
            assertEquals("-ERR wrong number of arguments for 'mset' command\r\n", ctx.call("MSET", "a", "1", "b"));
            assertEquals(OK, ctx.call("MSET", "a", "1", "b", "2"));
            assertEquals("*2\r\n" + bulk("1") + bulk("2"), ctx.call("MGET", "a", "b"));
        }

        @Test
        void msetnxSetsNothingWhenAnyKeyExists() {
            ctx.call("SET", "a", "1");
            assertEquals(ZERO, ctx.call("MSETNX", "a", "9", "c", "3"));
            assertEquals(ZERO, ctx.call("EXISTS", "c"));
            assertEquals(ONE, ctx.call("MSETNX", "c", "3", "d", "4"));
            assertEquals(bulk("4"), ctx.call("GET", "d"));
        }
    }

    @Nested
    class Counters {

        @Test
        void incrAndDecrCountFromZeroAndKeepTheExpiry() {
            assertEquals(ONE, ctx.call("INCR", "n"));
            ctx.call("EXPIRE", "n", "100");
            assertEquals(":11\r\n", ctx.call("INCRBY", "n", "10"));
            assertEquals(":10\r\n", ctx.call("DECR", "n"));
            assertEquals(":-5\r\n", ctx.call("DECRBY", "n", "15"));
            assertEquals(bulk("-5"), ctx.call("GET", "n"));
            assertEquals(":100\r\n", ctx.call("TTL", "n"));
        }

        @Test
        void nonIntegersAndOverflowsAreRefused() {
            ctx.call("SET", "s", "abc");
            assertEquals(NOT_INTEGER, ctx.call("INCR", "s"));
            ctx.call("SET", "s", " 1");
            assertEquals(NOT_INTEGER, ctx.call("INCR", "s"));
            ctx.call("SET", "n", "9223372036854775807");
            assertEquals("-ERR increment or decrement would overflow\r\n", ctx.call("INCR", "n"));
            assertEquals("-ERR decrement would overflow\r\n", ctx.call("DECRBY", "n", "-9223372036854775808"));
            assertEquals(NOT_INTEGER, ctx.call("INCRBY", "n", "x"));
            ctx.call("SET", "m", "-9223372036854775808");
            assertEquals("-ERR increment or decrement would overflow\r\n", ctx.call("DECR", "m"));
        }

        @Test
        void incrbyfloatAddsInLongDoublePrecision() {
            ctx.call("SET", "f", "10.5");
            assertEquals(bulk("10.6"), ctx.call("INCRBYFLOAT", "f", "0.1"));
            ctx.call("SET", "f", "1e3");
            assertEquals(bulk("1015"), ctx.call("INCRBYFLOAT", "f", "1.5e1"));
            assertEquals(bulk("1015"), ctx.call("GET", "f"));
            assertEquals(bulk("2.5"), ctx.call("INCRBYFLOAT", "new", "2.5"));
        }

        @Test
        void incrbyfloatRefusesNonFloatsAndInfinity() {
            ctx.call("SET", "f", "1");
            assertEquals("-ERR increment would produce NaN or Infinity\r\n", ctx.call("INCRBYFLOAT", "f", "inf"));
            assertEquals("-ERR value is not a valid float\r\n", ctx.call("INCRBYFLOAT", "f", "abc"));
            assertEquals(bulk("1"), ctx.call("GET", "f"));
        }
    }

    @Nested
    class Ranges {

        @Test
        void appendAndStrlen() {
            assertEquals(":5\r\n", ctx.call("APPEND", "s", "hello"));
            assertEquals(":11\r\n", ctx.call("APPEND", "s", " world"));
            assertEquals(":11\r\n", ctx.call("STRLEN", "s"));
            assertEquals(ZERO, ctx.call("STRLEN", "missing"));
        }

        @Test
        void getrangeClampsLikeRedis() {
            ctx.call("SET", "s", "hello world");
            assertEquals(bulk("hello world"), ctx.call("GETRANGE", "s", "0", "-1"));
            assertEquals(bulk("world"), ctx.call("GETRANGE", "s", "-5", "-1"));
            assertEquals(bulk(""), ctx.call("GETRANGE", "s", "5", "2"));
            assertEquals(bulk(""), ctx.call("GETRANGE", "s", "-1", "-5"));
            assertEquals(bulk("hello world"), ctx.call("GETRANGE", "s", "0", "100"));
            assertEquals(bulk("ell"), ctx.call("SUBSTR", "s", "1", "3"));
            assertEquals(bulk(""), ctx.call("GETRANGE", "missing", "0", "1"));
            assertEquals(NOT_INTEGER, ctx.call("GETRANGE", "s", "a", "1"));
        }

        @Test
        void setrangePatchesAndPadsWithZeroBytes() {
            ctx.call("SET", "s", "hello world");
            assertEquals(":11\r\n", ctx.call("SETRANGE", "s", "6", "W"));
            assertEquals(bulk("hello World"), ctx.call("GET", "s"));
            assertEquals(":5\r\n", ctx.call("SETRANGE", "e", "3", "ab"));
            assertEquals(bulk("\0\0\0ab"), ctx.call("GET", "e"));
            assertEquals(ZERO, ctx.call("SETRANGE", "z", "5", ""));
            assertEquals(ZERO, ctx.call("EXISTS", "z"));
        }

        @Test
        void setrangeRefusesBadOffsetsAndHugeStrings() {
            assertEquals("-ERR offset is out of range\r\n", ctx.call("SETRANGE", "s", "-1", "x"));
            assertEquals("-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n",
                ctx.call("SETRANGE", "s", "536870912", "x"));
            ctx.setting("proto-max-bulk-len", "10");
            assertEquals("-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n",
                ctx.call("SETRANGE", "s", "10", "x"));
            assertEquals(":10\r\n", ctx.call("SETRANGE", "s", "9", "x"));
        }
    }

    @Test
    void everyReadOrChangeOfAnAggregateIsWrongType() {
        putAggregate("l");
        for (String[] command : new String[][] {{"GET", "l"}, {"INCR", "l"}, {"APPEND", "l", "x"}, {"STRLEN", "l"},
            {"GETRANGE", "l", "0", "1"}, {"SETRANGE", "l", "0", "x"}, {"GETSET", "l", "x"}, {"GETDEL", "l"},
            {"GETEX", "l"}, {"INCRBYFLOAT", "l", "1"}, {"DECRBY", "l", "1"}}) {
            assertEquals(WRONG_TYPE, ctx.call(command), String.join(" ", command));
        }
        assertEquals("+list\r\n", ctx.call("TYPE", "l"));
    }
}
