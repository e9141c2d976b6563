package dev.lacewing.it.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The crash test (issue 17, item 6), on every target of {@link Servers#all}: a writer pipelines INCR and
 * SET commands at a server process running with appendfsync always; the process is killed with
 * SIGKILL at a random moment; the next start on the same directory must hold every write whose
 * reply arrived. Three kills in a row per target, each after 0.3 to 1.5 s of writing; every wait
 * is bounded. The numbers (acknowledged, found, sent but unacknowledged) are printed.
 */
class AofCrashTest {

    private static final int ROUNDS = 3;
    private static final int PIPELINE = 32;

    static Stream<Target> targets() {
        return Servers.all();
    }

    /** One server process on {@code dir}, answering PING. */
    private static Process start(Target target, Path dir, int port) throws Exception {
        return AofCrashServer.launch(target, dir, port, "always", dir.resolve("server-" + port + ".log"), List.of());
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void everyAcknowledgedWriteSurvivesSigkill(Target target) throws Exception {
        Path dir = Servers.freshDirectory();
        Random random = new Random();
        long acknowledgedIncrs = 0;
        List<Integer> acknowledgedSets = new ArrayList<>();
        long unacknowledged = 0;
        int nextKey = 0;
        for (int round = 0; round <= ROUNDS; round++) {
            int port = freePort();
            Process process = start(target, dir, port);
            try {
                try (RespClient client = RespClient.connect(port)) {
                    long counter = Long.parseLong(orZero(client.call("GET", "counter")));
                    assertTrue(counter >= acknowledgedIncrs, "round " + round + ": counter " + counter
                        + " < acknowledged INCRs " + acknowledgedIncrs);
                    assertTrue(counter <= acknowledgedIncrs + unacknowledged, "counter " + counter);
                    long found = existing(client, acknowledgedSets);
                    assertEquals(acknowledgedSets.size(), found, "round " + round + ": acknowledged SETs found");
                    System.out.printf("AofCrashTest %s round %d: %d INCR and %d SET acknowledged, all found; "
                        + "counter %d (%d sent unacknowledged)%n", target, round, acknowledgedIncrs,
                        acknowledgedSets.size(), counter, unacknowledged);
                    acknowledgedIncrs = counter;
                    unacknowledged = 0;
                }
                if (round == ROUNDS) {
                    break;
                }
                long killAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300 + random.nextInt(1200));
                Thread killer = new Thread(() -> {
                    try {
                        TimeUnit.NANOSECONDS.sleep(Math.max(0, killAt - System.nanoTime()));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    process.destroyForcibly();
                }, "sigkill");
                killer.start();
                long writeDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                try (RespClient client = RespClient.connect(port)) {
                    while (System.nanoTime() < writeDeadline) {
                        List<byte[]> batch = new ArrayList<>();
                        int[] keys = new int[PIPELINE];
                        for (int i = 0; i < PIPELINE; i++) {
                            if (i % 2 == 0) {
                                batch.add(RespClient.encode(RespClient.toBytes("INCR", "counter")));
                                keys[i] = -1;
                            } else {
                                keys[i] = nextKey++;
                                batch.add(RespClient.encode(RespClient.toBytes("SET", "key:" + keys[i],
                                    Integer.toString(keys[i]))));
                            }
                        }
                        int sent = 0;
                        try {
                            for (byte[] request : batch) {
                                client.send(request);
                            }
                            for (; sent < PIPELINE; sent++) {
                                String reply = RespClient.text(client.readReply());
                                if (keys[sent] < 0) {
                                    assertTrue(reply.startsWith(":"), reply);
                                    acknowledgedIncrs++;
                                } else {
                                    assertEquals("+OK\r\n", reply);
                                    acknowledgedSets.add(keys[sent]);
                                }
                            }
                        } catch (RuntimeException killed) {
                            for (int i = sent; i < PIPELINE; i++) {
                                if (keys[i] < 0) {
                                    unacknowledged++;
                                }
                            }
                            break;
                        }
                    }
                } catch (RuntimeException killedBeforeConnecting) {
                    // The kill came first: nothing was written this round.
                }
                killer.join(TimeUnit.SECONDS.toMillis(20));
                assertTrue(process.waitFor(20, TimeUnit.SECONDS));
            } finally {
                process.destroyForcibly();
                process.waitFor(20, TimeUnit.SECONDS);
            }
        }
        assertTrue(acknowledgedIncrs > 0, "nothing was acknowledged: the test proved nothing");
    }

    private static String orZero(String reply) {
        return reply.equals("$-1\r\n") ? "0" : reply.substring(reply.indexOf("\r\n") + 2, reply.length() - 2);
    }

    /** How many of the keys exist, asked 500 at a time. */
    private static long existing(RespClient client, List<Integer> keys) {
        long found = 0;
        for (int from = 0; from < keys.size(); from += 500) {
            List<String> command = new ArrayList<>(List.of("EXISTS"));
            for (int key : keys.subList(from, Math.min(keys.size(), from + 500))) {
                command.add("key:" + key);
            }
            String reply = client.call(command.toArray(String[]::new));
            found += Long.parseLong(reply.substring(1, reply.length() - 2));
        }
        return found;
    }
}
