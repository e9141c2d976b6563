package dev.lacewing.it.reference.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Delta debugging (Zeller's ddmin, complement form): finds a short subsequence of a failing
 * sequence that still fails in the same way, a mismatch on the same command, by replaying
 * candidates against freshly flushed servers. Each round cuts the sequence into n chunks and
 * keeps the first complement (the sequence without one chunk) that still fails; when none does,
 * it doubles n, until the chunks are single calls: the result is then 1-minimal, no single call
 * can be removed. At most {@code maxReplays} replays, about n log n for a sequence of n calls.
 *
 * <p>Thread rule: one test thread.
 */
final class Shrinker {

    record Result(List<Call> calls, Replay.Mismatch mismatch, int replays, boolean minimal) {
    }

    private final Replay replay;
    private final int maxReplays;

    Shrinker(Replay replay, int maxReplays) {
        this.replay = replay;
        this.maxReplays = maxReplays;
    }

    /** Shrinks {@code calls}, which fail with {@code original} (its index is within them). */
    Result shrink(List<Call> calls, Replay.Mismatch original) {
        int start = replay.replays();
        String command = original.call().name();
        List<Call> current = List.copyOf(calls.subList(0, original.index() + 1));
        Replay.Mismatch mismatch = original;
        int chunks = 2;
        while (current.size() >= 2) {
            if (replay.replays() - start >= maxReplays) {
                return new Result(current, mismatch, replay.replays() - start, false);
            }
            boolean reduced = false;
            int size = current.size();
            for (int i = 0; i < chunks && replay.replays() - start < maxReplays; i++) {
                int from = i * size / chunks;
                int to = (i + 1) * size / chunks;
                if (from == to) {
                    continue;
                }
                List<Call> complement = new ArrayList<>(current.subList(0, from));
                complement.addAll(current.subList(to, size));
                Optional<Replay.Mismatch> found = replay.firstMismatch(complement)
                    .filter(m -> m.call().name().equals(command));
                if (found.isPresent()) {
                    current = List.copyOf(complement.subList(0, found.get().index() + 1));
                    mismatch = found.get();
                    chunks = Math.max(chunks - 1, 2);
                    reduced = true;
                    break;
                }
            }
            if (!reduced) {
                if (chunks >= size) {
                    break;
                }
                chunks = Math.min(size, chunks * 2);
            }
        }
        return new Result(current, mismatch, replay.replays() - start, true);
    }
}
