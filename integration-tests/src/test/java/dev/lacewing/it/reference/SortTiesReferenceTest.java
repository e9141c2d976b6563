package dev.lacewing.it.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.junit.LacewingMatrix;
import dev.lacewing.junit.LacewingTest;
import dev.lacewing.junit.LacewingServerInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SORT ... BY ... ALPHA with ties, against redis-server 7.0 on random lists: with a LIMIT short of
 * the whole list Redis sorts with pqsort, which is not stable, so the order of tied elements is
 * pqsort's; without one, glibc's stable qsort keeps the list's order. Each case draws a list of
 * 1 to 40 distinct elements (41 to 120 in one case of five), BY weights from a three-letter
 * alphabet (one in eight missing, some equal up to a NUL byte), ASC or DESC, a LIMIT (often none,
 * sometimes out of range), and replies or STORE; the fixed seed makes a failure repeatable.
 */
class SortTiesReferenceTest {

    private static final long SEED = 20240607L;
    private static final int CASES = 400;
    private static final String[] WEIGHTS = {"a", "b", "c", "b\u0000x"};
    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    @LacewingMatrix(storages = {LacewingTest.Storage.COMPACT, LacewingTest.Storage.TIERED}, settings = "threads 2")
    void tiedElementsComeBackInRedisOrder(LacewingServerInfo server) {
        Random random = new Random(SEED);
        String run = "pq" + RUNS.incrementAndGet() + ":";
        try (RespClient reference = RespClient.connect(redis.port());
             RespClient lacewing = RespClient.connect(server.port())) {
            for (int n = 0; n < CASES; n++) {
                int index = n;
                for (String[] command : drawCase(random, run + n + ":")) {
                    String expected = reference.call(command);
                    assertEquals(expected, lacewing.call(command),
                        () -> "case " + index + " (seed " + SEED + "): " + String.join(" ", command));
                }
            }
        }
    }

    /** The commands of one case: fill the list and its weights, sort, and read a STORE back. */
    private static List<String[]> drawCase(Random random, String prefix) {
        // One in five larger than 40, where pqsort picks its pivot as a median of medians.
        int size = random.nextInt(5) == 0 ? 41 + random.nextInt(80) : 1 + random.nextInt(40);
        List<String> push = new ArrayList<>(List.of("RPUSH", prefix + "l"));
        List<String> weights = new ArrayList<>(List.of("MSET"));
        for (int i = 0; i < size; i++) {
            push.add("e" + i);
            if (random.nextInt(8) != 0) {
                weights.add(prefix + "w_e" + i);
                weights.add(WEIGHTS[random.nextInt(WEIGHTS.length)]);
            }
        }
        List<String> sort = new ArrayList<>(List.of("SORT", prefix + "l", "BY", prefix + "w_*", "ALPHA"));
        if (random.nextBoolean()) {
            sort.add("DESC");
        }
        if (random.nextInt(4) != 0) {
            sort.addAll(List.of("LIMIT", Integer.toString(random.nextInt(size + 3) - 1),
                Integer.toString(random.nextInt(size + 3) - 1)));
        }
        boolean store = random.nextInt(4) == 0;
        if (store) {
            sort.addAll(List.of("STORE", prefix + "dst"));
        }
        List<String[]> commands = new ArrayList<>();
        commands.add(push.toArray(String[]::new));
        if (weights.size() > 1) {
            commands.add(weights.toArray(String[]::new));
        }
        commands.add(sort.toArray(String[]::new));
        if (store) {
            commands.add(new String[] {"LRANGE", prefix + "dst", "0", "-1"});
        }
        return commands;
    }
}
