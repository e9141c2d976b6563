package dev.lacewing.api;

/**
 * A threading strategy plugin, chosen with the {@code threading} setting: it turns the
 * {@code threads} setting and the engine into a {@link ThreadingPlan}.
 */
public interface ThreadingStrategy {

    String name();

    /**
     * The plan for {@code threads} threads under {@code engine}; throws
     * {@link IllegalArgumentException} with the reason when the combination is not supported.
     */
    ThreadingPlan plan(int threads, String engine);
}
