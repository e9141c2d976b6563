package dev.lacewing.core.command.geo;

import static dev.lacewing.api.CommandFlag.DENYOOM;
import static dev.lacewing.api.CommandFlag.READONLY;
import static dev.lacewing.api.CommandFlag.WRITE;

import dev.lacewing.api.Arguments;
import dev.lacewing.api.CommandContext;
import dev.lacewing.api.CommandFlag;
import dev.lacewing.api.CommandHandler;
import dev.lacewing.api.CommandRegistry;
import dev.lacewing.api.CommandSpec;
import dev.lacewing.api.KeyScope;
import dev.lacewing.api.ReplyWriter;
import dev.lacewing.core.command.AggregateChanges;
import dev.lacewing.core.command.Errors;
import dev.lacewing.core.command.Numbers;
import dev.lacewing.core.command.Numbers.InvalidNumber;
import dev.lacewing.core.command.PartialQuicksort;
import dev.lacewing.core.datatype.SortedSet;
import dev.lacewing.core.pubsub.KeyspaceEvents;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The geo family (Redis 7.0's geo.c): positions kept in a sorted set, each member scored with its
 * 52-bit geohash ({@link GeoHash}), so every sorted-set command works on a geo set and a geo
 * command on any sorted set. Replies are redis-server's byte for byte: distances as {@code %.4f}
 * bulk strings in both protocols, coordinates as Redis's "human" long double ({@code %.17Lf},
 * trailing zeros dropped), a bulk string in RESP2 and a double in RESP3.
 *
 * <p>A search (GEOSEARCH, GEORADIUS and their store and read-only forms) reads the score ranges of
 * the nine cells Redis picks, in Redis's order and score order within a cell, keeps the points
 * inside the circle or box, and orders them as Redis does: a stable sort by distance when every
 * point is returned (glibc's qsort is a merge sort), {@link PartialQuicksort} (Redis's pqsort)
 * when COUNT takes fewer, so points at equal distances come out in Redis's order too. O(m log m)
 * for m points read from the cells, plus O(log n) per cell.
 *
 * <p>GEORADIUS and GEORADIUSBYMEMBER name a second key in their STORE or STOREDIST option
 * ({@link CommandSpec#withOptionKey}, Redis's georadiusGetKeys), and GEOSEARCHSTORE has two
 * fixed keys, so a store into another shard runs as one transaction.
 *
 * <p>Stateless; each handler runs on the thread the engine gives the command, with its keys.
 */
public final class GeoCommands {

    private static final String GROUP = "geo";

    /* georadiusGeneric's flags. */
    private static final int FROM_COORDINATES = 1;
    private static final int FROM_MEMBER = 1 << 1;
    private static final int NO_STORE = 1 << 2;
    private static final int SEARCH = 1 << 3;
    private static final int SEARCH_STORE = 1 << 4;

    private static final int UNSORTED = 0;
    private static final int ASCENDING = 1;
    private static final int DESCENDING = 2;

    private static final String UNIT_ERROR = "ERR unsupported unit provided. please use M, KM, FT, MI";
    private static final String MEMBER_NOT_DECODED = "ERR could not decode requested zset member";
    private static final String NEED_RADIUS = "ERR need numeric radius";
    private static final String NEED_WIDTH = "ERR need numeric width";
    private static final String NEED_HEIGHT = "ERR need numeric height";
    private static final String NEGATIVE_RADIUS = "ERR radius cannot be negative";
    private static final String NEGATIVE_BOX = "ERR height or width cannot be negative";
    private static final String COUNT_NOT_POSITIVE = "ERR COUNT must be > 0";
    private static final String ANY_WITHOUT_COUNT = "ERR the ANY argument requires COUNT argument";

    private static final byte[] GEOHASH_ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);
    private static final long DEFAULT_MAX_LISTPACK_ENTRIES = 128;
    private static final long DEFAULT_MAX_LISTPACK_VALUE = 64;
    /** Ranks read at a time by a COUNT ANY search, which stops between runs once it has enough. */
    private static final int ANY_RUN = 64;

    private GeoCommands() {
    }

    public static void register(CommandRegistry registry) {
        register(registry, spec("geoadd", -5, 1, "Add one or more geospatial items in the geospatial index represented using a sorted set",
            WRITE, DENYOOM), GeoCommands::geoadd);
        register(registry, spec("geodist", -4, 1, "Returns the distance between two members of a geospatial index",
            READONLY), GeoCommands::geodist);
        register(registry, spec("geohash", -2, 1, "Returns members of a geospatial index as standard geohash strings",
            READONLY), GeoCommands::geohash);
        register(registry, spec("geopos", -2, 1, "Returns longitude and latitude of members of a geospatial index",
            READONLY), GeoCommands::geopos);
        register(registry, spec("georadius", -6, 1,
            "Query a sorted set representing a geospatial index to fetch members matching a given maximum distance from a point",
            WRITE, DENYOOM).withOptionKey(GeoCommands::storeKey), ctx -> search(ctx, 1, FROM_COORDINATES));
        register(registry, spec("georadius_ro", -6, 1,
            "A read-only variant for GEORADIUS", READONLY), ctx -> search(ctx, 1, FROM_COORDINATES | NO_STORE));
        register(registry, spec("georadiusbymember", -5, 1,
            "Query a sorted set representing a geospatial index to fetch members matching a given maximum distance from a member",
            WRITE, DENYOOM).withOptionKey(GeoCommands::storeKey), ctx -> search(ctx, 1, FROM_MEMBER));
        register(registry, spec("georadiusbymember_ro", -5, 1,
            "A read-only variant for GEORADIUSBYMEMBER", READONLY), ctx -> search(ctx, 1, FROM_MEMBER | NO_STORE));
        register(registry, spec("geosearch", -7, 1,
            "Query a sorted set representing a geospatial index to fetch members inside an area of a box or a circle.",
            READONLY), ctx -> search(ctx, 1, SEARCH));
        register(registry, spec("geosearchstore", -8, 2,
            "Query a sorted set representing a geospatial index to fetch members inside an area of a box or a circle, and store the result in another key.",
            WRITE, DENYOOM), ctx -> search(ctx, 2, SEARCH | SEARCH_STORE));
    }

    private static CommandSpec spec(String name, int arity, int lastKey, String summary, CommandFlag... flags) {
        return new CommandSpec(name, arity, Set.of(flags), 1, lastKey, 1, KeyScope.KEYS, GROUP, summary);
    }

    private static void register(CommandRegistry registry, CommandSpec spec, CommandHandler handler) {
        registry.register(spec, handler);
    }

    /**
     * The STORE or STOREDIST destination as georadiusGetKeys finds it: the last such option from
     * argument 5 on that has an argument after it; -1 for none.
     */
    private static int storeKey(Arguments args) {
        int store = -1;
        for (int i = 5; i < args.count(); i++) {
            if ((args.is(i, "store") || args.is(i, "storedist")) && i + 1 < args.count()) {
                store = ++i;
            }
        }
        return store;
    }

    // ---- shared helpers -----------------------------------------------------------------------

    /** The sorted set at argument {@code index}, or null; WRONGTYPE ends the command for another type. */
    private static SortedSet lookup(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        return ctx.keyspace().aggregate(args.array(), args.offset(index), args.length(index), SortedSet.TYPE);
    }

    private static double score(SortedSet set, Arguments args, int index) {
        return set.score(args.array(), args.offset(index), args.length(index));
    }

    /**
     * extractLongLatOrReply: the longitude and latitude at {@code index} and after it, or null
     * after replying the error (not a float, or outside Redis's limits).
     */
    private static double[] parsePosition(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        double[] position = new double[2];
        for (int i = 0; i < 2; i++) {
            try {
                position[i] = Numbers.parseDouble(args.array(), args.offset(index + i), args.length(index + i));
            } catch (InvalidNumber e) {
                ctx.reply().error(Errors.NOT_FLOAT);
                return null;
            }
        }
        double longitude = position[0];
        double latitude = position[1];
        if (longitude < GeoHash.LONGITUDE_MIN || longitude > GeoHash.LONGITUDE_MAX
                || latitude < GeoHash.LATITUDE_MIN || latitude > GeoHash.LATITUDE_MAX) {
            ctx.reply().error("ERR invalid longitude,latitude pair " + fixed(longitude, 6) + "," + fixed(latitude, 6));
            return null;
        }
        return position;
    }

    /** extractUnitOrReply: meters per unit, or -1 after replying the error. */
    private static double parseUnit(CommandContext ctx, int index) {
        Arguments args = ctx.arguments();
        if (args.is(index, "m")) {
            return 1;
        } else if (args.is(index, "km")) {
            return 1000;
        } else if (args.is(index, "ft")) {
            return 0.3048;
        } else if (args.is(index, "mi")) {
            return 1609.34;
        }
        ctx.reply().error(UNIT_ERROR);
        return -1;
    }

    /** A non-negative float at {@code index}, or NaN after replying {@code notNumeric} or the error of a negative. */
    private static double parseLength(CommandContext ctx, int index, String notNumeric) {
        Arguments args = ctx.arguments();
        try {
            return Numbers.parseDouble(args.array(), args.offset(index), args.length(index));
        } catch (InvalidNumber e) {
            ctx.reply().error(notNumeric);
            return Double.NaN;
        }
    }

    /**
     * C's {@code printf("%.Nf")} of a double: its exact binary value rounded half to even (glibc
     * rounds the exact value in the default rounding mode), with C's sign on negative values that
     * round to zero and its spellings of infinities and NaN.
     */
    static String fixed(double value, int decimals) {
        boolean negative = Double.doubleToRawLongBits(value) < 0;
        if (Double.isNaN(value)) {
            return negative ? "-nan" : "nan";
        }
        if (Double.isInfinite(value)) {
            return negative ? "-inf" : "inf";
        }
        String digits = new BigDecimal(Math.abs(value)).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        return negative ? "-" + digits : digits;
    }

    /**
     * Redis's "human" form of a long double (ld2string with LD_STR_HUMAN), as GEOPOS and WITHCOORD
     * print coordinates: {@code %.17Lf} of the value (a double widens exactly), trailing zeros and
     * a trailing point dropped, "-0" written "0".
     */
    static String human(double value) {
        String text = fixed(value, 17);
        if (text.indexOf('.') >= 0) {
            int end = text.length();
            while (text.charAt(end - 1) == '0') {
                end--;
            }
            if (text.charAt(end - 1) == '.') {
                end--;
            }
            text = text.substring(0, end);
        }
        return text.equals("-0") ? "0" : text;
    }

    private static void replyPosition(ReplyWriter reply, double[] position) {
        reply.array(2);
        reply.doubleText(human(position[0]));
        reply.doubleText(human(position[1]));
    }

    // ---- GEOADD -----------------------------------------------------------------------------

    /**
     * geoaddCommand, then zaddCommand's work on the scores it computed: options NX, XX and CH,
     * every position checked before the key is read, a new set in the form ZADD would pick.
     */
    private static void geoadd(CommandContext ctx) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        boolean nx = false;
        boolean xx = false;
        boolean changed = false;
        int first = 2;
        for (; first < args.count(); first++) {
            if (args.is(first, "nx")) {
                nx = true;
            } else if (args.is(first, "xx")) {
                xx = true;
            } else if (args.is(first, "ch")) {
                changed = true;
            } else {
                break;
            }
        }
        int elements = (args.count() - first) / 3;
        if ((args.count() - first) % 3 != 0 || (nx && xx) || elements == 0) {
            reply.error(Errors.SYNTAX);
            return;
        }
        double[] scores = new double[elements];
        for (int i = 0; i < elements; i++) {
            double[] position = parsePosition(ctx, first + i * 3);
            if (position == null) {
                return;
            }
            scores[i] = GeoHash.score(position[0], position[1]);
        }
        SortedSet set = lookup(ctx, 1);
        long maxEntries = maxListpackEntries(ctx);
        long maxValue = maxListpackValue(ctx);
        boolean created = false;
        if (set == null) {
            if (xx) {
                reply.integer(0);
                return;
            }
            set = maxEntries == 0 || maxValue < args.length(first + 2) ? SortedSet.large() : new SortedSet();
            created = true;
        }
        int added = 0;
        int updated = 0;
        for (int i = 0; i < elements; i++) {
            int member = first + i * 3 + 2;
            double current = score(set, args, member);
            if (!Double.isNaN(current)) {
                if (nx) {
                    continue;
                }
                if (scores[i] != current) {
                    set.add(args.array(), args.offset(member), args.length(member), scores[i], maxEntries, maxValue);
                    updated++;
                }
            } else if (!xx) {
                set.add(args.array(), args.offset(member), args.length(member), scores[i], maxEntries, maxValue);
                added++;
            }
        }
        // zaddGenericCommand's server.dirty += added + updated, whether CH replies them or not.
        AggregateChanges.added(ctx, 1, set, created, added + updated, KeyspaceEvents.ZSET, "zadd");
        reply.integer(changed ? added + updated : added);
    }

    private static long maxListpackEntries(CommandContext ctx) {
        return ctx.server().settings().getLong("zset-max-listpack-entries", DEFAULT_MAX_LISTPACK_ENTRIES);
    }

    private static long maxListpackValue(CommandContext ctx) {
        return ctx.server().settings().getLong("zset-max-listpack-value", DEFAULT_MAX_LISTPACK_VALUE);
    }

    // ---- GEODIST, GEOHASH, GEOPOS -------------------------------------------------------------

    private static void geodist(CommandContext ctx) {
        Arguments args = ctx.arguments();
        double metersPerUnit = 1;
        if (args.count() == 5) {
            metersPerUnit = parseUnit(ctx, 4);
            if (metersPerUnit < 0) {
                return;
            }
        } else if (args.count() > 5) {
            ctx.reply().error(Errors.SYNTAX);
            return;
        }
        SortedSet set = lookup(ctx, 1);
        double first = set == null ? Double.NaN : score(set, args, 2);
        double second = set == null ? Double.NaN : score(set, args, 3);
        if (Double.isNaN(first) || Double.isNaN(second)) {
            ctx.reply().nullBulk();
            return;
        }
        double[] a = GeoHash.position(first);
        double[] b = GeoHash.position(second);
        ctx.reply().bulk(fixed(GeoHash.distance(a[0], a[1], b[0], b[1]) / metersPerUnit, 4));
    }

    /**
     * GEOHASH: each position decoded and encoded again over the standard geohash ranges (latitude
     * -90..90, where the scores use -85.05..85.05), 52 bits as ten base-32 characters and a "0".
     */
    private static void geohash(CommandContext ctx) {
        Arguments args = ctx.arguments();
        SortedSet set = lookup(ctx, 1);
        ReplyWriter reply = ctx.reply();
        reply.array(args.count() - 2);
        for (int i = 2; i < args.count(); i++) {
            double score = set == null ? Double.NaN : score(set, args, i);
            if (Double.isNaN(score)) {
                reply.nullBulk();
                continue;
            }
            double[] position = GeoHash.position(score);
            long bits = GeoHash.encode(-180, 180, -90, 90, position[0], position[1], GeoHash.STEP_MAX);
            byte[] text = new byte[11];
            for (int c = 0; c < 10; c++) {
                text[c] = GEOHASH_ALPHABET[(int) ((bits >>> (52 - (c + 1) * 5)) & 0x1f)];
            }
            text[10] = GEOHASH_ALPHABET[0];
            reply.bulk(text);
        }
    }

    private static void geopos(CommandContext ctx) {
        Arguments args = ctx.arguments();
        SortedSet set = lookup(ctx, 1);
        ReplyWriter reply = ctx.reply();
        reply.array(args.count() - 2);
        for (int i = 2; i < args.count(); i++) {
            double score = set == null ? Double.NaN : score(set, args, i);
            if (Double.isNaN(score)) {
                reply.nullArray();
            } else {
                replyPosition(reply, GeoHash.position(score));
            }
        }
    }

    // ---- searches -----------------------------------------------------------------------------

    /** A search area (GeoShape): its centre, and a radius or a box, in units of {@link #metersPerUnit}. */
    private static final class Shape {
        double longitude;
        double latitude;
        boolean box;
        double radius;
        double width;
        double height;
        double metersPerUnit;

        /** extractDistanceOrReply from {@code index}: false after replying the error. */
        boolean parseRadius(CommandContext ctx, int index) {
            double parsed = parseLength(ctx, index, NEED_RADIUS);
            if (Double.isNaN(parsed)) {
                return false;
            }
            if (parsed < 0) {
                ctx.reply().error(NEGATIVE_RADIUS);
                return false;
            }
            radius = parsed;
            metersPerUnit = parseUnit(ctx, index + 1);
            box = false;
            return metersPerUnit >= 0;
        }

        /** extractBoxOrReply from {@code index}: false after replying the error. */
        boolean parseBox(CommandContext ctx, int index) {
            double parsedWidth = parseLength(ctx, index, NEED_WIDTH);
            if (Double.isNaN(parsedWidth)) {
                return false;
            }
            double parsedHeight = parseLength(ctx, index + 1, NEED_HEIGHT);
            if (Double.isNaN(parsedHeight)) {
                return false;
            }
            if (parsedHeight < 0 || parsedWidth < 0) {
                ctx.reply().error(NEGATIVE_BOX);
                return false;
            }
            width = parsedWidth;
            height = parsedHeight;
            metersPerUnit = parseUnit(ctx, index + 2);
            box = true;
            return metersPerUnit >= 0;
        }

        void centre(double[] position) {
            longitude = position[0];
            latitude = position[1];
        }

        /** The nine cells to read (geohashCalculateAreasByShapeWGS84). */
        GeoHash.Cell[] cells() {
            double halfHeight = metersPerUnit * (box ? height / 2 : radius);
            double halfWidth = metersPerUnit * (box ? width / 2 : radius);
            double farthest = box ? Math.sqrt((width / 2) * (width / 2) + (height / 2) * (height / 2)) : radius;
            return GeoHash.searchCells(longitude, latitude, halfWidth, halfHeight, farthest * metersPerUnit);
        }

        /**
         * geoWithinShape: the distance in meters of a point inside the area, -1 when outside. A NaN
         * distance (asin of a rounding past 1, near antipodes) compares as inside, as in Redis.
         */
        double distanceIfInside(double[] point) {
            if (!box) {
                double distance = GeoHash.distance(longitude, latitude, point[0], point[1]);
                return distance > radius * metersPerUnit ? -1 : distance;
            }
            double longitudeDistance = GeoHash.distance(point[0], point[1], longitude, point[1]);
            double latitudeDistance = GeoHash.distance(point[0], point[1], point[0], latitude);
            if (longitudeDistance > width * metersPerUnit / 2 || latitudeDistance > height * metersPerUnit / 2) {
                return -1;
            }
            return GeoHash.distance(longitude, latitude, point[0], point[1]);
        }
    }

    /** A point found (geoPoint). */
    private record Point(byte[] member, double score, double longitude, double latitude, double distance) {
    }

    /** sort_gp_asc, NaN and all: greater is 1, equal 0, anything else -1. */
    private static final Comparator<Point> NEAREST_FIRST = (a, b) ->
        a.distance() > b.distance() ? 1 : a.distance() == b.distance() ? 0 : -1;
    private static final Comparator<Point> FARTHEST_FIRST = (a, b) -> -NEAREST_FIRST.compare(a, b);

    /**
     * georadiusGeneric: the source set at {@code sourceIndex}; {@code flags} say where the centre
     * comes from, which options are accepted and whether the result is stored.
     */
    private static void search(CommandContext ctx, int sourceIndex, int flags) {
        Arguments args = ctx.arguments();
        ReplyWriter reply = ctx.reply();
        SortedSet set = lookup(ctx, sourceIndex);
        boolean write = (flags & SEARCH_STORE) != 0 || (flags & (SEARCH | NO_STORE)) == 0;
        if (set == null && write) {
            // GEORADIUS[BYMEMBER] and GEOSEARCHSTORE are writes that read with lookupKeyRead.
            KeyspaceEvents.missed(ctx, args, sourceIndex);
        }
        int storeKey = -1;
        boolean storeDistances = false;
        Shape shape = new Shape();
        int base;
        if ((flags & FROM_COORDINATES) != 0) {
            base = 6;
            double[] centre = parsePosition(ctx, 2);
            if (centre == null || !shape.parseRadius(ctx, 4)) {
                return;
            }
            shape.centre(centre);
        } else if ((flags & FROM_MEMBER) != 0) {
            base = 5;
            if (set != null) {
                double score = score(set, args, 2);
                if (Double.isNaN(score)) {
                    reply.error(MEMBER_NOT_DECODED);
                    return;
                }
                shape.centre(GeoHash.position(score));
                if (!shape.parseRadius(ctx, 3)) {
                    return;
                }
            }
        } else {
            base = 2;
            if ((flags & SEARCH_STORE) != 0) {
                base = 3;
                storeKey = 1;
            }
        }

        boolean withDistance = false;
        boolean withHash = false;
        boolean withCoordinates = false;
        boolean fromMember = false;
        boolean fromPosition = false;
        boolean byRadius = false;
        boolean byBox = false;
        int sort = UNSORTED;
        boolean any = false;
        long count = 0;
        int remaining = args.count() - base;
        for (int i = 0; i < remaining; i++) {
            int at = base + i;
            boolean search = (flags & SEARCH) != 0;
            if (args.is(at, "withdist")) {
                withDistance = true;
            } else if (args.is(at, "withhash")) {
                withHash = true;
            } else if (args.is(at, "withcoord")) {
                withCoordinates = true;
            } else if (args.is(at, "any")) {
                any = true;
            } else if (args.is(at, "asc")) {
                sort = ASCENDING;
            } else if (args.is(at, "desc")) {
                sort = DESCENDING;
            } else if (args.is(at, "count") && i + 1 < remaining) {
                try {
                    count = Numbers.parseLong(args.array(), args.offset(at + 1), args.length(at + 1));
                } catch (InvalidNumber e) {
                    reply.error(Errors.NOT_INTEGER);
                    return;
                }
                if (count <= 0) {
                    reply.error(COUNT_NOT_POSITIVE);
                    return;
                }
                i++;
            } else if ((args.is(at, "store") || args.is(at, "storedist")) && i + 1 < remaining
                    && (flags & NO_STORE) == 0 && !search) {
                storeKey = at + 1;
                storeDistances = args.is(at, "storedist");
                i++;
            } else if (args.is(at, "storedist") && search && (flags & SEARCH_STORE) != 0) {
                storeDistances = true;
            } else if (args.is(at, "frommember") && i + 1 < remaining && search && !fromPosition) {
                if (set != null) {
                    double score = score(set, args, at + 1);
                    if (Double.isNaN(score)) {
                        reply.error(MEMBER_NOT_DECODED);
                        return;
                    }
                    shape.centre(GeoHash.position(score));
                }
                fromMember = true;
                i++;
            } else if (args.is(at, "fromlonlat") && i + 2 < remaining && search && !fromMember) {
                double[] centre = parsePosition(ctx, at + 1);
                if (centre == null) {
                    return;
                }
                shape.centre(centre);
                fromPosition = true;
                i += 2;
            } else if (args.is(at, "byradius") && i + 2 < remaining && search && !byBox) {
                if (!shape.parseRadius(ctx, at + 1)) {
                    return;
                }
                byRadius = true;
                i += 2;
            } else if (args.is(at, "bybox") && i + 3 < remaining && search && !byRadius) {
                if (!shape.parseBox(ctx, at + 1)) {
                    return;
                }
                byBox = true;
                i += 3;
            } else {
                reply.error(Errors.SYNTAX);
                return;
            }
        }

        if (storeKey >= 0 && (withDistance || withHash || withCoordinates)) {
            reply.error(((flags & SEARCH_STORE) != 0 ? "ERR GEOSEARCHSTORE" : "ERR STORE option in GEORADIUS")
                + " is not compatible with WITHDIST, WITHHASH and WITHCOORD options");
            return;
        }
        if ((flags & SEARCH) != 0 && !(fromMember || fromPosition)) {
            reply.error(withCommandName("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for ", args));
            return;
        }
        if ((flags & SEARCH) != 0 && !(byRadius || byBox)) {
            reply.error(withCommandName("ERR exactly one of BYRADIUS and BYBOX can be specified for ", args));
            return;
        }
        if (any && count == 0) {
            reply.error(ANY_WITHOUT_COUNT);
            return;
        }
        if (set == null) {
            if (storeKey >= 0) {
                AggregateChanges.storedEmpty(ctx, storeKey);
                reply.integer(0);
            } else {
                reply.array(0);
            }
            return;
        }
        if (count != 0 && sort == UNSORTED && !any) {
            sort = ASCENDING;
        }

        List<Point> found = pointsInside(set, shape, any ? count : 0);
        if (found.isEmpty() && storeKey < 0) {
            reply.array(0);
            return;
        }
        Point[] points = found.toArray(new Point[0]);
        int returned = count == 0 || points.length < count ? points.length : (int) count;
        if (sort != UNSORTED) {
            Comparator<Point> order = sort == ASCENDING ? NEAREST_FIRST : FARTHEST_FIRST;
            if (returned == points.length) {
                Arrays.sort(points, order);
            } else {
                PartialQuicksort.sort(points, order, 0, returned - 1);
            }
        }
        if (storeKey < 0) {
            replyPoints(reply, points, returned, shape.metersPerUnit, withDistance, withHash, withCoordinates);
        } else {
            storePoints(ctx, storeKey, points, returned, shape.metersPerUnit, storeDistances,
                (flags & SEARCH) != 0 ? "geosearchstore" : "georadiusstore");
        }
    }

    /** An error message ending with the command's name as the client spelled it, as Redis quotes argv[0]. */
    private static byte[] withCommandName(String message, Arguments args) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        text.writeBytes(message.getBytes(StandardCharsets.US_ASCII));
        text.write(args.array(), args.offset(0), args.length(0));
        return text.toByteArray();
    }

    /**
     * membersOfAllNeighbors: the points inside the shape from each of the nine cells in turn (a
     * cell equal to the one read before it skipped, as near the poles and for huge radii cells
     * repeat), in score order within a cell; with a {@code limit} (COUNT ANY), no more once that
     * many are found.
     */
    private static List<Point> pointsInside(SortedSet set, Shape shape, long limit) {
        List<Point> found = new ArrayList<>();
        GeoHash.Cell[] cells = shape.cells();
        int lastRead = 0;
        for (int i = 0; i < cells.length; i++) {
            GeoHash.Cell cell = cells[i];
            if (cell.none()) {
                continue;
            }
            if (lastRead != 0 && cell.equals(cells[lastRead])) {
                continue;
            }
            if (limit > 0 && found.size() >= limit) {
                break;
            }
            int first = set.countByScore(cell.minScore(), false);
            int last = set.countByScore(cell.maxScore(), false) - 1;
            SortedSet.Visitor keepInside = (array, offset, length, score) -> {
                if (limit > 0 && found.size() >= limit) {
                    return;
                }
                double[] position = GeoHash.position(score);
                double distance = shape.distanceIfInside(position);
                if (distance >= 0 || Double.isNaN(distance)) {
                    found.add(new Point(Arrays.copyOfRange(array, offset, offset + length), score, position[0],
                        position[1], distance));
                }
            };
            if (limit == 0) {
                set.visit(first, last, false, keepInside);
            } else {
                // COUNT ANY stops reading the cell once enough are found, in runs of ranks.
                for (int from = first; from <= last && found.size() < limit; from += ANY_RUN) {
                    set.visit(from, Math.min(last, from + ANY_RUN - 1), false, keepInside);
                }
            }
            lastRead = i;
        }
        return found;
    }

    private static void replyPoints(ReplyWriter reply, Point[] points, int returned, double metersPerUnit,
                                    boolean withDistance, boolean withHash, boolean withCoordinates) {
        int options = (withDistance ? 1 : 0) + (withHash ? 1 : 0) + (withCoordinates ? 1 : 0);
        reply.array(returned);
        for (int i = 0; i < returned; i++) {
            Point point = points[i];
            if (options > 0) {
                reply.array(options + 1);
            }
            reply.bulk(point.member());
            if (withDistance) {
                reply.bulk(fixed(point.distance() / metersPerUnit, 4));
            }
            if (withHash) {
                reply.integer((long) point.score());
            }
            if (withCoordinates) {
                replyPosition(reply, new double[] {point.longitude(), point.latitude()});
            }
        }
    }

    /**
     * The store forms: the points found as a sorted set (by score, or by distance in the unit),
     * published as {@code event}; none deletes the key ("del" when there was one).
     */
    private static void storePoints(CommandContext ctx, int storeKey, Point[] points, int returned,
                                    double metersPerUnit, boolean storeDistances, String event) {
        SortedSet result = null;
        if (returned > 0) {
            long maxEntries = maxListpackEntries(ctx);
            long maxValue = maxListpackValue(ctx);
            result = new SortedSet();
            for (int i = 0; i < returned; i++) {
                Point point = points[i];
                result.add(point.member(), storeDistances ? point.distance() / metersPerUnit : point.score(),
                    maxEntries, maxValue);
            }
        }
        // server.dirty += returned_items: one change per member stored.
        AggregateChanges.stored(ctx, storeKey, result, returned, KeyspaceEvents.ZSET, event);
        ctx.reply().integer(returned);
    }
}
