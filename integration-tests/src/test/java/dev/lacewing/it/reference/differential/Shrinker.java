package dev.lacewing.it.reference.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Delta debugging (Zeller's ddmin, complement form): finds a short subsequence of a failing
 * sequence (of calls, or of pub/sub steps) that still fails in the same way, a mismatch of the
 * same kind (on the same command), by replaying candidates against freshly flushed servers. Each
 * round cuts the sequence into n chunks and keeps the first complement (the sequence without one
 * chunk) that still fails; when none does, it doubles n, until the chunks are single elements:
 * the result is then 1-minimal, no single element can be removed. At most {@code maxReplays}
 * replays, about n log n for a sequence of n elements.
 *
 * <p>Thread rule: one test thread.
 *
 * @param <T> an element of a sequence
 * @param <M> a replay's first mismatch
 */
final class Shrinker<T, M> {

    record Result<T, M>(List<T> calls, M mismatch, int replays, boolean minimal) {
    }

    private final Function<List<T>, Optional<M>> replay;
    private final ToIntFunction<M> index;
    private final Function<M, String> kind;
    private final int maxReplays;

    /**
     * {@code replay} finds a sequence's first mismatch; {@code index} is the element at which a
     * mismatch showed; {@code kind} what makes two mismatches the same failure (the command's name).
     */
    Shrinker(Function<List<T>, Optional<M>> replay, ToIntFunction<M> index, Function<M, String> kind,
             int maxReplays) {
        this.replay = replay;
        this.index = index;
        this.kind = kind;
        this.maxReplays = maxReplays;
    }

    /** For {@link Replay}'s call sequences: a mismatch is the same when it is on the same command. */
    static Shrinker<Call, Replay.Mismatch> of(Replay replay, int maxReplays) {
        return new Shrinker<>(replay::firstMismatch, Replay.Mismatch::index, m -> m.call().name(), maxReplays);
    }

    /** Shrinks {@code sequence}, which fails with {@code original} (its index is within it). */
    Result<T, M> shrink(List<T> sequence, M original) {
        int replays = 0;
        String failure = kind.apply(original);
        List<T> current = List.copyOf(sequence.subList(0, index.applyAsInt(original) + 1));
        M mismatch = original;
        int chunks = 2;
        while (current.size() >= 2) {
            if (replays >= maxReplays) {
                return new Result<>(current, mismatch, replays, false);
            }
            boolean reduced = false;
            int size = current.size();
            for (int i = 0; i < chunks && replays < maxReplays; i++) {
                int from = i * size / chunks;
                int to = (i + 1) * size / chunks;
                if (from == to) {
                    continue;
                }
                List<T> complement = new ArrayList<>(current.subList(0, from));
                complement.addAll(current.subList(to, size));
                replays++;
                Optional<M> found = replay.apply(complement).filter(m -> kind.apply(m).equals(failure));
                if (found.isPresent()) {
                    current = List.copyOf(complement.subList(0, index.applyAsInt(found.get()) + 1));
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
        return new Result<>(current, mismatch, replays, true);
    }
}
