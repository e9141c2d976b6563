package dev.lacewing.it.reference.differential;

import java.util.ArrayList;
import java.util.List;

/**
 * The one place that says which command families the differential test sends. A family whose
 * commands are not on main yet is listed as skipped with that reason, and the test prints which
 * families ran and which were skipped; enabling one once it is merged is a one-line change here
 * ({@code skipped(..., NOT_ON_MAIN)} to {@code run(...)}).
 */
final class Families {

    static final String NOT_ON_MAIN = "not on main yet";

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

    private static Family skipped(CommandGenerator generator, String why) {
        return new Family(generator, why);
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
