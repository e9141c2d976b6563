package dev.lacewing.core.command;

import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandSpec;
import java.util.List;
import java.util.Set;

/**
 * How a command's parts over groups of its keys make its one reply, from Redis's command tips:
 * {@code request_policy:multi_shard} says the keys are independent, the response policy how a
 * cluster client joins the shards' replies. A multi-shard command without a response policy
 * replies one value per key, in key order; that default is only defined for reads (MGET). Redis
 * 7.0 tags MSETNX multi_shard with {@code agg_min}, but the minimum of parts that each set their
 * own keys would not be all-or-nothing (Redis 7.2 dropped the tips): its parts run in two rounds
 * instead, {@link #NONE_EXISTED}.
 */
public enum KeySplit {
    /** Runs whole. */
    NONE,
    /** An array with each key's value, in the request's key order (MGET). */
    VALUES,
    /** The sum of the parts' integers (DEL, UNLINK, EXISTS, TOUCH). */
    SUM,
    /** The parts' common reply, or the first error (MSET). */
    ALL_SUCCEEDED,
    /**
     * Two rounds under the same claims (MSETNX): the parts first count their keys that exist, and
     * only when none does run the command over their keys; 1 when they ran, else 0.
     */
    NONE_EXISTED,
    /**
     * One part per shard under key claims, in rounds: the parts on other shards than the command's
     * destination gather what it reads (a detached copy of a key only read, or the value itself,
     * taken out, of a key it may write); the destination's part runs the command's own handler over
     * what was gathered; then each other part puts back what it took, as the command left it. The
     * commands that read some keys and write one (RENAME, SMOVE, LMOVE, COPY, the STORE forms), or
     * read several (SINTER, SUNION, PFCOUNT...).
     */
    GATHER;

    /** The commands of {@link #GATHER}: none blocks, names keys it does not declare, or splits. */
    private static final Set<String> GATHERED = Set.of("rename", "renamenx", "smove", "lmove", "rpoplpush", "copy",
        "sunionstore", "sinterstore", "sdiffstore", "zunionstore", "zinterstore", "zdiffstore", "zrangestore",
        "geosearchstore", "georadius", "georadiusbymember", "bitop", "pfmerge", "sort", "pfcount", "sintercard",
        "zintercard", "sdiff", "sinter", "sunion", "zunion", "zinter", "zdiff", "lmpop", "zmpop");

    static KeySplit of(CommandSpec spec) {
        if (GATHERED.contains(spec.name())) {
            return GATHER;
        }
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
        if (tips.contains("response_policy:agg_min") && spec.has(CommandFlag.WRITE)) {
            return NONE_EXISTED;
        }
        return !policy && spec.has(CommandFlag.READONLY) && spec.step() == 1 ? VALUES : NONE;
    }
}
