package dev.lacewing.api;

import java.util.Optional;

/**
 * A network transport plugin, chosen with the {@code transport} setting by {@link #name()}.
 * The binding to an I/O mechanism lives in the transport-spi module
 * ({@code dev.lacewing.transport.spi.NettyTransport}), which every transport the server can run
 * implements; this interface is what selection and INFO need.
 */
public interface TransportProvider extends DeclaresSettings {

    String name();

    /** Empty when the transport can run on this machine, otherwise why it cannot. */
    Optional<String> unavailabilityCause();

    /** {@code transport auto} picks the available transport with the highest preference. */
    int preference();

    /**
     * Asynchronous file reads over this transport's I/O mechanism, for the storage
     * ({@code StorageContext.fileReads}); empty when it has none. Called once per server, and only
     * when the transport is available; what it returns holds no thread until a file is opened.
     */
    default Optional<FileReads> fileReads() {
        return Optional.empty();
    }
}
