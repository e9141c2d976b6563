package dev.lacewing.script.lua.lib;

import org.luaj.vm2.LuaString;

/**
 * C's strtod in the "C" locale over a byte string, which is how Lua CJSON reads numbers: an
 * optional sign, then "inf", "infinity" or "nan" (any case, "nan" with an optional "(chars)"), a
 * hexadecimal "0x" number with an optional binary exponent, or a decimal number with an optional
 * exponent; it takes the longest prefix that forms a number. Stateless.
 */
final class CStrtod {

    /** The number read and the index just past it. */
    record Parsed(double value, int end) {
    }

    private CStrtod() {
    }

    /** Null when no number starts at {@code from}. */
    static Parsed parse(LuaString text, int from) {
        int p = from;
        boolean negative = false;
        if (at(text, p) == '+' || at(text, p) == '-') {
            negative = at(text, p) == '-';
            p++;
        }
        double sign = negative ? -1.0 : 1.0;
        if (matchesIgnoreCase(text, p, "inf")) {
            int end = matchesIgnoreCase(text, p, "infinity") ? p + 8 : p + 3;
            return new Parsed(sign * Double.POSITIVE_INFINITY, end);
        }
        if (matchesIgnoreCase(text, p, "nan")) {
            int end = p + 3;
            if (at(text, end) == '(') {
                int close = end + 1;
                while (isAlnum(at(text, close)) || at(text, close) == '_') {
                    close++;
                }
                if (at(text, close) == ')') {
                    end = close + 1;
                }
            }
            return new Parsed(negative ? -Double.NaN : Double.NaN, end);
        }
        if (at(text, p) == '0' && (at(text, p + 1) | 0x20) == 'x') {
            Parsed hex = hexadecimal(text, p + 2, sign);
            if (hex != null) {
                return hex;
            }
        }
        return decimal(text, from, p);
    }

    private static Parsed decimal(LuaString text, int from, int p) {
        int digits = 0;
        while (isDigit(at(text, p))) {
            p++;
            digits++;
        }
        if (at(text, p) == '.') {
            p++;
            while (isDigit(at(text, p))) {
                p++;
                digits++;
            }
        }
        if (digits == 0) {
            return null;
        }
        if ((at(text, p) | 0x20) == 'e') {
            int q = p + 1;
            if (at(text, q) == '+' || at(text, q) == '-') {
                q++;
            }
            if (isDigit(at(text, q))) {
                while (isDigit(at(text, q))) {
                    q++;
                }
                p = q;
            }
        }
        String number = ascii(text, from, p);
        if (number.endsWith(".")) {
            number = number + "0";
        }
        if (number.startsWith(".") || number.startsWith("-.") || number.startsWith("+.")) {
            number = number.replaceFirst("\\.", "0.");
        }
        return new Parsed(Double.parseDouble(number), p);
    }

    private static Parsed hexadecimal(LuaString text, int p, double sign) {
        int start = p;
        int digits = 0;
        while (isHexDigit(at(text, p))) {
            p++;
            digits++;
        }
        int point = -1;
        if (at(text, p) == '.') {
            point = p;
            p++;
            while (isHexDigit(at(text, p))) {
                p++;
                digits++;
            }
        }
        if (digits == 0) {
            return null;
        }
        String mantissa = ascii(text, start, p);
        if (point >= 0 && mantissa.endsWith(".")) {
            mantissa = mantissa + "0";
        }
        if (mantissa.startsWith(".")) {
            mantissa = "0" + mantissa;
        }
        String exponent = "0";
        if ((at(text, p) | 0x20) == 'p') {
            int q = p + 1;
            if (at(text, q) == '+' || at(text, q) == '-') {
                q++;
            }
            if (isDigit(at(text, q))) {
                while (isDigit(at(text, q))) {
                    q++;
                }
                exponent = ascii(text, p + 1, q);
                p = q;
            }
        }
        return new Parsed(sign * Double.parseDouble("0x" + mantissa + "p" + exponent), p);
    }

    private static int at(LuaString text, int index) {
        return index < text.length() ? text.luaByte(index) : 0;
    }

    private static boolean matchesIgnoreCase(LuaString text, int from, String word) {
        for (int index = 0; index < word.length(); index++) {
            if ((at(text, from + index) | 0x20) != word.charAt(index)) {
                return false;
            }
        }
        return true;
    }

    private static String ascii(LuaString text, int from, int to) {
        StringBuilder out = new StringBuilder(to - from);
        for (int index = from; index < to; index++) {
            out.append((char) text.luaByte(index));
        }
        return out.toString();
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(int c) {
        return isDigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
    }

    private static boolean isAlnum(int c) {
        return isDigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
    }
}
