package dev.lacewing.core.keyspace;

import dev.lacewing.api.FileReads;
import dev.lacewing.api.Settings;
import dev.lacewing.api.storage.AccessPolicy;
import dev.lacewing.api.storage.AggregateCodec;
import dev.lacewing.api.storage.StorageContext;
import dev.lacewing.core.datatype.PackedAggregates;
import java.util.Optional;
import java.util.function.LongSupplier;

/** The {@link StorageContext} the server opens its storage with: core's codec, the memory settings' policy,
 * the transport's file reads. */
public record StorageSetup(Settings settings, int databases, LongSupplier clock, AccessPolicy access,
                           AggregateCodec aggregates, Optional<FileReads> fileReads) implements StorageContext {

    /** Over a server's settings, on the clock the keyspace judges expiry by. */
    public StorageSetup(Settings settings, int databases, LongSupplier clock, MemoryPolicy memory) {
        this(settings, databases, clock, memory, Optional.empty());
    }

    /** Over a server's settings, with the file reads its transport offers (empty for none). */
    public StorageSetup(Settings settings, int databases, LongSupplier clock, MemoryPolicy memory,
                        Optional<FileReads> fileReads) {
        this(settings, databases, clock, memory, PackedAggregates.CODEC, fileReads);
    }
}
