package dev.lacewing.it.reference;

import dev.lacewing.it.server.Target;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The geo family byte for byte against Debian's redis-server 7.0, in RESP2 and RESP3: scores,
 * decoded coordinates (17 decimals), distances (4 decimals), geohash strings, the order of
 * unsorted and sorted search results (ties included), COUNT ANY's early stop, the store forms,
 * and every error in the order Redis checks them. Positions cover the limits (the poles' cut at
 * 85.05112878, the antimeridian), zero and huge radii, and sets in both encodings (the random set
 * has more members than zset-max-listpack-entries).
 */
class GeoReferenceTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    @RegisterExtension
    static final ReferenceRedisExtension redis = new ReferenceRedisExtension();

    static final List<String[]> SCRIPTS = List.of(
        new String[] {"positions-hashes-distances", """
            GEOADD {p}g 13.361389 38.115556 Palermo 15.087269 37.502669 Catania
            ZSCORE {p}g Palermo
            GEOPOS {p}g Palermo Catania missing
            GEOHASH {p}g Palermo Catania missing
            GEODIST {p}g Palermo Catania
            GEODIST {p}g Palermo Catania km
            GEODIST {p}g Palermo Catania KM
            GEODIST {p}g Palermo Catania mi
            GEODIST {p}g Palermo Catania ft
            GEODIST {p}g Palermo Catania m
            GEODIST {p}g Palermo Palermo
            GEODIST {p}g Palermo missing
            GEODIST {p}missing a b
            GEODIST {p}g Palermo Catania yards
            GEODIST {p}g Palermo Catania km extra
            GEODIST {p}missing a b parsec
            GEOPOS {p}missing a b
            GEOHASH {p}missing a
            GEOPOS {p}g
            GEOHASH {p}g
            HELLO 3
            GEOPOS {p}g Palermo missing
            GEOHASH {p}g Palermo missing
            GEODIST {p}g Palermo Catania
            GEODIST {p}g Palermo missing
            GEODIST {p}missing a b
            HELLO 2
            """},
        new String[] {"geoadd-options-and-errors", """
            GEOADD {p}g 1 1 a 2 2 b
            GEOADD {p}g 1 1 a 3 3 c
            GEOADD {p}g CH 1.5 1 a 4 4 d
            GEOADD {p}g NX 9 9 a 5 5 e
            GEOADD {p}g XX 9 9 a 6 6 f
            GEOADD {p}g XX CH 10 10 a
            GEOADD {p}g CH XX NX 1 1 a
            GEOADD {p}g NX XX 1 1 a
            GEOADD {p}g GT 1 1 a
            GEOADD {p}g 1 1
            GEOADD {p}g 1 1 a 2
            GEOADD {p}g CH NX XX
            GEOADD {p}g NX CH x
            GEOADD {p}g 1 1 same 2 2 same
            GEOADD {p}new XX 1 1 a
            EXISTS {p}new
            GEOADD {p}g 181 0 a
            GEOADD {p}g -180.0000001 0 a
            GEOADD {p}g 0 85.05112879 a
            GEOADD {p}g 0 -85.05112879 a
            GEOADD {p}g 200 100 a
            GEOADD {p}g -0.0000001 86 a
            GEOADD {p}g 1e300 1 a
            GEOADD {p}g inf 0 a
            GEOADD {p}g -inf 0 a
            GEOADD {p}g nan 0 a
            GEOADD {p}g abc 0 a
            GEOADD {p}g 0 "" a
            GEOADD {p}g " 1" 0 a
            GEOADD {p}g 1 1 ok 500 0 bad
            ZRANGE {p}g 0 -1 WITHSCORES
            SET {p}s x
            GEOADD {p}s 1 1 a
            GEOADD {p}s 500 1 a
            GEOPOS {p}s a
            GEOHASH {p}s a
            GEODIST {p}s a b
            GEODIST {p}s a b yards
            GEORADIUS {p}s 0 0 1 km
            GEOSEARCH {p}s FROMLONLAT 0 0 BYRADIUS 1 km
            GEOSEARCHSTORE {p}d {p}s FROMLONLAT 0 0 BYRADIUS 1 km
            GEOSEARCHSTORE {p}s {p}g FROMLONLAT 0 0 BYRADIUS 20000 km
            TYPE {p}s
            OBJECT ENCODING {p}g
            """},
        new String[] {"limits-poles-antimeridian", """
            GEOADD {p}g 180 85.05112878 ne -180 85.05112878 nw 180 -85.05112878 se -180 -85.05112878 sw
            GEOADD {p}g 0 0 origin -0 -0 negzero 179.9999999 0 east -179.9999999 0 west 0.0000001 0.0000001 tiny
            GEOADD {p}g 180 0 am 0 85.05112878 top 0 -85.05112878 bottom
            ZRANGE {p}g 0 -1 WITHSCORES
            GEOPOS {p}g ne nw se sw origin negzero east west tiny am top bottom
            GEOHASH {p}g ne nw se sw origin negzero east west tiny am top bottom
            GEODIST {p}g east west
            GEODIST {p}g ne sw km
            GEODIST {p}g top bottom km
            GEODIST {p}g origin am
            GEODIST {p}g origin negzero
            GEORADIUS {p}g 180 0 100 km WITHDIST WITHCOORD
            GEORADIUS {p}g -180 0 100 km WITHDIST ASC
            GEORADIUS {p}g 0 85 500 km WITHDIST WITHHASH
            GEORADIUS {p}g 0 -85.05112878 1000 km WITHDIST DESC
            GEORADIUS {p}g 0 0 0 m WITHDIST
            GEORADIUS {p}g 0 0 0 km
            GEORADIUSBYMEMBER {p}g origin 0 m WITHDIST
            GEORADIUS {p}g 0 0 20000 km WITHDIST
            GEORADIUS {p}g 0 0 100000 km WITHDIST ASC
            GEORADIUS {p}g 0 0 inf km
            GEORADIUS {p}g 0 0 1e300 m COUNT 3
            GEOSEARCH {p}g FROMLONLAT 180 0 BYBOX 400 400 km WITHDIST
            GEOSEARCH {p}g FROMLONLAT 0 0 BYBOX 40000 40000 km WITHCOORD
            GEOSEARCH {p}g FROMLONLAT 0 0 BYBOX 0 0 m WITHDIST
            GEOSEARCH {p}g FROMMEMBER ne BYRADIUS 5000 km DESC WITHDIST
            GEOSEARCH {p}g FROMMEMBER am BYBOX 100 100 km
            HELLO 3
            GEORADIUS {p}g 180 0 100 km WITHDIST WITHCOORD WITHHASH
            GEOPOS {p}g ne negzero tiny
            HELLO 2
            """},
        new String[] {"search-options", """
            GEOADD {p}g 13.361389 38.115556 Palermo 15.087269 37.502669 Catania 12.758489 38.788135 edge1 17.241510 38.788135 edge2
            GEOADD {p}g 13.5 38 dup1 13.5 38 dup2 13.5 38 dup0 14 37 x 14 37 y
            GEORADIUS {p}g 15 37 200 km
            GEORADIUS {p}g 15 37 200 km ASC
            GEORADIUS {p}g 15 37 200 km DESC
            GEORADIUS {p}g 15 37 200 km WITHDIST WITHCOORD WITHHASH
            GEORADIUS {p}g 15 37 200 km withhash withdist
            GEORADIUS {p}g 15 37 200 km COUNT 2
            GEORADIUS {p}g 15 37 200 km COUNT 2 DESC
            GEORADIUS {p}g 15 37 200 km COUNT 3 ASC WITHDIST
            GEORADIUS {p}g 15 37 200 km COUNT 1 ANY
            GEORADIUS {p}g 15 37 200 km COUNT 3 ANY WITHDIST
            GEORADIUS {p}g 15 37 200 km COUNT 3 ANY DESC
            GEORADIUS {p}g 15 37 200 km COUNT 100
            GEORADIUS {p}g 15 37 200 km ANY
            GEORADIUS {p}g 15 37 200 km COUNT 0
            GEORADIUS {p}g 15 37 200 km COUNT -1
            GEORADIUS {p}g 15 37 200 km COUNT x
            GEORADIUS {p}g 15 37 200 km COUNT
            GEORADIUS {p}g 15 37 200 km junk
            GEORADIUS {p}g 15 37 -1 km
            GEORADIUS {p}g 15 37 x km
            GEORADIUS {p}g 15 37 200 parsec
            GEORADIUS {p}g 15 x 200 km
            GEORADIUS {p}g 500 37 200 km
            GEORADIUS {p}missing 15 37 200 km
            GEORADIUS {p}missing 500 37 200 km
            GEORADIUS {p}missing 15 37 200 km STORE {p}d
            GEORADIUS {p}g 15 37 200 km STORE {p}d
            ZRANGE {p}d 0 -1 WITHSCORES
            GEORADIUS {p}g 15 37 200 km STOREDIST {p}d2 COUNT 2
            ZRANGE {p}d2 0 -1
            GEORADIUS {p}g 15 37 200 km STORE {p}d WITHDIST
            GEORADIUS {p}g 15 37 1 m STORE {p}d
            EXISTS {p}d
            GEORADIUS {p}missing 15 37 200 km STORE {p}d2
            EXISTS {p}d2
            GEORADIUS {p}g 15 37 200 km STORE
            GEORADIUS_RO {p}g 15 37 200 km STORE {p}d
            GEORADIUS_RO {p}g 15 37 200 km WITHDIST COUNT 2
            GEORADIUSBYMEMBER {p}g Palermo 200 km WITHDIST
            GEORADIUSBYMEMBER {p}g dup1 0 km WITHDIST
            GEORADIUSBYMEMBER {p}g nobody 200 km
            GEORADIUSBYMEMBER {p}missing nobody x y
            GEORADIUSBYMEMBER {p}missing nobody x y junk
            GEORADIUSBYMEMBER {p}missing nobody x y STORE {p}d
            GEORADIUSBYMEMBER {p}g Palermo 200 km STORE {p}d STOREDIST {p}d3
            ZRANGE {p}d3 0 -1
            GEORADIUSBYMEMBER_RO {p}g Palermo 200 km ASC COUNT 2
            GEORADIUSBYMEMBER_RO {p}g Palermo 200 km STOREDIST {p}d
            GEOSEARCH {p}g FROMMEMBER Palermo BYRADIUS 200 km ASC WITHDIST
            GEOSEARCH {p}g FROMLONLAT 15 37 BYBOX 400 400 km ASC WITHCOORD WITHDIST
            GEOSEARCH {p}g FROMLONLAT 15 37 BYBOX 200 200 km
            GEOSEARCH {p}g FROMLONLAT 15 37 BYBOX 200 200 km COUNT 2 ANY
            GEOSEARCH {p}g FROMLONLAT 15 37 BYRADIUS 200 km FROMMEMBER Palermo
            GEOSEARCH {p}g FROMMEMBER Palermo FROMLONLAT 15 37 BYRADIUS 200 km
            GEOSEARCH {p}g FROMMEMBER Palermo FROMMEMBER Catania BYRADIUS 200 km WITHDIST
            GEOSEARCH {p}g FROMMEMBER Palermo BYRADIUS 200 km BYBOX 1 1 km
            GEOSEARCH {p}g FROMMEMBER Palermo BYBOX 1 1 km BYRADIUS 200 km
            GEOSEARCH {p}g FROMMEMBER Palermo BYRADIUS 1 km BYRADIUS 200 km
            GEOSEARCH {p}g FROMMEMBER nobody BYRADIUS 200 km
            GEOSEARCH {p}g BYRADIUS 200 km ASC
            geosearch {p}g BYRADIUS 200 km ASC
            GeoSearch {p}g FROMMEMBER Palermo ASC COUNT 1
            GEOSEARCH {p}g FROMMEMBER Palermo BYRADIUS 200 km ANY
            GEOSEARCH {p}g FROMMEMBER Palermo BYBOX -1 1 km
            GEOSEARCH {p}g FROMMEMBER Palermo BYBOX 1 -1 km
            GEOSEARCH {p}g FROMMEMBER Palermo BYBOX x 1 km
            GEOSEARCH {p}g FROMMEMBER Palermo BYBOX 1 x km
            GEOSEARCH {p}g FROMMEMBER Palermo BYBOX 1 1 parsec
            GEOSEARCH {p}g FROMMEMBER Palermo BYBOX 1 1
            GEOSEARCH {p}g FROMMEMBER Palermo BYRADIUS 1 km STORE {p}d
            GEOSEARCH {p}g FROMMEMBER Palermo BYRADIUS 1 km STOREDIST
            GEOSEARCH {p}missing FROMMEMBER nobody BYRADIUS 1 km
            GEOSEARCH {p}missing FROMMEMBER nobody BYRADIUS x km
            GEOSEARCH {p}missing FROMLONLAT 500 0 BYRADIUS 1 km
            GEOSEARCHSTORE {p}d {p}g FROMLONLAT 15 37 BYRADIUS 200 km
            ZRANGE {p}d 0 -1 WITHSCORES
            GEOSEARCHSTORE {p}d {p}g FROMLONLAT 15 37 BYRADIUS 200 km STOREDIST COUNT 3 DESC
            ZRANGE {p}d 0 -1
            GEOSEARCHSTORE {p}d {p}g FROMLONLAT 15 37 BYRADIUS 200 km WITHDIST
            GEOSEARCHSTORE {p}d {p}g FROMLONLAT 15 37 BYRADIUS 200 km WITHCOORD STOREDIST
            GEOSEARCHSTORE {p}d {p}g FROMLONLAT 15 37 BYRADIUS 200 km STORE {p}x
            GEOSEARCHSTORE {p}d {p}missing FROMLONLAT 15 37 BYRADIUS 200 km
            EXISTS {p}d
            GEOSEARCHSTORE {p}g {p}g FROMLONLAT 15 37 BYRADIUS 100 km
            ZRANGE {p}g 0 -1
            HELLO 3
            GEORADIUS {p}g 15 37 200 km WITHDIST WITHCOORD WITHHASH
            GEOSEARCH {p}g FROMLONLAT 15 37 BYRADIUS 200 km
            GEOSEARCH {p}missing FROMLONLAT 15 37 BYRADIUS 200 km
            HELLO 2
            """},
        new String[] {"any-sorted-set", """
            ZADD {p}z -1 neg 0 zero 1 one 9007199254740992 big 1e300 huge inf top -inf bottom 3.5 frac
            GEOPOS {p}z neg zero one big huge top bottom frac
            GEOHASH {p}z neg zero one big huge top bottom frac
            GEODIST {p}z zero one
            GEODIST {p}z neg top km
            GEORADIUS {p}z 0 0 20000 km WITHDIST WITHHASH
            GEORADIUS {p}z -180 -85 100 km WITHCOORD
            """},
        new String[] {"command-table", """
            COMMAND INFO GEOADD GEODIST GEOHASH GEOPOS GEORADIUS GEORADIUS_RO GEORADIUSBYMEMBER GEORADIUSBYMEMBER_RO
            COMMAND INFO GEOSEARCH GEOSEARCHSTORE
            COMMAND DOCS GEOSEARCH
            COMMAND DOCS GEORADIUS
            COMMAND GETKEYS GEORADIUS {p}k 0 0 1 km
            COMMAND GETKEYS GEORADIUS {p}k 0 0 1 km STORE {p}d
            COMMAND GETKEYS GEORADIUSBYMEMBER {p}k m 1 km STOREDIST {p}d
            COMMAND GETKEYS GEOSEARCHSTORE {p}d {p}k FROMMEMBER m BYRADIUS 1 km
            COMMAND GETKEYS GEOADD {p}k 1 1 m
            """},
        new String[] {"random-set-both-encodings", randomSet(80)},
        new String[] {"random-large-set", randomSet(400)});

    /**
     * A seeded set of {@code members} points, clustered and spread, with duplicates, then searches
     * of every form around points of the set and around random centres, in both protocols.
     */
    private static String randomSet(int members) {
        Random random = new Random(members);
        StringBuilder script = new StringBuilder();
        String[] centres = new String[12];
        for (int i = 0; i < members; i++) {
            double longitude = i % 3 == 0 ? 10 + random.nextDouble() : random.nextDouble() * 360 - 180;
            double latitude = i % 3 == 0 ? 45 + random.nextDouble() : random.nextDouble() * 170 - 85;
            String position = String.format(Locale.ROOT, "%.6f %.6f", longitude, latitude);
            if (i % 17 == 0 && i > 0) {
                position = centres[(i / 17) % centres.length];
            }
            if (i < centres.length) {
                centres[i] = position;
            }
            script.append("GEOADD {p}r ").append(position).append(" m").append(i).append('\n');
        }
        script.append("OBJECT ENCODING {p}r\n");
        String[] units = {"m", "km", "mi", "ft"};
        for (int i = 0; i < 40; i++) {
            String centre = i % 2 == 0 ? centres[i % centres.length]
                : String.format(Locale.ROOT, "%.6f %.6f", random.nextDouble() * 360 - 180, random.nextDouble() * 170 - 85);
            String unit = units[i % units.length];
            double meters = Math.pow(10, 1 + random.nextDouble() * 6);
            double radius = switch (unit) {
                case "km" -> meters / 1000;
                case "mi" -> meters / 1609.34;
                case "ft" -> meters / 0.3048;
                default -> meters;
            };
            String size = String.format(Locale.ROOT, "%.3f", radius);
            String order = i % 3 == 0 ? "" : i % 3 == 1 ? " ASC" : " DESC";
            String count = i % 4 == 0 ? " COUNT " + (1 + i % 5) : i % 4 == 1 ? " COUNT " + (1 + i % 3) + " ANY" : "";
            script.append("GEORADIUS {p}r ").append(centre).append(' ').append(size).append(' ').append(unit)
                .append(order).append(count).append(" WITHDIST WITHHASH WITHCOORD\n");
            script.append("GEOSEARCH {p}r FROMLONLAT ").append(centre).append(" BYBOX ").append(size).append(' ')
                .append(String.format(Locale.ROOT, "%.3f", radius / 2)).append(' ').append(unit).append(order)
                .append(count).append(" WITHDIST\n");
            script.append("GEORADIUSBYMEMBER {p}r m").append(i).append(' ').append(size).append(' ').append(unit)
                .append(order).append(count).append(" WITHDIST\n");
            script.append("GEOSEARCHSTORE {p}s {p}r FROMMEMBER m").append(i + 1).append(" BYRADIUS ").append(size)
                .append(' ').append(unit).append(order).append(count).append(" STOREDIST\n");
            script.append("ZRANGE {p}s 0 -1\n");
            script.append("GEODIST {p}r m").append(i).append(" m").append(members - 1 - i).append(' ').append(unit)
                .append('\n');
            if (i == 20) {
                script.append("HELLO 3\n");
            }
        }
        script.append("GEOPOS {p}r");
        for (int i = 0; i < members; i += 7) {
            script.append(" m").append(i);
        }
        script.append("\nGEOHASH {p}r");
        for (int i = 0; i < members; i += 5) {
            script.append(" m").append(i);
        }
        script.append("\nHELLO 2\n");
        return script.toString();
    }

    static Stream<Arguments> scripts() {
        return ScriptComparison.onEveryTarget(SCRIPTS);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void repliesAsRedisDoes(Target target, String name, String text) {
        Script script = Script.parse(name, text, "georef" + RUNS.incrementAndGet() + ":");
        ScriptComparison.assertSameReplies(script, redis.port(), target);
    }
}
