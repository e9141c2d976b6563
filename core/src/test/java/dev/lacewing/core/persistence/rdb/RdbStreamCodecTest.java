package dev.lacewing.core.persistence.rdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lacewing.core.datatype.StreamGroup;
import dev.lacewing.core.datatype.StreamId;
import dev.lacewing.core.datatype.StreamValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Streams in RDB_TYPE_STREAM_LISTPACKS_2 against DUMP payloads taken from redis-server 7.0.15
 * (stream-node-max-entries 3; entries 1-1..7-1 as f v{i} n {i*100}, 8-1 other x, 9-5 f
 * 12345678901 n -7; XDEL 2-1 5-1; XGROUP CREATE g2 4-1 ENTRIESREAD 3 and g3 $; the second
 * payload also has group g with consumers alice, bob and idle and three pending entries).
 */
class RdbStreamCodecTest {

    private static final RdbValueCodec.Encodings DEFAULTS = new RdbValueCodec.Encodings(512, 64, 512, 128, 64, -2, 0);
    private static final byte[] REDIS_PLAIN = HexFormat.of().parseHex(
        "130310000000000000000100000000000000014041410000001800020101010201816602816e02000102010001000182"
        + "7631036401050103010101000182763203c0c802050102010201000182763303c12c020501ff10000000000000000400"
        + "000000000000014042420000001800020101010201816602816e02000102010001000182763403c19002050103010101"
        + "000182763503c1f402050102010201000182763603c258020501ff1000000000000000070000000000000001404d4d00"
        + "00001900030100010201816602816e02000102010001000182763703c2bc0205010001010100010101856f7468657206"
        + "8178020601020102010401f4351cdcdf0200000009dff9020501ff070905010105010902026732040103000002673309"
        + "0581ffffffffffffffff00000a0057b5441080daf80e");
    private static final byte[] REDIS_GROUPS = HexFormat.of().parseHex(
        "130310000000000000000100000000000000014041410000001800020101010201816602816e02000102010001000182"
        + "7631036401050103010101000182763203c0c802050102010201000182763303c12c020501ff10000000000000000400"
        + "000000000000014042420000001800020101010201816602816e02000102010001000182763403c19002050103010101"
        + "000182763503c1f402050102010201000182763603c258020501ff1000000000000000070000000000000001404d4d00"
        + "00001900030100010201816602816e02000102010001000182763703c2bc0205010001010100010101856f7468657206"
        + "8178020601020102010401f4351cdcdf0200000009dff9020501ff0709050101050109030167040181ffffffffffffff"
        + "ff030000000000000001000000000000000127358c44a2010000010000000000000003000000000000000138358c44a2"
        + "010000020000000000000004000000000000000130358c44a2010000010305616c69636527358c44a201000001000000"
        + "0000000001000000000000000103626f6238358c44a20100000200000000000000030000000000000001000000000000"
        + "000400000000000000010469646c6521358c44a2010000000267320401030000026733090581ffffffffffffffff0000"
        + "0a005639ab42069756b4");

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static StreamValue restore(byte[] payload) {
        return (StreamValue) DumpPayload.restore(payload, 0, payload.length, DEFAULTS);
    }

    private static void add(StreamValue stream, StreamId id, String... fieldsAndValues) {
        byte[][] items = new byte[fieldsAndValues.length][];
        int total = 0;
        for (int i = 0; i < items.length; i++) {
            items[i] = bytes(fieldsAndValues[i]);
            total += items[i].length;
        }
        byte[] array = new byte[total];
        int[] offsets = new int[items.length];
        int[] lengths = new int[items.length];
        int at = 0;
        for (int i = 0; i < items.length; i++) {
            System.arraycopy(items[i], 0, array, at, items[i].length);
            offsets[i] = at;
            lengths[i] = items[i].length;
            at += lengths[i];
        }
        stream.add(id.ms(), id.seq(), array, offsets, lengths, 0, items.length, 4096, 3);
    }

    private static List<String> entries(StreamValue stream) {
        List<String> out = new ArrayList<>();
        for (StreamValue.Entry entry : stream.range(StreamId.MIN, StreamId.MAX, 0, false)) {
            StringBuilder line = new StringBuilder(entry.id().toString());
            stream.fields(entry, (array, offset, length) ->
                line.append(' ').append(new String(array, offset, length, StandardCharsets.US_ASCII)));
            out.add(line.toString());
        }
        return out;
    }

    @Test
    void redisPayloadLoadsAndDumpsBackByteForByte() {
        StreamValue stream = restore(REDIS_PLAIN);
        assertEquals(List.of("1-1 f v1 n 100", "3-1 f v3 n 300", "4-1 f v4 n 400", "6-1 f v6 n 600",
            "7-1 f v7 n 700", "8-1 other x", "9-5 f 12345678901 n -7"), entries(stream));
        assertEquals(7, stream.length());
        assertEquals(3, stream.nodeCount());
        assertEquals(new StreamId(9, 5), stream.lastId());
        assertEquals(new StreamId(1, 1), stream.firstId());
        assertEquals(new StreamId(5, 1), stream.maxDeletedId());
        assertEquals(9, stream.entriesAdded());
        assertEquals(3, stream.group(bytes("g2")).entriesRead());
        assertEquals(new StreamId(4, 1), stream.group(bytes("g2")).lastId());
        assertEquals(-1, stream.group(bytes("g3")).entriesRead());
        assertArrayEquals(REDIS_PLAIN, DumpPayload.create(stream, true));
    }

    /**
     * RDB_TYPE_STREAM_LISTPACKS (15, before 7.0): the same nodes without first ID, max deleted ID,
     * entries added and the groups' entries read, which load as rdbLoadObject fills them in
     * (redis-server 7.0.15 RESTOREs this payload to the same values).
     */
    @Test
    void olderStreamTypeLoadsWithTheSevenZeroFieldsFilledIn() {
        String hex = HexFormat.of().formatHex(REDIS_PLAIN);
        String tail = "0709050101050109020267320401030000026733090581ffffffffffffffff0000";
        int nodesEnd = hex.indexOf(tail);
        String older = "0f" + hex.substring(2, nodesEnd) + "070905" + "02" + "026732" + "0401" + "0000"
            + "026733" + "0905" + "0000" + "0a00" + "0000000000000000";
        StreamValue stream = restore(HexFormat.of().parseHex(older));
        assertEquals(7, stream.length());
        assertEquals(7, stream.entriesAdded());
        assertEquals(new StreamId(1, 1), stream.firstId());
        assertEquals(StreamId.MIN, stream.maxDeletedId());
        assertEquals(-1, stream.group(bytes("g2")).entriesRead());
        assertEquals(7, stream.group(bytes("g3")).entriesRead());
        assertEquals(entries(restore(REDIS_PLAIN)), entries(stream));
    }

    @Test
    void streamBuiltByCommandsDumpsAsRedisDoes() {
        StreamValue stream = new StreamValue();
        for (int i = 1; i <= 7; i++) {
            add(stream, new StreamId(i, 1), "f", "v" + i, "n", Integer.toString(i * 100));
        }
        add(stream, new StreamId(8, 1), "other", "x");
        add(stream, new StreamId(9, 5), "f", "12345678901", "n", "-7");
        stream.delete(new StreamId(2, 1));
        stream.delete(new StreamId(5, 1));
        stream.settleFirstId();
        stream.createGroup(bytes("g2"), new StreamId(4, 1), 3);
        stream.createGroup(bytes("g3"), new StreamId(9, 5), -1);
        assertArrayEquals(REDIS_PLAIN, DumpPayload.create(stream, true));
    }

    @Test
    void groupsWithPendingEntriesAndConsumersRoundTrip() {
        StreamValue stream = restore(REDIS_GROUPS);
        StreamGroup group = stream.group(bytes("g"));
        assertEquals(new StreamId(4, 1), group.lastId());
        assertEquals(-1, group.entriesRead());
        assertEquals(List.of(new StreamId(1, 1), new StreamId(3, 1), new StreamId(4, 1)),
            new ArrayList<>(group.pending().keySet()));
        StreamGroup.Pending claimed = group.pending().get(new StreamId(3, 1));
        assertEquals("bob", new String(claimed.consumer().name(), StandardCharsets.US_ASCII));
        assertEquals(2, claimed.deliveryCount());
        assertEquals(1796446369080L, claimed.deliveryTime());
        assertEquals(List.of("alice", "bob", "idle"), group.consumers().values().stream()
            .map(consumer -> new String(consumer.name(), StandardCharsets.US_ASCII)).toList());
        assertEquals(1796446369057L, group.consumer(bytes("idle")).seenTime());
        assertEquals(2, group.consumer(bytes("bob")).pending().size());
        assertArrayEquals(REDIS_GROUPS, DumpPayload.create(stream, true));
        StreamValue copy = restore(DumpPayload.create(stream.copy(), false));
        assertEquals(entries(stream), entries(copy));
    }

    /** The groups payload with the first occurrence of {@code from} (hex) replaced by {@code to}. */
    private static byte[] patched(String from, String to) {
        String hex = HexFormat.of().formatHex(REDIS_GROUPS);
        int at = hex.indexOf(from);
        assertEquals(0, at % 2, from);
        return HexFormat.of().parseHex(hex.substring(0, at) + to + hex.substring(at + from.length()));
    }

    @Test
    void corruptStreamsAreFormatErrors() {
        // The stream's length against its nodes' live entries.
        assertThrows(RdbFormatException.class, () -> restore(patched("ff0709050101", "ff0609050101")));
        // The first entry's lp-count.
        assertThrows(RdbFormatException.class, () -> restore(patched("6401050103", "6401040103")));
        // A node's live count against its entries.
        assertThrows(RdbFormatException.class, () -> restore(patched("180002010101", "180003010101")));
        // A node key that is not 16 bytes.
        assertThrows(RdbFormatException.class, () -> restore(patched("1303100000", "13030f0000")));
        // alice's pending ID (1-1) is not in the group's PEL once it reads 1-2.
        String alice = "05616c696365" + "27358c44a2010000" + "01" + "0000000000000001";
        assertThrows(RdbFormatException.class, () -> restore(patched(alice + "0000000000000001",
            alice + "0000000000000002")));
    }
}
