package dev.lacewing.core.command;

import dev.lacewing.api.ValueView;
import dev.lacewing.api.Arguments;
import dev.lacewing.api.Client;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.Keyspace;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.api.Server;
import dev.lacewing.api.Settings;
import dev.lacewing.core.keyspace.MemoryPolicy;
import dev.lacewing.core.keyspace.PartitionedKeyspace;
import dev.lacewing.core.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A {@link CommandContext} for testing command families without a server: a real
 * {@link PartitionedKeyspace} on a clock the test sets, the real {@link RespWriter} writing
 * RESP2 into a heap buffer, and dispatch through a real {@link CommandTable} with the arity
 * check the server makes. One command at a time, on the test's thread.
 *
 * <p>Text is Latin-1 both ways, so a Java string carries any bytes ("\0", "\r\n", 0xff) to a
 * key and back out of a reply unchanged.
 */
public final class FakeCommandContext implements CommandContext, Client, Server, Settings {

    /** A fixed, realistic start time: 2023-11-14T22:13:20Z. */
    public static final long START = 1_700_000_000_000L;

    private final CommandTable<CommandContext> table;
    private final PartitionedKeyspace keyspace;
    private final int databases;
    private final ValueView valueView = new ValueView();
    private final RespWriter writer = new RespWriter();
    private final ByteBuf out = Unpooled.buffer();
    private final Map<String, String> settings = new HashMap<>();
    /** The keyspace's memory settings, told of every {@link #setting} as CONFIG SET tells the server's. */
    private final MemoryPolicy memory = new MemoryPolicy();
    private Arguments arguments;
    private long now = START;
    private int database;
    private int protocol = 2;

    /** A context over one partition and 16 databases, with the commands {@code families} register. */
    @SafeVarargs
    public FakeCommandContext(Consumer<CommandRegistry>... families) {
        this(1, 16, families);
    }

    @SafeVarargs
    public FakeCommandContext(int partitions, int databases, Consumer<CommandRegistry>... families) {
        CommandTable.Builder<CommandContext> builder = new CommandTable.Builder<>("core");
        for (Consumer<CommandRegistry> family : families) {
            family.accept(builder);
        }
        this.table = builder.build();
        this.databases = databases;
        this.keyspace = new PartitionedKeyspace(partitions, databases, memory, () -> now);
        writer.target(out);
    }

    // ---- what tests drive ---------------------------------------------------------------------

    /** Runs one command and returns its reply as RESP2 text. */
    public String call(String... words) {
        byte[][] arguments = new byte[words.length][];
        for (int i = 0; i < words.length; i++) {
            arguments[i] = bytes(words[i]);
        }
        return call(arguments);
    }

    /** Runs one command given as raw arguments and returns its reply as RESP2 text. */
    public String call(byte[]... words) {
        arguments = new SlicedArguments(words);
        Command<CommandContext> command = table.lookup(arguments.array(), arguments.offset(0), arguments.length(0));
        if (command == null) {
            throw new IllegalArgumentException("no command " + text(words[0]));
        }
        if (!command.spec().acceptsArgumentCount(words.length)) {
            writer.error(Errors.wrongArity(command.spec().name()));
        } else {
            command.execute(this);
        }
        arguments = null;
        String reply = out.toString(StandardCharsets.ISO_8859_1);
        out.clear();
        return reply;
    }

    /**
     * Runs one command and returns its reply decoded: Long for integers, String for bulk
     * strings, null for nil, List for arrays, {@link Simple} and {@link Error} for the others.
     */
    public Object reply(String... words) {
        String resp = call(words);
        int[] position = {0};
        Object value = decode(resp, position);
        if (position[0] != resp.length()) {
            throw new IllegalStateException("more than one reply: " + resp);
        }
        return value;
    }

    public record Simple(String text) {
    }

    public record Error(String message) {
    }

    public long now() {
        return now;
    }

    public void now(long millis) {
        this.now = millis;
    }

    public void advance(long millis) {
        now += millis;
    }

    public Command<CommandContext> command(String name) {
        return table.lookup(name);
    }

    public CommandTable<CommandContext> table() {
        return table;
    }

    public void setting(String name, String value) {
        settings.put(name, value);
        memory.set(name, value);
    }

    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    public static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** The RESP2 text of a bulk string. */
    public static String bulk(String text) {
        return "$" + bytes(text).length + "\r\n" + text + "\r\n";
    }

    private static Object decode(String resp, int[] position) {
        int start = position[0];
        int lineEnd = resp.indexOf("\r\n", start);
        String line = resp.substring(start + 1, lineEnd);
        position[0] = lineEnd + 2;
        switch (resp.charAt(start)) {
            case '+':
                return new Simple(line);
            case '-':
                return new Error(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                String value = resp.substring(position[0], position[0] + length);
                position[0] += length + 2;
                return value;
            }
            case '*': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                List<Object> elements = new ArrayList<>(length);
                for (int i = 0; i < length; i++) {
                    elements.add(decode(resp, position));
                }
                return elements;
            }
            default:
                throw new IllegalStateException("not RESP2: " + resp.substring(start));
        }
    }

    // ---- CommandContext -----------------------------------------------------------------------

    @Override
    public Arguments arguments() {
        return arguments;
    }

    @Override
    public ReplyWriter reply() {
        return writer;
    }

    @Override
    public Keyspace keyspace() {
        return keyspace.database(database);
    }

    @Override
    public Keyspace keyspace(int index) {
        return keyspace.database(index);
    }

    @Override
    public int databases() {
        return databases;
    }

    @Override
    public void swapDatabases(int first, int second) {
        keyspace.swapDatabases(first, second);
    }

    @Override
    public ValueView valueView() {
        return valueView;
    }

    @Override
    public void flushAll() {
        for (int i = 0; i < databases; i++) {
            keyspace(i).clear();
        }
    }

    /** No ACL here: the test's client is the default user, who reads every key. */
    @Override
    public boolean readsEveryKey() {
        return true;
    }

    @Override
    public Client client() {
        return this;
    }

    @Override
    public Server server() {
        return this;
    }

    // ---- Client -------------------------------------------------------------------------------

    @Override
    public long id() {
        return 1;
    }

    @Override
    public int database() {
        return database;
    }

    @Override
    public void selectDatabase(int index) {
        database = index;
    }

    @Override
    public String name() {
        return "";
    }

    @Override
    public void setName(String name) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int protocol() {
        return protocol;
    }

    @Override
    public void setProtocol(int protocol) {
        this.protocol = protocol;
        writer.protocol(protocol);
    }

    @Override
    public boolean authenticated() {
        return true;
    }

    @Override
    public void setAuthenticated(boolean authenticated) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void closeAfterReply() {
        throw new UnsupportedOperationException();
    }

    // ---- Server and Settings ------------------------------------------------------------------

    @Override
    public Settings settings() {
        return this;
    }

    @Override
    public String version() {
        return "test";
    }

    /** No subscribers here: notifications are off. */
    @Override
    public int keyspaceEventClasses() {
        return 0;
    }

    @Override
    public void notifyKeyspaceEvent(int type, String event, int database, byte[] key, int offset, int length) {
    }

    @Override
    public Optional<String> get(String name) {
        return Optional.ofNullable(settings.get(name));
    }

    /** {@code words} as a request's arguments, sliced out of one padded array as the decoder hands them over. */
    public static Arguments arguments(byte[]... words) {
        return new SlicedArguments(words);
    }

    /** {@link #arguments(byte[]...)} of words in ISO-8859-1. */
    public static Arguments arguments(String... words) {
        byte[][] bytes = new byte[words.length][];
        for (int i = 0; i < words.length; i++) {
            bytes[i] = bytes(words[i]);
        }
        return new SlicedArguments(bytes);
    }

    /** All arguments in one array, each after a byte of padding, so handlers must honour offsets. */
    private static final class SlicedArguments implements Arguments {

        private final byte[] array;
        private final int[] offsets;
        private final int[] lengths;

        SlicedArguments(byte[][] words) {
            int total = 0;
            for (byte[] word : words) {
                total += word.length + 1;
            }
            array = new byte[total + 1];
            offsets = new int[words.length];
            lengths = new int[words.length];
            int position = 0;
            for (int i = 0; i < words.length; i++) {
                array[position++] = '#';
                offsets[i] = position;
                lengths[i] = words[i].length;
                System.arraycopy(words[i], 0, array, position, words[i].length);
                position += words[i].length;
            }
            array[position] = '#';
        }

        @Override
        public int count() {
            return offsets.length;
        }

        @Override
        public byte[] array() {
            return array;
        }

        @Override
        public int offset(int index) {
            return offsets[index];
        }

        @Override
        public int length(int index) {
            return lengths[index];
        }
    }
}
