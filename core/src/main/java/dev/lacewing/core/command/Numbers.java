package dev.lacewing.core.command;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * Numbers as Redis reads and writes them in string values and arguments: strict integers
 * ({@code string2ll}), the long doubles of INCRBYFLOAT ({@code string2ld}) and their ASCII forms.
 * All parsing works on byte slices and allocates nothing for integers.
 *
 * <p>Stateless; safe from any thread.
 */
public final class Numbers {

    /**
     * Thrown for any text that is not a number of the requested kind. Preallocated and without a
     * stack trace: callers turn it into the error reply of their command.
     */
    public static final class InvalidNumber extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private InvalidNumber() {
            super("not a number", null, false, false);
        }
    }

    public static final InvalidNumber INVALID = new InvalidNumber();

    /**
     * Redis shares the objects of 0..9999 (OBJ_SHARED_INTEGERS); stored strings are immutable
     * here, so the ASCII forms of these values can be shared by every key that holds one.
     */
    private static final int SHARED_INTEGERS = 10_000;
    private static final byte[][] SHARED = new byte[SHARED_INTEGERS][];

    static {
        for (int i = 0; i < SHARED_INTEGERS; i++) {
            SHARED[i] = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
        }
    }

    private static final byte[] LONG_MIN = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    private Numbers() {
    }

    /**
     * Parses a slice as Redis's {@code string2ll}: an optional '-', then digits without leading
     * zeros ("0" alone is fine, "-0" is not), within the range of a long; no '+', no spaces.
     *
     * @throws InvalidNumber when the slice is anything else
     */
    public static long parseLong(byte[] array, int offset, int length) {
        if (length <= 0) {
            throw INVALID;
        }
        int end = offset + length;
        int i = offset;
        if (length == 1 && array[i] == '0') {
            return 0;
        }
        boolean negative = array[i] == '-';
        if (negative) {
            i++;
            if (i == end) {
                throw INVALID;
            }
        }
        if (array[i] < '1' || array[i] > '9') {
            throw INVALID;
        }
        /* Accumulate negatively: the negative range is one larger, so Long.MIN_VALUE parses. */
        long value = 0;
        for (; i < end; i++) {
            int digit = array[i] - '0';
            if (digit < 0 || digit > 9) {
                throw INVALID;
            }
            if (value < Long.MIN_VALUE / 10) {
                throw INVALID;
            }
            value *= 10;
            if (value < Long.MIN_VALUE + digit) {
                throw INVALID;
            }
            value -= digit;
        }
        if (negative) {
            return value;
        }
        if (value == Long.MIN_VALUE) {
            throw INVALID;
        }
        return -value;
    }

    /** {@link #parseLong(byte[], int, int)} over a whole array. */
    public static long parseLong(byte[] value) {
        return parseLong(value, 0, value.length);
    }

    /** The decimal ASCII form of a value; shared arrays for 0..9999, which must not be modified. */
    public static byte[] toBytes(long value) {
        if (value >= 0 && value < SHARED_INTEGERS) {
            return SHARED[(int) value];
        }
        if (value == Long.MIN_VALUE) {
            return LONG_MIN.clone();
        }
        long magnitude = Math.abs(value);
        int digits = 1;
        for (long rest = magnitude / 10; rest != 0; rest /= 10) {
            digits++;
        }
        int length = value < 0 ? digits + 1 : digits;
        byte[] bytes = new byte[length];
        for (int i = length - 1; i >= length - digits; i--) {
            bytes[i] = (byte) ('0' + magnitude % 10);
            magnitude /= 10;
        }
        if (value < 0) {
            bytes[0] = '-';
        }
        return bytes;
    }

    /**
     * Parses a slice as Redis's {@code string2ld} does with glibc's {@code strtold}: decimal or
     * hexadecimal ({@code 0x1.8p3}) floating point with an optional sign, or {@code inf} /
     * {@code infinity} in any case. Rejected: leading or trailing spaces, NaN, text of 5120 bytes
     * or more, and values that overflow the long double range or underflow to zero.
     *
     * @throws InvalidNumber when the slice is anything else
     */
    public static LongDouble parseLongDouble(byte[] array, int offset, int length) {
        if (length <= 0 || length >= LongDouble.MAX_CHARS) {
            throw INVALID;
        }
        int end = offset + length;
        int i = offset;
        boolean negative = false;
        if (array[i] == '-' || array[i] == '+') {
            negative = array[i] == '-';
            i++;
        }
        if (matchesWord(array, i, end, "inf") || matchesWord(array, i, end, "infinity")) {
            return negative ? LongDouble.NEGATIVE_INFINITY : LongDouble.POSITIVE_INFINITY;
        }
        LongDouble value = end - i > 2 && array[i] == '0' && (array[i + 1] | 0x20) == 'x'
            ? parseMantissa(array, i + 2, end, negative, true)
            : parseMantissa(array, i, end, negative, false);
        if (!value.isFinite()) {
            /* strtold's overflow (ERANGE with HUGE_VAL), which string2ld refuses. */
            throw INVALID;
        }
        return value;
    }

    /**
     * Parses a slice as Redis's {@code getDoubleFromObject} (strtod over the whole text): decimal or
     * hexadecimal floating point with an optional sign, or {@code inf} / {@code infinity} in any
     * case. Rejected: empty text, a leading space, trailing bytes, NaN, and values that overflow
     * to infinity or underflow to zero (strtod's ERANGE).
     *
     * @throws InvalidNumber when the slice is anything else
     */
    public static double parseDouble(byte[] array, int offset, int length) {
        if (length <= 0 || isSpace(array[offset])) {
            throw INVALID;
        }
        return strtod(array, offset, length, true);
    }

    /**
     * Parses a score range bound as Redis's {@code zslParseRange} does with a bare strtod: leading
     * spaces skipped, the empty text is 0, overflow gives an infinity; NaN and trailing bytes refused.
     *
     * @throws InvalidNumber when the slice is anything else
     */
    public static double parseBound(byte[] array, int offset, int length) {
        return strtodAfterSpaces(array, offset, length, false);
    }

    /**
     * Parses a SORT weight as sortCommandGeneric does with strtod: leading spaces skipped, the
     * empty text is 0; trailing bytes, NaN, and whatever sets ERANGE refused: overflow, and with
     * glibc underflow, which includes a subnormal result ("1e-310", which ZADD accepts).
     *
     * @throws InvalidNumber when the slice is anything else
     */
    public static double parseSortWeight(byte[] array, int offset, int length) {
        double value = strtodAfterSpaces(array, offset, length, true);
        if (value != 0 && Math.abs(value) < Double.MIN_NORMAL) {
            throw INVALID;
        }
        return value;
    }

    /** A bare strtod of the slice: leading spaces skipped, the empty text 0, only spaces refused. */
    private static double strtodAfterSpaces(byte[] array, int offset, int length, boolean refuseRange) {
        if (length == 0) {
            return 0;
        }
        int end = offset + length;
        int i = offset;
        while (i < end && isSpace(array[i])) {
            i++;
        }
        if (i == end) {
            throw INVALID;
        }
        return strtod(array, i, end - i, refuseRange);
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || (b >= '\t' && b <= '\r');
    }

    private static double strtod(byte[] array, int offset, int length, boolean refuseRange) {
        int end = offset + length;
        int i = offset;
        boolean negative = false;
        if (array[i] == '-' || array[i] == '+') {
            negative = array[i] == '-';
            i++;
        }
        if (matchesWord(array, i, end, "inf") || matchesWord(array, i, end, "infinity")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        boolean hexadecimal = end - i > 2 && array[i] == '0' && (array[i + 1] | 0x20) == 'x';
        int digitsFrom = hexadecimal ? i + 2 : i;
        int mantissaDigits = 0;
        boolean nonZero = false;
        boolean point = false;
        int j = digitsFrom;
        for (; j < end; j++) {
            int c = array[j];
            if (c == '.' && !point) {
                point = true;
            } else if (c >= '0' && c <= '9' || hexadecimal && ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')) {
                mantissaDigits++;
                nonZero |= c != '0';
            } else {
                break;
            }
        }
        if (mantissaDigits == 0) {
            throw INVALID;
        }
        boolean exponent = false;
        if (j < end && (array[j] | 0x20) == (hexadecimal ? 'p' : 'e')) {
            int k = j + 1;
            if (k < end && (array[k] == '-' || array[k] == '+')) {
                k++;
            }
            int from = k;
            while (k < end && array[k] >= '0' && array[k] <= '9') {
                k++;
            }
            if (k == from) {
                throw INVALID;
            }
            exponent = true;
            j = k;
        }
        if (j != end) {
            throw INVALID;
        }
        String text = new String(array, offset, length, StandardCharsets.US_ASCII);
        double value = Double.parseDouble(hexadecimal && !exponent ? text + "p0" : text);
        if (refuseRange && (Double.isInfinite(value) || value == 0 && nonZero)) {
            throw INVALID;
        }
        return value;
    }

    /**
     * Whether {@code value + increment} leaves the range of a long, as incrDecrCommand and
     * hincrbyCommand test it before adding.
     */
    public static boolean sumOverflows(long value, long increment) {
        return increment < 0 && value < 0 && increment < Long.MIN_VALUE - value
            || increment > 0 && value > 0 && increment > Long.MAX_VALUE - value;
    }

    /** {@link #parseLongDouble(byte[], int, int)} over a whole array. */
    public static LongDouble parseLongDouble(byte[] value) {
        return parseLongDouble(value, 0, value.length);
    }

    private static boolean matchesWord(byte[] array, int from, int end, String lowerCaseWord) {
        if (end - from != lowerCaseWord.length()) {
            return false;
        }
        for (int i = 0; i < lowerCaseWord.length(); i++) {
            if ((array[from + i] | 0x20) != lowerCaseWord.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * digits [. digits] [e|p [sign] digits], at least one mantissa digit: decimal digits with an
     * "e" exponent of ten, or (after "0x") hexadecimal digits with a "p" exponent of two, each
     * fraction digit a further four bits.
     */
    private static LongDouble parseMantissa(byte[] array, int i, int end, boolean negative, boolean hexadecimal) {
        int radix = hexadecimal ? 16 : 10;
        MantissaBuilder mantissa = new MantissaBuilder(radix);
        long fractionDigits = 0;
        boolean seenPoint = false;
        int digits = 0;
        for (; i < end; i++) {
            byte c = array[i];
            int digit = Character.digit(c, radix);
            if (digit >= 0) {
                mantissa.add(digit);
                digits++;
                if (seenPoint) {
                    fractionDigits++;
                }
            } else if (c == '.' && !seenPoint) {
                seenPoint = true;
            } else {
                break;
            }
        }
        if (digits == 0) {
            throw INVALID;
        }
        long exponent = 0;
        if (i < end) {
            if ((array[i] | 0x20) != (hexadecimal ? 'p' : 'e')) {
                throw INVALID;
            }
            exponent = parseExponent(array, i + 1, end);
        }
        return hexadecimal
            ? LongDouble.fromBinary(negative, mantissa.value(), exponent - 4 * fractionDigits)
            : LongDouble.fromDecimal(negative, mantissa.value(), exponent - fractionDigits);
    }

    /**
     * [sign] digits to the end of the slice. Saturates far beyond any meaningful exponent, so
     * that "0e99999999999999999999" stays zero and "1e99999999999999999999" overflows.
     */
    private static long parseExponent(byte[] array, int i, int end) {
        boolean negative = false;
        if (i < end && (array[i] == '-' || array[i] == '+')) {
            negative = array[i] == '-';
            i++;
        }
        if (i == end) {
            throw INVALID;
        }
        long exponent = 0;
        for (; i < end; i++) {
            int digit = array[i] - '0';
            if (digit < 0 || digit > 9) {
                throw INVALID;
            }
            exponent = Math.min(exponent * 10 + digit, 1L << 40);
        }
        return negative ? -exponent : exponent;
    }

    /** Accumulates digits in a long, spilling into a BigInteger only for long mantissas. */
    private static final class MantissaBuilder {
        private final int radix;
        private final int chunkDigits;
        private BigInteger big = BigInteger.ZERO;
        private long chunk;
        private int chunkLength;

        MantissaBuilder(int radix) {
            this.radix = radix;
            this.chunkDigits = radix == 10 ? 18 : 15;
        }

        void add(int digit) {
            if (chunkLength == chunkDigits) {
                flush();
            }
            chunk = chunk * radix + digit;
            chunkLength++;
        }

        private void flush() {
            big = big.multiply(BigInteger.valueOf(radix).pow(chunkLength)).add(BigInteger.valueOf(chunk));
            chunk = 0;
            chunkLength = 0;
        }

        BigInteger value() {
            if (big.signum() == 0) {
                return BigInteger.valueOf(chunk);
            }
            flush();
            return big;
        }
    }

    /**
     * The x86 80-bit long double Redis computes INCRBYFLOAT in: a 64-bit significand with an
     * exponent range of about 10^±4932. Java has no such type, so values are kept exactly as
     * {@code significand * 2^exponent} and every result is rounded to 64 significant bits, half
     * to even, as the FPU does; that is what makes {@code 10.5 + 0.1} print as "10.6".
     *
     * <p>Immutable.
     */
    public static final class LongDouble {

        /** MAX_LONG_DOUBLE_CHARS: string2ld refuses text this long. */
        static final int MAX_CHARS = 5 * 1024;

        private static final int SIGNIFICAND_BITS = 64;
        /** Exponent of the least significant bit of subnormals: 2^(1 - 16383 - 63). */
        private static final int MIN_EXPONENT = -16445;
        /** Exponent of the least significant bit of the largest finite values: 2^(16383 - 63). */
        private static final int MAX_EXPONENT = 16320;
        private static final BigInteger SIGNIFICAND_LIMIT = BigInteger.ONE.shiftLeft(SIGNIFICAND_BITS);
        private static final double LOG2_10 = Math.log(10) / Math.log(2);

        public static final LongDouble ZERO = new LongDouble(0, BigInteger.ZERO, 0);
        static final LongDouble POSITIVE_INFINITY = new LongDouble(1, null, 0);
        static final LongDouble NEGATIVE_INFINITY = new LongDouble(-1, null, 0);
        private static final LongDouble NAN = new LongDouble(0, null, 0);

        private final int signum;
        /** Null for infinities and NaN; otherwise positive below 2^64, or zero. */
        private final BigInteger significand;
        private final int exponent;

        private LongDouble(int signum, BigInteger significand, int exponent) {
            this.signum = signum;
            this.significand = significand;
            this.exponent = exponent;
        }

        public boolean isFinite() {
            return significand != null;
        }

        /** The nearest double: infinite beyond the double range, as a cast of a long double is. */
        public double toDouble() {
            if (!isFinite()) {
                return signum > 0 ? Double.POSITIVE_INFINITY : signum < 0 ? Double.NEGATIVE_INFINITY : Double.NaN;
            }
            if (signum == 0) {
                return 0;
            }
            // Round the significand to 53 bits, half to even, as a conversion to double rounds;
            // truncating made 0.001 one ulp short of 0.001 (and a 1 ms timeout 0 ms).
            int shift = Math.max(0, significand.bitLength() - 53);
            BigInteger rounded = significand.shiftRight(shift);
            if (shift > 0 && significand.testBit(shift - 1)
                    && (rounded.testBit(0) || significand.getLowestSetBit() < shift - 1)) {
                rounded = rounded.add(BigInteger.ONE);
            }
            double value = Math.scalb(rounded.doubleValue(), exponent + shift);
            return signum < 0 ? -value : value;
        }

        /** The rounded sum; infinite on overflow, NaN (not finite) for inf + -inf. */
        public LongDouble add(LongDouble other) {
            if (!isFinite() || !other.isFinite()) {
                if (this == NAN || other == NAN || (!isFinite() && !other.isFinite() && signum != other.signum)) {
                    return NAN;
                }
                return isFinite() ? other : this;
            }
            if (signum == 0) {
                return other;
            }
            if (other.signum == 0) {
                return this;
            }
            int lowest = Math.min(exponent, other.exponent);
            BigInteger sum = signed().shiftLeft(exponent - lowest).add(other.signed().shiftLeft(other.exponent - lowest));
            if (sum.signum() == 0) {
                return ZERO;
            }
            return fromBinary(sum.signum() < 0, sum.abs(), lowest);
        }

        /** The product with an integer, rounded to the long double format as the FPU rounds it. */
        public LongDouble multiply(long factor) {
            if (!isFinite()) {
                return factor == 0 ? NAN : (signum > 0) == (factor > 0) ? POSITIVE_INFINITY : NEGATIVE_INFINITY;
            }
            if (signum == 0 || factor == 0) {
                return ZERO;
            }
            return fromBinary(signum < 0 != factor < 0,
                significand.multiply(BigInteger.valueOf(factor).abs()), exponent);
        }

        /**
         * Rounded up to an integer ({@code ceill}), or null when that is not finite or does not fit a
         * long, where Redis's cast to long long gives LLONG_MIN on x86.
         */
        public Long ceilingOrNull() {
            if (!isFinite()) {
                return null;
            }
            if (signum == 0) {
                return 0L;
            }
            BigInteger magnitude = exponent >= 0 ? significand.shiftLeft(exponent) : significand.shiftRight(-exponent);
            boolean fraction = exponent < 0 && significand.getLowestSetBit() < -exponent;
            BigInteger value = signum < 0 ? magnitude.negate() : fraction ? magnitude.add(BigInteger.ONE) : magnitude;
            return value.bitLength() < 64 ? value.longValue() : null;
        }

        private BigInteger signed() {
            return signum < 0 ? significand.negate() : significand;
        }

        /**
         * The text INCRBYFLOAT replies and stores: ld2string's LD_STR_HUMAN mode, that is
         * {@code %.17Lf} (fixed point, rounded half to even on the exact value) with the trailing
         * zeros of the fraction and a bare '.' removed, and "-0" written as "0".
         */
        public byte[] toHumanBytes() {
            if (!isFinite()) {
                return (signum > 0 ? "inf" : "-inf").getBytes(StandardCharsets.US_ASCII);
            }
            String digits;
            if (exponent >= 0) {
                digits = significand.shiftLeft(exponent).toString();
            } else {
                BigInteger scaled = significand.multiply(BigInteger.valueOf(5).pow(-exponent));
                digits = new BigDecimal(scaled, -exponent).setScale(17, RoundingMode.HALF_EVEN).toPlainString();
                int end = digits.length();
                while (digits.charAt(end - 1) == '0') {
                    end--;
                }
                if (digits.charAt(end - 1) == '.') {
                    end--;
                }
                digits = digits.substring(0, end);
            }
            if (signum < 0 && !digits.equals("0")) {
                digits = "-" + digits;
            }
            return digits.getBytes(StandardCharsets.US_ASCII);
        }

        /** The long double nearest to {@code ±magnitude * 10^exponent10}, as strtold rounds. */
        static LongDouble fromDecimal(boolean negative, BigInteger magnitude, long exponent10) {
            if (magnitude.signum() == 0) {
                return ZERO;
            }
            double log2 = magnitude.bitLength() + exponent10 * LOG2_10;
            rejectOutOfRange(log2);
            if (exponent10 >= 0) {
                return fromBinary(negative, magnitude.multiply(BigInteger.TEN.pow((int) exponent10)), 0);
            }
            /* magnitude / 10^k = (magnitude / 5^k) * 2^-k: a division by an odd number, then a shift. */
            int k = (int) -exponent10;
            return fromQuotient(negative, magnitude, BigInteger.valueOf(5).pow(k), -k);
        }

        /** The long double nearest to {@code ±magnitude * 2^exponent2}. */
        static LongDouble fromBinary(boolean negative, BigInteger magnitude, long exponent2) {
            if (magnitude.signum() == 0) {
                return ZERO;
            }
            rejectOutOfRange(magnitude.bitLength() + (double) exponent2);
            return fromQuotient(negative, magnitude, BigInteger.ONE, (int) exponent2);
        }

        /**
         * Values far outside the long double range would make the exact arithmetic below huge;
         * strtold reports them as ERANGE (overflow, or underflow to zero) and string2ld refuses
         * both. The margin leaves the borderline cases to the exact rounding.
         */
        private static void rejectOutOfRange(double log2) {
            if (log2 > MAX_EXPONENT + SIGNIFICAND_BITS + 4 || log2 < MIN_EXPONENT - 4) {
                throw INVALID;
            }
        }

        /** Rounds {@code ±(numerator / denominator) * 2^exponent2} to the long double format. */
        private static LongDouble fromQuotient(boolean negative, BigInteger numerator, BigInteger denominator,
                                               int exponent2) {
            int floorLog2 = numerator.bitLength() - denominator.bitLength();
            if (compareScaled(numerator, denominator, floorLog2) < 0) {
                floorLog2--;
            }
            int lsb = Math.max(floorLog2 + exponent2 - (SIGNIFICAND_BITS - 1), MIN_EXPONENT);
            int shift = lsb - exponent2;
            BigInteger dividend = shift < 0 ? numerator.shiftLeft(-shift) : numerator;
            BigInteger divisor = shift > 0 ? denominator.shiftLeft(shift) : denominator;
            BigInteger[] division = dividend.divideAndRemainder(divisor);
            BigInteger significand = division[0];
            int half = division[1].shiftLeft(1).compareTo(divisor);
            if (half > 0 || (half == 0 && significand.testBit(0))) {
                significand = significand.add(BigInteger.ONE);
            }
            if (significand.equals(SIGNIFICAND_LIMIT)) {
                significand = significand.shiftRight(1);
                lsb++;
            }
            if (lsb > MAX_EXPONENT) {
                return negative ? NEGATIVE_INFINITY : POSITIVE_INFINITY;
            }
            if (significand.signum() == 0) {
                /* Only parsing gets here (a nonzero sum is at least 2^MIN_EXPONENT): strtold's
                 * underflow to zero, which string2ld refuses. */
                throw INVALID;
            }
            return new LongDouble(negative ? -1 : 1, significand, lsb);
        }

        /** Compares numerator with denominator * 2^power. */
        private static int compareScaled(BigInteger numerator, BigInteger denominator, int power) {
            return power >= 0
                ? numerator.compareTo(denominator.shiftLeft(power))
                : numerator.shiftLeft(-power).compareTo(denominator);
        }
    }
}
