package dev.lacewing.core.keyspace;

import dev.lacewing.api.Keyspace;
import java.util.function.LongSupplier;

/**
 * All the data of a server: its partitions, and one {@link Database} view per database over
 * them. Engines build on it and differ only in who may touch which partition when.
 *
 * <p>Thread rule: partitions follow the engine's rule; the approximate counts read racily.
 */
public final class PartitionedKeyspace {

    private final Partition[] partitions;
    private final Database[] databases;

    public PartitionedKeyspace(int partitionCount, int databaseCount, KeyspaceLayout layout) {
        this(partitionCount, databaseCount, layout, System::currentTimeMillis);
    }

    /** With the clock expiry is judged by; tests set their own. */
    public PartitionedKeyspace(int partitionCount, int databaseCount, KeyspaceLayout layout, LongSupplier clock) {
        partitions = new Partition[partitionCount];
        for (int i = 0; i < partitionCount; i++) {
            partitions[i] = new Partition(databaseCount, layout);
        }
        databases = new Database[databaseCount];
        for (int i = 0; i < databaseCount; i++) {
            databases[i] = new Database(i, partitions, clock);
        }
    }

    public int partitionCount() {
        return partitions.length;
    }

    public Partition partition(int index) {
        return partitions[index];
    }

    public Keyspace database(int index) {
        return databases[index];
    }

    /** The partition a key lives in. */
    public int partitionOf(byte[] key, int offset, int length) {
        return Slots.partitionOf(key, offset, length, partitions.length);
    }

    public void swapDatabases(int first, int second) {
        for (Partition partition : partitions) {
            partition.swap(first, second);
        }
    }

    public long approximateSize(int database) {
        return databases[database].size();
    }

    public long approximateExpiringSize(int database) {
        return databases[database].expiringSize();
    }

    /** Bytes the keyspace holds, exactly, or -1 when its layout cannot say cheaply; racy. */
    public long usedMemory() {
        long total = 0;
        for (Partition partition : partitions) {
            long used = partition.usedMemory();
            if (used < 0) {
                return -1;
            }
            total += used;
        }
        return total;
    }

    public long expiredKeys() {
        long total = 0;
        for (Partition partition : partitions) {
            total += partition.expiredCount();
        }
        return total;
    }
}
