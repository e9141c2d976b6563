package dev.lacewing.storage.tiered;

import dev.lacewing.api.Settings;
import java.nio.file.Path;

/**
 * The tiered storage's settings, read once when it opens (all are fixed at start-up).
 *
 * @param directory       where the segment files go ({@code tiered-dir}; {@code <dir>/tiered} when empty)
 * @param minValueSize    strings of at least this many bytes may move to disk ({@code tiered-min-value-size})
 * @param eager           {@code tiered-offload eager}: every such string goes to disk when stored;
 *                        {@code pressure}: when a partition's tables pass 3/4 of its share of
 *                        {@code maxmemory} after a store, and when the server asks for memory
 *                        back before it evicts (never without a maxmemory)
 * @param compactMinBytes a segment file smaller than this is never compacted
 */
record TieredSettings(Path directory, int minValueSize, boolean eager, long compactMinBytes) {

    static final String DIRECTORY = "tiered-dir";
    static final String MIN_VALUE_SIZE = "tiered-min-value-size";
    static final String OFFLOAD = "tiered-offload";
    static final long COMPACT_MIN_BYTES = 1 << 20;

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
        return new TieredSettings(path, (int) minValueSize, offload.equalsIgnoreCase("eager"), COMPACT_MIN_BYTES);
    }
}
