package dev.lacewing.script.lua.lib;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * C's printf {@code %.Ng} for doubles, as glibc prints it: the exact binary value rounded to N
 * significant digits (ties to even), fixed notation when the decimal exponent X satisfies
 * -4 <= X < N, otherwise d.ddde+XX with at least two exponent digits, trailing zeros and a
 * trailing point removed; "inf", "-inf", "nan" and "-nan" for the special values. Lua CJSON
 * prints numbers this way (%.14g by default). Stateless.
 */
public final class CNumberFormat {

    private CNumberFormat() {
    }

    public static String formatG(double value, int precision) {
        if (Double.isNaN(value)) {
            return (Double.doubleToRawLongBits(value) < 0) ? "-nan" : "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        int digits = Math.max(precision, 1);
        boolean negative = value < 0 || (value == 0 && 1 / value < 0);
        if (value == 0) {
            return negative ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(value).abs().round(new MathContext(digits, RoundingMode.HALF_EVEN));
        String unscaled = rounded.unscaledValue().toString();
        int exponent = unscaled.length() - 1 - rounded.scale();
        String significand = stripZeros(unscaled);
        StringBuilder out = new StringBuilder(32);
        if (negative) {
            out.append('-');
        }
        if (exponent >= -4 && exponent < digits) {
            if (exponent >= 0) {
                if (significand.length() <= exponent + 1) {
                    out.append(significand);
                    out.append("0".repeat(exponent + 1 - significand.length()));
                } else {
                    out.append(significand, 0, exponent + 1).append('.').append(significand, exponent + 1,
                            significand.length());
                }
            } else {
                out.append("0.").append("0".repeat(-exponent - 1)).append(significand);
            }
        } else {
            out.append(significand.charAt(0));
            if (significand.length() > 1) {
                out.append('.').append(significand, 1, significand.length());
            }
            out.append('e').append(exponent < 0 ? '-' : '+');
            int magnitude = Math.abs(exponent);
            if (magnitude < 10) {
                out.append('0');
            }
            out.append(magnitude);
        }
        return out.toString();
    }

    private static String stripZeros(String digits) {
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        return digits.substring(0, end);
    }
}
