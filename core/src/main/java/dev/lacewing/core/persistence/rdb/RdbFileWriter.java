package dev.lacewing.core.persistence.rdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * Writes an RDB file as Redis 7.0 writes one (rdb.c's rdbSaveRio): the {@code REDIS0010} header,
 * AUX fields, one FUNCTION2 record per function library, then per non-empty database SELECTDB and
 * RESIZEDB and its keys, each preceded by EXPIRETIME_MS, IDLE or FREQ where it has them, then EOF
 * and the CRC64 of everything before the checksum (zero with {@code rdbchecksum no}, which Redis
 * reads as "not checked").
 *
 * <p>Memory: entries are encoded into one buffer that goes to the channel every 64 KiB, so a save
 * holds one value's encoding at a time, whatever the keyspace's size.
 *
 * <p>Thread rule: not thread-safe; one saving thread uses it.
 */
public final class RdbFileWriter {

    static final byte[] MAGIC = "REDIS".getBytes(StandardCharsets.US_ASCII);
    /** A function library's code, in RDB files and FUNCTION DUMP payloads. */
    public static final int OPCODE_FUNCTION2 = 245;
    /** Redis 7.0's release candidates' library record: name, engine, description, code without shebang. */
    static final int OPCODE_FUNCTION = 246;
    static final int OPCODE_MODULE_AUX = 247;
    static final int OPCODE_IDLE = 248;
    static final int OPCODE_FREQ = 249;
    static final int OPCODE_AUX = 250;
    static final int OPCODE_RESIZEDB = 251;
    static final int OPCODE_EXPIRETIME_MS = 252;
    static final int OPCODE_EXPIRETIME = 253;
    static final int OPCODE_SELECTDB = 254;
    static final int OPCODE_EOF = 255;

    private static final int FLUSH_BYTES = 64 * 1024;

    private final WritableByteChannel channel;
    private final RdbOutput out;
    private final boolean checksum;
    private long crc;

    /**
     * @param compress LZF-compress strings where Redis would ({@code rdbcompression})
     * @param checksum end with the CRC64 rather than zero ({@code rdbchecksum})
     */
    public RdbFileWriter(WritableByteChannel channel, boolean compress, boolean checksum) {
        this.channel = channel;
        this.out = new RdbOutput(compress);
        this.checksum = checksum;
    }

    /** {@code REDIS} and the version as four digits. */
    public void header() {
        out.write(MAGIC, 0, MAGIC.length);
        byte[] version = String.format("%04d", DumpPayload.RDB_VERSION).getBytes(StandardCharsets.US_ASCII);
        out.write(version, 0, version.length);
    }

    /** rdbSaveAuxFieldStrStr; a number goes as its text, which the string writer integer-encodes. */
    public void aux(String name, String value) {
        out.writeByte(OPCODE_AUX);
        out.writeString(name.getBytes(StandardCharsets.UTF_8));
        out.writeString(value.getBytes(StandardCharsets.UTF_8));
    }

    /** rdbSaveFunctions, for one library: its code as loaded, shebang included. */
    public void function(byte[] code) throws IOException {
        out.writeByte(OPCODE_FUNCTION2);
        out.writeString(code);
        if (out.size() >= FLUSH_BYTES) {
            flush();
        }
    }

    /** SELECTDB, then RESIZEDB with the database's key and expiry counts. */
    public void database(int index, long keys, long expiring) {
        out.writeByte(OPCODE_SELECTDB);
        out.writeLength(index);
        out.writeByte(OPCODE_RESIZEDB);
        out.writeLength(keys);
        out.writeLength(expiring);
    }

    /**
     * rdbSaveKeyValuePair: the expiry ({@code -1} for none), the idle seconds under an LRU policy
     * and the LFU counter under an LFU policy ({@code -1} for neither), the type, key and value.
     */
    public void entry(byte[] key, Object value, long expireAt, long idleSeconds, int frequency) throws IOException {
        if (expireAt != -1) {
            out.writeByte(OPCODE_EXPIRETIME_MS);
            out.writeLittleEndian(expireAt, 8);
        }
        if (idleSeconds >= 0) {
            out.writeByte(OPCODE_IDLE);
            out.writeLength(idleSeconds);
        }
        if (frequency >= 0) {
            out.writeByte(OPCODE_FREQ);
            out.writeByte(frequency);
        }
        out.writeByte(RdbValueCodec.type(value));
        out.writeString(key);
        RdbValueCodec.writeObject(value, out);
        if (out.size() >= FLUSH_BYTES) {
            flush();
        }
    }

    /**
     * Entries encoded elsewhere, written into the file as they are, straight from their buffer,
     * which is emptied.
     */
    public void entries(RdbEntryBuffer entries) throws IOException {
        flush();
        entries.drainTo(this::checksummed);
    }

    /** EOF and the checksum trailer; everything is then in the channel (not yet forced to disk). */
    public void finish() throws IOException {
        out.writeByte(OPCODE_EOF);
        flush();
        out.writeLittleEndian(checksum ? crc : 0, 8);
        out.drainTo(this::writeFully);
    }

    private void flush() throws IOException {
        out.drainTo(this::checksummed);
    }

    private void checksummed(byte[] bytes, int offset, int length) throws IOException {
        if (checksum) {
            crc = Crc64.update(crc, bytes, offset, length);
        }
        writeFully(bytes, offset, length);
    }

    /**
     * In writes of at most {@link #FLUSH_BYTES}: a file channel copies a heap buffer into a
     * temporary direct buffer of the write's size, which the JDK then keeps for the thread, so a
     * large write would leave as large a native buffer behind.
     */
    private void writeFully(byte[] bytes, int offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
        for (int end = offset + length, at = offset; at < end; at = buffer.position()) {
            buffer.limit(Math.min(end, at + FLUSH_BYTES));
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
    }
}
