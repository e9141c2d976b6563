package dev.lacewing.core.command;

import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import java.util.List;

/**
 * How a command's parts over groups of its keys make its one reply, from Redis's command tips:
 * {@code request_policy:multi_shard} says the keys are independent, the response policy how a
 * cluster client joins the shards' replies. A multi-shard command without a response policy
 * replies one value per key, in key order; that default is only defined for reads (MGET): Redis
 * 7.0 also tags MSETNX multi_shard, but its all-or-nothing answer cannot be assembled from parts
 * (Redis 7.2 dropped that tip), so a write without a response policy does not split.
 */
public enum KeySplit {
    /** Runs whole. */
    NONE,
    /** An array with each key's value, in the request's key order (MGET). */
    VALUES,
    /** The sum of the parts' integers (DEL, UNLINK, EXISTS, TOUCH). */
    SUM,
    /** The parts' common reply, or the first error (MSET). */
    ALL_SUCCEEDED;

    static KeySplit of(CommandSpec spec) {
        List<String> tips = spec.details().tips();
        if (!tips.contains("request_policy:multi_shard") || spec.hasMovableKeys() || spec.firstKey() <= 0
            || spec.lastKey() != -1) {
            return NONE;
        }
        if (tips.contains("response_policy:agg_sum")) {
            return SUM;
        }
        if (tips.contains("response_policy:all_succeeded")) {
            return ALL_SUCCEEDED;
        }
        boolean policy = tips.stream().anyMatch(tip -> tip.startsWith("response_policy:"));
        return !policy && spec.has(CommandFlag.READONLY) && spec.step() == 1 ? VALUES : NONE;
    }
}
