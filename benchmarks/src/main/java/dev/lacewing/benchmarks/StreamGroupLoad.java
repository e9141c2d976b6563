package dev.lacewing.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Consumer-group load: pre-fills the stream {@code s} with {@code prefill} entries (two small
 * fields each, XADD pipelined 1,000 at a time), creates group {@code g} at id 0, then runs
 * {@code connections} connections, connection {@code i} being consumer {@code c<i>}, each doing
 * {@code XREADGROUP GROUP g c<i> COUNT 1 STREAMS s >} followed by {@code XACK s g <id>} for the id
 * it got. Prints one line of {@code key=value} pairs; an op is one XREADGROUP+XACK pair.
 *
 * <p>Pipelining, at depth {@code pipeline}: each connection writes {@code pipeline} XREADGROUPs in
 * one go, reads their replies, then writes the {@code pipeline} XACKs of the ids it got and reads
 * theirs. This is what a batching worker does (fetch a batch, process it, acknowledge it); at
 * depth 1 it is plain request and reply, one command in flight per connection.
 *
 * <p>After {@code warmup} seconds (the JIT's) the pair count and the server's CPU ticks
 * ({@code /proc/PID/stat} utime+stime) are read, and again {@code seconds} later, or as soon as a
 * connection finds the stream drained ({@code drained=1}: pre-fill more), giving pairs per second
 * and server CPU seconds per million pairs over the same window. Every XACK must reply 1
 * ({@code ack_errors} counts the others). Bounded: each connection stops at the window's end, and
 * the stream is deleted at the end.
 *
 * <p>Threads: one thread per connection (blocking sockets); the main thread pre-fills and samples.
 * Each pair counter is published with {@code lazySet} by its one writer.
 *
 * <pre>java -cp benchmarks/target/classes dev.lacewing.benchmarks.StreamGroupLoad \
 *   port pid connections pipeline seconds [warmup] [prefill]</pre>
 */
public final class StreamGroupLoad {

    private static final byte[] KEY = bytes("s");
    private static final byte[] GROUP = bytes("g");
    private static final int PREFILL_BATCH = 1_000;

    private final int port;
    private final int pipeline;
    /** Pairs acknowledged per connection. Writer: that connection's thread. */
    private final AtomicLongArray pairs;
    private volatile boolean stop;
    private volatile boolean drained;
    private volatile long ackErrors;

    private StreamGroupLoad(int port, int connections, int pipeline) {
        this.port = port;
        this.pipeline = pipeline;
        this.pairs = new AtomicLongArray(connections);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: StreamGroupLoad port pid connections pipeline seconds [warmup] [prefill]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        long pid = Long.parseLong(args[1]);
        int connections = Integer.parseInt(args[2]);
        int pipeline = Integer.parseInt(args[3]);
        double seconds = Double.parseDouble(args[4]);
        double warmup = args.length > 5 ? Double.parseDouble(args[5]) : 2;
        long prefill = args.length > 6 ? Long.parseLong(args[6]) : 1_000_000;
        if (connections < 1 || pipeline < 1 || prefill < 1) {
            throw new IllegalArgumentException("connections, pipeline and prefill must be at least 1");
        }
        new StreamGroupLoad(port, connections, pipeline).run(pid, seconds, warmup, prefill);
    }

    private void run(long pid, double seconds, double warmup, long prefill) throws Exception {
        try (RespConnection admin = new RespConnection(port, 30_000)) {
            admin.command(bytes("DEL"), KEY);
            prefill(admin, prefill);
            admin.command(bytes("XGROUP"), bytes("CREATE"), KEY, GROUP, bytes("0"));
        }
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < pairs.length(); c++) {
            int index = c;
            Thread thread = new Thread(() -> work(index), "consumer-" + c);
            thread.start();
            threads.add(thread);
        }
        Thread.sleep((long) (warmup * 1000));
        long pairsBefore = total();
        long ticksBefore = ServerCpu.ticks(pid);
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        while (System.nanoTime() < end && !drained) {
            Thread.sleep(10);
        }
        long pairsAfter = total();
        long ticksAfter = ServerCpu.ticks(pid);
        long elapsed = System.nanoTime() - start;
        stop = true;
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(15));
        }
        try (RespConnection admin = new RespConnection(port, 30_000)) {
            admin.command(bytes("DEL"), KEY);
        }
        long done = pairsAfter - pairsBefore;
        double window = elapsed / 1e9;
        double cpuSeconds = ServerCpu.seconds(ticksAfter - ticksBefore);
        System.out.printf("pairs_per_s=%.0f cpu_s_per_M=%.3f pairs=%d window_s=%.2f server_cpu_s=%.2f"
                + " drained=%d ack_errors=%d%n",
            done / window, done == 0 ? 0 : cpuSeconds / done * 1e6, done, window, cpuSeconds,
            drained ? 1 : 0, ackErrors);
        System.exit(0);
    }

    private static void prefill(RespConnection admin, long entries) throws IOException {
        byte[] star = bytes("*");
        byte[] payload = bytes("x".repeat(16));
        for (long sent = 0; sent < entries; ) {
            int batch = (int) Math.min(PREFILL_BATCH, entries - sent);
            for (int i = 0; i < batch; i++) {
                admin.write(bytes("XADD"), KEY, star, bytes("job"), bytes(Long.toString(sent + i)),
                    bytes("payload"), payload);
            }
            admin.flush();
            for (int i = 0; i < batch; i++) {
                admin.read();
            }
            sent += batch;
        }
    }

    /** One connection's loop: {@code pipeline} XREADGROUPs, their replies, then their XACKs and replies. */
    private void work(int index) {
        byte[] consumer = bytes("c" + index);
        byte[][] read = {bytes("XREADGROUP"), bytes("GROUP"), GROUP, consumer, bytes("COUNT"), bytes("1"),
            bytes("STREAMS"), KEY, bytes(">")};
        byte[] xack = bytes("XACK");
        List<byte[]> ids = new ArrayList<>(pipeline);
        long done = 0;
        try (RespConnection connection = new RespConnection(port, 30_000)) {
            while (!stop) {
                for (int i = 0; i < pipeline; i++) {
                    connection.write(read);
                }
                connection.flush();
                ids.clear();
                for (int i = 0; i < pipeline; i++) {
                    byte[] id = firstId(connection.read());
                    if (id == null) {
                        drained = true;
                    } else {
                        ids.add(id);
                    }
                }
                for (byte[] id : ids) {
                    connection.write(xack, KEY, GROUP, id);
                }
                connection.flush();
                for (int i = 0; i < ids.size(); i++) {
                    Object reply = connection.read();
                    if (!Long.valueOf(1).equals(reply)) {
                        ackErrors++;
                    }
                }
                done += ids.size();
                pairs.lazySet(index, done);
                if (drained) {
                    return;
                }
            }
        } catch (IOException failure) {
            System.err.println("consumer " + index + ": " + failure);
        }
    }

    /** The entry id in an XREADGROUP reply {@code [[s, [[id, fields]]]]}, or null for none. */
    private static byte[] firstId(Object reply) {
        if (!(reply instanceof List<?> streams) || streams.isEmpty()) {
            return null;
        }
        List<?> entries = (List<?>) ((List<?>) streams.get(0)).get(1);
        return entries.isEmpty() ? null : (byte[]) ((List<?>) entries.get(0)).get(0);
    }

    private long total() {
        long sum = 0;
        for (int c = 0; c < pairs.length(); c++) {
            sum += pairs.get(c);
        }
        return sum;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
