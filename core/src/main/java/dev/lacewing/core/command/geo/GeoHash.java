package dev.lacewing.core.command.geo;

/**
 * Redis's geohash arithmetic (geohash.c, geohash_helper.c of 7.0), operation for operation, so
 * that scores, decoded coordinates, the cells a search visits and distances are the doubles
 * redis-server computes. A position is a 52-bit score: latitude and longitude each scaled to 26
 * bits over -85.05112878..85.05112878 and -180..180, interleaved (latitude in the even bits,
 * longitude in the odd). A search covers its area with the cell of the centre at some coarser
 * step and that cell's eight neighbours, each cell a contiguous range of scores.
 *
 * <p>Distances use Redis's haversine on a sphere of radius 6372797.560856 m with Java's
 * {@link Math#sin}, {@link Math#cos} and {@link Math#asin}; glibc's differ from them in the last
 * bit for a small share of arguments (about 0.1% for sin and cos, 2.5% for asin), which moves a
 * distance by about 1e-16 of itself: a reply shows it only when the value lies that close to a
 * rounding boundary of its four printed decimals, or a point lies that close to the radius.
 *
 * <p>Stateless.
 */
final class GeoHash {

    static final int STEP_MAX = 26;
    static final double LATITUDE_MIN = -85.05112878;
    static final double LATITUDE_MAX = 85.05112878;
    static final double LONGITUDE_MIN = -180;
    static final double LONGITUDE_MAX = 180;

    private static final double EARTH_RADIUS_IN_METERS = 6372797.560856;
    private static final double MERCATOR_MAX = 20037726.37;
    /** geohash_helper.c's D_R, M_PI / 180.0 folded to a double. */
    private static final double DEGREES_TO_RADIANS = Math.PI / 180.0;

    private static final long EVEN_BITS = 0x5555555555555555L;
    private static final long ODD_BITS = 0xaaaaaaaaaaaaaaaaL;

    private GeoHash() {
    }

    /** A cell: {@code step} bits of each coordinate, interleaved. Step 0 is the "no cell" of GZERO. */
    record Cell(long bits, int step) {

        static final Cell NONE = new Cell(0, 0);

        boolean none() {
            return bits == 0 && step == 0;
        }

        /** scoresOfGeoHashBox: the scores of the cell's points, {@code [min, max)}. */
        long minScore() {
            return bits << (52 - step * 2);
        }

        long maxScore() {
            return (bits + 1) << (52 - step * 2);
        }
    }

    /** A cell's bounds in degrees (GeoHashArea). */
    record Area(double longitudeMin, double longitudeMax, double latitudeMin, double latitudeMax) {
    }

    // ---- encoding ---------------------------------------------------------------------------

    /** The score of a position in range (geohashEncodeWGS84 at step 26, geohashAlign52Bits). */
    static long score(double longitude, double latitude) {
        return encode(LONGITUDE_MIN, LONGITUDE_MAX, LATITUDE_MIN, LATITUDE_MAX, longitude, latitude, STEP_MAX);
    }

    /**
     * geohashEncode over the given ranges; the caller has checked the position against Redis's
     * limits. The offsets are truncated to integers as C converts a double to uint32_t.
     */
    static long encode(double longitudeMin, double longitudeMax, double latitudeMin, double latitudeMax,
                       double longitude, double latitude, int step) {
        double latitudeOffset = (latitude - latitudeMin) / (latitudeMax - latitudeMin);
        double longitudeOffset = (longitude - longitudeMin) / (longitudeMax - longitudeMin);
        latitudeOffset *= (double) (1L << step);
        longitudeOffset *= (double) (1L << step);
        return interleave((long) latitudeOffset & 0xffffffffL, (long) longitudeOffset & 0xffffffffL);
    }

    /** interleave64: x's bits in the even positions, y's in the odd. */
    private static long interleave(long x, long y) {
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFL;
        y = (y | (y << 16)) & 0x0000FFFF0000FFFFL;
        x = (x | (x << 8)) & 0x00FF00FF00FF00FFL;
        y = (y | (y << 8)) & 0x00FF00FF00FF00FFL;
        x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FL;
        y = (y | (y << 4)) & 0x0F0F0F0F0F0F0F0FL;
        x = (x | (x << 2)) & 0x3333333333333333L;
        y = (y | (y << 2)) & 0x3333333333333333L;
        x = (x | (x << 1)) & EVEN_BITS;
        y = (y | (y << 1)) & EVEN_BITS;
        return x | (y << 1);
    }

    /** deinterleave64: the even bits in the low 32 bits, the odd bits in the high 32. */
    private static long deinterleave(long interleaved) {
        long x = interleaved;
        long y = interleaved >>> 1;
        x = (x | (x >>> 0)) & EVEN_BITS;
        y = (y | (y >>> 0)) & EVEN_BITS;
        x = (x | (x >>> 1)) & 0x3333333333333333L;
        y = (y | (y >>> 1)) & 0x3333333333333333L;
        x = (x | (x >>> 2)) & 0x0F0F0F0F0F0F0F0FL;
        y = (y | (y >>> 2)) & 0x0F0F0F0F0F0F0F0FL;
        x = (x | (x >>> 4)) & 0x00FF00FF00FF00FFL;
        y = (y | (y >>> 4)) & 0x00FF00FF00FF00FFL;
        x = (x | (x >>> 8)) & 0x0000FFFF0000FFFFL;
        y = (y | (y >>> 8)) & 0x0000FFFF0000FFFFL;
        x = (x | (x >>> 16)) & 0x00000000FFFFFFFFL;
        y = (y | (y >>> 16)) & 0x00000000FFFFFFFFL;
        return x | (y << 32);
    }

    // ---- decoding ---------------------------------------------------------------------------

    /** geohashDecode over Redis's ranges. */
    static Area decode(Cell cell) {
        long separated = deinterleave(cell.bits());
        double latitudeScale = LATITUDE_MAX - LATITUDE_MIN;
        double longitudeScale = LONGITUDE_MAX - LONGITUDE_MIN;
        long latitudeIndex = separated & 0xffffffffL;
        long longitudeIndex = separated >>> 32;
        double cells = (double) (1L << cell.step());
        return new Area(
            LONGITUDE_MIN + (longitudeIndex * 1.0 / cells) * longitudeScale,
            LONGITUDE_MIN + (((longitudeIndex + 1) & 0xffffffffL) * 1.0 / cells) * longitudeScale,
            LATITUDE_MIN + (latitudeIndex * 1.0 / cells) * latitudeScale,
            LATITUDE_MIN + (((latitudeIndex + 1) & 0xffffffffL) * 1.0 / cells) * latitudeScale);
    }

    /**
     * The position a score stands for (decodeGeohash): the centre of its step-26 cell, clamped to
     * the limits. Any score decodes: it is first converted to 64 bits as x86-64 code compiled by
     * gcc converts a double to uint64_t, so a sorted set written by ZADD gives Redis's answer too.
     * Returns {longitude, latitude}.
     */
    static double[] position(double score) {
        Area area = decode(new Cell(toUnsigned64(score), STEP_MAX));
        double longitude = (area.longitudeMin() + area.longitudeMax()) / 2;
        longitude = Math.min(Math.max(longitude, LONGITUDE_MIN), LONGITUDE_MAX);
        double latitude = (area.latitudeMin() + area.latitudeMax()) / 2;
        latitude = Math.min(Math.max(latitude, LATITUDE_MIN), LATITUDE_MAX);
        return new double[] {longitude, latitude};
    }

    /**
     * {@code (uint64_t) value} as gcc emits it on x86-64: below 2^63 a signed truncating convert
     * (cvttsd2si, whose out-of-range answer is 2^63), otherwise the convert of value - 2^63 with
     * the top bit flipped.
     */
    static long toUnsigned64(double value) {
        if (value < 0x1p63) {
            return value > -0x1p63 ? (long) value : Long.MIN_VALUE;
        }
        double reduced = value - 0x1p63;
        long converted = reduced < 0x1p63 ? (long) reduced : Long.MIN_VALUE;
        return converted ^ Long.MIN_VALUE;
    }

    // ---- searching --------------------------------------------------------------------------

    private static long moveX(long bits, int step, int direction) {
        long x = bits & ODD_BITS;
        long y = bits & EVEN_BITS;
        long zz = EVEN_BITS >>> (64 - step * 2);
        if (direction > 0) {
            x = x + (zz + 1);
        } else {
            x = x | zz;
            x = x - (zz + 1);
        }
        x &= ODD_BITS >>> (64 - step * 2);
        return x | y;
    }

    private static long moveY(long bits, int step, int direction) {
        long x = bits & ODD_BITS;
        long y = bits & EVEN_BITS;
        long zz = ODD_BITS >>> (64 - step * 2);
        if (direction > 0) {
            y = y + (zz + 1);
        } else {
            y = y | zz;
            y = y - (zz + 1);
        }
        y &= EVEN_BITS >>> (64 - step * 2);
        return x | y;
    }

    private static Cell neighbour(Cell cell, int east, int north) {
        long bits = cell.bits();
        if (east != 0) {
            bits = moveX(bits, cell.step(), east);
        }
        if (north != 0) {
            bits = moveY(bits, cell.step(), north);
        }
        return new Cell(bits, cell.step());
    }

    /** geohashEstimateStepsByRadius. */
    static int estimateSteps(double rangeMeters, double latitude) {
        if (rangeMeters == 0) {
            return STEP_MAX;
        }
        int step = 1;
        while (rangeMeters < MERCATOR_MAX) {
            rangeMeters *= 2;
            step++;
        }
        step -= 2;
        if (latitude > 66 || latitude < -66) {
            step--;
            if (latitude > 80 || latitude < -80) {
                step--;
            }
        }
        return Math.max(1, Math.min(STEP_MAX, step));
    }

    /**
     * geohashCalculateAreasByShapeWGS84: the nine cells (centre, N, S, E, W, NE, NW, SE, SW) that
     * cover a search around a centre whose half-height and half-width are given in meters, with
     * {@code radiusMeters} the distance to its farthest point; cells wholly outside the bounding
     * box are {@link Cell#NONE}.
     */
    static Cell[] searchCells(double longitude, double latitude, double halfWidthMeters, double halfHeightMeters,
                              double radiusMeters) {
        double latitudeDelta = radiansToDegrees(halfHeightMeters / EARTH_RADIUS_IN_METERS);
        double longitudeDeltaTop = radiansToDegrees(halfWidthMeters / EARTH_RADIUS_IN_METERS
            / Math.cos(degreesToRadians(latitude + latitudeDelta)));
        double longitudeDeltaBottom = radiansToDegrees(halfWidthMeters / EARTH_RADIUS_IN_METERS
            / Math.cos(degreesToRadians(latitude - latitudeDelta)));
        boolean southern = latitude < 0;
        double minLongitude = southern ? longitude - longitudeDeltaBottom : longitude - longitudeDeltaTop;
        double maxLongitude = southern ? longitude + longitudeDeltaBottom : longitude + longitudeDeltaTop;
        double minLatitude = latitude - latitudeDelta;
        double maxLatitude = latitude + latitudeDelta;

        int steps = estimateSteps(radiusMeters, latitude);
        Cell centre = new Cell(encode(LONGITUDE_MIN, LONGITUDE_MAX, LATITUDE_MIN, LATITUDE_MAX, longitude, latitude,
            steps), steps);
        Cell[] cells = withNeighbours(centre);
        Area north = decode(cells[1]);
        Area south = decode(cells[2]);
        Area east = decode(cells[3]);
        Area west = decode(cells[4]);
        boolean decreaseStep = north.latitudeMax() < maxLatitude || south.latitudeMin() > minLatitude
            || east.longitudeMax() < maxLongitude || west.longitudeMin() > minLongitude;
        if (steps > 1 && decreaseStep) {
            steps--;
            centre = new Cell(encode(LONGITUDE_MIN, LONGITUDE_MAX, LATITUDE_MIN, LATITUDE_MAX, longitude, latitude,
                steps), steps);
            cells = withNeighbours(centre);
        }
        if (steps >= 2) {
            Area area = decode(centre);
            if (area.latitudeMin() < minLatitude) {
                cells[2] = cells[7] = cells[8] = Cell.NONE;
            }
            if (area.latitudeMax() > maxLatitude) {
                cells[1] = cells[5] = cells[6] = Cell.NONE;
            }
            if (area.longitudeMin() < minLongitude) {
                cells[4] = cells[8] = cells[6] = Cell.NONE;
            }
            if (area.longitudeMax() > maxLongitude) {
                cells[3] = cells[7] = cells[5] = Cell.NONE;
            }
        }
        return cells;
    }

    /** The cell and its neighbours, in membersOfAllNeighbors' order: centre, N, S, E, W, NE, NW, SE, SW. */
    private static Cell[] withNeighbours(Cell centre) {
        return new Cell[] {
            centre,
            neighbour(centre, 0, 1),
            neighbour(centre, 0, -1),
            neighbour(centre, 1, 0),
            neighbour(centre, -1, 0),
            neighbour(centre, 1, 1),
            neighbour(centre, -1, 1),
            neighbour(centre, 1, -1),
            neighbour(centre, -1, -1),
        };
    }

    // ---- distances --------------------------------------------------------------------------

    private static double degreesToRadians(double degrees) {
        return degrees * DEGREES_TO_RADIANS;
    }

    private static double radiansToDegrees(double radians) {
        return radians / DEGREES_TO_RADIANS;
    }

    /** geohashGetDistance: the haversine great-circle distance in meters. */
    static double distance(double longitude1, double latitude1, double longitude2, double latitude2) {
        double latitude1Radians = degreesToRadians(latitude1);
        double longitude1Radians = degreesToRadians(longitude1);
        double latitude2Radians = degreesToRadians(latitude2);
        double longitude2Radians = degreesToRadians(longitude2);
        double u = Math.sin((latitude2Radians - latitude1Radians) / 2);
        double v = Math.sin((longitude2Radians - longitude1Radians) / 2);
        return 2.0 * EARTH_RADIUS_IN_METERS
            * Math.asin(Math.sqrt(u * u + Math.cos(latitude1Radians) * Math.cos(latitude2Radians) * v * v));
    }
}
