package dev.lacewing.storage.compact;

import dev.lacewing.api.storage.StorageProvider;
import dev.lacewing.storage.tck.TableContract;

/** The compact storage's tables pass the table contract. */
class CompactTableContractTest extends TableContract {

    @Override
    protected StorageProvider provider() {
        return new CompactStorage();
    }
}
