package dev.lacewing.core.persistence.aof;

import dev.lacewing.api.Keyspace;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * loadSingleAppendOnlyFile: reads one AOF file of RESP requests and hands each to a
 * {@link Replayer}, with SELECT applied here and MULTI ... EXEC replayed as a whole only once its
 * EXEC is read. A file that ends inside a request is truncated: with {@code tolerateTruncation}
 * (aof-load-truncated yes, last file only) the incomplete tail, or an unfinished MULTI, is cut off
 * the file with Redis's log lines; otherwise loading stops with Redis's message.
 *
 * <p>Thread rule: start-up only, on the thread holding every database.
 */
public final class AofLoader {

    /**
     * The client id the replay's commands see (Redis's CLIENT_ID_AOF): a command that obeys what
     * the file says (mustObeyClient) tells the replay from a client by it. Clients count from 1.
     */
    public static final long REPLAY_CLIENT_ID = 0;

    private static final System.Logger LOG = System.getLogger(AofLoader.class.getName());

    /** Runs one request read from the file in {@code database}; IllegalStateException refuses it. */
    public interface Replayer {
        void run(List<Keyspace> databases, int database, byte[][] argv);
    }

    private final Replayer replayer;

    public AofLoader(Replayer replayer) {
        this.replayer = replayer;
    }

    /** Thrown where the file ends inside a request. */
    private static final class Truncated extends Exception {
        Truncated() {
            super(null, null, false, false);
        }
    }

    /** Replays {@code file} from {@code offset}: 0, or the end of its RDB preamble. */
    void replay(List<Keyspace> databases, Path file, long offset, boolean tolerateTruncation, boolean lastFile) {
        String name = file.getFileName().toString();
        long validUpTo = offset;
        long validBeforeMulti = offset;
        int database = 0;
        List<byte[][]> multi = null;
        boolean truncated = false;
        try (CountingInput in = new CountingInput(Files.newInputStream(file), offset)) {
            while (true) {
                int first = in.read();
                if (first == -1) {
                    break;
                }
                if (first != '*') {
                    throw new IllegalStateException(badFormat(name));
                }
                byte[][] argv;
                try {
                    argv = request(in, name);
                } catch (Truncated e) {
                    truncated = true;
                    break;
                }
                String command = new String(argv[0], StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
                switch (command) {
                    case "select" -> database = Integer.parseInt(new String(argv[1], StandardCharsets.US_ASCII));
                    case "multi" -> {
                        validBeforeMulti = validUpTo;
                        multi = new ArrayList<>();
                    }
                    case "exec" -> {
                        if (multi != null) {
                            for (byte[][] queued : multi) {
                                replayer.run(databases, database, queued);
                            }
                        }
                        multi = null;
                    }
                    default -> {
                        if (multi != null) {
                            multi.add(argv);
                        } else {
                            replayer.run(databases, database, argv);
                        }
                    }
                }
                validUpTo = in.count();
            }
        } catch (IOException e) {
            throw new IllegalStateException("Unrecoverable error reading the append only file " + name + ": "
                + e.getMessage(), e);
        }
        if (multi != null) {
            LOG.log(System.Logger.Level.WARNING, "Revert incomplete MULTI/EXEC transaction in AOF file " + name);
            validUpTo = validBeforeMulti;
            truncated = true;
        }
        if (!truncated) {
            return;
        }
        if (!lastFile) {
            throw new IllegalStateException("Fatal error: the truncated file is not the last file");
        }
        if (!tolerateTruncation) {
            throw new IllegalStateException("Unexpected end of file reading the append only file " + name
                + ". You can: 1) Make a backup of your AOF file, then use ./redis-check-aof --fix <filename.manifest>. "
                + "2) Alternatively you can set the 'aof-load-truncated' configuration option to yes and restart "
                + "the server.");
        }
        LOG.log(System.Logger.Level.WARNING, "!!! Warning: short read while loading the AOF file " + name + "!!!");
        LOG.log(System.Logger.Level.WARNING, "!!! Truncating the AOF " + name + " at offset " + validUpTo + " !!!");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(validUpTo);
            channel.force(true);
        } catch (IOException e) {
            throw new IllegalStateException("Error truncating the AOF file " + name + ": " + e.getMessage(), e);
        }
        LOG.log(System.Logger.Level.WARNING, "AOF " + name + " loaded anyway because aof-load-truncated is enabled");
    }

    private static String badFormat(String name) {
        return "Bad file format reading the append only file " + name
            + ": make a backup of your AOF file, then use ./redis-check-aof --fix <filename.manifest>";
    }

    /** The rest of a request whose '*' was read. */
    private static byte[][] request(CountingInput in, String name) throws IOException, Truncated {
        long count = number(in, name);
        if (count < 1) {
            throw new IllegalStateException(badFormat(name));
        }
        byte[][] argv = new byte[(int) count][];
        for (int i = 0; i < count; i++) {
            int prefix = in.read();
            if (prefix == -1) {
                throw new Truncated();
            }
            if (prefix != '$') {
                throw new IllegalStateException(badFormat(name));
            }
            long length = number(in, name);
            if (length < 0 || length > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException(badFormat(name));
            }
            byte[] arg = new byte[(int) length];
            try {
                in.readFully(arg);
            } catch (EOFException e) {
                throw new Truncated();
            }
            int cr = in.read();
            int lf = in.read();
            if (cr == -1 || lf == -1) {
                throw new Truncated();
            }
            argv[i] = arg;
        }
        return argv;
    }

    /** Digits up to CRLF. */
    private static long number(CountingInput in, String name) throws IOException, Truncated {
        long value = 0;
        boolean negative = false;
        int digits = 0;
        while (true) {
            int b = in.read();
            if (b == -1) {
                throw new Truncated();
            }
            if (b == '\r') {
                int lf = in.read();
                if (lf == -1) {
                    throw new Truncated();
                }
                break;
            }
            if (b == '-' && digits == 0 && !negative) {
                negative = true;
                continue;
            }
            if (b < '0' || b > '9' || digits > 18) {
                throw new IllegalStateException(badFormat(name));
            }
            value = value * 10 + (b - '0');
            digits++;
        }
        return negative ? -value : value;
    }

    /** A buffered stream that counts the bytes read. */
    private static final class CountingInput extends BufferedInputStream {
        private long count;

        /** Skips the first {@code offset} bytes of {@code in}, counting them. */
        CountingInput(InputStream in, long offset) throws IOException {
            super(in, 64 * 1024);
            in.skipNBytes(offset);
            count = offset;
        }

        long count() {
            return count;
        }

        @Override
        public synchronized int read() throws IOException {
            int b = super.read();
            if (b != -1) {
                count++;
            }
            return b;
        }

        void readFully(byte[] into) throws IOException {
            int done = 0;
            while (done < into.length) {
                int n = super.read(into, done, into.length - done);
                if (n < 0) {
                    throw new EOFException();
                }
                done += n;
                count += n;
            }
        }
    }
}
