package dev.lacewing.core.persistence.rdb;

import dev.lacewing.api.StringHandle;
import dev.lacewing.api.ValueView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Key-value records of an RDB file encoded ahead of the file ({@link RdbFileWriter#entries}): a
 * background save's partitions each fill one with the entries they write early, and its saving
 * thread fills one per turn, which it then copies into the file. Every batch moved or written
 * starts with SELECTDB, since batches of different partitions interleave; Redis's loader reads a
 * SELECTDB as a switch of database, so a database may be selected many times, and RESIZEDB, only a
 * sizing hint, is left out.
 *
 * <p>A string the storage handed as a {@link StringHandle} (one held on disk) is not read here, on
 * the partition's thread: its place in the bytes is noted, and the saving thread reads and encodes
 * it when the buffer is drained into the file ({@link #drainTo}).
 *
 * <p>Memory: the encoded bytes, in one array that is reused once emptied (kept up to 1 MiB), and
 * the handles waiting.
 *
 * <p>Thread rule: not thread-safe; used by one thread at a time, handed over through the engine's
 * door.
 */
public final class RdbEntryBuffer {

    private final RdbOutput out;
    private int database = -1;
    /** Handled strings, each to be encoded where {@code out} stood when its entry was written. */
    private final List<Pending> pending = new ArrayList<>();
    /** Where a handled string is encoded while draining. */
    private final RdbOutput handled;

    private record Pending(int position, StringHandle handle) {
    }

    public RdbEntryBuffer(boolean compress) {
        this.out = new RdbOutput(compress);
        this.handled = new RdbOutput(compress);
    }

    /**
     * As {@link RdbFileWriter#entry}, in database {@code database}, the key read from
     * {@code key[offset, offset + length)} and the value from the view; returns the bytes it took.
     */
    public int entry(int database, byte[] key, int offset, int length, ValueView value, long expireAt,
                     long idleSeconds, int frequency) {
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
        if (value.handle() != null) {
            out.writeByte(RdbValueCodec.TYPE_STRING);
            out.writeString(key, offset, length);
            pending.add(new Pending(out.size(), value.handle()));
            return out.size() - before + value.length();
        } else if (value.isString()) {
            out.writeByte(RdbValueCodec.TYPE_STRING);
            out.writeString(key, offset, length);
            out.writeString(value.array(), value.offset(), value.length());
        } else {
            out.writeByte(RdbValueCodec.type(value.object()));
            out.writeString(key, offset, length);
            RdbValueCodec.writeObject(value.object(), out);
        }
        return out.size() - before;
    }

    /** Bytes waiting. */
    public int size() {
        return out.size();
    }

    /** Appends what waits here to {@code target} and empties this buffer; the next entry of either starts with SELECTDB. */
    public void moveTo(RdbEntryBuffer target) {
        int base = target.out.size();
        for (Pending handle : pending) {
            target.pending.add(new Pending(base + handle.position, handle.handle));
        }
        pending.clear();
        out.moveTo(target.out);
        database = -1;
        target.database = -1;
    }

    /**
     * Hands what waits here to {@code sink} and empties this buffer, reading each handled string on
     * this thread; the next entry starts with SELECTDB.
     */
    void drainTo(RdbOutput.Sink sink) throws IOException {
        if (pending.isEmpty()) {
            out.drainTo(sink);
            database = -1;
            return;
        }
        try {
            int from = 0;
            for (int i = 0; i < pending.size(); i++) {
                Pending handle = pending.get(i);
                out.handTo(sink, from, handle.position);
                from = handle.position;
                byte[] value;
                try {
                    value = handle.handle.read();
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
                handled.writeString(value, 0, value.length);
                handled.drainTo(sink);
            }
            out.handTo(sink, from, out.size());
        } finally {
            discard();
        }
    }

    /** Drops what waits here, releasing the handles not read: a save that ended early. */
    public void discard() {
        for (Pending handle : pending) {
            handle.handle.release();
        }
        pending.clear();
        out.discard();
        database = -1;
    }
}
