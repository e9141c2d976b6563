package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.resp.RespClient.bytes;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The seeded source of every random choice in a sequence, and the pools of edge-case arguments
 * the generators draw from. Keys come from one small pool shared by every family, so that
 * commands of different families meet on the same keys (WRONGTYPE paths) and writes are read
 * back; the pool mixes hash-tagged keys (one slot, one shard) with plain ones (spread over the
 * shards), so single-key commands hop and multi-key commands cross shards.
 *
 * <p>Times are either far in the future (at least a day, or years from now as absolute times)
 * or in the past (immediate deletion), never close enough to expire while a sequence runs, so
 * both servers always agree on what exists (see {@code DeliberateDifferences.AVOIDED}).
 *
 * <p>Thread rule: one test thread.
 */
final class Draw {

    /** The key pool: plain, hash-tagged, binary, and a rarely drawn empty key. */
    static final List<byte[]> KEYS = List.of(
        bytes("a"), bytes("b"), bytes("c"), bytes("k:1"), bytes("k:2"),
        bytes("{t}x"), bytes("{t}y"), bytes("{t}z"),
        new byte[] {0, '\r', '\n', (byte) 0xff});

    private static final byte[] EMPTY = new byte[0];

    /** Values: empty, binary (NUL, CR LF, 0xff), numbers of every spelling, and long ones. */
    private static final List<byte[]> VALUES = List.of(
        EMPTY, bytes("v"), bytes("hello world"), new byte[] {0}, bytes("\r\n"), new byte[] {(byte) 0xff, (byte) 0xfe},
        new byte[] {'a', 0, 'b'}, bytes("0"), bytes("1"), bytes("-1"), bytes("10"), bytes("123"),
        bytes("9223372036854775807"), bytes("-9223372036854775808"), bytes("9223372036854775808"),
        bytes("99999999999999999999"), bytes("1.5"), bytes("-0.5"), bytes("1e3"), bytes("1.5e-3"), bytes("-1E+2"),
        bytes("inf"), bytes("-inf"), bytes("+inf"), bytes("Infinity"), bytes("nan"), bytes("NaN"), bytes(" 1"),
        bytes("01"), bytes("+1"), bytes("-0"), bytes("0x10"), bytes("3.0"), bytes("x".repeat(65)),
        bytes("long ".repeat(60)));

    private static final List<String> INTEGERS = List.of(
        "0", "1", "-1", "2", "3", "5", "10", "-5", "100", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "abc", "1.5", "", " 1", "01", "+1");

    private static final List<String> FLOATS = List.of(
        "0", "1", "-1", "1.5", "-2.5", "1e3", "1.5e-3", "-1E+2", "0.1", "3.0", "inf", "-inf", "+inf", "Infinity",
        "nan", "NaN", "abc", "", "1.7976931348623157e308", "4.9e-324", "0x10", " 1", "1 ", "100000000000000000000");

    private static final List<String> JUNK = List.of("junk", "", "NX", "XX", "COUNT", "\u0000\u00ff");

    private final Random random;

    Draw(long seed) {
        this.random = new Random(seed);
    }

    boolean chance(double probability) {
        return random.nextDouble() < probability;
    }

    /** 0 (inclusive) to {@code bound} (exclusive). */
    int below(int bound) {
        return random.nextInt(bound);
    }

    /** {@code from} to {@code to}, both inclusive. */
    int between(int from, int to) {
        return from + random.nextInt(to - from + 1);
    }

    <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    @SafeVarargs
    final <T> T pick(T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    /** A key of the pool; now and then the empty key. */
    byte[] key() {
        return chance(0.01) ? EMPTY : pick(KEYS);
    }

    /** {@code min} to {@code max} keys of the pool (repeats possible). */
    List<Object> keys(int min, int max) {
        List<Object> keys = new ArrayList<>();
        int count = between(min, max);
        for (int i = 0; i < count; i++) {
            keys.add(key());
        }
        return keys;
    }

    byte[] value() {
        return pick(VALUES);
    }

    /** An integer argument, mostly small, with extremes and malformed spellings. */
    String integer() {
        return chance(0.6) ? Integer.toString(between(-3, 12)) : pick(INTEGERS);
    }

    /** An index or range bound into a short string or aggregate: small of both signs, or extreme. */
    String index() {
        return chance(0.8) ? Integer.toString(between(-8, 8))
            : pick("100", "-100", "9223372036854775807", "-9223372036854775808", "x", "");
    }

    /** A float argument: plain, exponent, inf/nan spellings, extremes, malformed. */
    String decimal() {
        return chance(0.4) ? Integer.toString(between(-3, 5)) : pick(FLOATS);
    }

    /** A database index: mostly 0 to 3, sometimes out of range or malformed. */
    String db() {
        return chance(0.9) ? Integer.toString(between(0, 3)) : pick("16", "-1", "abc", "");
    }

    /** Relative seconds: at least a day ahead, or non-positive (deletes), or invalid. */
    String seconds() {
        return pick("100000", "200000", "300000", "0", "-1", "-100", "abc", "", "1.5", "9223372036854775807",
            "-9223372036854775808", "9223372036854775");
    }

    /** Relative milliseconds: at least a day ahead, or non-positive (deletes), or invalid. */
    String milliseconds() {
        return pick("100000000", "250000000", "0", "-1", "abc", "9223372036854775807", "-9223372036854775808");
    }

    /** Absolute seconds: years ahead (2100, 2101), or in the past, or invalid. */
    String unixSeconds() {
        return pick("4102444800", "4133980800", "1", "0", "-1", "abc", "9223372036854775807");
    }

    /**
     * Absolute seconds for SET, which (unlike EXPIREAT and GETEX) stores a key whose time has
     * passed instead of deleting it; Redis then reclaims it whenever its active expiry cycle
     * samples it, so DBSIZE would depend on timing. Years ahead or invalid only.
     */
    String futureUnixSeconds() {
        return pick("4102444800", "4133980800", "0", "-1", "abc", "9223372036854775807");
    }

    /** Absolute milliseconds for SET: years ahead or invalid only, see {@link #futureUnixSeconds}. */
    String futureUnixMilliseconds() {
        return pick("4102444800000", "4133980800000", "0", "-5", "9223372036854775807");
    }

    /** Absolute milliseconds: years ahead, or in the past, or invalid. */
    String unixMilliseconds() {
        return pick("4102444800000", "4133980800000", "4102444800001", "1", "0", "9223372036854775807");
    }

    /** A timeout of a blocking command: returns quickly on both servers, never 0 (forever). */
    String timeout() {
        return pick("0.01", "0.01", "0.001", "-1", "abc");
    }

    /** A word no command expects here (not a number, so it never becomes a time). */
    String junk() {
        return pick(JUNK);
    }

    /** A word of an option, in random letter case now and then (Redis matches options case-insensitively). */
    String option(String word) {
        return chance(0.1) ? word.toLowerCase(java.util.Locale.ROOT) : word;
    }

    /** The elements shuffled (options in odd orders). */
    <T> List<T> shuffled(List<T> elements) {
        List<T> copy = new ArrayList<>(elements);
        java.util.Collections.shuffle(copy, random);
        return copy;
    }

    /** A member or field name of an aggregate: a small shared pool so that writes meet. */
    byte[] member() {
        return pick(MEMBERS);
    }

    private static final List<byte[]> MEMBERS = List.of(
        bytes("a"), bytes("b"), bytes("c"), bytes("m1"), bytes("m2"), bytes("1"), bytes("2"), bytes("10"),
        bytes("-5"), EMPTY, new byte[] {0, (byte) 0xff}, bytes("field with spaces"), bytes("f".repeat(70)));

    /** {@code min} to {@code max} members. */
    List<Object> members(int min, int max) {
        List<Object> members = new ArrayList<>();
        int count = between(min, max);
        for (int i = 0; i < count; i++) {
            members.add(member());
        }
        return members;
    }
}
