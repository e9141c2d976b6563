package dev.lacewing.benchmarks;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Pub/sub fan-out load: {@code publishers} connections PUBLISH 64-byte messages to one channel
 * that {@code subscribers} connections (RESP2) have subscribed to, so each message is delivered
 * {@code subscribers} times. Prints one line of {@code key=value} pairs.
 *
 * <p>Deliveries are counted on the subscriber side: every {@code message} frame a subscriber
 * parses counts one. After {@code warmup} seconds the count and the server's CPU ticks
 * ({@code /proc/PID/stat} utime+stime) are read, again {@code seconds} later, and the differences
 * give deliveries per second and CPU seconds per million deliveries over the same window.
 *
 * <p>Each payload carries its publisher's index and a sequence number; every subscriber checks
 * that each publisher's messages arrive consecutively ({@code order_errors} counts gaps and
 * reorderings; {@code lost} counts messages published but never delivered by the end).
 *
 * <p>Bounded in time and count: publishing stops after {@code warmup + seconds} or after
 * {@code max-messages} per publisher, whichever comes first, and the drain waits at most 5 s.
 * Each publisher sends PUBLISH in pipelined batches of 32 and stays at most 1,000 messages ahead
 * of its slowest deliveries per subscriber, so the server's subscriber output buffers stay small
 * (far below Redis's {@code client-output-buffer-limit pubsub}) and no subscriber is dropped.
 *
 * <p>Threads: one thread per publisher (blocking sockets); one selector thread reads every
 * subscriber; the main thread samples. Counters the main thread reads are published with
 * {@code lazySet} by their one writer.
 *
 * <pre>java -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
 *   dev.lacewing.benchmarks.PubSubFanout port pid publishers subscribers seconds [warmup] [max-messages]</pre>
 */
public final class PubSubFanout {

    private static final int MESSAGE_BYTES = 64;
    private static final int BATCH = 32;
    private static final int AHEAD_PER_SUBSCRIBER = 1_000;
    private static final byte[] CHANNEL = "fanout".getBytes(StandardCharsets.US_ASCII);

    private final int port;
    private final int publishers;
    private final int subscribers;
    private final long maxMessages;
    /** Index 0: deliveries in all; 1 + p: deliveries of publisher p's messages. Writer: the reader thread. */
    private final AtomicLongArray delivered;
    /** Messages each publisher has had acknowledged by PUBLISH. Writer: that publisher's thread. */
    private final AtomicLongArray published;
    private volatile boolean stop;
    private volatile long orderErrors;
    private volatile long wrongReceiverCounts;

    private PubSubFanout(int port, int publishers, int subscribers, long maxMessages) {
        this.port = port;
        this.publishers = publishers;
        this.subscribers = subscribers;
        this.maxMessages = maxMessages;
        this.delivered = new AtomicLongArray(1 + publishers);
        this.published = new AtomicLongArray(publishers);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: PubSubFanout port pid publishers subscribers seconds [warmup] [max-messages]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        long pid = Long.parseLong(args[1]);
        int publishers = Integer.parseInt(args[2]);
        int subscribers = Integer.parseInt(args[3]);
        double seconds = Double.parseDouble(args[4]);
        double warmup = args.length > 5 ? Double.parseDouble(args[5]) : 1;
        long maxMessages = args.length > 6 ? Long.parseLong(args[6]) : 50_000_000L;
        if (publishers < 1 || publishers > 9999 || subscribers < 1) {
            throw new IllegalArgumentException("publishers must be 1..9999 and subscribers at least 1");
        }
        new PubSubFanout(port, publishers, subscribers, maxMessages).run(pid, seconds, warmup);
    }

    private void run(long pid, double seconds, double warmup) throws Exception {
        Reader reader = new Reader();
        reader.connectAll();
        Thread readerThread = new Thread(reader, "subscribers");
        readerThread.start();
        List<Thread> publisherThreads = new ArrayList<>();
        for (int p = 0; p < publishers; p++) {
            int index = p;
            Thread thread = new Thread(() -> publish(index), "publisher-" + p);
            thread.start();
            publisherThreads.add(thread);
        }
        sleepSeconds(warmup);
        long deliveredBefore = delivered.get(0);
        long ticksBefore = ServerCpu.ticks(pid);
        long start = System.nanoTime();
        sleepSeconds(seconds);
        long deliveredAfter = delivered.get(0);
        long ticksAfter = ServerCpu.ticks(pid);
        long elapsed = System.nanoTime() - start;
        stop = true;
        for (Thread thread : publisherThreads) {
            thread.join(TimeUnit.SECONDS.toMillis(15));
        }
        long publishedTotal = 0;
        for (int p = 0; p < publishers; p++) {
            publishedTotal += published.get(p);
        }
        long expected = publishedTotal * subscribers;
        long drainUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (delivered.get(0) < expected && System.nanoTime() < drainUntil) {
            Thread.sleep(10);
        }
        reader.stop = true;
        readerThread.join(TimeUnit.SECONDS.toMillis(5));

        long deliveries = deliveredAfter - deliveredBefore;
        double windowSeconds = elapsed / 1e9;
        double cpuSeconds = ServerCpu.seconds(ticksAfter - ticksBefore);
        System.out.printf("deliveries_per_s=%.0f cpu_s_per_M=%.3f deliveries=%d window_s=%.2f server_cpu_s=%.2f"
                + " published=%d order_errors=%d lost=%d wrong_receivers=%d%n",
            deliveries / windowSeconds, deliveries == 0 ? 0 : cpuSeconds / deliveries * 1e6, deliveries,
            windowSeconds, cpuSeconds, publishedTotal, orderErrors, expected - delivered.get(0),
            wrongReceiverCounts);
        System.exit(0);
    }

    /** One publisher's thread: pipelined batches of PUBLISH, each reply checked to be the subscriber count. */
    private void publish(int index) {
        byte[] command = publishCommand(index);
        int sequenceAt = command.length - 2 - MESSAGE_BYTES + 5;
        byte[] batch = new byte[command.length * BATCH];
        long maxAhead = (long) AHEAD_PER_SUBSCRIBER * subscribers;
        long sequence = 0;
        try (RespConnection connection = new RespConnection(port, 10_000)) {
            long wrong = 0;
            while (!stop && sequence < maxMessages) {
                while (!stop && sequence * subscribers - delivered.get(1 + index) > maxAhead) {
                    LockSupport.parkNanos(20_000);
                }
                int count = (int) Math.min(BATCH, maxMessages - sequence);
                for (int i = 0; i < count; i++) {
                    writeDigits(command, sequenceAt, 16, ++sequence);
                    System.arraycopy(command, 0, batch, i * command.length, command.length);
                }
                connection.writeEncoded(batch, 0, count * command.length);
                connection.flush();
                for (int i = 0; i < count; i++) {
                    if (connection.readInteger() != subscribers) {
                        wrong++;
                    }
                }
                published.lazySet(index, sequence);
            }
            if (wrong > 0) {
                synchronized (this) {
                    wrongReceiverCounts += wrong;
                }
            }
        } catch (IOException e) {
            System.err.println("publisher " + index + ": " + e);
        }
    }

    /** {@code PUBLISH fanout <payload>}; the payload is "pppp:ssssssssssssssss" padded with 'x' to 64 bytes. */
    private static byte[] publishCommand(int publisher) {
        byte[] payload = new byte[MESSAGE_BYTES];
        Arrays.fill(payload, (byte) 'x');
        writeDigits(payload, 0, 4, publisher);
        payload[4] = ':';
        String head = "*3\r\n$7\r\nPUBLISH\r\n$" + CHANNEL.length + "\r\n" + new String(CHANNEL, StandardCharsets.US_ASCII)
            + "\r\n$" + MESSAGE_BYTES + "\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] command = new byte[headBytes.length + MESSAGE_BYTES + 2];
        System.arraycopy(headBytes, 0, command, 0, headBytes.length);
        System.arraycopy(payload, 0, command, headBytes.length, MESSAGE_BYTES);
        command[command.length - 2] = '\r';
        command[command.length - 1] = '\n';
        return command;
    }

    private static void writeDigits(byte[] into, int at, int width, long value) {
        for (int i = at + width - 1; i >= at; i--) {
            into[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }

    /** Reads every subscriber connection on one selector thread and counts the messages it parses. */
    private final class Reader implements Runnable {

        private final Selector selector;
        private volatile boolean stop;

        Reader() throws IOException {
            selector = Selector.open();
        }

        void connectAll() throws IOException {
            byte[] subscribe = ("*2\r\n$9\r\nSUBSCRIBE\r\n$" + CHANNEL.length + "\r\n"
                + new String(CHANNEL, StandardCharsets.US_ASCII) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            List<Subscriber> all = new ArrayList<>();
            for (int s = 0; s < subscribers; s++) {
                SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                channel.socket().setTcpNoDelay(true);
                channel.write(ByteBuffer.wrap(subscribe));
                Subscriber subscriber = new Subscriber();
                all.add(subscriber);
                channel.configureBlocking(false);
                channel.register(selector, SelectionKey.OP_READ, subscriber);
            }
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (confirmed(all) < subscribers) {
                if (System.nanoTime() > until) {
                    throw new IOException("only " + confirmed(all) + " of " + subscribers + " subscriptions confirmed");
                }
                readOnce(100);
            }
        }

        private int confirmed(List<Subscriber> all) {
            int count = 0;
            for (Subscriber subscriber : all) {
                count += subscriber.subscribed ? 1 : 0;
            }
            return count;
        }

        @Override
        public void run() {
            try {
                while (!stop) {
                    readOnce(50);
                }
            } catch (IOException e) {
                System.err.println("subscribers: " + e);
            }
        }

        private void readOnce(long timeoutMillis) throws IOException {
            selector.select(timeoutMillis);
            for (SelectionKey key : selector.selectedKeys()) {
                Subscriber subscriber = (Subscriber) key.attachment();
                int read = ((SocketChannel) key.channel()).read(subscriber.buffer);
                if (read < 0) {
                    throw new IOException("a subscriber's connection was closed by the server");
                }
                subscriber.buffer.flip();
                while (subscriber.parseFrame()) {
                    // each call consumes one complete frame
                }
                subscriber.buffer.compact();
            }
            selector.selectedKeys().clear();
        }
    }

    /** One subscriber connection's unparsed bytes and the last sequence seen from each publisher. */
    private final class Subscriber {

        final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        final long[] lastSequence = new long[publishers];
        boolean subscribed;

        /** Consumes one complete RESP2 array of bulk strings and integers; false, consuming nothing, if incomplete. */
        boolean parseFrame() {
            ByteBuffer b = buffer;
            int start = b.position();
            if (!b.hasRemaining()) {
                return false;
            }
            if (b.get() != '*') {
                throw new IllegalStateException("unexpected reply on a subscriber connection");
            }
            long elements = readLine(b);
            int kindAt = -1;
            int payloadAt = -1;
            int payloadLength = 0;
            for (long i = 0; i < elements && elements != Long.MIN_VALUE; i++) {
                if (!b.hasRemaining()) {
                    b.position(start);
                    return false;
                }
                byte type = b.get();
                long value = readLine(b);
                if (value == Long.MIN_VALUE) {
                    b.position(start);
                    return false;
                }
                if (type == '$') {
                    if (b.remaining() < value + 2) {
                        b.position(start);
                        return false;
                    }
                    if (i == 0) {
                        kindAt = b.position();
                    } else if (i == 2) {
                        payloadAt = b.position();
                        payloadLength = (int) value;
                    }
                    b.position(b.position() + (int) value + 2);
                }
            }
            if (elements == Long.MIN_VALUE) {
                b.position(start);
                return false;
            }
            if (b.get(kindAt) == 'm' && payloadLength == MESSAGE_BYTES) {
                count(payloadAt);
            } else if (b.get(kindAt) == 's') {
                subscribed = true;
            }
            return true;
        }

        private void count(int payloadAt) {
            int publisher = (int) digits(payloadAt, 4);
            long sequence = digits(payloadAt + 5, 16);
            if (sequence != lastSequence[publisher] + 1) {
                orderErrors++;
            }
            lastSequence[publisher] = sequence;
            delivered.lazySet(0, delivered.get(0) + 1);
            delivered.lazySet(1 + publisher, delivered.get(1 + publisher) + 1);
        }

        private long digits(int at, int width) {
            long value = 0;
            for (int i = at; i < at + width; i++) {
                value = value * 10 + (buffer.get(i) - '0');
            }
            return value;
        }

        /** The integer before the next CRLF, consuming it; Long.MIN_VALUE, consuming an unknown amount, if no CRLF yet. */
        private long readLine(ByteBuffer b) {
            long value = 0;
            boolean negative = false;
            while (b.hasRemaining()) {
                byte c = b.get();
                if (c == '\r') {
                    if (!b.hasRemaining()) {
                        return Long.MIN_VALUE;
                    }
                    b.get();
                    return negative ? -value : value;
                }
                if (c == '-') {
                    negative = true;
                } else {
                    value = value * 10 + (c - '0');
                }
            }
            return Long.MIN_VALUE;
        }
    }

    private static void sleepSeconds(double seconds) throws InterruptedException {
        Thread.sleep((long) (seconds * 1000));
    }
}
