package dev.lacewing.junit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The engine, transport and storage one {@link LacewingMatrix} invocation runs against. */
public record LacewingTarget(LacewingTest.Engine engine, LacewingTest.Transport transport, LacewingTest.Storage storage) {

    /**
     * An all-pairs covering of engines x transports x storages, in that nesting order: every
     * engine x transport, engine x storage and transport x storage pair is in at least one target.
     * With one storage that is every engine x transport; with the two storages over both engines
     * and the three transports it is six targets of the twelve. Greedy (the next target in order
     * that covers the most uncovered pairs), which is minimal for these sizes.
     */
    public static List<LacewingTarget> allPairs(List<LacewingTest.Engine> engines,
            List<LacewingTest.Transport> transports, List<LacewingTest.Storage> storages) {
        List<LacewingTarget> candidates = new ArrayList<>();
        for (LacewingTest.Engine engine : engines) {
            for (LacewingTest.Transport transport : transports) {
                for (LacewingTest.Storage storage : storages) {
                    candidates.add(new LacewingTarget(engine, transport, storage));
                }
            }
        }
        Set<List<Object>> uncovered = new HashSet<>();
        candidates.forEach(candidate -> uncovered.addAll(candidate.pairs()));
        List<LacewingTarget> chosen = new ArrayList<>();
        while (!uncovered.isEmpty()) {
            LacewingTarget best = null;
            int bestCount = 0;
            for (LacewingTarget candidate : candidates) {
                int count = (int) candidate.pairs().stream().filter(uncovered::contains).count();
                if (count > bestCount) {
                    best = candidate;
                    bestCount = count;
                }
            }
            chosen.add(best);
            uncovered.removeAll(best.pairs());
        }
        chosen.sort((a, b) -> Integer.compare(candidates.indexOf(a), candidates.indexOf(b)));
        return chosen;
    }

    private List<List<Object>> pairs() {
        return List.of(List.of(engine, transport), List.of(engine, storage), List.of(transport, storage));
    }

    /**
     * {@code engine/transport/storage} by their setting values, e.g. {@code shared-nothing/epoll/compact}:
     * the invocation's display name.
     */
    @Override
    public String toString() {
        return engine.settingValue() + "/" + transport.settingValue() + "/" + storage.settingValue();
    }
}
