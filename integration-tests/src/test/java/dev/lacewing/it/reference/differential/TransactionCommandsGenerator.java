package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The transaction family. Unlike the others it sends blocks: an optional WATCH of a few keys,
 * then calls of the other families on the same connection (a write there to a watched key makes
 * EXEC abort, since Redis counts the client's own writes too), MULTI, calls of the other families
 * with now and then an edge case (an unknown command or a wrong arity, which make EXEC answer
 * EXECABORT; a runtime error, which does not; a nested MULTI; WATCH inside MULTI; blocking pops
 * and moves, with a timeout of 0 too, which must not block inside a transaction), and EXEC or
 * DISCARD. Now and then a lone call instead: EXEC or DISCARD without MULTI, UNWATCH.
 * {@link Replay} compares EXEC's array element by element with each queued call's own check.
 */
final class TransactionCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of("MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH");

    /** Calls queued between MULTI and EXEC: up to this many. */
    private static final int MAX_QUEUED = 6;

    @Override
    public String family() {
        return "transactions";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    /** Blocks are several calls long: drawn less often than the family's five commands would say. */
    @Override
    public int weight() {
        return 8;
    }

    /** One call of the family alone (for {@code everyGeneratorSpeaksRedis}): sequences send {@link #block}s. */
    @Override
    public Call next(Draw draw) {
        return switch (draw.below(9)) {
            case 0, 1 -> Call.exact("EXEC");
            case 2, 3 -> Call.exact("DISCARD");
            case 4, 5 -> Call.exact("UNWATCH");
            case 6, 7 -> Call.exact(words("WATCH", draw.keys(1, 3)));
            default -> Call.exact("MULTI");
        };
    }

    /**
     * A block of calls, its wrapped calls drawn from {@code other} (the other families, mutated as
     * the sequence mutates). Between WATCH and MULTI the block writes a watched key with SET, which
     * always modifies it, or runs any other call, which may write a watched key or change nothing.
     */
    List<Call> block(Draw draw, Supplier<Call> other) {
        List<Call> calls = new ArrayList<>();
        if (draw.chance(0.1)) {
            calls.add(Call.exact(draw.pick("EXEC", "DISCARD", "UNWATCH")));
            return calls;
        }
        if (draw.chance(0.5)) {
            List<Object> watched = draw.keys(1, 3);
            calls.add(Call.exact(words("WATCH", watched)));
            int between = draw.between(0, 3);
            for (int i = 0; i < between; i++) {
                if (draw.chance(0.3)) {
                    calls.add(Call.exact("SET", draw.pick(watched), draw.value()));
                } else {
                    calls.add(other.get());
                }
            }
            if (draw.chance(0.1)) {
                calls.add(Call.exact("UNWATCH"));
            }
        }
        calls.add(Call.exact("MULTI"));
        int queued = draw.between(0, MAX_QUEUED);
        for (int i = 0; i < queued; i++) {
            if (draw.chance(0.15)) {
                calls.addAll(edge(draw));
            } else {
                calls.add(other.get());
            }
        }
        calls.add(end(draw));
        return calls;
    }

    /** An edge case inside MULTI. */
    private static List<Call> edge(Draw draw) {
        byte[] key = draw.key();
        return switch (draw.below(10)) {
            case 0 -> List.of(Call.exact("NOSUCHCOMMAND", key));
            case 1 -> List.of(Call.exact(draw.pick("GET", "SET", "HSET", "LPUSH", "EXPIRE"), key));
            case 2 -> List.of(Call.exact("MULTI"));
            case 3 -> List.of(Call.exact(words("WATCH", draw.keys(1, 2))));
            case 4 -> List.of(Call.exact("SET", key, draw.value()), Call.exact("LPUSH", key, draw.member()));
            case 5 -> List.of(Call.exact("SET", key, "x"), Call.exact("INCR", key));
            case 6 -> List.of(Call.exact(words(draw.pick("BLPOP", "BRPOP"), draw.keys(1, 3), blockingTimeout(draw))));
            case 7 -> List.of(Call.exact("BLMOVE", key, draw.key(), draw.pick("LEFT", "RIGHT"),
                draw.pick("LEFT", "RIGHT"), blockingTimeout(draw)));
            case 8 -> List.of(Call.exact("UNWATCH"));
            default -> List.of(Call.exact("DISCARD", "junk"));
        };
    }

    /**
     * EXEC, DISCARD, or EXEC with a wrong arity, which inside MULTI discards the transaction with
     * EXECABORT. Always the block's last call: nothing after it may count on MULTI (a timeout of 0).
     */
    private static Call end(Draw draw) {
        int end = draw.below(20);
        return end < 15 ? Call.exact("EXEC") : end < 19 ? Call.exact("DISCARD") : Call.exact("EXEC", "junk");
    }

    /** Inside MULTI a blocking command never blocks, so even 0 (forever) is safe here. */
    private static String blockingTimeout(Draw draw) {
        return draw.chance(0.3) ? "0" : draw.timeout();
    }
}
