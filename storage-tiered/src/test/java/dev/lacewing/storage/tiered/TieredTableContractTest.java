package dev.lacewing.storage.tiered;

import dev.lacewing.api.Settings;
import dev.lacewing.api.storage.AccessPolicy;
import dev.lacewing.api.storage.AggregateCodec;
import dev.lacewing.api.storage.Storage;
import dev.lacewing.api.storage.StorageContext;
import dev.lacewing.api.storage.StorageProvider;
import dev.lacewing.storage.tck.TableContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The tiered storage's tables pass the table contract with every string on disk (eager, from 1 byte). */
class TieredTableContractTest extends TableContract {

    @TempDir
    Path directory;

    private final List<Storage> opened = new ArrayList<>();

    @AfterEach
    void closeStorages() {
        opened.forEach(Storage::close);
    }

    @Override
    protected StorageProvider provider() {
        Map<String, String> values = Map.of(TieredSettings.DIRECTORY, directory.toString(),
            TieredSettings.OFFLOAD, "eager", TieredSettings.MIN_VALUE_SIZE, "1");
        return new StorageProvider() {
            @Override
            public String name() {
                return TieredStorage.NAME;
            }

            @Override
            public Storage open(StorageContext context) {
                Storage storage = new TieredStorage().open(new WithSettings(context, name -> Optional.ofNullable(values.get(name))));
                opened.add(storage);
                return storage;
            }
        };
    }

    /** The contract's context, with the tiered settings. */
    private record WithSettings(StorageContext context, Settings settings) implements StorageContext {

        @Override
        public int databases() {
            return context.databases();
        }

        @Override
        public LongSupplier clock() {
            return context.clock();
        }

        @Override
        public AccessPolicy access() {
            return context.access();
        }

        @Override
        public AggregateCodec aggregates() {
            return context.aggregates();
        }
    }
}
