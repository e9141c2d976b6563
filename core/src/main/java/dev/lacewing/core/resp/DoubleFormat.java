package dev.lacewing.core.resp;

import java.math.BigDecimal;

/**
 * Doubles as Redis replies them: {@code inf}, {@code -inf}, {@code nan}, integral values without
 * a fraction, others in the shortest form that reads back to the same double (as Redis 7.2's
 * fpconv does), in %g's layout: an exponent (at least two digits) when the decimal exponent is
 * below -4 or at least 17, plain digits otherwise.
 */
public final class DoubleFormat {

    private DoubleFormat() {
    }

    public static String reply(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e17) {
            return Long.toString((long) value);
        }
        // Java's Double.toString gives the shortest round-trip digits; re-lay them without E.
        BigDecimal shortest = new BigDecimal(Double.toString(value)).stripTrailingZeros();
        int exponent = shortest.precision() - shortest.scale() - 1;
        if (exponent < -4 || exponent >= 17) {
            String digits = shortest.unscaledValue().abs().toString();
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            String sign = value < 0 ? "-" : "";
            String expSign = exponent < 0 ? "-" : "+";
            int magnitude = Math.abs(exponent);
            return sign + mantissa + "e" + expSign + (magnitude < 10 ? "0" : "") + magnitude;
        }
        return shortest.toPlainString();
    }
}
