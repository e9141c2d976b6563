package dev.lacewing.core.tracking;

import java.util.List;

/**
 * One client's CLIENT TRACKING options while tracking is on: where its invalidations go
 * ({@code redirect}, 0 for itself), BCAST with its prefixes (sorted, as Redis lists them), OPTIN or
 * OPTOUT, NOLOOP. Immutable: CLIENT TRACKING replaces it, so any thread may read a client's mode.
 */
public record TrackingMode(long redirect, boolean broadcast, boolean optIn, boolean optOut, boolean noLoop,
                           List<byte[]> prefixes) {
}
