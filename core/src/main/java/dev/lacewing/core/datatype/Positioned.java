package dev.lacewing.core.datatype;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * An aggregate whose elements are reached by position (a hash's fields, a set's members), walked
 * in order or picked at random; what HRANDFIELD and SRANDMEMBER with a count share.
 *
 * <p>Thread rule: the implementation's (the thread that has its key).
 */
public interface Positioned {

    int size();

    /** The first position, -1 when empty. */
    int first();

    /** The position after {@code position}, -1 after the last. */
    int next(int position);

    /** A position chosen uniformly at random; the aggregate is not empty. */
    int randomPosition(RandomGenerator random);

    /**
     * {@code count} distinct random positions, {@code count} below the size. As Redis's
     * SRANDMEMBER and HRANDFIELD do: when {@code count} is more than a third of the size, every
     * position is taken and random ones are dropped; otherwise random picks are drawn until
     * enough are distinct.
     */
    static List<Integer> distinctRandomPositions(Positioned aggregate, int count, RandomGenerator random) {
        int size = aggregate.size();
        if ((long) count * 3 > size) {
            List<Integer> all = new ArrayList<>(size);
            for (int at = aggregate.first(); at >= 0; at = aggregate.next(at)) {
                all.add(at);
            }
            while (all.size() > count) {
                int victim = random.nextInt(all.size());
                all.set(victim, all.get(all.size() - 1));
                all.remove(all.size() - 1);
            }
            return all;
        }
        Set<Integer> picked = new LinkedHashSet<>();
        while (picked.size() < count) {
            picked.add(aggregate.randomPosition(random));
        }
        return new ArrayList<>(picked);
    }
}
