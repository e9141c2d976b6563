package dev.lacewing.core.command.bitmap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.api.Keyspace;
import dev.lacewing.core.command.FakeCommandContext;
import dev.lacewing.core.command.FakeCommandContext.Error;
import dev.lacewing.core.command.generic.KeyCommands;
import dev.lacewing.core.command.string.StringCommands;
import dev.lacewing.core.datatype.TypedValue;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The bitmap family against replies recorded from Redis 7.0.15 for the same commands. */
class BitmapCommandsTest {

    private static final Error NOT_INTEGER = new Error("ERR value is not an integer or out of range");
    private static final Error SYNTAX = new Error("ERR syntax error");
    private static final Error WRONG_TYPE = new Error("WRONGTYPE Operation against a key holding the wrong kind of value");
    private static final Error BIT_OFFSET = new Error("ERR bit offset is not an integer or out of range");
    private static final Error BITFIELD_TYPE = new Error(
        "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.");

    private final FakeCommandContext ctx = new FakeCommandContext(StringCommands::register, KeyCommands::register,
        BitmapCommands::register);

    /** Any aggregate value: the bitmap commands only need to see that it is not a string. */
    private void putList(String key) {
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

    private static List<Object> list(Object... values) {
        return Arrays.asList(values);
    }

    @Nested
    class SetbitAndGetbit {

        @Test
        void setbitRepliesTheOldBitAndGrowsWithZeroBytes() {
            assertEquals(0L, ctx.reply("SETBIT", "bm", "7", "1"));
            assertEquals("\u0001", ctx.reply("GET", "bm"));
            assertEquals(1L, ctx.reply("SETBIT", "bm", "7", "0"));
            assertEquals(1L, ctx.reply("STRLEN", "bm"));
            assertEquals(0L, ctx.reply("SETBIT", "bm", "100", "1"));
            assertEquals(13L, ctx.reply("STRLEN", "bm"));
            assertEquals(1L, ctx.reply("GETBIT", "bm", "100"));
            assertEquals(0L, ctx.reply("GETBIT", "bm", "1000"));
            assertEquals(0L, ctx.reply("GETBIT", "missing", "3"));
        }

        /** Found by the differential test: a byte start near Long.MAX_VALUE overflowed when scaled to bits. */
        @Test
        void aStartBeyondTheEndCountsNothingEvenNearLongMax() {
            ctx.call("SET", "k", "abc");
            assertEquals(0L, ctx.reply("BITCOUNT", "k", "9223372036854775807", "-1"));
            assertEquals(0L, ctx.reply("BITCOUNT", "k", "9223372036854775807", "7", "BYTE"));
            assertEquals(-1L, ctx.reply("BITPOS", "k", "1", "9223372036854775807", "2"));
            assertEquals(-1L, ctx.reply("BITPOS", "k", "0", "9223372036854775807", "2", "BYTE"));
        }

        @Test
        void setbitKeepsTheExpiry() {
            ctx.call("SET", "k", "a", "EX", "100");
            ctx.call("SETBIT", "k", "100", "1");
            assertEquals(100L, ctx.reply("TTL", "k"));
        }

        @Test
        void argumentsAreCheckedBeforeTheTypeAndOffsetsStopAtProtoMaxBulkLen() {
            putList("l");
            assertEquals(new Error("ERR bit is not an integer or out of range"), ctx.reply("SETBIT", "k", "8", "2"));
            assertEquals(new Error("ERR bit is not an integer or out of range"), ctx.reply("SETBIT", "l", "0", "x"));
            assertEquals(BIT_OFFSET, ctx.reply("SETBIT", "k", "-1", "1"));
            assertEquals(BIT_OFFSET, ctx.reply("SETBIT", "k", "4294967296", "1"));
            assertEquals(BIT_OFFSET, ctx.reply("GETBIT", "l", "x"));
            assertEquals(WRONG_TYPE, ctx.reply("SETBIT", "l", "0", "1"));
            assertEquals(WRONG_TYPE, ctx.reply("GETBIT", "l", "0"));
            ctx.setting("proto-max-bulk-len", "1024");
            assertEquals(BIT_OFFSET, ctx.reply("SETBIT", "k", "8192", "1"));
            assertEquals(0L, ctx.reply("SETBIT", "k", "8191", "1"));
            assertEquals(1024L, ctx.reply("STRLEN", "k"));
        }
    }

    @Nested
    class Bitcount {

        @Test
        void countsBytesOrBitRanges() {
            ctx.call("SET", "s", "foobar");
            assertEquals(26L, ctx.reply("BITCOUNT", "s"));
            assertEquals(4L, ctx.reply("BITCOUNT", "s", "0", "0"));
            assertEquals(6L, ctx.reply("BITCOUNT", "s", "1", "1", "byte"));
            assertEquals(7L, ctx.reply("BITCOUNT", "s", "-2", "-1"));
            assertEquals(26L, ctx.reply("BITCOUNT", "s", "0", "-1", "BIT"));
            assertEquals(17L, ctx.reply("BITCOUNT", "s", "5", "30", "BIT"));
            assertEquals(0L, ctx.reply("BITCOUNT", "s", "-1", "-2", "foo"));
        }

        @Test
        void wholeWordsAndEdgesAgreeWithABitByBitCount() {
            byte[] value = new byte[37];
            for (int i = 0; i < value.length; i++) {
                value[i] = (byte) (i * 37 + 11);
            }
            for (long first = 0; first < 40; first += 3) {
                for (long last = first; last < value.length * 8L; last += 13) {
                    long expected = 0;
                    for (long bit = first; bit <= last; bit++) {
                        expected += (value[(int) (bit >>> 3)] >> (7 - (bit & 7))) & 1;
                    }
                    assertEquals(expected, BitmapCommands.countBits(value, 0, first, last), first + ".." + last);
                }
            }
        }

        @Test
        void aMissingKeyIsZeroWhateverTheArgumentsAndAnExistingOneChecksThem() {
            ctx.call("SET", "s", "foobar");
            assertEquals(0L, ctx.reply("BITCOUNT", "missing", "a", "b"));
            assertEquals(SYNTAX, ctx.reply("BITCOUNT", "s", "1"));
            assertEquals(SYNTAX, ctx.reply("BITCOUNT", "s", "1", "2", "3", "4"));
            assertEquals(SYNTAX, ctx.reply("BITCOUNT", "s", "1", "2", "foo"));
            assertEquals(NOT_INTEGER, ctx.reply("BITCOUNT", "s", "a", "b"));
        }
    }

    @Nested
    class Bitpos {

        @Test
        void findsTheFirstSetOrClearBit() {
            ctx.call("SET", "b", "\u00ff\u00f0");
            assertEquals(12L, ctx.reply("BITPOS", "b", "0"));
            assertEquals(-1L, ctx.reply("BITPOS", "b", "1", "2"));
            assertEquals(-1L, ctx.reply("BITPOS", "b", "0", "0", "0"));
            assertEquals(7L, ctx.reply("BITPOS", "b", "1", "7", "15", "BIT"));
            assertEquals(12L, ctx.reply("BITPOS", "b", "0", "2", "-1", "BIT"));
            assertEquals(-1L, ctx.reply("BITPOS", "missing", "1", "a", "b", "c", "d"));
            assertEquals(0L, ctx.reply("BITPOS", "missing", "0"));
        }

        @Test
        void clearBitsPastTheEndCountOnlyWithoutAnExplicitEnd() {
            ctx.call("SET", "ones", "\u00ff\u00ff");
            assertEquals(16L, ctx.reply("BITPOS", "ones", "0"));
            assertEquals(16L, ctx.reply("BITPOS", "ones", "0", "1"));
            assertEquals(-1L, ctx.reply("BITPOS", "ones", "0", "0", "-1"));
        }

        @Test
        void errorsComeInRedisOrder() {
            ctx.call("SET", "s", "foobar");
            assertEquals(new Error("ERR The bit argument must be 1 or 0."), ctx.reply("BITPOS", "missing", "2"));
            assertEquals(NOT_INTEGER, ctx.reply("BITPOS", "missing", "x"));
            assertEquals(SYNTAX, ctx.reply("BITPOS", "s", "1", "2", "3", "bit", "x"));
            assertEquals(NOT_INTEGER, ctx.reply("BITPOS", "s", "1", "a"));
            assertEquals(SYNTAX, ctx.reply("BITPOS", "s", "0", "1", "a", "foo"));
        }
    }

    @Nested
    class Bitop {

        @Test
        void combinesStringsPaddedWithZeros() {
            ctx.call("SET", "a1", "\u000f\u00f0");
            ctx.call("SET", "a2", "\u00ff");
            assertEquals(2L, ctx.reply("BITOP", "and", "d", "a1", "a2"));
            assertEquals("\u000f\u0000", ctx.reply("GET", "d"));
            assertEquals(2L, ctx.reply("BITOP", "OR", "d", "a1", "a2", "missing"));
            assertEquals("\u00ff\u00f0", ctx.reply("GET", "d"));
            assertEquals(2L, ctx.reply("BITOP", "xor", "d", "a1", "a2"));
            assertEquals("\u00f0\u00f0", ctx.reply("GET", "d"));
            assertEquals(2L, ctx.reply("BITOP", "not", "d", "a1"));
            assertEquals("\u00f0\u000f", ctx.reply("GET", "d"));
        }

        @Test
        void emptySourcesDeleteTheDestinationAndTheExpiryIsDropped() {
            ctx.call("SET", "d", "x", "EX", "100");
            ctx.call("SET", "a", "y");
            assertEquals(1L, ctx.reply("BITOP", "and", "d", "a"));
            assertEquals(-1L, ctx.reply("TTL", "d"));
            assertEquals(0L, ctx.reply("BITOP", "and", "d", "m1", "m2"));
            assertEquals(0L, ctx.reply("EXISTS", "d"));
        }

        @Test
        void refusesUnknownOperationsNotOfSeveralKeysAndOtherTypes() {
            putList("l");
            ctx.call("SET", "d", "keep");
            assertEquals(SYNTAX, ctx.reply("BITOP", "foo", "d", "a"));
            assertEquals(new Error("ERR BITOP NOT must be called with a single source key."),
                ctx.reply("BITOP", "not", "d", "a", "b"));
            assertEquals(WRONG_TYPE, ctx.reply("BITOP", "and", "d", "missing", "l"));
            assertEquals("keep", ctx.reply("GET", "d"));
        }
    }

    @Nested
    class Bitfield {

        @Test
        void setGetAndIncrbyWithEachOverflowMode() {
            assertEquals(list(0L, 255L), ctx.reply("BITFIELD", "bf", "set", "u8", "0", "255", "get", "u8", "0"));
            assertEquals(list(1L, 3L, null), ctx.reply("BITFIELD", "bf", "incrby", "u2", "100", "1",
                "overflow", "sat", "incrby", "u2", "102", "5", "overflow", "fail", "incrby", "u2", "102", "5"));
            assertEquals(13L, ctx.reply("STRLEN", "bf"));
            assertEquals(list(0L, -100L, 9L, 56L), ctx.reply("BITFIELD", "bf", "set", "i8", "#1", "-100",
                "get", "i8", "8", "get", "u4", "8", "incrby", "i8", "8", "-100"));
            assertEquals(list(9167077041512644607L, -56294995342131202L), ctx.reply("BITFIELD", "bf",
                "overflow", "wrap", "incrby", "i64", "0", "9223372036854775807", "incrby", "i64", "0",
                "9223372036854775807"));
            assertEquals(list(9195224539183710207L, -56294995342131202L, 9195224539183710207L),
                ctx.reply("BITFIELD", "bf", "get", "u63", "0", "get", "i64", "0", "set", "u63", "0", "-1"));
            assertEquals(list(255L), ctx.reply("BITFIELD", "bf", "get", "u8", "#2"));
        }

        @Test
        void saturationAndWrapOfSignedAndUnsignedFields() {
            assertEquals(list(127L, -128L, 0L, 255L), ctx.reply("BITFIELD", "f", "overflow", "sat",
                "incrby", "i8", "0", "1000", "incrby", "i8", "0", "-1000", "incrby", "u8", "8", "-5",
                "incrby", "u8", "8", "300"));
            assertEquals(list(-128L, 4L), ctx.reply("BITFIELD", "f", "overflow", "wrap",
                "incrby", "i8", "0", "-256", "incrby", "u8", "8", "5"));
        }

        @Test
        void aWriteThatFailsStillGrowsTheString() {
            assertEquals(list((Object) null), ctx.reply("BITFIELD", "g", "overflow", "fail", "incrby", "u2", "30", "9"));
            assertEquals(4L, ctx.reply("STRLEN", "g"));
        }

        @Test
        void readOnlyFormsReadWithoutCreatingTheKey() {
            assertEquals(list(0L), ctx.reply("BITFIELD_RO", "ro", "get", "u8", "0"));
            assertEquals(List.of(), ctx.reply("BITFIELD", "ro"));
            assertEquals(0L, ctx.reply("EXISTS", "ro"));
            assertEquals(new Error("ERR BITFIELD_RO only supports the GET subcommand"),
                ctx.reply("BITFIELD_RO", "ro", "get", "u8", "0", "set", "u8", "0", "1"));
        }

        @Test
        void everyOperationIsParsedBeforeAnyRuns() {
            putList("l");
            assertEquals(BITFIELD_TYPE, ctx.reply("BITFIELD", "bf", "get", "u64", "0"));
            assertEquals(BITFIELD_TYPE, ctx.reply("BITFIELD", "bf", "get", "I8", "0"));
            assertEquals(new Error("ERR Invalid OVERFLOW type specified"),
                ctx.reply("BITFIELD", "bf", "overflow", "foo", "get", "u8", "0"));
            assertEquals(SYNTAX, ctx.reply("BITFIELD", "bf", "set", "u8", "0", "1", "get", "u8"));
            assertEquals(BIT_OFFSET, ctx.reply("BITFIELD", "bf", "set", "u8", "0", "1", "get", "u8", "-1"));
            assertEquals(NOT_INTEGER, ctx.reply("BITFIELD", "bf", "set", "u8", "0", "x"));
            assertEquals(0L, ctx.reply("EXISTS", "bf"));
            assertEquals(SYNTAX, ctx.reply("BITFIELD", "l", "get"));
            assertEquals(WRONG_TYPE, ctx.reply("BITFIELD", "l", "get", "u8", "0"));
        }
    }
}
