package dev.lacewing.core.persistence.rdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.core.datatype.HashValue;
import dev.lacewing.core.datatype.Quicklist;
import dev.lacewing.core.datatype.SetValue;
import dev.lacewing.core.datatype.SortedSet;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The RDB value codec and DUMP payloads without a server: checksums, number forms, every type
 * through a payload and back in the encoding the settings choose, older encodings, and corrupt
 * payloads, which fail with {@link RdbFormatException} and nothing else, without allocating what
 * a corrupt length claims.
 */
class RdbValueCodecTest {

    private static final RdbValueCodec.Encodings DEFAULTS = new RdbValueCodec.Encodings(512, 64, 512, 128, 64, -2, 0);
    /** Small thresholds, so that small values load as hash tables and skiplists. */
    private static final RdbValueCodec.Encodings SMALL = new RdbValueCodec.Encodings(2, 64, 2, 2, 64, -2, 0);

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static Object roundTrip(Object value, RdbValueCodec.Encodings encodings) {
        byte[] payload = DumpPayload.create(value, true);
        assertTrue(DumpPayload.verify(payload, 0, payload.length));
        return DumpPayload.restore(payload, 0, payload.length, encodings);
    }

    /** A payload of {@code body} (type byte and value) with version 10 and a correct checksum. */
    private static byte[] payload(byte[] body) {
        byte[] out = Arrays.copyOf(body, body.length + 10);
        out[body.length] = 10;
        long crc = Crc64.update(0, out, 0, body.length + 2);
        for (int i = 0; i < 8; i++) {
            out[body.length + 2 + i] = (byte) (crc >>> 8 * i);
        }
        return out;
    }

    private static Object restore(byte[] body) {
        byte[] payload = payload(body);
        return DumpPayload.restore(payload, 0, payload.length, DEFAULTS);
    }

    @Test
    void crc64IsRedisJonesCrc() {
        assertEquals(0xe9c6d914c4b8d9caL, Crc64.update(0, bytes("123456789"), 0, 9));
    }

    @Test
    void scoresPrintAsPercentSeventeenG() {
        assertEquals("0.10000000000000001", RedisListpack.printG17(0.1));
        assertEquals("1.0000000000000001e+300", RedisListpack.printG17(1e300));
        assertEquals("4.9406564584124654e-324", RedisListpack.printG17(5e-324));
        assertEquals("123456.789", RedisListpack.printG17(123456.789));
        assertEquals("1e+17", RedisListpack.printG17(1e17));
        assertEquals("1.5e-05", RedisListpack.printG17(1.5e-5));
        assertEquals("0.0001", RedisListpack.printG17(0.0001));
        assertEquals("-2.5", RedisListpack.printG17(-2.5));
        assertEquals("10000000000000002", RedisListpack.printG17(1e16 + 2));
        assertEquals("-1e-300", RedisListpack.printG17(-1e-300));
        assertEquals("inf", new String(RedisListpack.scoreText(Double.POSITIVE_INFINITY), StandardCharsets.US_ASCII));
    }

    @Test
    void stringsTakeRedisEncodings() {
        assertEquals("00c0f40a00", hex(DumpPayload.create(bytes("-12"), true), 5));
        assertEquals("00c130750a00", hex(DumpPayload.create(bytes("30000"), true), 6));
        // Not canonical, or past 32 bits: the bytes themselves.
        assertEquals("0003303037", hex(DumpPayload.create(bytes("007"), true), 5));
        assertEquals("000a33303030303030303030", hex(DumpPayload.create(bytes("3000000000"), true), 12));
        // Compressible and longer than 20 bytes: LZF, unless compression is off.
        assertEquals("00c3", hex(DumpPayload.create(bytes("abc".repeat(20)), true), 2));
        assertEquals("003c", hex(DumpPayload.create(bytes("abc".repeat(20)), false), 2));
        for (String text : List.of("", "-12", "30000", "-2147483648", "9223372036854775807", "007", "abc".repeat(300))) {
            assertArrayEquals(bytes(text), (byte[]) roundTrip(bytes(text), DEFAULTS), text);
        }
    }

    private static String hex(byte[] payload, int length) {
        return HexFormat.of().formatHex(payload, 0, length);
    }

    @Test
    void listsKeepTheirNodes() {
        Quicklist list = new Quicklist(4, 0);
        for (int i = 0; i < 10; i++) {
            list.pushTail(bytes(i % 2 == 0 ? Integer.toString(i * 1000) : "item-" + i));
        }
        Quicklist restored = (Quicklist) roundTrip(list, new RdbValueCodec.Encodings(512, 64, 512, 128, 64, 128, 1));
        List<Integer> counts = new ArrayList<>();
        restored.forEachNode((entries, compressed) -> counts.add(entries.size()));
        assertEquals(List.of(4, 4, 2), counts);
        for (int i = 0; i < 10; i++) {
            assertArrayEquals(list.get(i), restored.get(i));
        }
    }

    @Test
    void setsLoadAsIntsetOrTable() {
        SetValue ints = new SetValue();
        for (String member : List.of("5", "-3", "70000")) {
            ints.add(bytes(member), 0, member.length(), 512);
        }
        SetValue restored = (SetValue) roundTrip(ints, DEFAULTS);
        assertEquals("intset", restored.encoding());
        assertEquals(3, restored.size());
        SetValue converted = (SetValue) roundTrip(ints, SMALL);
        assertEquals("hashtable", converted.encoding());
        assertTrue(converted.contains(bytes("70000"), 0, 5));

        SetValue words = new SetValue();
        for (String member : List.of("a", "b", "1")) {
            words.add(bytes(member), 0, member.length(), 512);
        }
        SetValue table = (SetValue) roundTrip(words, DEFAULTS);
        assertEquals("hashtable", table.encoding());
        assertTrue(table.contains(bytes("b"), 0, 1) && table.contains(bytes("1"), 0, 1));
    }

    @Test
    void sortedSetsLoadAsListpackOrSkiplist() {
        SortedSet zset = new SortedSet();
        double[] scores = {1, -2.5, 0.1, Double.NEGATIVE_INFINITY, -0.0, 1e300};
        for (int i = 0; i < scores.length; i++) {
            zset.add(bytes("m" + i), scores[i], 128, 64);
        }
        SortedSet small = (SortedSet) roundTrip(zset, DEFAULTS);
        assertEquals("listpack", small.encoding());
        SortedSet large = (SortedSet) roundTrip(small, SMALL);
        assertEquals("skiplist", large.encoding());
        SortedSet back = (SortedSet) roundTrip(large, DEFAULTS);
        assertEquals("listpack", back.encoding());
        for (int i = 0; i < scores.length; i++) {
            assertEquals(scores[i] == 0 ? 0.0 : scores[i], large.score(bytes("m" + i), 0, 2));
            assertEquals(scores[i] == 0 ? 0.0 : scores[i], back.score(bytes("m" + i), 0, 2));
        }
    }

    @Test
    void hashesLoadAsListpackOrTable() {
        HashValue hash = new HashValue();
        for (int i = 0; i < 3; i++) {
            byte[] field = bytes("f" + i);
            byte[] value = bytes(Integer.toString(i * -7000));
            hash.set(field, 0, field.length, value, 0, value.length, 512, 64);
        }
        HashValue small = (HashValue) roundTrip(hash, DEFAULTS);
        assertEquals("listpack", small.encoding());
        HashValue table = (HashValue) roundTrip(hash, SMALL);
        assertEquals("hashtable", table.encoding());
        HashValue back = (HashValue) roundTrip(table, DEFAULTS);
        assertEquals("listpack", back.encoding());
        assertArrayEquals(bytes("-14000"), back.value(back.find(bytes("f2"), 0, 2)));
    }

    /** A ziplist as RDB version 9 and before wrote them: "ab", 2 (immediate), -5 (int8), 1000 (int16). */
    @Test
    void readsZiplists() {
        byte[] ziplist = HexFormat.of().parseHex("1b000000" + "14000000" + "0400" + "00026162" + "04f3" + "02fefb"
            + "03c0e803" + "ff");
        ziplist[0] = (byte) ziplist.length;
        List<String> entries = RedisListpack.readZiplist(ziplist).stream()
            .map(entry -> new String(entry, StandardCharsets.US_ASCII)).toList();
        assertEquals(List.of("ab", "2", "-5", "1000"), entries);
        RdbOutput body = new RdbOutput(false);
        body.writeByte(RdbValueCodec.TYPE_LIST_ZIPLIST);
        body.writeString(ziplist);
        Quicklist list = (Quicklist) restore(body.toByteArray());
        assertArrayEquals(bytes("1000"), list.get(3));
    }

    @Test
    void textScoresOfTheOldZsetTypeAreRead() {
        RdbOutput body = new RdbOutput(false);
        body.writeByte(RdbValueCodec.TYPE_ZSET);
        body.writeLength(3);
        body.writeString(bytes("a"));
        body.writeByte(3);
        body.write(bytes("1.5"), 0, 3);
        body.writeString(bytes("b"));
        body.writeByte(254);
        body.writeString(bytes("c"));
        body.writeByte(255);
        SortedSet zset = (SortedSet) restore(body.toByteArray());
        assertEquals(1.5, zset.score(bytes("a"), 0, 1));
        assertEquals(Double.POSITIVE_INFINITY, zset.score(bytes("b"), 0, 1));
        assertEquals(Double.NEGATIVE_INFINITY, zset.score(bytes("c"), 0, 1));
    }

    @Test
    void wrongVersionOrChecksumIsRefused() {
        byte[] payload = DumpPayload.create(bytes("value"), true);
        byte[] flipped = payload.clone();
        flipped[flipped.length - 1] ^= 1;
        assertFalse(DumpPayload.verify(flipped, 0, flipped.length));
        byte[] newer = payload(Arrays.copyOf(payload, payload.length - 10));
        newer[newer.length - 10] = 11;
        assertFalse(DumpPayload.verify(newer, 0, newer.length));
        assertFalse(DumpPayload.verify(payload, 0, 9));
        assertTrue(DumpPayload.verify(payload, 0, payload.length));
    }

    /** Lengths and counts that claim about 2 GB fail before anything of that size is allocated. */
    @Test
    void hugeClaimsAreRefusedWithoutAllocating() {
        List<String> bodies = List.of(
            "00807fffffff61",                  // a string of 2^31 - 1 bytes
            "0081000000007fffffff61",          // the same as a 64-bit length
            "00c3028080000000" + "0061",       // LZF claiming 2 GB decompressed
            "00c3" + "4bba" + "807fffffff" + "0061" + "e0ff00".repeat(1000), // 2 GB claimed, 264 kB real
            "02807fffffff0161",                // a set of 2^31 - 1 members
            "05807fffffff0161",                // a sorted set of 2^31 - 1 members
            "04807fffffff0161",                // a hash of 2^31 - 1 fields
            "12807fffffff02",                  // a list of 2^31 - 1 nodes
            "1010" + "10000000ffff" + "f0ffffff7f" + "00000000ff");  // a listpack entry of 2 GB
        for (String body : bodies) {
            assertThrows(RdbFormatException.class, () -> restore(HexFormat.of().parseHex(body)), body);
        }
    }

    @Test
    void duplicatesNanAndEmptyValuesAreRefused() {
        RdbOutput set = new RdbOutput(false);
        set.writeByte(RdbValueCodec.TYPE_SET);
        set.writeLength(2);
        set.writeString(bytes("a"));
        set.writeString(bytes("a"));
        assertThrows(RdbFormatException.class, () -> restore(set.toByteArray()));

        RdbOutput zset = new RdbOutput(false);
        zset.writeByte(RdbValueCodec.TYPE_ZSET_2);
        zset.writeLength(1);
        zset.writeString(bytes("a"));
        zset.writeBinaryDouble(Double.NaN);
        assertThrows(RdbFormatException.class, () -> restore(zset.toByteArray()));

        RdbOutput hash = new RdbOutput(false);
        hash.writeByte(RdbValueCodec.TYPE_HASH);
        hash.writeLength(0);
        assertThrows(RdbFormatException.class, () -> restore(hash.toByteArray()));

        assertThrows(RdbFormatException.class, () -> restore(new byte[] {(byte) 200}));
    }

    /**
     * Every prefix of a valid payload's body, and thousands of random byte changes, each with a
     * correct footer: the codec either reads a value or refuses with RdbFormatException.
     */
    @Test
    void corruptBodiesFailCleanly() {
        List<Object> values = new ArrayList<>();
        Quicklist list = new Quicklist(-2, 0);
        SetValue ints = new SetValue();
        SortedSet zset = new SortedSet();
        HashValue hash = new HashValue();
        for (int i = 0; i < 20; i++) {
            byte[] item = bytes("item-" + i * 37);
            list.pushTail(item);
            ints.add(bytes(Integer.toString(i * 977)), 0, Integer.toString(i * 977).length(), 512);
            zset.add(item, i * 0.5, 128, 64);
            hash.set(item, 0, item.length, item, 0, item.length, 512, 64);
        }
        values.addAll(List.of(bytes("abc".repeat(100)), list, ints, zset, hash, roundTrip(zset, SMALL),
            roundTrip(hash, SMALL)));
        Random random = new Random(17);
        for (Object value : values) {
            byte[] full = DumpPayload.create(value, true);
            byte[] body = Arrays.copyOf(full, full.length - 10);
            for (int length = 0; length < body.length; length++) {
                readsOrRefuses(Arrays.copyOf(body, length));
            }
            for (int i = 0; i < 2000; i++) {
                byte[] changed = body.clone();
                changed[random.nextInt(changed.length)] = (byte) random.nextInt(256);
                readsOrRefuses(changed);
            }
        }
    }

    private static void readsOrRefuses(byte[] body) {
        try {
            restore(body);
        } catch (RdbFormatException expected) {
            // refused, as RESTORE's "Bad data format"
        }
    }
}
