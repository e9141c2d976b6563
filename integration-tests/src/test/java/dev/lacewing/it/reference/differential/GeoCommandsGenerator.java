package dev.lacewing.it.reference.differential;

import static dev.lacewing.it.reference.differential.CommandGenerator.words;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The geo family: positions clustered around a few anchors (Sicily, the equator's zero, the
 * antimeridian on both sides, the poles' limits at +-85.05112878) so that searches find points
 * and ties, plus edges spelled every way (exact limits, -0, just past the limits, inf, junk);
 * radii from zero to past the earth's size, boxes, every option of the searches in random order
 * (COUNT with and without ANY, ASC/DESC, WITH*, STORE/STOREDIST into keys of any shard), and
 * units in any case or none. Geo commands also meet the sorted sets of the sorted-set family,
 * whose scores are no geohash at all. Every reply is deterministic: unsorted results come in
 * cell and score order, ties in distance in Redis's sort order.
 */
final class GeoCommandsGenerator implements CommandGenerator {

    private static final List<String> COMMANDS = List.of(
        "GEOADD", "GEODIST", "GEOHASH", "GEOPOS", "GEORADIUS", "GEORADIUS_RO", "GEORADIUSBYMEMBER",
        "GEORADIUSBYMEMBER_RO", "GEOSEARCH", "GEOSEARCHSTORE");

    /** Anchors {longitude, latitude} that positions cluster around. */
    private static final double[][] ANCHORS = {
        {13.361389, 38.115556}, {0, 0}, {179.9, 10}, {-179.9, 10}, {0, 85}, {-45, -84.9}, {100, 66.5}};

    private static final List<String> EDGE_LONGITUDES = List.of(
        "180", "-180", "0", "-0", "179.999999", "-179.999999", "180.0000001", "-181", "1e2", "inf", "abc", "");
    private static final List<String> EDGE_LATITUDES = List.of(
        "85.05112878", "-85.05112878", "0", "-0", "85.05112877", "85.05112879", "-90", "90", "inf", "x");
    private static final List<String> UNITS = List.of("m", "km", "mi", "ft", "KM", "Mi", "parsec", "");

    @Override
    public String family() {
        return "geo";
    }

    @Override
    public List<String> commands() {
        return COMMANDS;
    }

    @Override
    public Call next(Draw draw) {
        String command = draw.pick(COMMANDS);
        return switch (command) {
            case "GEOADD" -> Call.exact(words(command, draw.key(), addOptions(draw), positionsAndMembers(draw)));
            case "GEODIST" -> Call.exact(words(command, draw.key(), draw.member(), draw.member(),
                draw.chance(0.7) ? List.of(unit(draw)) : draw.chance(0.9) ? List.of() : List.of("km", "extra")));
            case "GEOHASH", "GEOPOS" -> Call.exact(words(command, draw.key(), draw.members(0, 4)));
            case "GEORADIUS", "GEORADIUS_RO" -> Call.exact(words(command, draw.key(), position(draw), radius(draw),
                searchOptions(draw, !command.endsWith("_RO"), false)));
            case "GEORADIUSBYMEMBER", "GEORADIUSBYMEMBER_RO" -> Call.exact(words(command, draw.key(), draw.member(),
                radius(draw), searchOptions(draw, !command.endsWith("_RO"), false)));
            case "GEOSEARCH" -> Call.exact(words(command, draw.key(), searchArea(draw), searchOptions(draw, false, false)));
            case "GEOSEARCHSTORE" -> Call.exact(words(command, draw.key(), draw.key(), searchArea(draw),
                searchOptions(draw, false, true)));
            default -> throw new IllegalStateException(command);
        };
    }

    private static List<Object> addOptions(Draw draw) {
        List<Object> words = new ArrayList<>();
        for (String option : List.of("NX", "XX", "CH")) {
            if (draw.chance(0.12)) {
                words.add(draw.option(option));
            }
        }
        return draw.shuffled(words);
    }

    private static List<Object> positionsAndMembers(Draw draw) {
        List<Object> words = new ArrayList<>();
        int count = draw.between(1, 4);
        for (int i = 0; i < count; i++) {
            words.addAll(position(draw));
            words.add(draw.member());
        }
        if (draw.chance(0.04)) {
            words.remove(words.size() - 1);
        }
        return words;
    }

    /** A longitude and a latitude: near an anchor mostly, sometimes an edge spelling of either. */
    private static List<Object> position(Draw draw) {
        if (draw.chance(0.12)) {
            return List.of(draw.pick(EDGE_LONGITUDES), draw.chance(0.5) ? draw.pick(EDGE_LATITUDES) : "1");
        }
        if (draw.chance(0.06)) {
            return List.of("0", draw.pick(EDGE_LATITUDES));
        }
        double[] anchor = ANCHORS[draw.below(ANCHORS.length)];
        double spread = draw.pick(0.0, 0.001, 0.1, 1.0, 3.0);
        double longitude = Math.max(-180, Math.min(180, anchor[0] + (draw.below(2001) - 1000) * spread / 1000));
        double latitude = Math.max(-85.05112878, Math.min(85.05112878, anchor[1] + (draw.below(2001) - 1000) * spread / 1000));
        return List.of(String.format(Locale.ROOT, "%.6f", longitude), String.format(Locale.ROOT, "%.6f", latitude));
    }

    private static String unit(Draw draw) {
        return draw.chance(0.85) ? draw.pick("m", "km", "mi", "ft") : draw.pick(UNITS);
    }

    /** A radius and its unit: zero, small to past the earth's size, or invalid. */
    private static List<Object> radius(Draw draw) {
        String size = draw.chance(0.85)
            ? draw.pick("0", "1", "10", "50", "100", "250", "500", "1000", "5000", "20000", "40000", "1e5", "123.456")
            : draw.pick("-1", "abc", "inf", "", "1e400", "0x10");
        return List.of(size, draw.chance(0.6) ? "km" : unit(draw));
    }

    /** GEOSEARCH's FROMMEMBER/FROMLONLAT and BYRADIUS/BYBOX, now and then missing, doubled or crossed. */
    private static List<Object> searchArea(Draw draw) {
        List<List<Object>> parts = new ArrayList<>();
        int froms = draw.chance(0.9) ? 1 : draw.below(3);
        for (int i = 0; i < froms; i++) {
            parts.add(draw.chance(0.5) ? List.of(draw.option("FROMMEMBER"), draw.member())
                : flat(draw.option("FROMLONLAT"), position(draw)));
        }
        int bys = draw.chance(0.9) ? 1 : draw.below(3);
        for (int i = 0; i < bys; i++) {
            List<Object> size = radius(draw);
            if (draw.chance(0.5)) {
                parts.add(flat(draw.option("BYRADIUS"), size));
            } else {
                String height = draw.chance(0.8) ? draw.pick("0", "1", "100", "300", "2000", "50000") : draw.pick("-1", "x");
                parts.add(List.of(draw.option("BYBOX"), size.get(0), height, size.get(1)));
            }
        }
        List<Object> words = new ArrayList<>();
        (draw.chance(0.8) ? parts : draw.shuffled(parts)).forEach(words::addAll);
        return words;
    }

    private static List<Object> flat(Object first, List<Object> rest) {
        List<Object> words = new ArrayList<>();
        words.add(first);
        words.addAll(rest);
        return words;
    }

    /** The searches' options in random order; STORE/STOREDIST where {@code store}, STOREDIST alone for GEOSEARCHSTORE. */
    private static List<Object> searchOptions(Draw draw, boolean store, boolean searchStore) {
        List<List<Object>> options = new ArrayList<>();
        for (String option : List.of("WITHDIST", "WITHHASH", "WITHCOORD")) {
            if (draw.chance(searchStore || store ? 0.08 : 0.35)) {
                options.add(List.of(draw.option(option)));
            }
        }
        if (draw.chance(0.4)) {
            options.add(List.of(draw.option(draw.pick("ASC", "DESC"))));
        }
        if (draw.chance(0.4)) {
            String count = draw.chance(0.85) ? Integer.toString(draw.between(1, 6)) : draw.pick("0", "-1", "x");
            options.add(draw.chance(0.4) ? List.of(draw.option("COUNT"), count, draw.option("ANY"))
                : List.of(draw.option("COUNT"), count));
        } else if (draw.chance(0.03)) {
            options.add(List.of(draw.option("ANY")));
        }
        if (store && draw.chance(0.3)) {
            options.add(List.of(draw.option(draw.pick("STORE", "STOREDIST")), draw.key()));
        }
        if (searchStore && draw.chance(0.4)) {
            options.add(List.of(draw.option("STOREDIST")));
        }
        if (draw.chance(0.03)) {
            options.add(List.of(draw.junk()));
        }
        List<Object> words = new ArrayList<>();
        draw.shuffled(options).forEach(words::addAll);
        return words;
    }
}
