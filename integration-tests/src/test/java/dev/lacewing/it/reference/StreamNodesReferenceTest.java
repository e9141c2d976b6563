package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stream node boundaries against redis-server 7.0: random XADD sequences (shared and differing
 * fields, integer-looking and long values, deletions) under several stream-node-max-bytes and
 * stream-node-max-entries settings split into the same nodes, so that approximate trimming, which
 * removes whole nodes only, removes the same entries, XINFO STREAM shows the same radix-tree-keys and
 * radix-tree-nodes, and DUMP gives the same bytes.
 */
class StreamNodesReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    /** stream-node-max-bytes, stream-node-max-entries. */
    private static final String[][] LIMITS = {{"4096", "100"}, {"300", "0"}, {"1000", "7"}, {"0", "5"},
        {"65", "100"}};
    private static final String[] FIELDS = {"f", "g", "field", "12", "-7"};

    static Stream<Arguments> targets() {
        return Servers.all().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void nodesSplitAndTrimAsRedis(Target target) {
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            Random random = new Random(19 + RUNS.get());
            try {
                for (String[] limits : LIMITS) {
                    for (RespClient client : List.of(reference, lacewing)) {
                        client.call("CONFIG", "SET", "stream-node-max-bytes", limits[0],
                            "stream-node-max-entries", limits[1]);
                    }
                    for (int round = 0; round < 3; round++) {
                        String key = "xnodes" + RUNS.incrementAndGet() + ":" + limits[0] + ":" + limits[1];
                        compareOneStream(reference, lacewing, key, random);
                    }
                }
            } finally {
                for (RespClient client : List.of(reference, lacewing)) {
                    client.call("CONFIG", "SET", "stream-node-max-bytes", "4096", "stream-node-max-entries", "100");
                }
            }
        }
    }

    /**
     * radix-tree-nodes counts the nodes of Redis's rax over the stream nodes' IDs, whose shape
     * depends on the bytes those IDs share: many streams with one or two entries a node, IDs from
     * 0 to the largest, spread by every byte position, with entries and whole nodes deleted
     * anywhere and trimmed, compared after each stream's writes.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void radixTreeNodesAsRedis(Target target) {
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(Servers.server(target).port())) {
            Random random = new Random(29 + RUNS.get());
            long[] starts = {0, 1, 1000, 1_700_000_000_000L, Long.MIN_VALUE, -1000};
            long[] steps = {1, 255, 256, 65_536, 1L << 32, 1L << 40};
            try {
                for (int round = 0; round < 60; round++) {
                    String entries = String.valueOf(1 + round % 2);
                    for (RespClient client : List.of(reference, lacewing)) {
                        client.call("CONFIG", "SET", "stream-node-max-entries", entries);
                    }
                    String key = "xrax" + RUNS.incrementAndGet();
                    long ms = starts[random.nextInt(starts.length)];
                    long seq = random.nextBoolean() ? 0 : -300;
                    List<String> ids = new ArrayList<>();
                    for (int i = random.nextInt(50); i > 0; i--) {
                        if (random.nextInt(3) == 0 && Long.compareUnsigned(ms, -(1L << 41)) < 0) {
                            ms += steps[random.nextInt(steps.length)];
                            seq = random.nextInt(4) == 0 ? -300 : 0;
                        } else if (Long.compareUnsigned(seq, -257) < 0) {
                            seq += random.nextBoolean() ? 1 : 256;
                        } else if (seq != -1) {
                            seq++;
                        }
                        String id = Long.toUnsignedString(ms) + "-" + Long.toUnsignedString(seq);
                        if (reference.call("XADD", key, id, "f", "v").startsWith("$")) {
                            ids.add(id);
                            lacewing.call("XADD", key, id, "f", "v");
                        }
                    }
                    for (int i = random.nextInt(12); i > 0 && !ids.isEmpty(); i--) {
                        same(reference, lacewing, "XDEL", key, ids.get(random.nextInt(ids.size())));
                    }
                    if (!ids.isEmpty() && random.nextBoolean()) {
                        same(reference, lacewing, "XTRIM", key, "MAXLEN", String.valueOf(random.nextInt(ids.size())));
                    }
                    same(reference, lacewing, "XINFO", "STREAM", key);
                }
            } finally {
                for (RespClient client : List.of(reference, lacewing)) {
                    client.call("CONFIG", "SET", "stream-node-max-entries", "100");
                }
            }
        }
    }

    private static void compareOneStream(RespClient reference, RespClient lacewing, String key, Random random) {
        long ms = 1 + random.nextInt(1000);
        long seq = 0;
        List<String> ids = new ArrayList<>();
        int entries = 150 + random.nextInt(250);
        for (int i = 0; i < entries; i++) {
            if (random.nextInt(3) == 0) {
                ms += 1 + random.nextInt(random.nextBoolean() ? 50 : 100_000);
                seq = random.nextInt(3) == 0 ? random.nextInt(70_000) : 0;
            } else {
                seq += 1 + random.nextInt(random.nextInt(5) == 0 ? 10_000 : 3);
            }
            String id = ms + "-" + seq;
            ids.add(id);
            List<String> command = new ArrayList<>(List.of("XADD", key, id));
            int fieldCount = 1 + (random.nextInt(4) == 0 ? random.nextInt(4) : 0);
            for (int f = 0; f < fieldCount; f++) {
                command.add(random.nextInt(5) == 0 ? FIELDS[random.nextInt(FIELDS.length)] : FIELDS[f]);
                command.add(value(random));
            }
            same(reference, lacewing, command.toArray(String[]::new));
            if (random.nextInt(15) == 0) {
                same(reference, lacewing, "XDEL", key, ids.get(random.nextInt(ids.size())));
            }
        }
        check(reference, lacewing, key);
        for (int trim = 0; trim < 4; trim++) {
            long length = Long.parseLong(reference.call("XLEN", key).substring(1).trim());
            String id = ids.get(random.nextInt(ids.size()));
            switch (trim) {
                case 0 -> same(reference, lacewing, "XTRIM", key, "MAXLEN", "~", String.valueOf(length * 3 / 4));
                case 1 -> same(reference, lacewing, "XTRIM", key, "MINID", "~", id);
                case 2 -> same(reference, lacewing, "XADD", key, "MAXLEN", "~", String.valueOf(length / 3),
                    ms + 1 + "-0", "f", value(random));
                default -> same(reference, lacewing, "XADD", key, "MINID", "~", id, "LIMIT", "20",
                    ms + 2 + "-0", "g", value(random));
            }
            check(reference, lacewing, key);
        }
    }

    private static String value(Random random) {
        return switch (random.nextInt(8)) {
            case 0 -> String.valueOf(random.nextInt(128));
            case 1 -> String.valueOf(random.nextLong() >> random.nextInt(64));
            case 2 -> "x".repeat(40 + random.nextInt(200));
            case 3 -> "y".repeat(random.nextInt(5) == 0 ? 4000 + random.nextInt(300) : 60 + random.nextInt(10));
            case 4 -> "0" + random.nextInt(100);
            default -> "v" + random.nextInt(1000);
        };
    }

    private static void check(RespClient reference, RespClient lacewing, String key) {
        same(reference, lacewing, "XLEN", key);
        same(reference, lacewing, "XRANGE", key, "-", "+");
        assertEquals(info(reference, key), info(lacewing, key), "XINFO STREAM " + key);
        byte[] expected = dump(reference, key);
        byte[] actual = dump(lacewing, key);
        assertEquals(expected.length, actual.length, "DUMP length of " + key);
        assertEquals(-1, Arrays.mismatch(expected, actual), "DUMP bytes of " + key);
    }

    private static void same(RespClient reference, RespClient lacewing, String... command) {
        assertEquals(reference.call(command), lacewing.call(command), String.join(" ", command));
    }

    private static String info(RespClient client, String key) {
        return client.call("XINFO", "STREAM", key, "FULL");
    }

    private static byte[] dump(RespClient client, String key) {
        byte[] reply = client.callBytes(RespClient.toBytes("DUMP", key));
        int headerEnd = 0;
        while (reply[headerEnd] != '\r') {
            headerEnd++;
        }
        return Arrays.copyOfRange(reply, headerEnd + 2, reply.length - 2);
    }
}
