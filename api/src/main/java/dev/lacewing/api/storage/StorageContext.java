package dev.lacewing.api.storage;

import dev.lacewing.api.FileReads;
import dev.lacewing.api.Settings;
import java.util.Optional;
import java.util.function.LongSupplier;

/** What the server gives a storage when it opens it ({@link StorageProvider#open}). */
public interface StorageContext {

    Settings settings();

    /** Number of databases (the {@code databases} setting): the tables each partition asks for. */
    int databases();

    /** The clock, in milliseconds, that new entries are created at and expiry is judged by. */
    LongSupplier clock();

    /** The access-field arithmetic of the server's memory settings, kept up to date. */
    AccessPolicy access();

    /** How a table turns a packed aggregate back into a value. */
    AggregateCodec aggregates();

    /**
     * Asynchronous file reads, when the server's transport offers them ({@code io_uring}); empty
     * otherwise. They live as long as the server: the storage closes the files it opened.
     */
    default Optional<FileReads> fileReads() {
        return Optional.empty();
    }
}
