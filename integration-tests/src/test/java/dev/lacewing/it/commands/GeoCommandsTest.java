package dev.lacewing.it.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lacewing.it.resp.RespClient;
import dev.lacewing.it.server.Servers;
import dev.lacewing.it.server.Target;
import io.lettuce.core.GeoAddArgs;
import io.lettuce.core.GeoArgs;
import io.lettuce.core.GeoCoordinates;
import io.lettuce.core.GeoRadiusStoreArgs;
import io.lettuce.core.GeoSearch;
import io.lettuce.core.GeoValue;
import io.lettuce.core.GeoWithin;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.Value;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The geo family through lettuce (RESP3) and raw RESP (RESP2 errors) on every engine and
 * transport: positions, distances and geohashes, every search form and option, the store forms
 * into a key of another shard, and a search over a large set (the sorted set's large form) that
 * finds exactly the points a brute-force haversine finds. Loops are bounded.
 */
class GeoCommandsTest {

    private static final double EARTH_RADIUS_IN_METERS = 6372797.560856;

    /** A key with its own hash tag, so that keys of different tags spread over the shards. */
    private static String key(Target target, String tag, String name) {
        return "{" + tag + "}geo:" + target + ":" + name;
    }

    private static void addSicily(RedisCommands<String, String> redis, String key) {
        redis.geoadd(key, GeoValue.just(13.361389, 38.115556, "Palermo"), GeoValue.just(15.087269, 37.502669, "Catania"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void positionsDistancesAndHashesAreRedisOnes(Target target) {
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> redis = connection.sync();
            String g = key(target, "a", "sicily");
            addSicily(redis, g);
            assertEquals(3479099956230698.0, redis.zscore(g, "Palermo"));
            assertEquals(166274.1516, redis.geodist(g, "Palermo", "Catania", GeoArgs.Unit.m));
            assertEquals(166.2742, redis.geodist(g, "Palermo", "Catania", GeoArgs.Unit.km));
            assertEquals(103.3182, redis.geodist(g, "Palermo", "Catania", GeoArgs.Unit.mi));
            assertNull(redis.geodist(g, "Palermo", "nowhere", GeoArgs.Unit.m));
            List<Value<String>> hashes = redis.geohash(g, "Palermo", "Catania", "nowhere");
            assertEquals("sqc8b49rny0", hashes.get(0).getValue());
            assertEquals("sqdtr74hyu0", hashes.get(1).getValue());
            assertTrue(hashes.get(2).isEmpty());
            List<GeoCoordinates> positions = redis.geopos(g, "Palermo", "nowhere");
            assertEquals(13.36138933897018433, positions.get(0).getX().doubleValue());
            assertEquals(38.11555639549629859, positions.get(0).getY().doubleValue());
            assertNull(positions.get(1));
            redis.set(key(target, "a", "string"), "x");
            assertThrows(RedisCommandExecutionException.class, () -> redis.geopos(key(target, "a", "string"), "a"));
            redis.del(g, key(target, "a", "string"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void geoaddTakesNxXxAndCh(Target target) {
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> redis = connection.sync();
            String g = key(target, "a", "options");
            assertEquals(2L, redis.geoadd(g, 1.0, 1.0, "a", 2.0, 2.0, "b"));
            assertEquals(0L, redis.geoadd(g, GeoAddArgs.Builder.nx(), 5.0, 5.0, "a"));
            assertEquals(0L, redis.geoadd(g, GeoAddArgs.Builder.xx(), 5.0, 5.0, "c"));
            assertEquals(1L, redis.geoadd(g, GeoAddArgs.Builder.xx().ch(), 5.0, 5.0, "a"));
            assertEquals(2L, redis.zcard(g));
            assertEquals(0L, redis.geoadd(key(target, "a", "none"), GeoAddArgs.Builder.xx(), 1.0, 1.0, "a"));
            assertEquals(0L, redis.exists(key(target, "a", "none")));
            redis.del(g);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void searchesFindSortCountAndDescribe(Target target) {
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> redis = connection.sync();
            String g = key(target, "a", "search");
            addSicily(redis, g);
            assertEquals(Set.of("Palermo", "Catania"), redis.georadius(g, 15, 37, 200, GeoArgs.Unit.km));
            List<GeoWithin<String>> nearest = redis.georadius(g, 15, 37, 200, GeoArgs.Unit.km,
                GeoArgs.Builder.distance().withCoordinates().withHash().withCount(1).asc());
            assertEquals(1, nearest.size());
            assertEquals("Catania", nearest.get(0).getMember());
            assertEquals(56.4413, nearest.get(0).getDistance());
            assertEquals(3479447370796909L, nearest.get(0).getGeohash());
            assertEquals(15.08726745843887329, nearest.get(0).getCoordinates().getX().doubleValue());
            List<GeoWithin<String>> byMember = redis.georadiusbymember(g, "Palermo", 200, GeoArgs.Unit.km,
                GeoArgs.Builder.distance().desc());
            assertEquals("Catania", byMember.get(0).getMember());
            assertEquals(166.2742, byMember.get(0).getDistance());
            assertEquals(Set.of("Palermo", "Catania"), redis.geosearch(g, GeoSearch.fromCoordinates(15, 37),
                GeoSearch.byBox(400, 400, GeoArgs.Unit.km)));
            assertEquals(Set.of("Catania"), redis.geosearch(g, GeoSearch.fromMember("Catania"),
                GeoSearch.byRadius(100, GeoArgs.Unit.km)));
            List<GeoWithin<String>> any = redis.geosearch(g, GeoSearch.fromCoordinates(15, 37),
                GeoSearch.byRadius(200, GeoArgs.Unit.km), new GeoArgs().withCount(1, true));
            assertEquals(1, any.size());
            assertTrue(redis.geosearch(key(target, "a", "missing"), GeoSearch.fromCoordinates(15, 37),
                GeoSearch.byRadius(200, GeoArgs.Unit.km)).isEmpty());
            redis.del(g);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void storeFormsWriteAKeyOfAnotherShard(Target target) {
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> redis = connection.sync();
            String g = key(target, "a", "source");
            String stored = key(target, "b", "stored");
            String distances = key(target, "c", "distances");
            addSicily(redis, g);
            assertEquals(2L, redis.georadius(g, 15, 37, 200, GeoArgs.Unit.km,
                GeoRadiusStoreArgs.Builder.store(stored)));
            assertEquals(3479099956230698.0, redis.zscore(stored, "Palermo"));
            assertEquals(1L, redis.geosearchstore(distances, g, GeoSearch.fromCoordinates(15, 37),
                GeoSearch.byRadius(200, GeoArgs.Unit.km), GeoArgs.Builder.count(1).asc(), true));
            assertEquals(56.4413, Math.round(redis.zscore(distances, "Catania") * 1e4) / 1e4);
            assertEquals(1L, redis.georadiusbymember(g, "Palermo", 10, GeoArgs.Unit.km,
                GeoRadiusStoreArgs.Builder.withStoreDist(distances)));
            assertEquals(0.0, redis.zscore(distances, "Palermo"));
            assertEquals(0L, redis.georadius(g, 0, 0, 1, GeoArgs.Unit.m, GeoRadiusStoreArgs.Builder.store(stored)));
            assertEquals(0L, redis.exists(stored));
            redis.del(g, distances);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void aSearchOverALargeSetFindsWhatBruteForceFinds(Target target) {
        try (StatefulRedisConnection<String, String> connection = Servers.client(target).connect()) {
            RedisCommands<String, String> redis = connection.sync();
            String g = key(target, "a", "large");
            Random random = new Random(19);
            List<double[]> points = new ArrayList<>();
            List<GeoValue<String>> values = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                double longitude = 9 + random.nextDouble() * 4;
                double latitude = 44 + random.nextDouble() * 3;
                values.add(GeoValue.just(longitude, latitude, "p" + i));
            }
            redis.geoadd(g, values.toArray(GeoValue[]::new));
            for (int i = 0; i < 2000; i++) {
                List<GeoCoordinates> position = redis.geopos(g, "p" + i);
                points.add(new double[] {position.get(0).getX().doubleValue(), position.get(0).getY().doubleValue()});
            }
            for (double radiusKm : new double[] {1, 20, 75, 150}) {
                double centreLongitude = 11;
                double centreLatitude = 45.5;
                Set<String> expected = new TreeSet<>();
                Set<String> boundary = new TreeSet<>();
                for (int i = 0; i < points.size(); i++) {
                    double distance = haversine(centreLongitude, centreLatitude, points.get(i)[0], points.get(i)[1]);
                    if (Math.abs(distance - radiusKm * 1000) < 1) {
                        boundary.add("p" + i);
                    } else if (distance < radiusKm * 1000) {
                        expected.add("p" + i);
                    }
                }
                Set<String> found = new TreeSet<>(redis.georadius(g, centreLongitude, centreLatitude, radiusKm,
                    GeoArgs.Unit.km));
                found.removeAll(boundary);
                assertEquals(expected, found, "radius " + radiusKm + " km");
            }
            redis.del(g);
        }
    }

    private static double haversine(double longitude1, double latitude1, double longitude2, double latitude2) {
        double u = Math.sin(Math.toRadians(latitude2 - latitude1) / 2);
        double v = Math.sin(Math.toRadians(longitude2 - longitude1) / 2);
        return 2 * EARTH_RADIUS_IN_METERS * Math.asin(Math.sqrt(u * u
            + Math.cos(Math.toRadians(latitude1)) * Math.cos(Math.toRadians(latitude2)) * v * v));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.lacewing.it.server.Servers#all")
    void badInputGetsRedisErrors(Target target) {
        try (RespClient client = RespClient.connect(Servers.server(target).port())) {
            String g = key(target, "a", "errors");
            assertEquals(":1\r\n", client.call("GEOADD", g, "1", "1", "a"));
            assertEquals("-ERR invalid longitude,latitude pair 200.000000,100.000000\r\n",
                client.call("GEOADD", g, "200", "100", "b"));
            assertEquals("-ERR invalid longitude,latitude pair -0.000000,86.000000\r\n",
                client.call("GEOADD", g, "-0.0000001", "86", "b"));
            assertEquals("-ERR syntax error\r\n", client.call("GEOADD", g, "NX", "XX", "1", "1", "a"));
            assertEquals("-ERR value is not a valid float\r\n", client.call("GEOADD", g, "x", "1", "a"));
            assertEquals("-ERR wrong number of arguments for 'geoadd' command\r\n", client.call("GEOADD", g, "1", "1"));
            assertEquals("-ERR unsupported unit provided. please use M, KM, FT, MI\r\n",
                client.call("GEODIST", g, "a", "a", "yd"));
            assertEquals("-ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for geoSearch\r\n",
                client.call("geoSearch", g, "BYRADIUS", "1", "km", "ASC", "WITHDIST"));
            assertEquals("-ERR exactly one of BYRADIUS and BYBOX can be specified for GEOSEARCH\r\n",
                client.call("GEOSEARCH", g, "FROMMEMBER", "a", "ASC", "WITHDIST", "WITHHASH"));
            assertEquals("-ERR the ANY argument requires COUNT argument\r\n",
                client.call("GEOSEARCH", g, "FROMMEMBER", "a", "BYRADIUS", "1", "km", "ANY"));
            assertEquals("-ERR COUNT must be > 0\r\n", client.call("GEORADIUS", g, "0", "0", "1", "km", "COUNT", "0"));
            assertEquals("-ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options\r\n",
                client.call("GEORADIUS", g, "0", "0", "1", "km", "STORE", "x", "WITHDIST"));
            assertEquals("-ERR syntax error\r\n", client.call("GEORADIUS_RO", g, "0", "0", "1", "km", "STORE", "x"));
            assertEquals("-ERR could not decode requested zset member\r\n",
                client.call("GEORADIUSBYMEMBER", g, "nobody", "1", "km"));
            assertEquals("-ERR radius cannot be negative\r\n", client.call("GEORADIUS", g, "0", "0", "-1", "km"));
            assertEquals("-ERR need numeric radius\r\n", client.call("GEORADIUS", g, "0", "0", "r", "km"));
            assertEquals("-ERR height or width cannot be negative\r\n",
                client.call("GEOSEARCH", g, "FROMMEMBER", "a", "BYBOX", "1", "-1", "km"));
            client.call("SET", key(target, "a", "string"), "x");
            assertEquals("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n",
                client.call("GEORADIUS", key(target, "a", "string"), "500", "0", "1", "km"));
            client.call("DEL", g, key(target, "a", "string"));
        }
    }
}
