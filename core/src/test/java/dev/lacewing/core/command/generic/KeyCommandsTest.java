package dev.lacewing.core.command.generic;

import static dev.lacewing.core.command.FakeCommandContext.START;
import static dev.lacewing.core.command.FakeCommandContext.bulk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.Keyspace;
import dev.lacewing.core.command.FakeCommandContext;
import dev.lacewing.core.command.hash.HashCommands;
import dev.lacewing.core.command.FakeCommandContext.Error;
import dev.lacewing.core.command.FakeCommandContext.Simple;
import dev.lacewing.core.command.string.StringCommands;
import dev.lacewing.core.datatype.TypedValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KeyCommandsTest {

    private static final String OK = "+OK\r\n";
    private static final String NIL = "$-1\r\n";
    private static final String ZERO = ":0\r\n";
    private static final String ONE = ":1\r\n";
    private static final String SYNTAX = "-ERR syntax error\r\n";
    private static final String NOT_INTEGER = "-ERR value is not an integer or out of range\r\n";
    private static final String DB_OUT_OF_RANGE = "-ERR DB index is out of range\r\n";
    private static final String SAME_OBJECT = "-ERR source and destination objects are the same\r\n";
    private static final String INT_OUT_OF_RANGE =
        "-ERR value is out of range, value must between -2147483648 and 2147483647\r\n";

    private final FakeCommandContext ctx = new FakeCommandContext(StringCommands::register, KeyCommands::register);

    /** An aggregate value, standing in for the list type until it exists. */
    private static final class FakeList implements TypedValue {
        final List<String> elements;

        FakeList(List<String> elements) {
            this.elements = new ArrayList<>(elements);
        }

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
            return new FakeList(elements);
        }

        @Override
        public long memoryUsage() {
            return 16;
        }
    }

    private static FakeList putList(FakeCommandContext context, String key, String... elements) {
        FakeList list = new FakeList(List.of(elements));
        byte[] name = FakeCommandContext.bytes(key);
        context.keyspace().put(name, 0, name.length, list, Keyspace.NO_EXPIRY);
        return list;
    }

    private static Object stored(FakeCommandContext context, int database, String key) {
        return context.keyspace(database).get(FakeCommandContext.bytes(key));
    }

    private static String ttlError(String command) {
        return "-ERR invalid expire time in '" + command + "' command\r\n";
    }

    @Nested
    class Table {

        @Test
        void everyCommandIsRegisteredWithRedisMetadata() {
            assertSpec("del", -2, 1, -1, KeyScope.KEYS, CommandFlag.WRITE);
            assertSpec("unlink", -2, 1, -1, KeyScope.KEYS, CommandFlag.WRITE, CommandFlag.FAST);
            assertSpec("exists", -2, 1, -1, KeyScope.KEYS, CommandFlag.READONLY, CommandFlag.FAST);
            assertSpec("touch", -2, 1, -1, KeyScope.KEYS, CommandFlag.READONLY, CommandFlag.FAST);
            assertSpec("type", 2, 1, 1, KeyScope.KEYS, CommandFlag.READONLY, CommandFlag.FAST);
            assertSpec("expire", -3, 1, 1, KeyScope.KEYS, CommandFlag.WRITE, CommandFlag.FAST);
            assertSpec("pexpire", -3, 1, 1, KeyScope.KEYS, CommandFlag.WRITE, CommandFlag.FAST);
            assertSpec("expireat", -3, 1, 1, KeyScope.KEYS, CommandFlag.WRITE, CommandFlag.FAST);
            assertSpec("pexpireat", -3, 1, 1, KeyScope.KEYS, CommandFlag.WRITE, CommandFlag.FAST);
            assertSpec("ttl", 2, 1, 1, KeyScope.KEYS, CommandFlag.READONLY, CommandFlag.FAST);
            assertSpec("pttl", 2, 1, 1, KeyScope.KEYS, CommandFlag.READONLY, CommandFlag.FAST);
            assertSpec("expiretime", 2, 1, 1, KeyScope.KEYS, CommandFlag.READONLY, CommandFlag.FAST);
            assertSpec("pexpiretime", 2, 1, 1, KeyScope.KEYS, CommandFlag.READONLY, CommandFlag.FAST);
            assertSpec("persist", 2, 1, 1, KeyScope.KEYS, CommandFlag.WRITE, CommandFlag.FAST);
            assertSpec("rename", 3, 1, 2, KeyScope.KEYS, CommandFlag.WRITE);
            assertSpec("renamenx", 3, 1, 2, KeyScope.KEYS, CommandFlag.WRITE, CommandFlag.FAST);
            assertSpec("copy", -3, 1, 2, KeyScope.KEYS, CommandFlag.WRITE, CommandFlag.DENYOOM);
            assertSpec("move", 3, 1, 1, KeyScope.KEYS, CommandFlag.WRITE, CommandFlag.FAST);
            assertSpec("keys", 2, 0, 0, KeyScope.ALL, CommandFlag.READONLY);
            assertSpec("scan", -2, 0, 0, KeyScope.ALL, CommandFlag.READONLY);
            assertSpec("randomkey", 1, 0, 0, KeyScope.ALL, CommandFlag.READONLY);
            assertSpec("dbsize", 1, 0, 0, KeyScope.ALL, CommandFlag.READONLY, CommandFlag.FAST);
            assertSpec("flushdb", -1, 0, 0, KeyScope.ALL, CommandFlag.WRITE);
            assertSpec("flushall", -1, 0, 0, KeyScope.ALL, CommandFlag.WRITE);
            assertSpec("swapdb", 3, 0, 0, KeyScope.ALL, CommandFlag.WRITE, CommandFlag.FAST);
            assertSpec("select", 2, 0, 0, KeyScope.NONE, CommandFlag.LOADING, CommandFlag.STALE, CommandFlag.FAST);
            assertEquals("generic", ctx.command("del").spec().group());
            assertEquals("connection", ctx.command("select").spec().group());
            assertEquals("server", ctx.command("flushall").spec().group());
        }

        private void assertSpec(String name, int arity, int firstKey, int lastKey, KeyScope scope,
                                CommandFlag... flags) {
            CommandSpec spec = ctx.command(name).spec();
            assertEquals(arity, spec.arity(), name);
            assertEquals(firstKey, spec.firstKey(), name);
            assertEquals(lastKey, spec.lastKey(), name);
            assertEquals(firstKey == 0 ? 0 : 1, spec.step(), name);
            assertEquals(scope, spec.scope(), name);
            assertEquals(Set.of(flags), spec.flags(), name);
        }

        @Test
        void wrongArgumentCountsAreRefusedWithTheCommandName() {
            assertEquals("-ERR wrong number of arguments for 'del' command\r\n", ctx.call("DEL"));
            assertEquals("-ERR wrong number of arguments for 'expire' command\r\n", ctx.call("EXPIRE", "k"));
            assertEquals("-ERR wrong number of arguments for 'rename' command\r\n", ctx.call("rename", "a", "b", "c"));
            assertEquals("-ERR wrong number of arguments for 'scan' command\r\n", ctx.call("SCAN"));
            assertEquals("-ERR wrong number of arguments for 'randomkey' command\r\n", ctx.call("RANDOMKEY", "x"));
        }
    }

    @Nested
    class DelExistsTouchType {

        @Test
        void delRepliesHowManyKeysItDeletedCountingARepeatedKeyOnce() {
            ctx.call("SET", "a", "1");
            ctx.call("SET", "b", "2");
            assertEquals(":2\r\n", ctx.call("DEL", "a", "a", "b", "missing"));
            assertEquals(NIL, ctx.call("GET", "a"));
            assertEquals(ZERO, ctx.call("DEL", "a"));
        }

        @Test
        void unlinkDeletesLikeDel() {
            ctx.call("SET", "a", "1");
            putList(ctx, "l", "x");
            assertEquals(":2\r\n", ctx.call("UNLINK", "a", "l", "nope"));
            assertEquals(ZERO, ctx.call("EXISTS", "a", "l"));
        }

        @Test
        void existsCountsEveryArgumentNamingALiveKeyDuplicatesIncluded() {
            ctx.call("SET", "a", "1");
            putList(ctx, "l", "x");
            assertEquals(":4\r\n", ctx.call("EXISTS", "a", "a", "l", "missing", "a"));
            assertEquals(ZERO, ctx.call("EXISTS", "missing"));
        }

        @Test
        void touchCountsExistingKeysLikeExists() {
            ctx.call("SET", "a", "1");
            assertEquals(":2\r\n", ctx.call("TOUCH", "a", "b", "a"));
        }

        @Test
        void typeNamesStringsAggregatesAndMissingKeysAsSimpleStrings() {
            ctx.call("SET", "s", "v");
            putList(ctx, "l", "x");
            assertEquals("+string\r\n", ctx.call("TYPE", "s"));
            assertEquals("+list\r\n", ctx.call("TYPE", "l"));
            assertEquals("+none\r\n", ctx.call("TYPE", "missing"));
        }

        @Test
        void expiredKeysAreInvisibleToDelExistsTouchAndType() {
            ctx.call("SET", "a", "1", "PX", "100");
            ctx.call("SET", "b", "1", "PX", "100");
            ctx.advance(100);
            assertEquals(ZERO, ctx.call("EXISTS", "a"));
            assertEquals(ZERO, ctx.call("TOUCH", "a"));
            assertEquals("+none\r\n", ctx.call("TYPE", "a"));
            assertEquals(ZERO, ctx.call("DEL", "b"));
        }

        @Test
        void keysAreBinarySafe() {
            String nul = "a\0b";
            String crlf = "x\r\ny";
            ctx.call("SET", nul, "1");
            ctx.call("SET", crlf, "2");
            assertEquals(ZERO, ctx.call("EXISTS", "a", "x", "a\0", "x\r\n"));
            assertEquals(":2\r\n", ctx.call("EXISTS", nul, crlf));
            assertEquals("+string\r\n", ctx.call("TYPE", crlf));
            assertEquals(ONE, ctx.call("DEL", nul));
            assertEquals(ONE, ctx.call("EXISTS", crlf));
        }
    }

    @Nested
    class Expire {

        @Test
        void expireSetsATimeToLiveInSecondsAndPexpireInMilliseconds() {
            ctx.call("SET", "k", "v");
            assertEquals(ONE, ctx.call("EXPIRE", "k", "100"));
            assertEquals(":100\r\n", ctx.call("TTL", "k"));
            assertEquals(":100000\r\n", ctx.call("PTTL", "k"));
            assertEquals(ONE, ctx.call("PEXPIRE", "k", "2500"));
            assertEquals(":2500\r\n", ctx.call("PTTL", "k"));
            assertEquals(":3\r\n", ctx.call("TTL", "k"));
        }

        @Test
        void expireatAndPexpireatSetAbsoluteTimes() {
            ctx.call("SET", "k", "v");
            assertEquals(ONE, ctx.call("EXPIREAT", "k", Long.toString(START / 1000 + 60)));
            assertEquals(":" + (START + 60_000) + "\r\n", ctx.call("PEXPIRETIME", "k"));
            assertEquals(ONE, ctx.call("PEXPIREAT", "k", Long.toString(START + 1234)));
            assertEquals(":1234\r\n", ctx.call("PTTL", "k"));
        }

        @Test
        void aKeyIsGoneOnceItsTimeComes() {
            ctx.call("SET", "k", "v");
            ctx.call("PEXPIRE", "k", "1000");
            ctx.advance(999);
            assertEquals(bulk("v"), ctx.call("GET", "k"));
            assertEquals(":1\r\n", ctx.call("PTTL", "k"));
            ctx.advance(1);
            assertEquals(NIL, ctx.call("GET", "k"));
            assertEquals(":-2\r\n", ctx.call("TTL", "k"));
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "10"));
        }

        @ParameterizedTest
        @CsvSource({"EXPIRE, -1", "EXPIRE, 0", "PEXPIRE, 0", "PEXPIRE, -5000", "EXPIREAT, 1", "PEXPIREAT, 0",
            "EXPIREAT, -9223372036854775"})
        void aTimeNotInTheFutureDeletesTheKeyAndRepliesOne(String command, String time) {
            ctx.call("SET", "k", "v");
            assertEquals(ONE, ctx.call(command, "k", time));
            assertEquals(ZERO, ctx.call("EXISTS", "k"));
            assertEquals(ZERO, ctx.call(command, "k", time));
        }

        @Test
        void pexpireatNowDeletesAndOneMillisecondLaterLivesOneMillisecond() {
            ctx.call("SET", "a", "v");
            ctx.call("SET", "b", "v");
            assertEquals(ONE, ctx.call("PEXPIREAT", "a", Long.toString(START)));
            assertEquals(ZERO, ctx.call("EXISTS", "a"));
            assertEquals(ONE, ctx.call("PEXPIREAT", "b", Long.toString(START + 1)));
            assertEquals(ONE, ctx.call("EXISTS", "b"));
            ctx.advance(1);
            assertEquals(ZERO, ctx.call("EXISTS", "b"));
        }

        @Test
        void missingKeyRepliesZero() {
            assertEquals(ZERO, ctx.call("EXPIRE", "missing", "10"));
            assertEquals(ZERO, ctx.call("PEXPIREAT", "missing", "1"));
        }

        @Test
        void worksOnAggregateValues() {
            putList(ctx, "l", "x");
            assertEquals(ONE, ctx.call("EXPIRE", "l", "5"));
            assertEquals(":5\r\n", ctx.call("TTL", "l"));
            ctx.advance(5000);
            assertEquals("+none\r\n", ctx.call("TYPE", "l"));
        }

        @Test
        void nxSetsOnlyWhenTheKeyHasNoExpiry() {
            ctx.call("SET", "k", "v");
            assertEquals(ONE, ctx.call("EXPIRE", "k", "100", "NX"));
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "200", "nx"));
            assertEquals(":100\r\n", ctx.call("TTL", "k"));
        }

        @Test
        void xxSetsOnlyWhenTheKeyHasAnExpiry() {
            ctx.call("SET", "k", "v");
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "100", "XX"));
            assertEquals(":-1\r\n", ctx.call("TTL", "k"));
            ctx.call("EXPIRE", "k", "100");
            assertEquals(ONE, ctx.call("EXPIRE", "k", "200", "XX"));
            assertEquals(":200\r\n", ctx.call("TTL", "k"));
        }

        @Test
        void gtSetsOnlyALaterTimeAndTreatsNoExpiryAsInfinite() {
            ctx.call("SET", "k", "v");
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "100", "GT"));
            assertEquals(":-1\r\n", ctx.call("TTL", "k"));
            ctx.call("EXPIRE", "k", "100");
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "100", "GT"));
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "50", "GT"));
            assertEquals(ONE, ctx.call("EXPIRE", "k", "101", "GT"));
            assertEquals(":101\r\n", ctx.call("TTL", "k"));
        }

        @Test
        void ltSetsOnlyAnEarlierTimeAndAlwaysOnAKeyWithoutExpiry() {
            ctx.call("SET", "k", "v");
            assertEquals(ONE, ctx.call("EXPIRE", "k", "100", "LT"));
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "100", "LT"));
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "150", "lt"));
            assertEquals(ONE, ctx.call("EXPIRE", "k", "99", "LT"));
            assertEquals(":99\r\n", ctx.call("TTL", "k"));
        }

        @Test
        void xxAndGtCombine() {
            ctx.call("SET", "k", "v");
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "100", "XX", "GT"));
            ctx.call("EXPIRE", "k", "100");
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "50", "XX", "GT"));
            assertEquals(ONE, ctx.call("EXPIRE", "k", "150", "GT", "XX"));
        }

        @Test
        void aFailedConditionDoesNotDeleteEvenForAPastTime() {
            ctx.call("SET", "k", "v", "EX", "100");
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "-1", "NX"));
            assertEquals(ZERO, ctx.call("EXPIRE", "k", "-1", "GT"));
            assertEquals(ONE, ctx.call("EXISTS", "k"));
            assertEquals(ONE, ctx.call("EXPIRE", "k", "-1", "LT"));
            assertEquals(ZERO, ctx.call("EXISTS", "k"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"NX XX", "NX GT", "NX LT", "XX NX", "GT NX XX", "nx lt"})
        void nxWithAnyOtherOptionIsRefused(String options) {
            ctx.call("SET", "k", "v");
            List<String> words = new ArrayList<>(List.of("EXPIRE", "k", "10"));
            words.addAll(List.of(options.split(" ")));
            assertEquals("-ERR NX and XX, GT or LT options at the same time are not compatible\r\n",
                ctx.call(words.toArray(new String[0])));
            assertEquals(":-1\r\n", ctx.call("TTL", "k"));
        }

        @Test
        void gtWithLtIsRefused() {
            assertEquals("-ERR GT and LT options at the same time are not compatible\r\n",
                ctx.call("PEXPIRE", "k", "10", "GT", "LT"));
            assertEquals("-ERR GT and LT options at the same time are not compatible\r\n",
                ctx.call("EXPIRE", "k", "10", "XX", "LT", "GT"));
        }

        @Test
        void anUnknownOptionIsNamedInTheError() {
            assertEquals("-ERR Unsupported option FOO\r\n", ctx.call("EXPIRE", "k", "10", "FOO"));
            assertEquals("-ERR Unsupported option bar\r\n", ctx.call("EXPIREAT", "k", "10", "NX", "bar"));
            assertEquals("-ERR Unsupported option a  b\r\n", ctx.call("EXPIRE", "k", "10", "a\r\nb"));
        }

        @Test
        void anUnknownOptionIsQuotedAsRawBytesUpToItsFirstNul() {
            assertEquals("-ERR Unsupported option \r\n",
                ctx.call(FakeCommandContext.bytes("PEXPIRE"), FakeCommandContext.bytes("k"), FakeCommandContext.bytes("10"),
                    new byte[] {0, (byte) 0xff}));
            assertEquals("-ERR Unsupported option a\u00ffb\r\n",
                ctx.call(FakeCommandContext.bytes("EXPIRE"), FakeCommandContext.bytes("k"), FakeCommandContext.bytes("10"),
                    new byte[] {'a', (byte) 0xff, 'b', 0, 'c'}));
        }

        @Test
        void optionsAreCheckedBeforeTheTime() {
            assertEquals("-ERR Unsupported option FOO\r\n", ctx.call("EXPIRE", "k", "soon", "FOO"));
            assertEquals(NOT_INTEGER, ctx.call("EXPIRE", "k", "soon"));
            assertEquals(NOT_INTEGER, ctx.call("PEXPIRE", "k", "1.5"));
            assertEquals(NOT_INTEGER, ctx.call("EXPIRE", "k", " 1"));
            assertEquals(NOT_INTEGER, ctx.call("EXPIRE", "k", "99999999999999999999"));
        }

        @Test
        void theTimeIsCheckedBeforeTheKey() {
            assertEquals(ttlError("expire"), ctx.call("EXPIRE", "missing", "9223372036854776"));
        }

        @Test
        void timesThatOverflowAreRefusedNamingTheCommand() {
            ctx.call("SET", "k", "v");
            assertEquals(ttlError("expire"), ctx.call("EXPIRE", "k", "9223372036854776"));
            assertEquals(ttlError("expire"), ctx.call("EXPIRE", "k", "-9223372036854776"));
            assertEquals(ttlError("expire"), ctx.call("EXPIRE", "k", "9223372036854775"));
            assertEquals(ttlError("pexpire"), ctx.call("PEXPIRE", "k", "9223372036854775807"));
            assertEquals(ttlError("expireat"), ctx.call("EXPIREAT", "k", "9223372036854776"));
            assertEquals(":-1\r\n", ctx.call("TTL", "k"));
        }

        @Test
        void theLargestTimesThatFitAreAccepted() {
            ctx.call("SET", "a", "v");
            ctx.call("SET", "b", "v");
            assertEquals(ONE, ctx.call("EXPIREAT", "a", "9223372036854775"));
            assertEquals(":9223372036854775000\r\n", ctx.call("PEXPIRETIME", "a"));
            assertEquals(ONE, ctx.call("PEXPIREAT", "b", "9223372036854775807"));
            assertEquals(":9223372036854775807\r\n", ctx.call("PEXPIRETIME", "b"));
            assertEquals(":9223372036854776\r\n", ctx.call("EXPIRETIME", "b"));
            assertEquals(":" + (Long.MAX_VALUE - START) + "\r\n", ctx.call("PTTL", "b"));
        }

        @Test
        void ttlRoundsToTheNearestSecond() {
            ctx.call("SET", "k", "v");
            ctx.call("PEXPIRE", "k", "1499");
            assertEquals(ONE, ctx.call("TTL", "k"));
            ctx.call("PEXPIRE", "k", "1500");
            assertEquals(":2\r\n", ctx.call("TTL", "k"));
            ctx.call("PEXPIRE", "k", "499");
            assertEquals(ZERO, ctx.call("TTL", "k"));
        }

        @Test
        void ttlAndPttlReplyMinusTwoForAMissingKeyAndMinusOneWithoutExpiry() {
            assertEquals(":-2\r\n", ctx.call("TTL", "missing"));
            assertEquals(":-2\r\n", ctx.call("PTTL", "missing"));
            ctx.call("SET", "k", "v");
            assertEquals(":-1\r\n", ctx.call("TTL", "k"));
            assertEquals(":-1\r\n", ctx.call("PTTL", "k"));
        }

        @Test
        void expiretimeRepliesTheAbsoluteTimeRounded() {
            assertEquals(":-2\r\n", ctx.call("EXPIRETIME", "missing"));
            assertEquals(":-2\r\n", ctx.call("PEXPIRETIME", "missing"));
            ctx.call("SET", "k", "v");
            assertEquals(":-1\r\n", ctx.call("EXPIRETIME", "k"));
            assertEquals(":-1\r\n", ctx.call("PEXPIRETIME", "k"));
            ctx.call("PEXPIREAT", "k", "2000000000499");
            assertEquals(":2000000000\r\n", ctx.call("EXPIRETIME", "k"));
            assertEquals(":2000000000499\r\n", ctx.call("PEXPIRETIME", "k"));
            ctx.call("PEXPIREAT", "k", "2000000000500");
            assertEquals(":2000000001\r\n", ctx.call("EXPIRETIME", "k"));
        }

        @Test
        void persistRemovesAnExpiry() {
            assertEquals(ZERO, ctx.call("PERSIST", "missing"));
            ctx.call("SET", "k", "v");
            assertEquals(ZERO, ctx.call("PERSIST", "k"));
            ctx.call("EXPIRE", "k", "10");
            assertEquals(ONE, ctx.call("PERSIST", "k"));
            assertEquals(":-1\r\n", ctx.call("TTL", "k"));
            ctx.advance(20_000);
            assertEquals(bulk("v"), ctx.call("GET", "k"));
        }

        @Test
        void persistDoesNotRevivePastKeys() {
            ctx.call("SET", "k", "v", "PX", "10");
            ctx.advance(10);
            assertEquals(ZERO, ctx.call("PERSIST", "k"));
            assertEquals(NIL, ctx.call("GET", "k"));
        }

        @Test
        void expiryIsBinarySafe() {
            String key = "\0\r\n\u00ff";
            ctx.call("SET", key, "v");
            assertEquals(ONE, ctx.call("EXPIRE", key, "7"));
            assertEquals(":7\r\n", ctx.call("TTL", key));
            assertEquals(":-2\r\n", ctx.call("TTL", "\0\r\n"));
        }
    }

    @Nested
    class Rename {

        @Test
        void renameMovesTheValueWithItsExpiry() {
            ctx.call("SET", "a", "1", "EX", "100");
            assertEquals(OK, ctx.call("RENAME", "a", "b"));
            assertEquals(NIL, ctx.call("GET", "a"));
            assertEquals(bulk("1"), ctx.call("GET", "b"));
            assertEquals(":100\r\n", ctx.call("TTL", "b"));
        }

        @Test
        void renameReplacesTheDestinationAndItsExpiry() {
            ctx.call("SET", "a", "1");
            ctx.call("SET", "b", "2", "EX", "50");
            assertEquals(OK, ctx.call("RENAME", "a", "b"));
            assertEquals(bulk("1"), ctx.call("GET", "b"));
            assertEquals(":-1\r\n", ctx.call("TTL", "b"));
            assertEquals(":1\r\n", ctx.call("DBSIZE"));
        }

        @Test
        void renameOfAMissingKeyIsAnErrorEvenOntoItself() {
            assertEquals("-ERR no such key\r\n", ctx.call("RENAME", "missing", "b"));
            assertEquals("-ERR no such key\r\n", ctx.call("RENAME", "missing", "missing"));
            assertEquals("-ERR no such key\r\n", ctx.call("RENAMENX", "missing", "b"));
            assertEquals("-ERR no such key\r\n", ctx.call("RENAMENX", "missing", "missing"));
        }

        @Test
        void renameOfAnExpiredKeyIsAnError() {
            ctx.call("SET", "a", "1", "PX", "5");
            ctx.advance(5);
            assertEquals("-ERR no such key\r\n", ctx.call("RENAME", "a", "b"));
            assertEquals(ZERO, ctx.call("EXISTS", "b"));
        }

        @Test
        void renameOntoItselfKeepsTheKey() {
            ctx.call("SET", "a", "1", "EX", "9");
            assertEquals(OK, ctx.call("RENAME", "a", "a"));
            assertEquals(ZERO, ctx.call("RENAMENX", "a", "a"));
            assertEquals(bulk("1"), ctx.call("GET", "a"));
            assertEquals(":9\r\n", ctx.call("TTL", "a"));
        }

        @Test
        void renamenxGivesWayToAnExistingDestination() {
            ctx.call("SET", "a", "1");
            ctx.call("SET", "b", "2");
            assertEquals(ZERO, ctx.call("RENAMENX", "a", "b"));
            assertEquals(bulk("1"), ctx.call("GET", "a"));
            assertEquals(bulk("2"), ctx.call("GET", "b"));
            assertEquals(ONE, ctx.call("RENAMENX", "a", "c"));
            assertEquals(bulk("1"), ctx.call("GET", "c"));
            assertEquals(ZERO, ctx.call("EXISTS", "a"));
        }

        @Test
        void renamenxOntoAnExpiredDestinationSucceeds() {
            ctx.call("SET", "a", "1");
            ctx.call("SET", "b", "2", "PX", "1");
            ctx.advance(1);
            assertEquals(ONE, ctx.call("RENAMENX", "a", "b"));
            assertEquals(bulk("1"), ctx.call("GET", "b"));
        }

        @Test
        void renameKeepsAggregateValuesAndBinaryNames() {
            FakeList list = putList(ctx, "l\0", "x");
            assertEquals(OK, ctx.call("RENAME", "l\0", "\r\nl"));
            assertEquals("+list\r\n", ctx.call("TYPE", "\r\nl"));
            assertEquals(list, stored(ctx, 0, "\r\nl"));
            assertEquals(ZERO, ctx.call("EXISTS", "l\0"));
        }
    }

    @Nested
    class Copy {

        @Test
        void copyDuplicatesTheValueAndItsExpiry() {
            ctx.call("SET", "a", "1", "EX", "100");
            assertEquals(ONE, ctx.call("COPY", "a", "b"));
            assertEquals(bulk("1"), ctx.call("GET", "a"));
            assertEquals(bulk("1"), ctx.call("GET", "b"));
            assertEquals(":100\r\n", ctx.call("TTL", "b"));
        }

        @Test
        void copyRefusesAnExistingDestinationUnlessReplace() {
            ctx.call("SET", "a", "1");
            ctx.call("SET", "b", "2", "EX", "50");
            assertEquals(ZERO, ctx.call("COPY", "a", "b"));
            assertEquals(bulk("2"), ctx.call("GET", "b"));
            assertEquals(ONE, ctx.call("COPY", "a", "b", "replace"));
            assertEquals(bulk("1"), ctx.call("GET", "b"));
            assertEquals(":-1\r\n", ctx.call("TTL", "b"));
        }

        @Test
        void copyOfAMissingOrExpiredKeyRepliesZero() {
            assertEquals(ZERO, ctx.call("COPY", "missing", "b"));
            ctx.call("SET", "a", "1", "PX", "1");
            ctx.advance(1);
            assertEquals(ZERO, ctx.call("COPY", "a", "b"));
            assertEquals(ZERO, ctx.call("EXISTS", "b"));
        }

        @Test
        void copyOntoItselfInTheSameDatabaseIsAnErrorEvenWhenMissing() {
            assertEquals(SAME_OBJECT, ctx.call("COPY", "a", "a"));
            ctx.call("SET", "a", "1");
            assertEquals(SAME_OBJECT, ctx.call("COPY", "a", "a", "REPLACE"));
            assertEquals(SAME_OBJECT, ctx.call("COPY", "a", "a", "DB", "0"));
        }

        @Test
        void copyToAnotherDatabase() {
            ctx.call("SET", "a", "1", "PX", "3000");
            assertEquals(ONE, ctx.call("COPY", "a", "a", "DB", "3"));
            assertEquals(ZERO, ctx.call("COPY", "a", "a", "DB", "3"));
            assertEquals(ONE, ctx.call("COPY", "a", "a", "db", "3", "REPLACE"));
            assertEquals(OK, ctx.call("SELECT", "3"));
            assertEquals(bulk("1"), ctx.call("GET", "a"));
            assertEquals(":3000\r\n", ctx.call("PTTL", "a"));
            assertEquals(OK, ctx.call("SELECT", "0"));
            assertEquals(bulk("1"), ctx.call("GET", "a"));
        }

        @Test
        void copyDeepCopiesAggregateValues() {
            FakeList original = putList(ctx, "l", "x", "y");
            assertEquals(ONE, ctx.call("COPY", "l", "m"));
            Object copy = stored(ctx, 0, "m");
            assertNotSame(original, copy);
            assertEquals(original.elements, ((FakeList) copy).elements);
            assertEquals("+list\r\n", ctx.call("TYPE", "m"));
        }

        @Test
        void copyValidatesTheDatabaseIndex() {
            ctx.call("SET", "a", "1");
            assertEquals(DB_OUT_OF_RANGE, ctx.call("COPY", "a", "b", "DB", "16"));
            assertEquals(DB_OUT_OF_RANGE, ctx.call("COPY", "a", "b", "DB", "-1"));
            assertEquals(NOT_INTEGER, ctx.call("COPY", "a", "b", "DB", "one"));
            assertEquals(INT_OUT_OF_RANGE, ctx.call("COPY", "a", "b", "DB", "2147483648"));
            assertEquals(ZERO, ctx.call("EXISTS", "b"));
        }

        @Test
        void copyReadsOptionsInOrder() {
            assertEquals(SYNTAX, ctx.call("COPY", "a", "b", "DB"));
            assertEquals(SYNTAX, ctx.call("COPY", "a", "b", "FOO"));
            assertEquals(SYNTAX, ctx.call("COPY", "a", "b", "REPLACE", "FOO"));
            assertEquals(DB_OUT_OF_RANGE, ctx.call("COPY", "a", "b", "DB", "99", "FOO"));
            assertEquals(SYNTAX, ctx.call("COPY", "a", "b", "FOO", "DB", "99"));
        }
    }

    @Nested
    class Move {

        @Test
        void moveTakesTheKeyAndItsExpiryToAnotherDatabase() {
            ctx.call("SET", "k", "v", "EX", "100");
            assertEquals(ONE, ctx.call("MOVE", "k", "5"));
            assertEquals(ZERO, ctx.call("EXISTS", "k"));
            ctx.call("SELECT", "5");
            assertEquals(bulk("v"), ctx.call("GET", "k"));
            assertEquals(":100\r\n", ctx.call("TTL", "k"));
        }

        @Test
        void moveRefusesWhenTheKeyExistsThereOrIsMissingHere() {
            assertEquals(ZERO, ctx.call("MOVE", "k", "1"));
            ctx.call("SET", "k", "here");
            ctx.call("SELECT", "1");
            ctx.call("SET", "k", "there");
            ctx.call("SELECT", "0");
            assertEquals(ZERO, ctx.call("MOVE", "k", "1"));
            assertEquals(bulk("here"), ctx.call("GET", "k"));
        }

        @Test
        void moveValidatesTheDatabaseBeforeTheKey() {
            assertEquals(SAME_OBJECT, ctx.call("MOVE", "missing", "0"));
            assertEquals(DB_OUT_OF_RANGE, ctx.call("MOVE", "missing", "16"));
            assertEquals(DB_OUT_OF_RANGE, ctx.call("MOVE", "missing", "-1"));
            assertEquals(NOT_INTEGER, ctx.call("MOVE", "missing", "x"));
            assertEquals(INT_OUT_OF_RANGE, ctx.call("MOVE", "missing", "-2147483649"));
        }

        @Test
        void moveKeepsAggregateValues() {
            FakeList list = putList(ctx, "l", "x");
            assertEquals(ONE, ctx.call("MOVE", "l", "2"));
            assertEquals(list, stored(ctx, 2, "l"));
        }
    }

    @Nested
    class Keys {

        @Test
        void keysRepliesEveryMatchingKey() {
            for (String key : List.of("hello", "hallo", "hxllo", "hllo", "heeeello", "other")) {
                ctx.call("SET", key, "v");
            }
            assertEquals(Set.of("hello", "hallo", "hxllo"), keys("h?llo"));
            assertEquals(Set.of("hello", "hallo", "hxllo", "hllo", "heeeello"), keys("h*llo"));
            assertEquals(Set.of("hello", "hallo"), keys("h[ae]llo"));
            assertEquals(Set.of("hallo", "hxllo"), keys("h[^e]llo"));
            assertEquals(Set.of("hallo"), keys("h[a-b]llo"));
            assertEquals(Set.of("hello", "hallo", "hxllo", "hllo", "heeeello", "other"), keys("*"));
            assertEquals(Set.of(), keys("HELLO"));
            assertEquals(Set.of(), keys("nothing*"));
        }

        @Test
        void starMatchesTheEmptyKeyButOtherPatternsDoNot() {
            ctx.call("SET", "", "v");
            ctx.call("SET", "a", "v");
            assertEquals(Set.of("", "a"), keys("*"));
            assertEquals(Set.of("a"), keys("**"));
        }

        @Test
        void keysMatchesBinaryKeys() {
            ctx.call("SET", "a\0b", "v");
            ctx.call("SET", "a\r\nb", "v");
            ctx.call("SET", "ab", "v");
            assertEquals(Set.of("a\0b"), keys("a\0*"));
            assertEquals(Set.of("a\0b", "a\r\nb"), keys("a?*b"));
            assertEquals("*1\r\n" + bulk("a\r\nb"), ctx.call("KEYS", "a\r*"));
        }

        @Test
        void keysSkipsExpiredKeysAndOtherDatabases() {
            ctx.call("SET", "live", "v");
            ctx.call("SET", "dying", "v", "PX", "10");
            ctx.call("SELECT", "1");
            ctx.call("SET", "elsewhere", "v");
            ctx.call("SELECT", "0");
            ctx.advance(10);
            assertEquals(Set.of("live"), keys("*"));
            assertEquals("*0\r\n", ctx.call("KEYS", "nomatch"));
        }

        @Test
        void keysCoversEveryPartition() {
            FakeCommandContext sharded = new FakeCommandContext(8, 16, StringCommands::register, KeyCommands::register);
            Set<String> expected = new HashSet<>();
            for (int i = 0; i < 500; i++) {
                sharded.call("SET", "key:" + i, "v");
                expected.add("key:" + i);
            }
            assertEquals(expected, new HashSet<>(strings(sharded.reply("KEYS", "key:*"))));
        }

        private Set<String> keys(String pattern) {
            List<String> keys = strings(ctx.reply("KEYS", pattern));
            Set<String> unique = new HashSet<>(keys);
            assertEquals(keys.size(), unique.size(), "KEYS replied a key twice");
            return unique;
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object reply) {
        return (List<String>) reply;
    }

    @Nested
    class Scan {

        @ParameterizedTest
        @CsvSource({"1, 1", "1, 10", "1, 1000", "4, 1", "4, 7", "16, 10", "16, 5000"})
        void aFullIterationRepliesEveryKeyExactlyOnce(int partitions, int count) {
            FakeCommandContext sharded = new FakeCommandContext(partitions, 16, StringCommands::register,
                KeyCommands::register);
            Set<String> expected = new HashSet<>();
            for (int i = 0; i < 1000; i++) {
                sharded.call("SET", "key:" + i, "v");
                expected.add("key:" + i);
            }
            List<String> seen = scanAll(sharded, "COUNT", Integer.toString(count));
            assertEquals(expected.size(), seen.size(), "a key was replied twice or missed");
            assertEquals(expected, new HashSet<>(seen));
        }

        @Test
        void theDefaultCountRepliesAboutTenKeysPerCall() {
            for (int i = 0; i < 1000; i++) {
                ctx.call("SET", "key:" + i, "v");
            }
            List<?> reply = (List<?>) ctx.reply("SCAN", "0");
            int replied = ((List<?>) reply.get(1)).size();
            assertTrue(replied >= 10 && replied < 40, "replied " + replied);
            assertNotEquals("0", reply.get(0));
        }

        @Test
        void aSmallDatabaseIsScannedInOneCall() {
            ctx.call("SET", "a", "1");
            ctx.call("SET", "b", "2");
            List<?> reply = (List<?>) ctx.reply("SCAN", "0", "COUNT", "100");
            assertEquals("0", reply.get(0));
            assertEquals(Set.of("a", "b"), new HashSet<>(strings(reply.get(1))));
        }

        @Test
        void expiredKeysTheScanMeetsAndMatchesAreDeletedWhateverTheType() {
            FakeCommandContext sharded = new FakeCommandContext(4, 16, StringCommands::register,
                KeyCommands::register, HashCommands::register);
            for (int i = 0; i < 20; i++) {
                sharded.call("SET", "a" + i, "v", "PX", "10");
                sharded.call("SET", "b" + i, "v", "PX", "10");
            }
            sharded.call("HSET", "ah", "f", "v");
            sharded.call("PEXPIRE", "ah", "10");
            sharded.call("SET", "live", "v");
            sharded.advance(20);
            assertEquals(":42\r\n", sharded.call("DBSIZE"), "not yet reclaimed");
            List<?> reply = (List<?>) sharded.reply("SCAN", "0", "MATCH", "a*", "TYPE", "string", "COUNT", "1000");
            assertEquals(List.of("0", List.of()), reply);
            assertEquals(":21\r\n", sharded.call("DBSIZE"), "the expired keys matching a* are gone, the hash too");
            reply = (List<?>) sharded.reply("SCAN", "0", "COUNT", "1000");
            assertEquals(List.of("0", List.of("live")), reply);
            assertEquals(":1\r\n", sharded.call("DBSIZE"));
        }

        @Test
        void anEmptyDatabaseRepliesCursorZeroAndNoKeys() {
            assertEquals("*2\r\n" + bulk("0") + "*0\r\n", ctx.call("SCAN", "0"));
        }

        @Test
        void matchFiltersKeys() {
            for (int i = 0; i < 300; i++) {
                ctx.call("SET", (i % 3 == 0 ? "user:" : "item:") + i, "v");
            }
            List<String> users = scanAll(ctx, "MATCH", "user:*", "COUNT", "7");
            assertEquals(100, users.size());
            assertEquals(100, new HashSet<>(users).size());
            assertTrue(users.stream().allMatch(key -> key.startsWith("user:")));
            assertEquals(300, scanAll(ctx, "match", "*").size());
        }

        @Test
        void typeFiltersKeysIgnoringCase() {
            for (int i = 0; i < 50; i++) {
                ctx.call("SET", "s" + i, "v");
                putList(ctx, "l" + i, "x");
            }
            List<String> lists = scanAll(ctx, "TYPE", "LIST");
            assertEquals(50, new HashSet<>(lists).size());
            assertTrue(lists.stream().allMatch(key -> key.startsWith("l")));
            assertEquals(50, scanAll(ctx, "TYPE", "string", "MATCH", "s*").size());
            assertEquals(0, scanAll(ctx, "TYPE", "string", "MATCH", "l*").size());
            assertEquals(0, scanAll(ctx, "TYPE", "hash").size());
        }

        @Test
        void expiredKeysAreNeverReplied() {
            ctx.call("SET", "live", "v");
            for (int i = 0; i < 100; i++) {
                ctx.call("SET", "dying:" + i, "v", "PX", "10");
            }
            ctx.advance(10);
            assertEquals(List.of("live"), scanAll(ctx, "COUNT", "3"));
        }

        @Test
        void keysAreRepliedByteForByte() {
            ctx.call("SET", "a\0b", "v");
            ctx.call("SET", "c\r\nd", "v");
            ctx.call("SET", "\u00ff", "v");
            assertEquals(Set.of("a\0b", "c\r\nd", "\u00ff"), new HashSet<>(scanAll(ctx)));
            assertEquals(List.of("a\0b"), scanAll(ctx, "MATCH", "*\0*"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"abc", " 1", "1 ", "\t1", "0x10", "1.0", "18446744073709551616", "+", "-",
            "99999999999999999999999"})
        void aCursorThatIsNotAnUnsignedIntegerIsInvalid(String cursor) {
            assertEquals("-ERR invalid cursor\r\n", ctx.call("SCAN", cursor));
        }

        @ParameterizedTest
        @ValueSource(strings = {"18446744073709551615", "9223372036854775808", "9223372036854775807", "-1",
            "-9223372036854775808", "4294967296", "1000000"})
        void hugeCursorsEndTheScanWithoutFailing(String cursor) {
            ctx.call("SET", "k", "v");
            assertEquals("*2\r\n" + bulk("0") + "*0\r\n", ctx.call("SCAN", cursor));
        }

        @Test
        void hugeCursorsOverPartitionsNeverFailAndReachCursorZero() {
            FakeCommandContext sharded = new FakeCommandContext(5, 16, StringCommands::register,
                KeyCommands::register);
            for (int i = 0; i < 100; i++) {
                sharded.call("SET", "k" + i, "v");
            }
            for (String start : List.of("18446744073709551615", "9223372036854775808", "-7", "12345678901234")) {
                String cursor = start;
                for (int calls = 0; ; calls++) {
                    assertTrue(calls < 200, "no end from " + start);
                    cursor = (String) ((List<?>) sharded.reply("SCAN", cursor)).get(0);
                    if (cursor.equals("0")) {
                        break;
                    }
                }
            }
        }

        @Test
        void cursorsParseAsStrtoulDoes() {
            ctx.call("SET", "k", "v");
            assertEquals("*2\r\n" + bulk("0") + "*1\r\n" + bulk("k"), ctx.call("SCAN", ""));
            assertEquals("*2\r\n" + bulk("0") + "*1\r\n" + bulk("k"), ctx.call("SCAN", "+0"));
            assertEquals("*2\r\n" + bulk("0") + "*1\r\n" + bulk("k"), ctx.call("SCAN", "-0"));
            assertEquals("*2\r\n" + bulk("0") + "*1\r\n" + bulk("k"), ctx.call("SCAN", "0\0junk"));
            assertEquals("*2\r\n" + bulk("0") + "*1\r\n" + bulk("k"), ctx.call("SCAN", "00"));
        }

        @Test
        void countMustBeAPositiveInteger() {
            assertEquals(SYNTAX, ctx.call("SCAN", "0", "COUNT", "0"));
            assertEquals(SYNTAX, ctx.call("SCAN", "0", "COUNT", "-1"));
            assertEquals(NOT_INTEGER, ctx.call("SCAN", "0", "COUNT", "ten"));
            assertEquals(NOT_INTEGER, ctx.call("SCAN", "0", "COUNT", "99999999999999999999"));
            assertEquals("*2\r\n" + bulk("0") + "*0\r\n", ctx.call("SCAN", "0", "COUNT", "9223372036854775807"));
        }

        @Test
        void optionsNeedTheirValueAndUnknownOnesAreSyntaxErrors() {
            assertEquals(SYNTAX, ctx.call("SCAN", "0", "MATCH"));
            assertEquals(SYNTAX, ctx.call("SCAN", "0", "COUNT"));
            assertEquals(SYNTAX, ctx.call("SCAN", "0", "TYPE"));
            assertEquals(SYNTAX, ctx.call("SCAN", "0", "LIMIT", "5"));
            assertEquals(SYNTAX, ctx.call("SCAN", "0", "MATCH", "*", "COUNT", "5", "extra"));
        }

        @Test
        void theCursorIsCheckedBeforeTheOptions() {
            assertEquals("-ERR invalid cursor\r\n", ctx.call("SCAN", "x", "COUNT", "0"));
        }

        @Test
        void theLastOptionOfAKindWins() {
            ctx.call("SET", "a", "v");
            ctx.call("SET", "b", "v");
            assertEquals(List.of("b"), scanAll(ctx, "MATCH", "a", "MATCH", "b"));
        }

        private List<String> scanAll(FakeCommandContext context, String... options) {
            List<String> seen = new ArrayList<>();
            String cursor = "0";
            int calls = 0;
            do {
                List<String> words = new ArrayList<>(List.of("SCAN", cursor));
                words.addAll(List.of(options));
                Object reply = context.reply(words.toArray(new String[0]));
                assertTrue(reply instanceof List<?>, () -> "not an array: " + reply);
                List<?> parts = (List<?>) reply;
                assertEquals(2, parts.size());
                cursor = (String) parts.get(0);
                seen.addAll(strings(parts.get(1)));
                assertTrue(++calls < 100_000, "SCAN does not end");
            } while (!cursor.equals("0"));
            return seen;
        }
    }

    @Nested
    class RandomKey {

        @Test
        void anEmptyDatabaseRepliesNil() {
            assertEquals(NIL, ctx.call("RANDOMKEY"));
        }

        @Test
        void repliesALiveKey() {
            ctx.call("SET", "only\0key", "v");
            assertEquals(bulk("only\0key"), ctx.call("RANDOMKEY"));
            Set<String> keys = Set.of("a", "b", "c");
            keys.forEach(key -> ctx.call("SET", key, "v"));
            Set<Object> seen = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                seen.add(ctx.reply("RANDOMKEY"));
            }
            assertEquals(Set.of("a", "b", "c", "only\0key"), seen);
        }

        @Test
        void neverRepliesAnExpiredKey() {
            ctx.call("SET", "live", "v");
            for (int i = 0; i < 50; i++) {
                ctx.call("SET", "dying:" + i, "v", "PX", "1");
            }
            ctx.advance(1);
            for (int i = 0; i < 50; i++) {
                assertEquals(bulk("live"), ctx.call("RANDOMKEY"));
            }
        }

        @Test
        void repliesNilWhenEveryKeyHasExpired() {
            ctx.call("SET", "a", "v", "PX", "1");
            ctx.advance(1);
            assertEquals(NIL, ctx.call("RANDOMKEY"));
        }
    }

    @Nested
    class Databases {

        @Test
        void selectSwitchesTheDatabaseCommandsSee() {
            ctx.call("SET", "k", "zero");
            assertEquals(OK, ctx.call("SELECT", "15"));
            assertEquals(NIL, ctx.call("GET", "k"));
            ctx.call("SET", "k", "fifteen");
            assertEquals(OK, ctx.call("select", "0"));
            assertEquals(bulk("zero"), ctx.call("GET", "k"));
        }

        @Test
        void selectValidatesTheIndex() {
            assertEquals(DB_OUT_OF_RANGE, ctx.call("SELECT", "16"));
            assertEquals(DB_OUT_OF_RANGE, ctx.call("SELECT", "-1"));
            assertEquals(NOT_INTEGER, ctx.call("SELECT", "one"));
            assertEquals(NOT_INTEGER, ctx.call("SELECT", "1.0"));
            assertEquals(INT_OUT_OF_RANGE, ctx.call("SELECT", "99999999999"));
            assertEquals(0, ctx.database());
        }

        @Test
        void swapdbExchangesTwoDatabases() {
            ctx.call("SET", "k", "zero");
            ctx.call("SELECT", "1");
            ctx.call("SET", "k", "one", "EX", "10");
            ctx.call("SET", "only-in-one", "v");
            assertEquals(OK, ctx.call("SWAPDB", "0", "1"));
            assertEquals(bulk("zero"), ctx.call("GET", "k"));
            assertEquals(ONE, ctx.call("DBSIZE"));
            ctx.call("SELECT", "0");
            assertEquals(bulk("one"), ctx.call("GET", "k"));
            assertEquals(":10\r\n", ctx.call("TTL", "k"));
            assertEquals(":2\r\n", ctx.call("DBSIZE"));
            assertEquals(OK, ctx.call("SWAPDB", "3", "3"));
        }

        @Test
        void swapdbNamesTheIndexThatIsNotAnInteger() {
            assertEquals("-ERR invalid first DB index\r\n", ctx.call("SWAPDB", "a", "b"));
            assertEquals("-ERR invalid first DB index\r\n", ctx.call("SWAPDB", "2147483648", "0"));
            assertEquals("-ERR invalid second DB index\r\n", ctx.call("SWAPDB", "0", "b"));
            assertEquals("-ERR invalid second DB index\r\n", ctx.call("SWAPDB", "0", "-2147483649"));
            assertEquals(DB_OUT_OF_RANGE, ctx.call("SWAPDB", "0", "16"));
            assertEquals(DB_OUT_OF_RANGE, ctx.call("SWAPDB", "-1", "0"));
        }

        @Test
        void dbsizeCountsTheSelectedDatabase() {
            assertEquals(ZERO, ctx.call("DBSIZE"));
            ctx.call("SET", "a", "v");
            ctx.call("SET", "b", "v");
            putList(ctx, "c", "x");
            assertEquals(":3\r\n", ctx.call("DBSIZE"));
            ctx.call("SELECT", "1");
            assertEquals(ZERO, ctx.call("DBSIZE"));
        }

        @Test
        void dbsizeStopsCountingAnExpiredKeyOnceItIsTouched() {
            ctx.call("SET", "a", "v", "PX", "1");
            ctx.advance(1);
            assertEquals(ONE, ctx.call("DBSIZE"));
            ctx.call("GET", "a");
            assertEquals(ZERO, ctx.call("DBSIZE"));
        }

        @Test
        void flushdbEmptiesOnlyTheSelectedDatabase() {
            ctx.call("SET", "a", "v");
            ctx.call("SELECT", "1");
            ctx.call("SET", "b", "v", "EX", "100");
            assertEquals(OK, ctx.call("FLUSHDB"));
            assertEquals(ZERO, ctx.call("DBSIZE"));
            assertEquals(ZERO, ctx.call("EXISTS", "b"));
            ctx.call("SELECT", "0");
            assertEquals(ONE, ctx.call("DBSIZE"));
            assertEquals(OK, ctx.call("FLUSHDB", "async"));
            assertEquals(ZERO, ctx.call("DBSIZE"));
            assertEquals(OK, ctx.call("FLUSHDB", "SYNC"));
        }

        @Test
        void flushallEmptiesEveryDatabase() {
            for (int db = 0; db < 16; db++) {
                ctx.call("SELECT", Integer.toString(db));
                ctx.call("SET", "k" + db, "v");
            }
            assertEquals(OK, ctx.call("FLUSHALL", "ASYNC"));
            for (int db = 0; db < 16; db++) {
                ctx.call("SELECT", Integer.toString(db));
                assertEquals(ZERO, ctx.call("DBSIZE"));
            }
            assertEquals(OK, ctx.call("FLUSHALL"));
            assertEquals(OK, ctx.call("flushall", "sync"));
        }

        @Test
        void flushTakesOnlyAsyncOrSync() {
            ctx.call("SET", "a", "v");
            assertEquals(SYNTAX, ctx.call("FLUSHDB", "NOW"));
            assertEquals(SYNTAX, ctx.call("FLUSHDB", "ASYNC", "SYNC"));
            assertEquals(SYNTAX, ctx.call("FLUSHALL", "LAZY"));
            assertEquals(SYNTAX, ctx.call("FLUSHALL", "SYNC", "SYNC"));
            assertEquals(ONE, ctx.call("DBSIZE"));
        }

        @Test
        void flushdbCoversEveryPartition() {
            FakeCommandContext sharded = new FakeCommandContext(8, 2, StringCommands::register, KeyCommands::register);
            for (int i = 0; i < 200; i++) {
                sharded.call("SET", "k" + i, "v");
            }
            assertEquals(":200\r\n", sharded.call("DBSIZE"));
            assertEquals(OK, sharded.call("FLUSHDB"));
            assertEquals(ZERO, sharded.call("DBSIZE"));
            assertEquals("*0\r\n", sharded.call("KEYS", "*"));
        }
    }

    @Test
    void repliesAreTheRespTypesRedisUses() {
        ctx.call("SET", "k", "v");
        assertEquals(new Simple("string"), ctx.reply("TYPE", "k"));
        assertEquals(new Simple("OK"), ctx.reply("RENAME", "k", "j"));
        assertEquals(1L, ctx.reply("EXISTS", "j"));
        assertEquals(new Error("ERR no such key"), ctx.reply("RENAME", "k", "j"));
    }
}
