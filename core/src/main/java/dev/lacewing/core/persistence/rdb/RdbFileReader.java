package dev.lacewing.core.persistence.rdb;

import static dev.lacewing.core.persistence.rdb.RdbFileWriter.OPCODE_AUX;
import static dev.lacewing.core.persistence.rdb.RdbFileWriter.OPCODE_EOF;
import static dev.lacewing.core.persistence.rdb.RdbFileWriter.OPCODE_EXPIRETIME;
import static dev.lacewing.core.persistence.rdb.RdbFileWriter.OPCODE_EXPIRETIME_MS;
import static dev.lacewing.core.persistence.rdb.RdbFileWriter.OPCODE_FREQ;
import static dev.lacewing.core.persistence.rdb.RdbFileWriter.OPCODE_FUNCTION;
import static dev.lacewing.core.persistence.rdb.RdbFileWriter.OPCODE_FUNCTION2;
import static dev.lacewing.core.persistence.rdb.RdbFileWriter.OPCODE_IDLE;
import static dev.lacewing.core.persistence.rdb.RdbFileWriter.OPCODE_MODULE_AUX;
import static dev.lacewing.core.persistence.rdb.RdbFileWriter.OPCODE_RESIZEDB;
import static dev.lacewing.core.persistence.rdb.RdbFileWriter.OPCODE_SELECTDB;

import java.io.ByteArrayOutputStream;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads an RDB file as Redis 7.0 loads one (rdb.c's rdbLoadRioWithLoadingCtx): the header (RDB
 * versions 1 to 10), AUX fields, function libraries (FUNCTION2, and FUNCTION as 7.0's release
 * candidates wrote it), SELECTDB, RESIZEDB, EXPIRETIME and EXPIRETIME_MS, IDLE and FREQ, every
 * value type {@link RdbValueCodec} reads, EOF and, from version 5, the CRC64 trailer (a zero
 * trailer means the writer did not compute one). Module data is refused: Lacewing has no modules
 * of Redis's kind. Every failure is an {@link RdbFormatException} whose message says what Redis's
 * log would; nothing of a corrupt file is half-trusted by this class, though its {@link Loader}
 * has received the entries (and libraries) read before the failure.
 *
 * <p>Thread rule: one loading thread.
 */
public final class RdbFileReader {

    private static final System.Logger LOG = System.getLogger(RdbFileReader.class.getName());

    /** Receives what the file holds, entry by entry. */
    public interface Loader {
        /** The number of databases the server has: a SELECTDB past it refuses the file. */
        int databases();

        /**
         * One key, in database {@code database}; {@code expireAt} -1 for none, {@code idleSeconds}
         * and {@code frequency} -1 when the file gave none.
         */
        void entry(int database, byte[] key, Object value, long expireAt, long idleSeconds, int frequency);

        /**
         * One function library's code, shebang included (rdbFunctionLoad): null once it is loaded,
         * otherwise why not, without an error code; the file is then refused.
         */
        String library(byte[] code);
    }

    private static final String SHORT_READ = "Short read or OOM loading DB. Unrecoverable error, aborting now.";

    private RdbFileReader() {
    }

    /**
     * Reads the RDB image at the start of the {@code length} bytes of {@code source} into
     * {@code loader}; returns its length, up to its checksum: bytes after it are an AOF's tail.
     *
     * @param verifyChecksum compare the trailer with the bytes read ({@code rdbchecksum})
     */
    public static long read(ReadableByteChannel source, long length, RdbValueCodec.Encodings encodings,
                            boolean verifyChecksum, Loader loader) {
        RdbInput in = new RdbInput(source, length);
        try {
            read(in, encodings, verifyChecksum, loader);
            return length - in.unreadLength();
        } catch (RdbFormatException e) {
            if (e.getMessage().equals(RdbInput.TRUNCATED)) {
                throw new RdbFormatException(SHORT_READ);
            }
            throw e;
        }
    }

    private static void read(RdbInput in, RdbValueCodec.Encodings encodings, boolean verifyChecksum, Loader loader) {
        byte[] header = new byte[9];
        for (int i = 0; i < header.length; i++) {
            header[i] = (byte) readOrEof(in);
        }
        if (!Arrays.equals(header, 0, 5, RdbFileWriter.MAGIC, 0, 5)) {
            throw new RdbFormatException("Wrong signature trying to load DB from file");
        }
        int version = versionOf(header);
        if (version < 1 || version > DumpPayload.RDB_VERSION) {
            throw new RdbFormatException("Can't handle RDB format version " + version);
        }
        int database = 0;
        long expireAt = -1;
        long idleSeconds = -1;
        int frequency = -1;
        while (true) {
            int type = readOrEof(in);
            switch (type) {
                case OPCODE_EXPIRETIME -> expireAt = (int) in.readLittleEndian(4) * 1000L;
                case OPCODE_EXPIRETIME_MS -> expireAt = in.readLittleEndian(8);
                case OPCODE_FREQ -> frequency = in.readByte();
                case OPCODE_IDLE -> idleSeconds = in.readLength();
                case OPCODE_SELECTDB -> {
                    long index = in.readLength();
                    if (index >= loader.databases()) {
                        throw new RdbFormatException("FATAL: Data file was created with a Redis server configured to "
                            + "handle more than " + loader.databases() + " databases. Exiting");
                    }
                    database = (int) index;
                }
                case OPCODE_RESIZEDB -> {
                    in.readLength();
                    in.readLength();
                }
                case OPCODE_AUX -> aux(in.readString(), in.readString());
                case OPCODE_MODULE_AUX -> throw new RdbFormatException(
                    "The RDB file contains AUX module data I can't load: no matching module");
                case OPCODE_FUNCTION, OPCODE_FUNCTION2 -> {
                    String error = loader.library(type == OPCODE_FUNCTION2 ? in.readString() : preReleaseLibrary(in));
                    if (error != null) {
                        throw new RdbFormatException("Failed loading library, " + error);
                    }
                }
                case OPCODE_EOF -> {
                    trailer(in, version, verifyChecksum);
                    return;
                }
                default -> {
                    long offset = in.offset();
                    byte[] key = in.readString();
                    Object value;
                    try {
                        value = RdbValueCodec.readObject(type, in, encodings);
                    } catch (RdbFormatException e) {
                        if (e.getMessage().equals(RdbInput.TRUNCATED)) {
                            throw e;
                        }
                        throw new RdbFormatException("Internal error in RDB reading offset " + offset + " -> "
                            + e.getMessage() + " (key '" + new String(key, StandardCharsets.UTF_8) + "')");
                    }
                    loader.entry(database, key, value, expireAt, idleSeconds, frequency);
                    expireAt = -1;
                    idleSeconds = -1;
                    frequency = -1;
                }
            }
        }
    }

    /**
     * A library as Redis 7.0's release candidates wrote it (name, engine, an optional description,
     * code without shebang), made into the code with shebang that 7.0 loads (rdbFunctionLoad).
     */
    private static byte[] preReleaseLibrary(RdbInput in) {
        byte[] name = in.readString();
        byte[] engine = in.readString();
        if (in.readLength() != 0) {
            in.readString();
        }
        byte[] code = in.readString();
        ByteArrayOutputStream library = new ByteArrayOutputStream();
        library.writeBytes("#!".getBytes(StandardCharsets.US_ASCII));
        library.writeBytes(engine);
        library.writeBytes(" name=".getBytes(StandardCharsets.US_ASCII));
        library.writeBytes(name);
        library.write('\n');
        library.writeBytes(code);
        return library.toByteArray();
    }

    private static int versionOf(byte[] header) {
        int version = 0;
        for (int i = 5; i < 9; i++) {
            if (header[i] < '0' || header[i] > '9') {
                return -1;
            }
            version = version * 10 + header[i] - '0';
        }
        return version;
    }

    /** A byte where the file may end: its end there is Redis's short read. */
    private static int readOrEof(RdbInput in) {
        if (in.remaining() == 0) {
            throw new RdbFormatException(SHORT_READ);
        }
        return in.readByte();
    }

    /** The AUX fields Redis logs on load; the others are ignored, as Redis ignores unknown ones. */
    private static void aux(byte[] name, byte[] value) {
        String field = new String(name, StandardCharsets.UTF_8);
        String text = new String(value, StandardCharsets.UTF_8);
        switch (field) {
            case "redis-ver" -> LOG.log(System.Logger.Level.INFO, "Loading RDB produced by version " + text);
            case "ctime" -> {
                try {
                    long age = System.currentTimeMillis() / 1000 - Long.parseLong(text);
                    LOG.log(System.Logger.Level.INFO, "RDB age " + Math.max(0, age) + " seconds");
                } catch (NumberFormatException e) {
                    // Redis reads it with strtol and logs what it gets; nothing to log here.
                }
            }
            case "used-mem" -> {
                try {
                    LOG.log(System.Logger.Level.INFO, String.format("RDB memory usage when created %.2f Mb",
                        Long.parseLong(text) / 1024.0 / 1024));
                } catch (NumberFormatException e) {
                    // As above.
                }
            }
            default -> {
            }
        }
    }

    /** From version 5 the checksum follows EOF: zero when the writer computed none. */
    private static void trailer(RdbInput in, int version, boolean verifyChecksum) {
        if (version < 5) {
            return;
        }
        long expected = in.checksum();
        if (in.remaining() < 8) {
            throw new RdbFormatException(SHORT_READ);
        }
        long found = in.readLittleEndian(8);
        if (!verifyChecksum) {
            return;
        }
        if (found == 0) {
            LOG.log(System.Logger.Level.WARNING, "RDB file was saved with checksum disabled: no check performed.");
        } else if (found != expected) {
            throw new RdbFormatException(String.format(
                "Wrong RDB checksum expected: (%x) but got (%x). Aborting now.", expected, found));
        }
    }
}
