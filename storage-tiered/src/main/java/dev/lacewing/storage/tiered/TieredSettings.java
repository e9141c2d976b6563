package dev.lacewing.storage.tiered;

import dev.lacewing.api.SettingSpec;
import dev.lacewing.api.Settings;
import java.nio.file.Path;
import java.util.List;

/**
 * The tiered storage's settings, read once when it opens (all are fixed at start-up). The storage
 * declares them ({@link #DECLARED}), so the server checks and normalizes their values; the checks in
 * {@link #of} serve a context of another server, as the TCK's.
 *
 * @param directory       where the segment files go ({@code tiered-dir}; {@code <dir>/tiered} when empty)
 * @param minValueSize    strings of at least this many bytes may move to disk ({@code tiered-min-value-size})
 * @param eager           {@code tiered-offload eager}: every such string goes to disk when stored;
 *                        {@code pressure}: when a partition's tables pass 3/4 of its share of
 *                        {@code maxmemory} after a store, and when the server asks for memory
 *                        back before it evicts (never without a maxmemory)
 * @param compactMinBytes a segment file smaller than this is never compacted
 * @param readDelayMillis a test hook: how long each read of an offloaded value sleeps first, on a
 *                        reader thread or synchronously (system property {@value #READ_DELAY_PROPERTY},
 *                        read when the storage opens; 0 in service)
 */
record TieredSettings(Path directory, int minValueSize, boolean eager, long compactMinBytes, long readDelayMillis) {

    static final String READ_DELAY_PROPERTY = "lacewing.tiered.read-delay-ms";

    TieredSettings(Path directory, int minValueSize, boolean eager, long compactMinBytes) {
        this(directory, minValueSize, eager, compactMinBytes, 0);
    }

    /** Before a read of an offloaded value: the test hook's delay, if any. */
    void pauseBeforeRead() {
        if (readDelayMillis > 0) {
            try {
                Thread.sleep(readDelayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static final String DIRECTORY = "tiered-dir";
    static final String MIN_VALUE_SIZE = "tiered-min-value-size";
    static final String OFFLOAD = "tiered-offload";
    static final long COMPACT_MIN_BYTES = 1 << 20;

    /** What the storage declares to the server: these settings, as redis.conf, CONFIG GET and the docs show them. */
    static final List<SettingSpec> DECLARED = List.of(
        SettingSpec.string(DIRECTORY, "", "where the tiered storage keeps its scratch segment files; empty: <dir>/tiered"),
        SettingSpec.memory(MIN_VALUE_SIZE, "64", 1, Integer.MAX_VALUE,
            "shortest string, in bytes, the tiered storage moves to disk"),
        SettingSpec.choice(OFFLOAD, "pressure", List.of("pressure", "eager"),
            "when the tiered storage moves strings to disk: pressure (before eviction, over maxmemory) or eager "
            + "(every string long enough, when stored)"));

    static TieredSettings of(Settings settings) {
        String directory = settings.get(DIRECTORY, "");
        Path path = directory.isEmpty() ? Path.of(settings.get("dir", "."), "tiered") : Path.of(directory);
        long minValueSize = settings.getLong(MIN_VALUE_SIZE, 64);
        String offload = settings.get(OFFLOAD, "pressure");
        if (minValueSize < 1 || minValueSize > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(MIN_VALUE_SIZE + " must be between 1 and " + Integer.MAX_VALUE);
        }
        if (!offload.equalsIgnoreCase("eager") && !offload.equalsIgnoreCase("pressure")) {
            throw new IllegalArgumentException(OFFLOAD + " must be eager or pressure, not " + offload);
        }
        return new TieredSettings(path, (int) minValueSize, offload.equalsIgnoreCase("eager"), COMPACT_MIN_BYTES,
            Long.getLong(READ_DELAY_PROPERTY, 0));
    }
}
