package dev.lacewing.benchmarks;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.Client;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ValueView;
import dev.lacewing.core.command.Command;
import dev.lacewing.core.command.CommandTable;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
import dev.lacewing.core.resp.RequestDecoder;
import dev.lacewing.core.resp.RespWriter;
import dev.lacewing.core.server.ClientConnection;
import dev.lacewing.core.server.CoreCommands;
import dev.lacewing.core.server.CoreContext;
import dev.lacewing.core.server.ServerState;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The server's request path without the socket, as a connection runs a read of 30 pipelined GET
 * or SET requests: the decoder parses the read in place, each command is found in the command
 * table by its name's bytes, the arity is checked, the string family's handler runs against a
 * keyspace partition holding {@code keys} keys of 256 bytes, and the replies are encoded into a
 * direct buffer taken from Netty's default pooled allocator as the connection takes it and released after the batch, as a flush
 * does. Keys are random over the whole keyspace (256 pre-encoded reads, cycled), so the lookups
 * miss the caches as a real load does. Run with {@code -prof gc}: allocation per request should
 * be nil.
 *
 * <p>Not measured: the engine's hand-over (a hop to another shard, or a lock stripe) and the
 * event loop's read and write system calls.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class DispatchBenchmark {

    private static final int PIPELINE = 30;
    private static final int READS = 256;

    @Param({"GET", "SET"})
    public String command;

    @Param({"1000000"})
    public int keys;

    private final RequestDecoder decoder = new RequestDecoder();
    private final RespWriter writer = new RespWriter();
    /** What {@code channel.alloc()} is in the server: Netty's default, pooled (adaptive in Netty 4.2). */
    private final ByteBufAllocator allocator = ByteBufAllocator.DEFAULT;
    private final ByteBuf[] reads = new ByteBuf[READS];
    private CommandTable<CoreContext> table;
    private BenchmarkContext context;
    private int next;

    @Setup
    public void setUp() {
        table = CoreCommands.table();
        Keyspace keyspace = new PartitionedKeyspace(1, 16).database(0);
        byte[] value = new byte[256];
        for (int i = 0; i < keys; i++) {
            byte[] key = key(i);
            keyspace.put(key, 0, key.length, value, Keyspace.NO_EXPIRY);
        }
        context = new BenchmarkContext(decoder, writer, keyspace);
        SplittableRandom random = new SplittableRandom(42);
        String payload = "v".repeat(256);
        for (int r = 0; r < READS; r++) {
            StringBuilder requests = new StringBuilder();
            for (int i = 0; i < PIPELINE; i++) {
                String key = new String(key(random.nextInt(keys)), StandardCharsets.US_ASCII);
                if (command.equals("GET")) {
                    requests.append("*2\r\n$3\r\nGET\r\n$").append(key.length()).append("\r\n").append(key)
                        .append("\r\n");
                } else {
                    requests.append("*3\r\n$3\r\nSET\r\n$").append(key.length()).append("\r\n").append(key)
                        .append("\r\n$256\r\n").append(payload).append("\r\n");
                }
            }
            reads[r] = allocator.directBuffer().writeBytes(requests.toString().getBytes(StandardCharsets.US_ASCII));
        }
    }

    @TearDown
    public void tearDown() {
        for (ByteBuf read : reads) {
            read.release();
        }
    }

    private static byte[] key(int i) {
        return ("key:" + (1_000_000 + i)).getBytes(StandardCharsets.US_ASCII);
    }

    /** One read of 30 requests, dispatched and answered; returns the reply bytes. */
    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public int pipeline() {
        ByteBuf read = reads[next];
        next = (next + 1) & (READS - 1);
        read.readerIndex(0);
        decoder.append(read);
        ByteBuf out = allocator.ioBuffer(512);
        writer.target(out);
        while (decoder.decode() == RequestDecoder.Result.COMPLETE) {
            Command<CoreContext> found = table.lookup(decoder.array(), decoder.offset(0), decoder.length(0));
            if (found == null || !found.spec().acceptsArgumentCount(decoder.count())) {
                throw new IllegalStateException("the benchmark's requests are GET and SET");
            }
            context.now = System.currentTimeMillis();
            found.execute(context);
            decoder.consume();
        }
        int written = out.readableBytes();
        out.release();
        return written;
    }

    /**
     * What the string commands see of a connection: its arguments, reply writer, keyspace, clock
     * and value view. The rest of a connection (client, server, other databases) is not part of
     * GET's and SET's path and refuses use. Touched only by the benchmark thread.
     */
    private static final class BenchmarkContext implements CoreContext {

        private final Arguments arguments;
        private final RespWriter reply;
        private final Keyspace keyspace;
        private final ValueView view = new ValueView();
        long now;

        BenchmarkContext(Arguments arguments, RespWriter reply, Keyspace keyspace) {
            this.arguments = arguments;
            this.reply = reply;
            this.keyspace = keyspace;
        }

        @Override
        public Arguments arguments() {
            return arguments;
        }

        @Override
        public RespWriter reply() {
            return reply;
        }

        @Override
        public Keyspace keyspace() {
            return keyspace;
        }

        @Override
        public Keyspace keyspace(int index) {
            throw new UnsupportedOperationException("one database");
        }

        @Override
        public int databases() {
            return 1;
        }

        @Override
        public void swapDatabases(int first, int second) {
            throw new UnsupportedOperationException("one database");
        }

        @Override
        public long now() {
            return now;
        }

        @Override
        public ValueView valueView() {
            return view;
        }

        @Override
        public Client client() {
            throw new UnsupportedOperationException("no connection");
        }

        @Override
        public ServerState server() {
            throw new UnsupportedOperationException("no server");
        }

        @Override
        public ClientConnection connection() {
            throw new UnsupportedOperationException("no connection");
        }
    }
}
