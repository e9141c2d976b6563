package dev.lacewing.core.keyspace;

/**
 * A range of hash slots across every database: one {@link DatabaseTable} per database. The unit an
 * engine hands to a thread: a shard in the shared-nothing engine, a lock stripe in the
 * multithread engine.
 *
 * <p>Thread rule: touched only by the thread the engine grants it to; the counters are read
 * without synchronization by INFO, which tolerates stale values.
 */
public final class Partition {

    /** Slots examined per database in one active-expiry step. */
    private static final int EXPIRY_SLOTS_PER_STEP = 2048;

    private final DatabaseTable[] databases;
    private final BlockedKeys blockedKeys = new BlockedKeys();

    public Partition(int databases, KeyspaceLayout layout) {
        this.databases = new DatabaseTable[databases];
        for (int i = 0; i < databases; i++) {
            this.databases[i] = layout.newTable();
        }
    }

    public DatabaseTable table(int database) {
        return databases[database];
    }

    /** The clients blocked on this partition's keys. */
    public BlockedKeys blockedKeys() {
        return blockedKeys;
    }

    public int databaseCount() {
        return databases.length;
    }

    public void swap(int first, int second) {
        DatabaseTable table = databases[first];
        databases[first] = databases[second];
        databases[second] = table;
    }

    public void clearAll() {
        for (DatabaseTable table : databases) {
            table.clear();
        }
    }

    /**
     * One active-expiry step, as Redis's activeExpireCycle: examine a bounded number of slots in
     * each database, and keep going while a quarter or more of what was examined had expired,
     * within {@code budgetNanos}.
     */
    public void expireCycle(long now, long budgetNanos) {
        long deadline = System.nanoTime() + budgetNanos;
        for (DatabaseTable table : databases) {
            while (table.expiringSize() > 0) {
                int deleted = table.expireSome(now, EXPIRY_SLOTS_PER_STEP);
                if (deleted * 4 < Math.min(EXPIRY_SLOTS_PER_STEP, table.expiringSize() + deleted)
                    || System.nanoTime() > deadline) {
                    break;
                }
            }
        }
    }

    /** Bytes the tables hold, or -1 when a table cannot say cheaply; racy. */
    public long usedMemory() {
        long total = 0;
        for (DatabaseTable table : databases) {
            long used = table.usedMemory();
            if (used < 0) {
                return -1;
            }
            total += used;
        }
        return total;
    }

    public long expiredCount() {
        long total = 0;
        for (DatabaseTable table : databases) {
            total += table.expiredCount();
        }
        return total;
    }
}
