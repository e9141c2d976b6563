package dev.lacewing.it.reference.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The one place that says which command families the differential test sends, and the test
 * prints which ran; the list fixture is the one family that may be skipped, with its reason.
 */
final class Families {

    /** A family and, when it does not run, why. */
    record Family(CommandGenerator generator, String skippedBecause) {

        boolean runs() {
            return skippedBecause == null;
        }

        String name() {
            return generator.family();
        }
    }

    private static final List<Family> LISTED = List.of(
        run(new StringCommandsGenerator()),
        run(new KeyCommandsGenerator()),
        run(new ConnectionCommandsGenerator()),
        run(new HashCommandsGenerator()),
        run(new ListCommandsGenerator()),
        run(new SetCommandsGenerator()),
        run(new SortedSetCommandsGenerator()),
        run(new GeoCommandsGenerator()),
        run(new StreamCommandsGenerator()),
        run(new BitmapCommandsGenerator()),
        run(new HyperLogLogCommandsGenerator()),
        run(new TransactionCommandsGenerator()),
        run(new ScriptingCommandsGenerator()));

    private Families() {
    }

    private static Family run(CommandGenerator generator) {
        return new Family(generator, null);
    }

    /**
     * Every family listed above, plus the list fixture: it stands in for real lists (to reach
     * WRONGTYPE) only while the list family is skipped, since once lists run a fixture value
     * would meet the real list commands.
     */
    static List<Family> all() {
        boolean listsRun = LISTED.stream().anyMatch(f -> f.generator() instanceof ListCommandsGenerator && f.runs());
        List<Family> all = new ArrayList<>(LISTED);
        all.add(new Family(new ForeignTypeFixtureGenerator(), listsRun ? "the list family runs for real" : null));
        return all;
    }

    /**
     * The families that run: all that are not skipped or, for a focused run, those that
     * {@code -Ddifferential.families} names (comma-separated, e.g. {@code streams,keys}), skipped or not.
     */
    static List<CommandGenerator> running() {
        String named = System.getProperty("differential.families", "");
        if (named.isEmpty()) {
            return all().stream().filter(Family::runs).map(Family::generator).toList();
        }
        List<String> only = List.of(named.split(","));
        return all().stream().filter(f -> only.contains(f.name())).map(Family::generator).toList();
    }

    /**
     * The generators of {@code running} that {@code wraps} accepts (the calls a transaction block
     * queues, the writes of a pub/sub scenario), or the string family when it accepts none, as when
     * {@code -Ddifferential.families} names transactions or pubsub alone: a block needs calls to
     * queue and notifications need writes.
     */
    static List<CommandGenerator> wrapped(List<CommandGenerator> running, Predicate<CommandGenerator> wraps) {
        List<CommandGenerator> wrapped = running.stream().filter(wraps).toList();
        return wrapped.isEmpty() ? List.of(new StringCommandsGenerator()) : wrapped;
    }

    /** One line per family: ran, or skipped and why. */
    static String report() {
        StringBuilder report = new StringBuilder("differential families:");
        for (Family family : all()) {
            report.append("\n  ").append(family.runs() ? "run     " : "skipped ").append(family.name())
                .append(" (").append(String.join(" ", family.generator().commands())).append(")")
                .append(family.runs() ? "" : ": " + family.skippedBecause());
        }
        return report.toString();
    }
}
