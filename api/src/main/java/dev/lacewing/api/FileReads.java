package dev.lacewing.api;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Asynchronous positional reads of files, which a transport offers where its I/O mechanism has
 * them (io_uring) and a storage may use for values it keeps on disk ({@code StorageContext.fileReads}).
 * A storage without them reads another way (its own threads, or synchronously).
 *
 * <p>Thread rule: {@link #open}, {@link ReadableFile#read} and {@link ReadableFile#close} from any
 * thread; every {@link ReadCompletion} runs on the reads' own completion thread, never the
 * caller's, and must return quickly (it holds up every other read).
 */
public interface FileReads {

    /** The mechanism, as INFO names it ({@code io_uring}). */
    String name();

    /** Opens an existing file for reading; blocks until it is open. */
    ReadableFile open(Path path) throws IOException;

    /** A file open for reads; it stays open until {@link #close} and the reads in flight then completed. */
    interface ReadableFile extends AutoCloseable {

        /**
         * Starts reading {@code destination.length} bytes at {@code offset} into {@code destination}.
         * When true, {@code completion} runs exactly once, after every byte was read or the read
         * failed (a file shorter than {@code offset + destination.length} fails it); until then the
         * caller leaves {@code destination} alone. False, running nothing, when the file is closed
         * or too many reads are in flight: the caller reads another way.
         */
        boolean read(long offset, byte[] destination, ReadCompletion completion);

        /** No read starts after this; the file closes once the reads in flight completed. */
        @Override
        void close();
    }

    /** How a read ends: {@code failure} null when every byte was read. */
    @FunctionalInterface
    interface ReadCompletion {
        void completed(IOException failure);
    }
}
