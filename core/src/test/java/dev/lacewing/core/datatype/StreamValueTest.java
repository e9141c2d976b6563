package dev.lacewing.core.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** StreamValue's nodes: where they split, what they cost, and entries read back in both directions. */
class StreamValueTest {

    private static final long EMPTY = 136;
    private static final long NODE = 128;

    private static void add(StreamValue stream, long ms, long maxBytes, long maxEntries, String... pairs) {
        StringBuilder joined = new StringBuilder();
        int[] offsets = new int[pairs.length];
        int[] lengths = new int[pairs.length];
        for (int i = 0; i < pairs.length; i++) {
            offsets[i] = joined.length();
            lengths[i] = pairs[i].length();
            joined.append(pairs[i]);
        }
        stream.add(ms, 0, joined.toString().getBytes(StandardCharsets.US_ASCII), offsets, lengths, 0,
            pairs.length, maxBytes, maxEntries);
    }

    private static List<String> read(StreamValue stream, StreamValue.Entry entry) {
        List<String> out = new ArrayList<>();
        stream.fields(entry, (array, offset, length) ->
            out.add(new String(array, offset, length, StandardCharsets.US_ASCII)));
        return out;
    }

    private static List<Long> ids(List<StreamValue.Entry> entries) {
        return entries.stream().map(StreamValue.Entry::ms).toList();
    }

    @Test
    void aNodeTakesEntriesUpToTheEntryBoundDeletedOnesIncluded() {
        StreamValue stream = new StreamValue();
        for (int i = 1; i <= 250; i++) {
            add(stream, i, 4096, 100, "f", "v");
        }
        assertEquals(3, stream.nodeCount());
        assertTrue(stream.delete(new StreamId(250, 0)));
        add(stream, 251, 4096, 100, "f", "v");
        assertEquals(3, stream.nodeCount(), "the deleted entry still counts in its node");
        assertEquals(250, stream.length());
    }

    @Test
    void anEntryAddedAfterTheLastNodeWentLandsInTheNodeNowLast() {
        StreamValue stream = new StreamValue();
        for (int i = 1; i <= 5; i++) {
            add(stream, i, 4096, 3, "f", "v");
        }
        assertTrue(stream.delete(new StreamId(4, 0)));
        assertTrue(stream.delete(new StreamId(5, 0)), "the last node's last live entry: the node goes");
        add(stream, 6, 4096, 3, "f", "v");
        add(stream, 7, 4096, 3, "f", "v");
        assertEquals(List.of(1L, 2L, 3L, 6L, 7L), ids(stream.range(StreamId.MIN, StreamId.MAX, -1, false)));
        assertEquals(5, stream.trim(0, null, false, 0), "every node goes");
        add(stream, 8, 4096, 3, "f", "v");
        assertEquals(List.of(8L), ids(stream.range(StreamId.MIN, StreamId.MAX, -1, false)));
        assertEquals(1, stream.nodeCount());
    }

    @Test
    void aNodeTakesEntriesUpToTheByteBound() {
        StreamValue stream = new StreamValue();
        for (int i = 1; i <= 10; i++) {
            add(stream, i, 40, 0, "field", "a value of twenty b");
        }
        assertTrue(stream.nodeCount() >= 5, "nodes: " + stream.nodeCount());
        assertEquals(List.of(10L, 9L, 8L), ids(stream.range(StreamId.MIN, StreamId.MAX, 3, true)));
    }

    /**
     * Redis's listpack after XADD 1-0 f v: header and end (7), live count, deleted count, field
     * count, "f", master terminator (2 + 2 + 2 + 3 + 2), then the entry: flags, ms delta, seq delta,
     * "v", lp-count (2 + 2 + 2 + 3 + 2), 29 bytes; a value spelling an integer takes 2 bytes, not 3.
     */
    @Test
    void aNodeClosesWhereRedissListpackBytesPlusTheEntryReachTheBound() {
        StreamValue closes = new StreamValue();
        add(closes, 1, 31, 0, "f", "v");
        add(closes, 2, 31, 0, "f", "v");
        assertEquals(2, closes.nodeCount());

        StreamValue stays = new StreamValue();
        add(stays, 1, 32, 0, "f", "v");
        add(stays, 2, 32, 0, "f", "v");
        assertEquals(1, stays.nodeCount());

        StreamValue integers = new StreamValue();
        add(integers, 1, 31, 0, "f", "7");
        add(integers, 2, 31, 0, "f", "v");
        assertEquals(1, integers.nodeCount());
    }

    @Test
    void memoryIsTheNodesArraysWithTheirOverheadAndClosedNodesHaveNoSpareRoom() {
        StreamValue stream = new StreamValue();
        assertEquals(EMPTY, stream.memoryUsage());
        add(stream, 1, 4096, 2, "f", "v");
        // The master field (count 1, length 1, 'f') and the entry (flags with the ms delta, the seq
        // delta, length 1, 'v').
        assertEquals(EMPTY + NODE + 3 + 4, stream.memoryUsage());
        add(stream, 2, 4096, 2, "f", "v");
        add(stream, 3, 4096, 2, "f", "v");
        assertEquals(2, stream.nodeCount());
        assertEquals(EMPTY + 2 * NODE + (3 + 4 + 4) + (3 + 4), stream.memoryUsage());
        assertTrue(stream.delete(new StreamId(3, 0)));
        assertEquals(EMPTY + NODE + 3 + 4 + 4, stream.memoryUsage(), "a node with no live entry goes");
    }

    @Test
    void entriesWithOtherFieldsThanTheMasterKeepTheirOwn() {
        StreamValue stream = new StreamValue();
        add(stream, 1, 4096, 100, "a", "1", "b", "2");
        add(stream, 2, 4096, 100, "a", "3", "b", "4");
        add(stream, 3, 4096, 100, "c", "5");
        List<StreamValue.Entry> all = stream.range(StreamId.MIN, StreamId.MAX, 0, false);
        assertEquals(List.of("a", "1", "b", "2"), read(stream, all.get(0)));
        assertEquals(List.of("a", "3", "b", "4"), read(stream, all.get(1)));
        assertEquals(List.of("c", "5"), read(stream, all.get(2)));
        assertEquals(1, stream.fieldCount(all.get(2)));
    }

    @Test
    void trimmingRemovesWholeNodesWhenApproximateAndFlagsEntriesWhenExact() {
        StreamValue stream = new StreamValue();
        for (int i = 1; i <= 7; i++) {
            add(stream, i, 4096, 3, "f", "v");
        }
        assertEquals(0, stream.trim(5, null, true, 0), "removing a node of 3 would leave 4 < 5");
        assertEquals(3, stream.trim(2, null, true, 0));
        assertEquals(4, stream.length());
        assertEquals(2, stream.trim(2, null, false, 0));
        assertEquals(List.of(6L, 7L), ids(stream.range(StreamId.MIN, StreamId.MAX, 0, false)));
        assertEquals(new StreamId(6, 0), stream.firstId());
        assertEquals(1, stream.trim(0, new StreamId(7, 0), false, 0));
        assertEquals(new StreamId(7, 0), stream.firstId());
    }

    @Test
    void msDeltasBeyondSixtyOneBitsAreKept() {
        StreamValue stream = new StreamValue();
        add(stream, 1, 4096, 100, "f", "v");
        add(stream, -2L, 4096, 100, "f", "v");
        assertTrue(stream.delete(new StreamId(-2L, 0)));
        add(stream, -1L, 4096, 100, "f", "v");
        assertEquals(List.of(1L, -1L), ids(stream.range(StreamId.MIN, StreamId.MAX, 0, false)));
        assertEquals(List.of(-1L, 1L), ids(stream.range(StreamId.MIN, StreamId.MAX, 0, true)));
    }

    @Test
    void groupsConsumersAndPendingEntriesCountInMemoryAndLeaveNothingBehind() {
        StreamValue stream = new StreamValue();
        add(stream, 1, 4096, 100, "f", "v");
        add(stream, 2, 4096, 100, "f", "v");
        long entries = stream.memoryUsage();
        byte[] name = "group".getBytes(StandardCharsets.US_ASCII);
        StreamGroup group = stream.createGroup(name, StreamId.MIN, 0);
        long withGroup = stream.memoryUsage();
        assertTrue(withGroup > entries);
        StreamGroup.Consumer alice = group.consumerSeen("alice".getBytes(StandardCharsets.US_ASCII), 0);
        long withConsumer = stream.memoryUsage();
        assertTrue(withConsumer > withGroup);
        group.delivered(new StreamId(1, 0), alice, 0, false, 1);
        group.delivered(new StreamId(2, 0), alice, 0, false, 2);
        assertTrue(stream.memoryUsage() > withConsumer);
        assertEquals(stream.memoryUsage(), stream.copy().memoryUsage(), "no spare room in these nodes");
        assertTrue(group.acknowledge(new StreamId(1, 0)));
        assertEquals(1, group.deleteConsumer("alice".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(withGroup, stream.memoryUsage());
        assertEquals(0, group.pending().size());
        assertTrue(stream.destroyGroup(name));
        assertEquals(entries, stream.memoryUsage());
    }

    @Test
    void aCopySharesNoNode() {
        StreamValue stream = new StreamValue();
        add(stream, 1, 4096, 100, "f", "v");
        StreamValue copy = stream.copy();
        assertTrue(copy.delete(new StreamId(1, 0)));
        assertEquals(1, stream.length());
        assertFalse(copy.delete(new StreamId(1, 0)));
        assertNull(copy.edge(true));
        assertEquals(stream.memoryUsage() - NODE - 7, copy.memoryUsage());
    }

    /** Counts checked against redis-server 7.0.15 with stream-node-max-entries 1 (one node per entry). */
    @Test
    void radixTreeNodesCountRedisRaxNodesForTheNodeIds() {
        assertEquals(1, new StreamValue().radixTreeNodes());
        long[][] cases = {{1}, {1, 2}, {1, 1L << 56}, {1, 2, 3}, {1, 2, 256, 257, 1L << 40}};
        long[] expected = {2, 6, 5, 8, 16};
        for (int c = 0; c < cases.length; c++) {
            StreamValue stream = new StreamValue();
            for (long ms : cases[c]) {
                add(stream, ms, 4096, 1, "f", "v");
            }
            assertEquals(cases[c].length, stream.nodeCount());
            assertEquals(expected[c], stream.radixTreeNodes(), "node IDs " + java.util.Arrays.toString(cases[c]));
        }
    }
}
