package dev.lacewing.core.persistence.rdb;

/**
 * Key-value records of an RDB file encoded ahead of the file ({@link RdbFileWriter#entries}): a
 * background save's partitions each fill one while they serve, and the saving thread copies them
 * into the file in turn. Every batch taken starts with SELECTDB, since batches of different
 * partitions interleave; Redis's loader reads a SELECTDB as a switch of database, so a database
 * may be selected many times, and RESIZEDB, only a sizing hint, is left out.
 *
 * <p>Thread rule: not thread-safe; used by one partition's holder at a time.
 */
public final class RdbEntryBuffer {

    private final RdbOutput out;
    private int database = -1;

    public RdbEntryBuffer(boolean compress) {
        this.out = new RdbOutput(compress);
    }

    /** As {@link RdbFileWriter#entry}, in database {@code database}; returns the bytes it took. */
    public int entry(int database, byte[] key, Object value, long expireAt, long idleSeconds, int frequency) {
        if (database != this.database) {
            out.writeByte(RdbFileWriter.OPCODE_SELECTDB);
            out.writeLength(database);
            this.database = database;
        }
        int before = out.size();
        if (expireAt != -1) {
            out.writeByte(RdbFileWriter.OPCODE_EXPIRETIME_MS);
            out.writeLittleEndian(expireAt, 8);
        }
        if (idleSeconds >= 0) {
            out.writeByte(RdbFileWriter.OPCODE_IDLE);
            out.writeLength(idleSeconds);
        }
        if (frequency >= 0) {
            out.writeByte(RdbFileWriter.OPCODE_FREQ);
            out.writeByte(frequency);
        }
        out.writeByte(RdbValueCodec.type(value));
        out.writeString(key);
        RdbValueCodec.writeObject(value, out);
        return out.size() - before;
    }

    /** Bytes waiting to be taken. */
    public int size() {
        return out.size();
    }

    /** What was encoded since the last take; the next entry starts with SELECTDB again. */
    public byte[] take() {
        byte[] bytes = out.toByteArray();
        try {
            out.drainTo((b, offset, length) -> { });
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        database = -1;
        return bytes;
    }
}
