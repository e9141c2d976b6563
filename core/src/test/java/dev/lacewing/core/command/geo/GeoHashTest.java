package dev.lacewing.core.command.geo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The geohash arithmetic and the number formats against values redis-server 7.0.15 printed. */
class GeoHashTest {

    @Test
    void scoresAreRedisFiftyTwoBitGeohashes() {
        assertEquals(3479099956230698L, GeoHash.score(13.361389, 38.115556));
        assertEquals(3479447370796909L, GeoHash.score(15.087269, 37.502669));
    }

    @Test
    void positionsDecodeToTheCellCentrePrintedWithSeventeenDecimals() {
        double[] palermo = GeoHash.position(3479099956230698L);
        assertEquals("13.36138933897018433", GeoCommands.human(palermo[0]));
        assertEquals("38.11555639549629859", GeoCommands.human(palermo[1]));
    }

    @Test
    void distancesAreRedisHaversine() {
        double[] a = GeoHash.position(3479099956230698L);
        double[] b = GeoHash.position(3479447370796909L);
        assertEquals("166274.1516", GeoCommands.fixed(GeoHash.distance(a[0], a[1], b[0], b[1]), 4));
    }

    @Test
    void fixedPrintsTheExactValueWithCSigns() {
        assertEquals("-0.000000", GeoCommands.fixed(-0.0000001, 6));
        assertEquals("200.000000", GeoCommands.fixed(200, 6));
        assertEquals("inf", GeoCommands.fixed(Double.POSITIVE_INFINITY, 6));
        assertEquals("1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160.000000",
            GeoCommands.fixed(1e300, 6));
    }

    @Test
    void humanDropsTrailingZerosAndTheSignOfZero() {
        assertEquals("0", GeoCommands.human(-0.0));
        assertEquals("180", GeoCommands.human(180));
        assertEquals("-1.5", GeoCommands.human(-1.5));
    }

    @Test
    void scoresConvertToSixtyFourBitsAsGccDoes() {
        assertEquals(-1L, GeoHash.toUnsigned64(-1));
        assertEquals(Long.MIN_VALUE, GeoHash.toUnsigned64(Double.NEGATIVE_INFINITY));
        assertEquals(0L, GeoHash.toUnsigned64(Double.POSITIVE_INFINITY));
        assertEquals(Long.MIN_VALUE, GeoHash.toUnsigned64(0x1p63));
        assertArrayEquals(new double[] {180, 85.05112878}, GeoHash.position(-1));
    }
}
