package dev.lacewing.it.reference.differential;

import java.util.ArrayList;
import java.util.List;

/**
 * A seeded random command sequence: the seed and the length alone determine it, so a failure
 * reported with its seed is reproduced by generating it again. Half of the seeds switch the
 * connection to RESP3 first ({@code HELLO 3}); any sequence may switch again midway. The
 * transaction family adds blocks of calls (MULTI, other families' calls, EXEC); a block the
 * length cuts short is left open, as a connection may leave it.
 */
record Sequence(long seed, boolean resp3, List<Call> calls) {

    /** The share of calls with one argument dropped or a junk one added (arity and syntax errors). */
    private static final double MUTATED = 0.03;

    static Sequence generate(long seed, int length, List<CommandGenerator> generators) {
        Draw draw = new Draw(seed);
        boolean resp3 = draw.chance(0.5);
        List<Call> calls = new ArrayList<>(length);
        if (resp3) {
            calls.add(Call.exact("HELLO", "3"));
        }
        int totalWeight = generators.stream().mapToInt(CommandGenerator::weight).sum();
        List<CommandGenerator> wrapped = Families.wrapped(generators, g -> !(g instanceof TransactionCommandsGenerator));
        int wrappedWeight = wrapped.stream().mapToInt(CommandGenerator::weight).sum();
        while (calls.size() < length) {
            CommandGenerator generator = pick(draw, generators, totalWeight);
            if (generator instanceof TransactionCommandsGenerator transactions) {
                calls.addAll(transactions.block(draw, () -> wrappedCall(draw, wrapped, wrappedWeight)));
            } else {
                calls.add(mutate(draw, generator.next(draw)));
            }
        }
        return new Sequence(seed, resp3, List.copyOf(calls.subList(0, length)));
    }

    private static CommandGenerator pick(Draw draw, List<CommandGenerator> generators, int totalWeight) {
        int at = draw.below(totalWeight);
        for (CommandGenerator generator : generators) {
            at -= generator.weight();
            if (at < 0) {
                return generator;
            }
        }
        throw new IllegalStateException("weights changed");
    }

    /** A call of the families a transaction wraps; never a fixture, whose several requests to Redis MULTI would queue. */
    private static Call wrappedCall(Draw draw, List<CommandGenerator> wrapped, int totalWeight) {
        Call call;
        do {
            call = pick(draw, wrapped, totalWeight).next(draw);
        } while (call.fixture());
        return mutate(draw, call);
    }

    private static Call mutate(Draw draw, Call call) {
        if (call.fixture() || !draw.chance(MUTATED)) {
            return call;
        }
        List<byte[]> arguments = new ArrayList<>(call.arguments());
        if (arguments.size() > 1 && draw.chance(0.5)) {
            arguments.remove(arguments.size() - 1);
        } else {
            arguments.add(Call.bytes(draw.junk()));
        }
        return call.withArguments(arguments);
    }
}
