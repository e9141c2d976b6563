package dev.lacewing.storage.tiered;

import dev.lacewing.api.FileReads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A partition's append-only file of string values: a value is written once at the end and known
 * by its (offset, length) extent; overwriting or deleting it leaves dead bytes, counted here, which
 * {@link Compaction} drops by copying the live extents into a fresh file. The file is scratch: it
 * is created empty, and deleted when closed.
 *
 * <p>Thread rule: written and compacted only by the thread holding the partition;
 * {@link #readConcurrently}, {@link #readThroughFileReads} and {@link #generation} from any thread
 * (a positional read of the file, which a compaction or truncation may close or change under it:
 * {@link #generation} tells); the figures ({@link #size}, {@link #liveBytes}, {@link #liveValues}, {@link #reads}) are
 * read racily by INFO.
 */
final class SegmentFile implements AutoCloseable {

    private final Path path;
    private volatile FileChannel channel;
    /**
     * Moves on whenever an offset may come to hold other bytes (the file emptied or compacted), so
     * that a read made on another thread in an older generation is known to be stale.
     */
    private volatile long generation;
    private volatile long size;
    private volatile long liveBytes;
    private volatile long liveValues;
    private volatile long reads;
    /** The transport's asynchronous reads; null when it offers none. */
    private final FileReads fileReads;
    /** The file as {@link #fileReads} read it, reopened when compaction swaps files; null for none. */
    private volatile FileReads.ReadableFile readable;
    private final AtomicLong fileReadCount = new AtomicLong();

    SegmentFile(Path path) {
        this(path, Optional.empty());
    }

    SegmentFile(Path path, Optional<FileReads> fileReads) {
        this.path = path;
        this.channel = open(path);
        this.fileReads = fileReads.orElse(null);
        this.readable = openReadable();
    }

    /** The file opened for {@link #fileReads}; null without them or when they cannot open it (then threads read). */
    private FileReads.ReadableFile openReadable() {
        if (fileReads == null) {
            return null;
        }
        try {
            return fileReads.open(path);
        } catch (IOException e) {
            return null;
        }
    }

    private static FileChannel open(Path path) {
        try {
            Files.deleteIfExists(path);
            return FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("tiered storage cannot create " + path, e);
        }
    }

    /** Appends {@code value[offset, offset + length)}; returns the offset it lies at. */
    long append(byte[] value, int offset, int length) {
        long at = size;
        write(channel, at, value, offset, length);
        size = at + length;
        liveBytes += length;
        liveValues++;
        return at;
    }

    private static void write(FileChannel channel, long at, byte[] value, int offset, int length) {
        ByteBuffer buffer = ByteBuffer.wrap(value, offset, length);
        try {
            while (buffer.hasRemaining()) {
                at += channel.write(buffer, at);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("tiered storage write failed", e);
        }
    }

    /** The value of an extent, read synchronously; counts a read. */
    byte[] read(long at, int length) {
        reads++;
        return readFrom(channel, at, length);
    }

    /**
     * The value of an extent, read on a thread that does not hold the partition; the caller compares
     * {@link #generation} before and after to know whether the bytes are the extent's. Throws
     * {@link UncheckedIOException} when the channel closed under it (compaction).
     */
    byte[] readConcurrently(long at, int length) {
        return readFrom(channel, at, length);
    }

    /**
     * Starts reading an extent through the transport's file reads: {@code done} then gets the
     * value, or null when the read failed, on their completion thread; the caller compares
     * {@link #generation} as for {@link #readConcurrently}. False, starting nothing, when there are
     * none or they are busy: the caller reads another way.
     */
    boolean readThroughFileReads(long at, int length, Consumer<byte[]> done) {
        FileReads.ReadableFile file = readable;
        if (file == null) {
            return false;
        }
        byte[] value = new byte[length];
        return file.read(at, value, failure -> {
            if (failure == null) {
                fileReadCount.incrementAndGet();
            }
            done.accept(failure == null ? value : null);
        });
    }

    /** Extents read through the transport's file reads. */
    long fileReads() {
        return fileReadCount.get();
    }

    long generation() {
        return generation;
    }

    private static byte[] readFrom(FileChannel channel, long at, int length) {
        byte[] value = new byte[length];
        ByteBuffer buffer = ByteBuffer.wrap(value);
        try {
            while (buffer.hasRemaining()) {
                int read = channel.read(buffer, at + buffer.position());
                if (read < 0) {
                    throw new IOException("tiered storage: extent past the end of the segment file");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("tiered storage read failed", e);
        }
        return value;
    }

    /**
     * An extent is dead (its value overwritten or deleted). When nothing is live any more the file
     * is emptied at once, which needs no copying, if {@code mayEmpty} (no snapshot holds a handle).
     */
    void release(int length, boolean mayEmpty) {
        liveBytes -= length;
        liveValues--;
        if (liveValues == 0 && mayEmpty) {
            truncate();
        }
    }

    void release(int length) {
        release(length, true);
    }

    /** Drops every extent at once (FLUSHALL of the partition's last table). */
    void releaseAll() {
        liveBytes = 0;
        liveValues = 0;
        truncate();
    }

    private void truncate() {
        try {
            channel.truncate(0);
        } catch (IOException e) {
            throw new UncheckedIOException("tiered storage truncate failed", e);
        }
        size = 0;
        generation++;
    }

    /** Whether under half of a file of at least {@code minSize} bytes is live. */
    boolean wantsCompaction(long minSize) {
        return size >= minSize && liveBytes * 2 < size;
    }

    long size() {
        return size;
    }

    long liveBytes() {
        return liveBytes;
    }

    long liveValues() {
        return liveValues;
    }

    long reads() {
        return reads;
    }

    /**
     * Copies live extents into a fresh file; every live extent must be moved ({@link #move}) before
     * {@link #finish} swaps the files, since extents not moved are lost.
     */
    Compaction compaction() {
        return new Compaction();
    }

    final class Compaction {

        private final Path target = path.resolveSibling(path.getFileName() + ".compacting");
        private final FileChannel fresh = open(target);
        private long written;

        /** Copies one live extent; returns its offset in the new file. */
        long move(long at, int length) {
            byte[] value = readFrom(channel, at, length);
            long moved = written;
            write(fresh, moved, value, 0, length);
            written += length;
            return moved;
        }

        void finish() {
            try {
                channel.close();
                Files.move(target, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException("tiered storage compaction failed", e);
            }
            channel = fresh;
            size = written;
            liveBytes = written;
            generation++;
            FileReads.ReadableFile old = readable;
            readable = openReadable();
            if (old != null) {
                old.close();
            }
        }
    }

    @Override
    public void close() {
        FileReads.ReadableFile file = readable;
        readable = null;
        if (file != null) {
            file.close();
        }
        try {
            channel.close();
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("tiered storage cannot delete " + path, e);
        }
    }
}
